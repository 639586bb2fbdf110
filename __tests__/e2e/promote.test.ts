// Promotion end to end (the action's bundle against the emulator): the target gets the material
// of the source's active revision (a codehost commit, an image, an upload's digest), keeps its own
// secrets, and says what it promoted from where; every refusal writes nothing.
import { expect } from '@jest/globals'
import {
  activeOf,
  BUILT,
  codehost,
  image,
  MOVED,
  moveMain,
  one,
  promotionWorkspace,
  seed
} from '../builders/promotion.ts'
import {
  BUILDS_FOR_A_DAY,
  e2e,
  e2eWithGitHub,
  pullRequest,
  runAction as run,
  uniqueName,
  uploadInputs,
  warnings
} from './harness.ts'

e2e('promote: codehost, the commit staging built, with production’s secrets kept', async t => {
  const [staging, production] = [uniqueName('staging'), uniqueName('production')]
  seed(t, [
    codehost(t, staging, { KEY: 'staging' }),
    codehost(t, production, { KEY: 'prod-secret' })
  ])
  const source = activeOf(t, staging)
  const r = await run({ inputs: t.inputs({ name: production, 'promote-from': staging }) })
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(r.outputs['promoted-from-revision-id']).toBe(source.id)
  expect(r.outputs['repo-commit-sha']).toBe(BUILT)
  const patch = t.writes().find(w => w.method === 'PATCH')!
  expect(patch.body).toEqual({
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' }
  })
  expect(one(t, production).secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
  const line = `Promoted ${staging} revision ${source.id} (commit ${BUILT}) to ${production}: revision ${r.outputs['revision-id']}`
  expect(r.stdout).toContain(line)
  expect(r.summary).toContain(`| Promoted from | ${staging} revision \`${source.id}\``)
})

// The ref moved on since staging built it (a different commit is an error, rolled back):
// e2e/promote-evidence.test.ts, 'main moved on, production built another commit'.
e2e('promote: an image, the same image_uri; a tag is warned about, a digest not', async t => {
  const [staging, production, pinned] = ['staging', 'production', 'pinned'].map(n => uniqueName(n))
  const digest = `registry.example.com/agent@sha256:${'c'.repeat(64)}`
  seed(t, [
    image(staging!, 'registry.example.com/agent:1.2'),
    image(production!, 'registry.example.com/agent:1.1', { KEY: 'prod-secret' }),
    image(pinned!, digest)
  ])
  const r = await run({ inputs: t.inputs({ name: production!, 'promote-from': staging! }) })
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(activeOf(t, production!).source_revision_config.image_uri).toBe(
    'registry.example.com/agent:1.2'
  )
  expect(one(t, production!).secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
  expect(warnings(r.stdout).join('\n')).toContain('a tag can move')
  const byDigest = await run({ inputs: t.inputs({ name: staging!, 'promote-from': pinned! }) })
  expect(byDigest.code).toBe(0)
  expect(warnings(byDigest.stdout).join('\n')).not.toContain('a tag can move')
  expect(byDigest.stdout).toContain(`(image ${digest})`)
})

e2e(
  'promote: refused before any write (ref beside it, no such source, a newer revision in progress)',
  async t => {
    const [staging, production] = [uniqueName('staging'), uniqueName('production')]
    seed(t, [codehost(t, staging, {}), codehost(t, production, {})])
    const refused = async (over: Record<string, string>, text: string) => {
      const before = t.writes().length
      const r = await run({ inputs: t.inputs({ name: production, ...over }) })
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toContain(text)
      expect(t.writes()).toHaveLength(before)
      return r
    }
    await refused({ 'promote-from': staging, ref: 'release' }, `deploys main`)
    await refused(
      { 'promote-from': 'nowhere' },
      'Deployment "nowhere" (`promote-from`) was not found'
    )
    // A newer revision of staging that builds for a day.
    t.emu.configure({ stageDurationsMs: BUILDS_FOR_A_DAY })
    const started = await run({ inputs: t.inputs({ name: staging, wait: 'false' }) })
    expect(started.code).toBe(0)
    await refused({ 'promote-from': staging }, 'is still in progress')
  }
)

e2e(
  'promote: an upload, the same archive by digest; another digest is refused before any write',
  async t => {
    const ws = promotionWorkspace()
    const [staging, production] = [uniqueName('staging'), uniqueName('production')]
    const first = await run({
      inputs: uploadInputs(t, { name: staging }),
      env: { GITHUB_WORKSPACE: ws }
    })
    expect(first.errors).toEqual([])
    expect(first.code).toBe(0)
    const digest = first.outputs['source-digest']!
    const other = `sha256:${'0'.repeat(64)}`
    const before = t.writes().length
    const mismatch = await run({
      inputs: uploadInputs(t, { name: production, 'expected-source-digest': other }),
      env: { GITHUB_WORKSPACE: ws }
    })
    expect(mismatch.code).toBe(1)
    expect(mismatch.errors).toHaveLength(1)
    expect(mismatch.errors[0]).toContain(`${digest} (2 files), not ${other}`)
    expect(t.writes()).toHaveLength(before)
    const needs = await run({
      inputs: t.inputs({ name: production, 'promote-from': staging }),
      env: { GITHUB_WORKSPACE: ws }
    })
    expect(needs.code).toBe(1)
    expect(needs.errors[0]).toContain('expected-source-digest')
    expect(t.writes()).toHaveLength(before)
    const r = await run({
      inputs: t.inputs({
        name: production,
        'promote-from': staging,
        'expected-source-digest': digest
      }),
      env: { GITHUB_WORKSPACE: ws }
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['source-digest']).toBe(digest)
    expect(r.outputs['promoted-from-revision-id']).toBe(first.outputs['revision-id'])
    expect(r.stdout).toContain(`(${digest}) to ${production}: revision ${r.outputs['revision-id']}`)
  }
)

// A source of another repository or source, or with no active revision: refused before any
// write, in-process (commands/deploy/steps/promote.refusals.test.ts).
e2e('promote: a dry run says what would be promoted and writes nothing', async t => {
  const [staging, production] = [uniqueName('staging'), uniqueName('production')]
  seed(t, [codehost(t, staging, {}), codehost(t, production, {})])
  const source = activeOf(t, staging)
  const before = t.writes().length
  const r = await run({
    inputs: t.inputs({ name: production, 'promote-from': staging, 'dry-run': 'true' })
  })
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(t.writes()).toHaveLength(before)
  expect(r.outputs['promoted-from-revision-id']).toBe(source.id)
  expect(r.stdout).toContain(
    `Would promote ${staging} revision ${source.id} (commit ${BUILT}) to ${production}.`
  )
  expect(r.stdout).toContain('making a new revision')
})

e2e('promote: the target fails its health gate and is rolled back to its own revision', async t => {
  const [staging, production] = [uniqueName('staging'), uniqueName('production')]
  seed(t, [codehost(t, staging, {}), codehost(t, production, { KEY: 'prod-secret' })])
  const good = one(t, production).active_revision_id!
  t.emu.agents.script(one(t, production).id, {
    health: 'flapping',
    status: 502,
    body: 'graph failed to load'
  })
  const r = await run({
    inputs: t.inputs({
      name: production,
      'promote-from': staging,
      'health-check': 'true',
      'health-check-window': '2s',
      'on-failure': 'rollback'
    })
  })
  expect(r.code).toBe(1)
  expect(r.outputs.health).toBe('unhealthy')
  expect(r.outputs['promoted-from-revision-id']).toBe(activeOf(t, staging).id)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
  const redeploys = t.emu.requests().filter(q => q.path.endsWith('/redeploy'))
  expect(redeploys).toHaveLength(1)
  expect(redeploys[0]!.path).toContain(good)
  expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  expect(r.stdout).not.toContain('Promoted ')
  expect(one(t, production).secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
})

e2eWithGitHub(
  'promote: the GitHub deployment record and the pull request comment say what was promoted',
  async (t, gh) => {
    const [staging, production] = [uniqueName('staging'), uniqueName('production')]
    seed(t, [codehost(t, staging, {}), codehost(t, production, {})])
    const source = activeOf(t, staging)
    const token = 'ghs_promote0token000000000000000000000001'
    const r = await run({
      inputs: t.inputs({
        name: production,
        'promote-from': staging,
        'github-token': token,
        environment: 'production',
        'pr-comment': 'true'
      }),
      event: pullRequest(31),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const final = gh.requests.filter(q => q.path.endsWith('/statuses')).at(-1)!
    expect(final.body).toMatchObject({
      state: 'success',
      description: expect.stringContaining(`Promoted ${staging} revision ${source.id}`)
    })
    expect(gh.comments(31)[0]!.body).toContain(
      `| Promoted from | ${staging} revision ${source.id} (commit ${BUILT}) |`
    )
  }
)

e2e(
  'promote: a ref known to point elsewhere now is refused before any write, with the hint to promote a tag',
  async t => {
    const [staging, production] = [uniqueName('staging'), uniqueName('production')]
    seed(t, [codehost(t, staging, {}), codehost(t, production, {})])
    // main moves on; staging's next build of it fails to deploy, so its active revision stays.
    await moveMain(t)
    t.emu.script({ outcome: 'DEPLOY_FAILED', deploymentId: one(t, staging).id })
    const again = await run({ inputs: t.inputs({ name: staging, ref: 'main' }) })
    expect(again.code).toBe(1)
    const before = t.writes().length
    const r = await run({ inputs: t.inputs({ name: production, 'promote-from': staging }) })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain(`The ref main of deployment "${staging}"`)
    expect(r.errors[0]).toContain(`now points to ${MOVED}`)
    expect(r.errors[0]).toContain('Promote a tag')
    expect(t.writes()).toHaveLength(before)
  }
)

e2e(
  'promote: the production dialect (langsmith) promotes a codehost commit alike',
  async t => {
    const [staging, production] = [uniqueName('staging'), uniqueName('production')]
    seed(t, [codehost(t, staging, {}), codehost(t, production, { KEY: 'prod-secret' })])
    const source = activeOf(t, staging)
    const r = await run({
      inputs: t.inputs({ name: production, 'promote-from': staging, 'api-dialect': 'langsmith' })
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['promoted-from-revision-id']).toBe(source.id)
    expect(r.outputs['repo-commit-sha']).toBe(BUILT)
    expect(activeOf(t, production).source_revision_config.repo_ref).toBe('main')
    expect(one(t, production).secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
  },
  { speed: 4, dialect: 'langsmith' }
)
