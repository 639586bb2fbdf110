import { describe, expect, test } from '@jest/globals'
import type { ControlPlaneClient } from '../../../../src/control-plane/client.ts'
import type { Deployment, Revision } from '../../../../src/control-plane/schema.ts'
import type { FlowDeps } from '../../../../src/commands/deploy/deps.ts'
import * as promote from '../../../../src/commands/deploy/steps/promote.ts'
import { ACTION_SAY, refusedOr, testDeployment, testOptions } from '../../../builders.ts'

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
