import { describe, expect, test } from '@jest/globals'
import { type ControlPlaneClient } from '../../../../src/control-plane/client.ts'
import { type Deployment, type Revision } from '../../../../src/control-plane/schema.ts'
import { type FlowDeps } from '../../../../src/commands/deploy/deps.ts'
import * as promote from '../../../../src/commands/deploy/steps/promote.ts'
import { ACTION_SAY, refusedOr, testDeployment, testOptions } from '../../../builders.ts'
import { run } from '../../../../src/run.ts'
import { codehost, image, one, REPO, seed } from '../../../builders/promotion.ts'
import { emulatorInputs, fakePort } from '../../../builders/fake-port.ts'
import { virtualEmulator } from '../../../builders/virtual-emulator.ts'
import { type E2E } from '../../../e2e/harness.ts'

const readPromotionSource = async (...args: Parameters<typeof promote.readPromotionSource>) =>
  refusedOr(await promote.readPromotionSource(...args))
const promotedNamed = (...args: Parameters<typeof promote.promotedNamed>) =>
  refusedOr(promote.promotedNamed(...args))

const ACTIVE = '77777777-7777-4777-8777-777777777777'
const NEWER = '88888888-8888-4888-8888-888888888888'
const BUILT = 'a1'.repeat(20)

const revision = (id: string, status: string, sha = BUILT): Revision => ({
  id,
  status,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  source: 'codehost',
  source_revision_config: {
    repo_ref: 'main',
    graph_config_path: 'langgraph.json',
    repo_commit_sha: sha
  }
})

/** A control plane that knows one deployment, `staging`, and its revisions; every read is counted. */
function deps(staging: Deployment, revisions: Revision[]) {
  const reads: string[] = []
  const client = {
    async *iterateDeployments() {
      reads.push('list')
      yield staging
    },
    getRevision: async (_: string, id: string) => {
      reads.push(`revision ${id}`)
      return revisions.find(r => r.id === id)!
    }
  } as unknown as ControlPlaneClient
  const log = {
    info: () => {},
    warning: () => {},
    notice: () => {},
    group: <T>(_: string, f: () => Promise<T>) => f()
  }
  return { deps: { client, log, say: ACTION_SAY } as unknown as FlowDeps, reads }
}

const staging = (over: Partial<Deployment> = {}) =>
  testDeployment({
    name: 'staging',
    active_revision_id: ACTIVE,
    latest_revision_id: ACTIVE,
    ...over
  })
const options = testOptions({ 'promote-from': 'staging' })

describe('readPromotionSource', () => {
  test('an active revision that is not DEPLOYED is refused, naming the source', async () => {
    const { deps: d } = deps(staging(), [revision(ACTIVE, 'DEPLOY_FAILED')])
    await expect(readPromotionSource(options, d)).rejects.toThrow(
      /Deployment "staging" \(\S+\): its active revision 7{8}-\S+ is DEPLOY_FAILED, not DEPLOYED/
    )
  })

  test('a newer revision in progress is refused; an ended one is read', async () => {
    const moving = staging({ latest_revision_id: NEWER })
    const building = deps(moving, [revision(ACTIVE, 'DEPLOYED'), revision(NEWER, 'BUILDING')])
    await expect(readPromotionSource(options, building.deps)).rejects.toThrow(
      /a newer revision 8{8}-\S+ is still in progress \(BUILDING\)/
    )
    const failed = deps(moving, [revision(ACTIVE, 'DEPLOYED'), revision(NEWER, 'BUILD_FAILED')])
    const s = await readPromotionSource(options, failed.deps)
    expect(s.revision.id).toBe(ACTIVE)
    expect(s.newer?.id).toBe(NEWER)
  })
})

describe('the source as evidence is read', () => {
  test('promote-revision-id other than the active revision is refused, naming both', async () => {
    const { deps: d } = deps(staging(), [revision(ACTIVE, 'DEPLOYED')])
    const o = testOptions({ 'promote-from': 'staging', 'promote-revision-id': NEWER })
    await expect(readPromotionSource(o, d)).rejects.toThrow(
      /`promote-revision-id` is 8{8}-\S+, but the active revision of deployment "staging" \(\S+, `promote-from`\) is 7{8}-/
    )
    const right = testOptions({ 'promote-from': 'staging', 'promote-revision-id': ACTIVE })
    expect((await readPromotionSource(right, d)).revision.id).toBe(ACTIVE)
  })

  test('the source’s ref, commit and config path pass the inputs’ checks: a ref with a line break is refused', async () => {
    const bad = (over: Partial<NonNullable<Revision['source_revision_config']>>) => {
      const r = revision(ACTIVE, 'DEPLOYED')
      return { ...r, source_revision_config: { ...r.source_revision_config, ...over } }
    }
    for (const [over, text] of [
      [
        { repo_ref: 'main\nrefs/tags/evil' },
        /reports repo_ref "main\\nrefs\/tags\/evil".*must not contain spaces, control characters/
      ],
      [{ repo_commit_sha: 'not-a-sha' }, /reports repo_commit_sha "not-a-sha".*7 to 64 hex digits/],
      [
        { graph_config_path: '../../etc/langgraph.json' },
        /reports graph_config_path .*must stay inside the repository/
      ]
    ] as const) {
      const { deps: d } = deps(staging(), [bad(over)])
      const s = await readPromotionSource(options, d)
      expect(() => promotedNamed(s, options, d)).toThrow(text)
    }
  })
})

describe('promotedNamed', () => {
  test('codehost: the source revision’s ref, expecting the commit it built', async () => {
    const { deps: d } = deps(staging(), [revision(ACTIVE, 'DEPLOYED')])
    const s = await readPromotionSource(options, d)
    expect(promotedNamed(s, options, d)).toMatchObject({
      ref: 'main',
      expectedSha: BUILT,
      what: `commit ${BUILT}`
    })
  })

  test('a ref known to point elsewhere now is refused, with the hint to promote a tag', async () => {
    const moving = staging({ latest_revision_id: NEWER })
    const newer = revision(NEWER, 'BUILD_FAILED', 'b2'.repeat(20))
    const { deps: d } = deps(moving, [revision(ACTIVE, 'DEPLOYED'), newer])
    const s = await readPromotionSource(options, d)
    expect(() => promotedNamed(s, options, d)).toThrow(
      /The ref main of deployment "staging" \(\S+\) now points to b2b2.*Promote a tag/s
    )
  })
})

// Promotions refused before any write, in-process (the action's door on a fake port, against the
// emulator on one virtual clock): a source of another repository or another source, and a source
// whose only revision failed. A ref beside promote-from, no such source and a newer revision in
// progress through the bundle: e2e/promote.test.ts.
describe('refusals', () => {
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
})
