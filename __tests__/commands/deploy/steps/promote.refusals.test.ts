// Promotions refused before any write, in-process (the action's door on a fake port, against the
// emulator on one virtual clock): a source of another repository or another source, and a source
// whose only revision failed. A ref beside promote-from, no such source and a newer revision in
// progress through the bundle: e2e/promote.test.ts.
import { describe, expect, test } from '@jest/globals'
import { run } from '../../../../src/run.ts'
import { codehost, image, one, REPO, seed } from '../../../builders/promotion.ts'
import { emulatorInputs, fakePort } from '../../../builders/fake-port.ts'
import { virtualEmulator } from '../../../builders/virtual-emulator.ts'
import type { E2E } from '../../../e2e/harness.ts'

const v = virtualEmulator()
const { now, sleep } = v

/** What the promotion builders read of a test's emulator. */
const t = (): E2E =>
  ({
    emu: v.emu,
    integration: v.emu.credentials().integrationId!,
    named: (name: string) =>
      v.emu
        .state()
        .tenants.flatMap(x => x.deployments)
        .filter(d => d.name === name)
  }) as unknown as E2E

const writes = () => v.emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')

async function deploy(inputs: Record<string, string>) {
  const port = fakePort(emulatorInputs(v.emu, inputs))
  const result = await run(port, { now, sleep })
  return { ...result, errors: port.calls.filter(c => c.startsWith('error: ')) }
}

/** The promotion of `from` to `name` is one error holding `text`, and writes nothing. */
async function refused(inputs: Record<string, string>, text: string) {
  const before = writes().length
  const r = await deploy(inputs)
  expect(r.exitCode).toBe(1)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toContain(text)
  expect(writes()).toHaveLength(before)
}

describe('promote: refused before any write', () => {
  test('a source of another repository or another source, or with no active revision', async () => {
    const other = { integration_id: t().integration, repo_url: 'https://github.com/acme/other' }
    seed(t(), [
      codehost(t(), 'staging', {}),
      { ...codehost(t(), 'production', {}), source_config: other },
      image('images', 'registry.example.com/agent:1.2')
    ])
    await refused(
      { name: 'production', 'promote-from': 'staging' },
      `(\`promote-from\`) builds ${REPO}`
    )
    await refused(
      { name: 'images', 'promote-from': 'staging' },
      '"staging" (`promote-from`) has source codehost'
    )
    // A source whose only revision failed to build has nothing to promote.
    const first = await deploy({
      name: 'failed',
      source: 'internal_docker',
      'integration-id': '',
      'image-uri': 'registry.example.com/fail-build:1'
    })
    expect(first.exitCode).toBe(1)
    await refused(
      { name: 'production', 'promote-from': 'failed' },
      `Deployment "failed" (${one(t(), 'failed').id}) has no active revision`
    )
  })
})
