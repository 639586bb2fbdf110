// run() in-process through a fake port, against the emulator over loopback HTTP, on one virtual
// clock: what a door sees of a run (its calls on the port, the outputs, the exit) for a deploy,
// bad inputs, a failed build and a delete, and that no secret reaches any of them.
import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventDefaults } from '../src/runner/event.ts'
import { ACTION_OUTPUTS } from '../src/interface/action-yml.ts'
import { cliSay } from '../src/cli/naming.ts'
import { sayAs } from '../src/interface/naming.ts'
import { run } from '../src/run.ts'
import { EVENT } from './builders.ts'
import { emulatorInputs, fakePort, type FakePort } from './builders/fake-port.ts'
import { virtualEmulator } from './builders/virtual-emulator.ts'

const v = virtualEmulator()
const { now, sleep } = v

const inputs = (over: Record<string, string> = {}) => emulatorInputs(v.emu, over)

const deployments = () =>
  v.emu
    .state()
    .tenants.flatMap(x => x.deployments)
    .filter(d => d.name === 'agent-run')
const DECLARED = Object.keys(ACTION_OUTPUTS).sort()

describe('run() through a fake port', () => {
  test('deploys: exit 0, every declared output in the result, the summary, no error', async () => {
    const port = fakePort(inputs())
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(0)
    const [d] = deployments()
    expect(result.outputs).toMatchObject({
      'deployment-id': d!.id,
      'revision-id': d!.latest_revision_id,
      'revision-status': 'DEPLOYED',
      created: 'true',
      deleted: 'false',
      'github-deployment-id': '',
      'rollback-revision-id': ''
    })
    expect(Object.keys(result.outputs).sort()).toEqual(DECLARED)
    expect(port.calls.filter(c => c.startsWith('error: '))).toEqual([])
    expect(port.calls).toContain(`info: Done: revision ${d!.latest_revision_id} is DEPLOYED.`)
    expect(port.summaries.join('')).toMatch(/✅ Deployed: `agent-run`/)
    // The key is masked before anything else is said.
    expect(port.masked).toContain(v.emu.credentials().apiKey)
  })

  test('invalid inputs: exit 2, one error naming them, no request, outputs still declared', async () => {
    const port = fakePort(inputs({ timeout: 'soon', name: 'Bad Name' }))
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(2)
    expect(v.emu.requests()).toEqual([])
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^error: Invalid inputs: 2 inputs are not valid:/)
    expect(errors[0]).toMatch(/- timeout: /)
    expect(errors[0]).toMatch(/- name: /)
    expect(Object.keys(result.outputs).sort()).toEqual(DECLARED)
    expect(result.outputs).toMatchObject({
      created: 'false',
      deleted: 'false',
      'deployment-id': ''
    })
  })

  test('a smoke-test file is read from the workspace before any request; a bad one names the input as set', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'cpd-run-ws-'))
    writeFileSync(
      join(ws, 'cases.yaml'),
      '- name: a\n  graph: agent\n  input: {q: 1}\n  expect: {status: maybe}\n'
    )
    const port = fakePort(inputs({ 'health-check': 'true', 'smoke-test': 'cases.yaml' }), {
      event: { ...EVENT, workspace: ws }
    })
    port.say = sayAs(
      i => `--${i}`,
      (i, v) => `--${i} ${v}`
    )
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(2)
    expect(v.emu.requests()).toEqual([])
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toEqual([
      'error: Invalid inputs: One input is not valid:\n- --smoke-test: `--smoke-test` (cases.yaml), case 1 (line 1, column 3): `expect.status` must be success or error'
    ])
  })

  test('a failed build: exit 1, the status in the outputs and the error', async () => {
    const port = fakePort(inputs({ ref: 'fail-build' }))
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(1)
    expect(result.outputs['revision-status']).toBe('BUILD_FAILED')
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/ended BUILD_FAILED/)
  })

  test('a delete writes `deleted` true and the deploy-side outputs empty', async () => {
    await run(fakePort(inputs()), { now, sleep })
    const { 'integration-id': _, ...common } = inputs()
    const port = fakePort({ ...common, command: 'delete' })
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ deleted: 'true', created: 'false', 'revision-id': '' })
    expect(v.emu.requests().filter(r => r.method === 'DELETE')).toHaveLength(1)
  })

  test('no secret value reaches any port call, output or summary', async () => {
    const secret = 'sk-live-0123456789abcdef'
    const port = fakePort(
      inputs({ secrets: `OPENAI_API_KEY=${secret}\nDEBUG=true`, ref: 'fail-build' })
    )
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(1)
    const key = v.emu.credentials().apiKey
    const seen = [...port.calls, ...port.summaries, ...Object.values(result.outputs)].join('\n')
    expect(seen).not.toContain(secret)
    expect(seen).not.toContain(key)
    expect(port.masked).toEqual(expect.arrayContaining([secret, key]))
    // `true` is a common word: left unmasked (it would blot out every `true`), said once.
    expect(port.masked).not.toContain('true')
    const warned = port.calls.filter(c => /common word/.test(c))
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatch(/Secret DEBUG: its value is a common word/)
  })

  test('off GitHub (no port.github): pr-comment is skipped with a line, the run goes on', async () => {
    const port = fakePort(inputs({ 'pr-comment': 'true', 'github-token': 'ghs_0123456789' }))
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(0)
    expect(port.calls).toContain(
      'info: `pr-comment`: not running on GitHub Actions; no pull request comment is posted.'
    )
  })
})

describe('what a create needs, asked only when there is nothing to update', () => {
  const NO_EVENT: EventDefaults = {}
  const cliNamed = (port: FakePort) => {
    port.say = cliSay({ name: 'flag' })
    return port
  }
  const writes = () => v.emu.requests().filter(r => r.method !== 'GET')

  test('an update by name needs only the name and the key', async () => {
    const first = await run(fakePort(inputs()), { now, sleep })
    expect(first.exitCode).toBe(0)
    const { apiKey, tenantId } = v.emu.credentials()
    const only = { 'api-key': apiKey, 'tenant-id': tenantId, 'base-url': v.emu.url }
    const port = cliNamed(
      fakePort({ ...only, name: 'agent-run', 'poll-interval': '1s' }, { event: NO_EVENT })
    )
    const result = await run(port, { now, sleep })
    expect(port.calls.filter(c => c.startsWith('error: '))).toEqual([])
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ created: 'false', 'revision-status': 'DEPLOYED' })
  })

  test('a create without integration-id: one error naming --integration-id, and no write', async () => {
    const { apiKey, tenantId } = v.emu.credentials()
    const port = cliNamed(
      fakePort(
        { 'api-key': apiKey, 'tenant-id': tenantId, 'base-url': v.emu.url, name: 'agent-new' },
        { event: NO_EVENT }
      )
    )
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(1)
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(
      'No deployment is named "agent-new", and creating a `codehost` deployment needs `--integration-id`, `--repository` and `--ref`'
    )
    expect(errors[0]).toContain('`--no-create` to only update')
    expect(errors[0]).not.toMatch(/`(integration-id|create: false)`/)
    expect(writes()).toEqual([])
  })
})
