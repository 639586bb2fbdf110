// Revision and deployment lifecycle, driven by an injected clock (no waiting).
import { describe, expect, it } from '@jest/globals'
import { Deployment, Revision } from '../../../src/control-plane/schema.ts'
import type { Emulator } from '../../../emulator/server.ts'
import { stableCommit } from '../../../emulator/state/commits.ts'
import {
  call,
  codehostBody,
  dockerBody,
  emulatorPerTest,
  MOVED_SHA,
  REPO,
  SELF_KEY,
  STAGES_100_MS,
  patchRef
} from '../../builders/emulator.ts'
import { REVISION_STATUSES } from '../../../src/control-plane/vocabulary.ts'

const perTest = emulatorPerTest({}, { eager: false, manualClock: true })
async function setup(speed = 1) {
  await perTest.setup({ stageDurationsMs: STAGES_100_MS, speed })
  return perTest
}

async function create(e: Emulator, body: unknown = codehostBody('life'), key?: string) {
  const r = await call(e, 'POST', '/v2/deployments', { body, key })
  expect(r.status).toBe(201)
  return Deployment.parse(r.body)
}

async function revision(e: Emulator, depId: string, revId: string) {
  const r = await call(e, 'GET', `/v2/deployments/${depId}/revisions/${revId}`)
  expect(r.status).toBe(200)
  return Revision.parse(r.body)
}

const deployment = async (e: Emulator, id: string) =>
  Deployment.parse((await call(e, 'GET', `/v2/deployments/${id}`)).body)

describe('revision lifecycle', () => {
  it('goes CREATING -> ... -> DEPLOYED; the deployment turns READY and the revision active', async () => {
    const { clock, emu } = await setup()
    const d = await create(emu)
    const seen: string[] = []
    for (let i = 0; i < 7; i++) {
      seen.push((await revision(emu, d.id, d.latest_revision_id!)).status)
      if (i < 6) expect((await deployment(emu, d.id)).active_revision_id).toBeNull()
      clock.advance(100)
    }
    // Every stage of the interface, in its order, up to DEPLOYED.
    expect(seen).toEqual(REVISION_STATUSES.slice(0, REVISION_STATUSES.indexOf('DEPLOYED') + 1))
    const after = await deployment(emu, d.id)
    expect(after.status).toBe('READY')
    expect(after.active_revision_id).toBe(d.latest_revision_id)
  })

  it('updated_at follows the last status change', async () => {
    const { clock, emu } = await setup()
    const d = await create(emu)
    const created = await revision(emu, d.id, d.latest_revision_id!)
    clock.advance(150)
    const queued = await revision(emu, d.id, d.latest_revision_id!)
    expect(queued.status).toBe('QUEUED')
    expect(Date.parse(queued.updated_at!) - Date.parse(created.created_at!)).toBe(100)
  })

  it('the speed factor scales the stages', async () => {
    const { clock, emu } = await setup(10)
    const d = await create(emu)
    clock.advance(60)
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe('DEPLOYED')
  })

  it('changing the speed later keeps the progress made so far', async () => {
    const { clock, emu } = await setup()
    const d = await create(emu)
    clock.advance(250) // AWAITING_BUILD (virtual 250)
    emu.setSpeed(100)
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe('AWAITING_BUILD')
    clock.advance(4) // +400 virtual -> 650
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe('DEPLOYED')
  })

  it('a newer revision makes an unfinished older one SKIPPED; active moves on DEPLOYED only', async () => {
    const { clock, emu } = await setup()
    const d = await create(emu)
    clock.advance(700)
    const second = Deployment.parse((await patchRef(emu, d.id, 'a')).body)
    clock.advance(250)
    const third = Deployment.parse((await patchRef(emu, d.id, 'b')).body)
    expect((await revision(emu, d.id, second.latest_revision_id!)).status).toBe('SKIPPED')
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe('DEPLOYED')
    expect((await deployment(emu, d.id)).active_revision_id).toBe(d.latest_revision_id)
    clock.advance(600)
    expect((await revision(emu, d.id, third.latest_revision_id!)).status).toBe('DEPLOYED')
    const after = await deployment(emu, d.id)
    expect(after.active_revision_id).toBe(third.latest_revision_id)
    expect(after.latest_revision_id).toBe(third.latest_revision_id)
  })

  it.each([
    ['feature/fail-create', 'CREATE_FAILED', 100, 'CREATING'],
    ['fail-build-please', 'BUILD_FAILED', 400, 'BUILDING'],
    ['x-fail-deploy', 'DEPLOY_FAILED', 600, 'DEPLOYING']
  ])('ref %s fails with %s at the end of its stage', async (ref, failure, at, stage) => {
    const { clock, emu } = await setup()
    const d = await create(
      emu,
      codehostBody('f', { source_revision_config: { repo_ref: ref, graph_config_path: 'g.json' } })
    )
    clock.advance(at - 1)
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe(stage)
    clock.advance(1)
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe(failure)
    clock.advance(10_000)
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe(failure)
    expect((await deployment(emu, d.id)).active_revision_id).toBeNull()
  })

  it('failure rules match images and can be configured', async () => {
    const { clock, emu } = await setup()
    emu.configure({ failureRules: [{ image: '*:broken', fail: 'BUILD_FAILED' }] })
    const d = await create(
      emu,
      dockerBody('img', {
        source_revision_config: { image_uri: 'registry.example.com/agent:broken' }
      }),
      SELF_KEY
    )
    clock.advance(1000)
    const r = await call(emu, 'GET', `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`, {
      key: SELF_KEY
    })
    expect((r.body as { status: string }).status).toBe('BUILD_FAILED')
  })
})

