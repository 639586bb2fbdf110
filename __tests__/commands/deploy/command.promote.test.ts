// Promotion in-process (the action's door on a fake port, against the emulator on one virtual
// clock): an image promoted by tag or digest, the production dialect (langsmith) alike, a dry
// run, a failed health gate rolled back, every refusal before any write (a ref beside
// promote-from, no such source, a newer revision in progress, a ref known to point elsewhere, a
// failing smoke case, an unhealthy source or one serving another revision, a ref read with a line
// break), `verify-source: false`, and a new revision that is not what the source verified, rolled
// back or named. Through the bundle (the runner's files, folds, the GitHub records, an upload's
// workspace, a passing smoke case, a revision superseded mid-run): e2e/promote.test.ts,
// e2e/promote.test.ts.
import { describe, expect, test } from '@jest/globals'
import { startEmulator } from '../../../emulator/server.ts'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import { EVENT } from '../../builders.ts'
import { readRun } from '../../builders/in-process.ts'
import {
  activeOf,
  BUILT,
  codehost,
  ECHO,
  image,
  MOVED,
  one,
  promotionWorkspace,
  REPO,
  seed,
  TAG
} from '../../builders/promotion.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'
import type { E2E } from '../../e2e/harness.ts'

const v = virtualEmulator()
const { now, sleep } = v

const OTHER = '5a1e0c2b-3d4f-4a6b-8c7d-9e0f1a2b3c4d'
const CHECKS = { 'health-check': 'true', 'health-check-window': '0s' }

/** What the promotion builders read of a test's emulator (`emu`: another than the test's own). */
const t = (emu = v.emu): E2E =>
  ({
    emu,
    key: emu.credentials().apiKey,
    integration: emu.credentials().integrationId!,
    named: (name: string) =>
      emu
        .state()
        .tenants.flatMap(x => x.deployments)
        .filter(d => d.name === name)
  }) as unknown as E2E

const writes = () => v.emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')
const redeploys = () => v.emu.requests().filter(r => r.path.endsWith('/redeploy'))

/** main moves on to MOVED, after the seeded builds (the clock first moves past the seeding). */
function moveMain(): void {
  v.t += 20
  v.emu.configure({ repoCommits: { [`${REPO}@main`]: MOVED } })
}

async function deploy(inputs: Record<string, string>, emu = v.emu) {
  const port = fakePort(emulatorInputs(emu, inputs))
  const r = await run(port, { now, sleep })
  return readRun(port, r)
}

/** A run on the real clock, its workspace `workspace`: a smoke case's wait for its answer. */
async function deployInWorkspace(inputs: Record<string, string>, workspace: string) {
  const port = fakePort(emulatorInputs(v.emu, inputs), { event: { ...EVENT, workspace } })
  return readRun(port, await run(port))
}

/** Refused before any write: one error holding `text`. */
async function refused(inputs: Record<string, string>, text: string) {
  const before = writes().length
  const r = await deploy(inputs)
  // Exit, errors and writes at once: a failure shows all three.
  const seen = { code: r.code, errors: r.errors.length, writes: writes().length }
  expect(seen).toEqual({ code: 1, errors: 1, writes: before })
  expect(r.errors[0]).toContain(text)
  return r
}

/** staging on main, production on the tag v1: both at BUILT. */
function pipeline(): void {
  seed(t(), [codehost(t(), 'staging', {}), codehost(t(), 'production', { KEY: 'prod' }, TAG)])
}

/** Refused by the source's evidence: one error naming the source, its revision and `check`. */
async function refusedByEvidence(inputs: Record<string, string>, check: string) {
  const r = await refused(
    inputs,
    `Promotion refused: revision ${activeOf(t(), 'staging').id} of "staging"`
  )
  expect(r.errors[0]).toContain(`did not pass ${check}`)
  expect(r.errors[0]).toContain('Nothing was written')
  expect(r.outputs['promoted-from-revision-id']).toBe('')
  return r
}

const PROMOTE = { name: 'production', 'promote-from': 'staging' }

describe('promote', () => {
  test('an image, the same image_uri; a tag is warned about, a digest not', async () => {
    const digest = `registry.example.com/agent@sha256:${'c'.repeat(64)}`
    seed(t(), [
      image('staging', 'registry.example.com/agent:1.2'),
      image('production', 'registry.example.com/agent:1.1', { KEY: 'prod-secret' }),
      image('pinned', digest)
    ])
    const r = await deploy(PROMOTE)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(activeOf(t(), 'production').source_revision_config.image_uri).toBe(
      'registry.example.com/agent:1.2'
    )
    expect(one(t(), 'production').secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
    expect(r.warnings.join('\n')).toContain('a tag can move')
    const byDigest = await deploy({ name: 'staging', 'promote-from': 'pinned' })
    expect(byDigest.code).toBe(0)
    expect(byDigest.warnings.join('\n')).not.toContain('a tag can move')
    expect(byDigest.log).toContain(`(image ${digest})`)
  })

  test('the production dialect (langsmith) promotes a codehost commit alike', async () => {
    const emu = await startEmulator({ port: 0, now, dialect: 'langsmith' })
    try {
      const l = t(emu)
      seed(l, [codehost(l, 'staging', {}), codehost(l, 'production', { KEY: 'prod-secret' })])
      const source = activeOf(l, 'staging')
      const r = await deploy({ ...PROMOTE, 'api-dialect': 'langsmith' }, emu)
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs['promoted-from-revision-id']).toBe(source.id)
      expect(r.outputs['repo-commit-sha']).toBe(BUILT)
      expect(activeOf(l, 'production').source_revision_config.repo_ref).toBe('main')
      expect(one(l, 'production').secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
    } finally {
      await emu.close()
    }
  })

  test('refused before any write (ref beside it, no such source, a newer revision in progress)', async () => {
    seed(t(), [codehost(t(), 'staging', {}), codehost(t(), 'production', {})])
    await refused({ ...PROMOTE, ref: 'release' }, `deploys main`)
    await refused(
      { name: 'production', 'promote-from': 'nowhere' },
      'Deployment "nowhere" (`promote-from`) was not found'
    )
    // A newer revision of staging that builds for a day.
    v.emu.configure({ stageDurationsMs: { BUILDING: 24 * 3600_000 } })
    const started = await deploy({ name: 'staging', wait: 'false' })
    expect(started.code).toBe(0)
    await refused(PROMOTE, 'is still in progress')
  })

  test('a dry run says what would be promoted and writes nothing', async () => {
    seed(t(), [codehost(t(), 'staging', {}), codehost(t(), 'production', {})])
    const source = activeOf(t(), 'staging')
    const before = writes().length
    const r = await deploy({ ...PROMOTE, 'dry-run': 'true' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(writes()).toHaveLength(before)
    expect(r.outputs['promoted-from-revision-id']).toBe(source.id)
    expect(r.log).toContain(
      `Would promote staging revision ${source.id} (commit ${BUILT}) to production.`
    )
    expect(r.log).toContain('making a new revision')
  })

  test('the target fails its health gate and is rolled back to its own revision', async () => {
    seed(t(), [codehost(t(), 'staging', {}), codehost(t(), 'production', { KEY: 'prod-secret' })])
    const good = one(t(), 'production').active_revision_id!
    v.emu.agents.script(one(t(), 'production').id, {
      health: 'flapping',
      status: 502,
      body: 'graph failed to load'
    })
    const r = await deploy({
      ...PROMOTE,
      'health-check': 'true',
      'health-check-window': '2s',
      'on-failure': 'rollback'
    })
    expect(r.code).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(r.outputs['promoted-from-revision-id']).toBe(activeOf(t(), 'staging').id)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
    expect(redeploys()).toHaveLength(1)
    expect(redeploys()[0]!.path).toContain(good)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    expect(r.log).not.toContain('Promoted ')
    expect(one(t(), 'production').secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
  })

  test('a ref known to point elsewhere now is refused before any write, with the hint to promote a tag', async () => {
    seed(t(), [codehost(t(), 'staging', {}), codehost(t(), 'production', {})])
    // main moves on; staging's next build of it fails to deploy, so its active revision stays.
    moveMain()
    v.emu.script({ outcome: 'DEPLOY_FAILED', deploymentId: one(t(), 'staging').id })
    const again = await deploy({ name: 'staging', ref: 'main' })
    expect(again.code).toBe(1)
    const r = await refused(PROMOTE, 'The ref main of deployment "staging"')
    expect(r.errors[0]).toContain(`now points to ${MOVED}`)
    expect(r.errors[0]).toContain('Promote a tag')
  })
})

describe('promote evidence', () => {
  test('a smoke case that fails on the source refuses the promotion before any write', async () => {
    pipeline()
    v.emu.agents.scriptApp(one(t(), 'staging').id, { runs: { error: 'graph raised ValueError' } })
    const good = one(t(), 'production').active_revision_id
    const before = writes().length
    const r = await deployInWorkspace(
      { ...PROMOTE, ...CHECKS, 'smoke-test': 'smoke.json' },
      promotionWorkspace(ECHO)
    )
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain(
      `Promotion refused: revision ${activeOf(t(), 'staging').id} of "staging"`
    )
    expect(r.errors[0]).toContain('did not pass the smoke cases')
    expect(r.errors[0]).toContain('Nothing was written')
    expect(writes()).toHaveLength(before)
    expect(r.outputs['promoted-from-revision-id']).toBe('')
    expect(r.errors[0]).toContain('smoke case "echo" failed')
    expect(one(t(), 'production').active_revision_id).toBe(good)
    expect(r.summary).toContain('| Source verified | no: it did not pass the smoke cases')
  })

  test('a source that serves another revision is refused, without health-check and in a dry run too', async () => {
    pipeline()
    v.emu.agents.scriptApp(one(t(), 'staging').id, { revisionId: OTHER })
    const r = await refusedByEvidence(PROMOTE, 'the served-revision check')
    expect(r.errors[0]).toContain(`serves revision ${OTHER}`)
    expect(r.errors[0]).toContain(`not its active revision ${activeOf(t(), 'staging').id}`)
    await refusedByEvidence({ ...PROMOTE, 'dry-run': 'true' }, 'the served-revision check')
  })

  test('an unhealthy source is refused before any write', async () => {
    pipeline()
    v.emu.agents.script(one(t(), 'staging').id, { health: 'failing', status: 500, body: 'db down' })
    await refusedByEvidence({ ...PROMOTE, ...CHECKS, timeout: '8s' }, 'the health check')
  })

  test('verify-source: false promotes without the checks, and the log and summary say nothing verified it', async () => {
    pipeline()
    v.emu.agents.scriptApp(one(t(), 'staging').id, { revisionId: OTHER })
    const r = await deploy({ ...PROMOTE, 'verify-source': 'false' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.warnings.join('\n')).toContain(
      `nothing verified revision ${activeOf(t(), 'staging').id} of "staging"`
    )
    expect(r.summary).toContain(
      '| Source verified | no: `verify-source: false`, nothing verified what was promoted |'
    )
    const source = one(t(), 'staging').id
    expect(v.emu.agents.probes().filter(p => p.deployment_id === source)).toEqual([])
    // A dry run promotes nothing, and says what a real run would do.
    const dry = await deploy({ ...PROMOTE, 'verify-source': 'false', 'dry-run': 'true' })
    expect(dry.code).toBe(0)
    expect(dry.log).toContain('warning: Would be promoted without evidence: ')
    expect(dry.log).toContain('before this run planned its promotion; it would be promoted')
  })

  test('a source ref with a line break, read from the control plane, is refused before any write', async () => {
    seed(t(), [
      {
        ...codehost(t(), 'staging', {}),
        source_revision_config: { repo_ref: 'main\nx', graph_config_path: 'langgraph.json' }
      },
      codehost(t(), 'production', {}, TAG)
    ])
    const r = await refused(PROMOTE, 'reports repo_ref "main\\nx"')
    expect(r.errors[0]).toContain('must not contain spaces, control characters')
  })

  test('the new revision reports no commit: exit 1, back on the revision it ran', async () => {
    pipeline()
    // Builds of main from now on report no commit.
    v.t += 20
    v.emu.configure({ repoCommits: { [`${REPO}@main`]: null } })
    const good = one(t(), 'production').active_revision_id!
    const r = await deploy(PROMOTE)
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('reports no built commit')
    expect(r.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
    expect(redeploys()[0]!.path).toContain(good)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  })

  test('a target this run created built another commit: the error says it runs unverified code, naming it', async () => {
    seed(t(), [codehost(t(), 'staging', {})])
    moveMain()
    const r = await deploy(PROMOTE)
    expect(r.code).toBe(1)
    expect(r.outputs.created).toBe('true')
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('was created by this run, so there is nothing to go back to')
    expect(r.errors[0]).toContain(`runs unverified code (commit ${MOVED}`)
    expect(redeploys()).toEqual([])
  })
})