describe('repo_commit_sha', () => {
  it('is null before the build and the mapped SHA once the build started', async () => {
    const { clock, emu } = await setup()
    const d = await create(emu)
    expect(
      (await revision(emu, d.id, d.latest_revision_id!)).source_revision_config?.repo_commit_sha
    ).toBeNull()
    clock.advance(300)
    const building = await revision(emu, d.id, d.latest_revision_id!)
    expect(building.status).toBe('BUILDING')
    expect(building.source_revision_config?.repo_commit_sha).toBe(MOVED_SHA)
    expect((await deployment(emu, d.id)).source_revision_config.repo_commit_sha).toBe(MOVED_SHA)
  })

  it('reports a stable commit of its own for a ref that no pin and no clone names', async () => {
    const { clock, emu } = await setup()
    const d = await create(
      emu,
      codehostBody('sha', {
        source_revision_config: { repo_ref: 'refs/tags/v1.2.0', graph_config_path: 'g' }
      })
    )
    clock.advance(1000)
    const sha = (await revision(emu, d.id, d.latest_revision_id!)).source_revision_config
      ?.repo_commit_sha
    expect(sha).toBe(stableCommit(REPO, 'refs/tags/v1.2.0'))
    expect(sha).toMatch(/^[0-9a-f]{40}$/)
    const build = emu.revisionLogs(d.latest_revision_id!)!.build!.map(l => l.message)
    expect(build).toContain(`Checked out commit ${sha!.slice(0, 12)}`)
  })

  it('a branch that moved on: builds started later report the new commit, earlier ones keep theirs', async () => {
    const { clock, emu } = await setup()
    const d = await create(emu)
    clock.advance(350) // build of the first revision started at 300
    const res = await fetch(`${emu.url}/_emulator/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repoCommits: { [`${REPO}@main`]: 'b'.repeat(40) } })
    })
    expect(res.status).toBe(200)
    const second = Deployment.parse(
      (await call(emu, 'PATCH', `/v2/deployments/${d.id}`, { body: { secrets: [] } })).body
    )
    clock.advance(1000)
    expect(
      (await revision(emu, d.id, d.latest_revision_id!)).source_revision_config?.repo_commit_sha
    ).toBe(MOVED_SHA)
    expect(
      (await revision(emu, d.id, second.latest_revision_id!)).source_revision_config
        ?.repo_commit_sha
    ).toBe('b'.repeat(40))
  })

  it('is null for image sources', async () => {
    const { clock, emu } = await setup()
    const d = await create(emu, dockerBody('dock'), SELF_KEY)
    clock.advance(1000)
    const r = await call(emu, 'GET', `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`, {
      key: SELF_KEY
    })
    expect(
      (r.body as { source_revision_config: { repo_commit_sha: unknown } }).source_revision_config
        .repo_commit_sha
    ).toBeNull()
  })
})

describe('default timing', () => {
  it('reaches DEPLOYED in a few seconds at speed 1', async () => {
    const { clock, emu } = perTest
    await perTest.setup()
    const d = await create(emu)
    clock.advance(2000)
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).not.toBe('DEPLOYED')
    clock.advance(2000)
    expect((await revision(emu, d.id, d.latest_revision_id!)).status).toBe('DEPLOYED')
    expect((await deployment(emu, d.id)).status).toBe('READY')
  })
})
