// Revision logs in the emulator's model, and scripted outcomes (admin `scripts`), driven by an
// injected clock: the logs grow as the lifecycle advances and end as the revision ended.
import { describe, expect, it } from '@jest/globals'
import { Deployment, Revision } from '../../../src/control-plane/schema.ts'
import { demoFixture, type LogEntry, type RevisionLogs } from '../../../emulator/server.ts'
import {
  adminCall,
  call,
  codehostBody,
  dockerBody,
  emulatorPerTest,
  SELF_KEY,
  STAGES_100_MS,
  patchRef
} from '../../builders/emulator.ts'

// 100 ms per stage: BUILDING is 300..400, DEPLOYING 500..600.
const { emu, clock } = emulatorPerTest({ stageDurationsMs: STAGES_100_MS }, { manualClock: true })

async function create(body: unknown = codehostBody('logs'), key?: string) {
  const r = await call(emu, 'POST', '/v2/deployments', { body, ...(key ? { key } : {}) })
  expect(r.status).toBe(201)
  return Deployment.parse(r.body)
}

async function status(d: { id: string }, rid: string, key?: string) {
  const r = await call(emu, 'GET', `/v2/deployments/${d.id}/revisions/${rid}`, key ? { key } : {})
  return Revision.parse(r.body).status
}

const logs = (rid: string) => emu.revisionLogs(rid) as RevisionLogs
const last = (lines: LogEntry[] | null) => lines?.at(-1)
const messages = (lines: LogEntry[] | null) => (lines ?? []).map(l => l.message)
/** The last line is of `level` and contains `text`. */
const expectLastLine = (lines: LogEntry[] | null, level: string, text: string) =>
  expect(last(lines)).toMatchObject({ level, message: expect.stringContaining(text) })

const admin = (method: string, path: string, body?: unknown) => adminCall(emu, method, path, body)

describe('revision logs', () => {
  it('grow as the lifecycle advances: clone, install, build, push, then the deploy steps', async () => {
    const d = await create()
    const rid = d.latest_revision_id!
    expect(logs(rid)).toEqual({ build: null, deploy: null })
    clock.advance(350) // half-way through BUILDING
    const partial = logs(rid).build!
    expect(partial.length).toBeGreaterThan(0)
    expect(messages(partial)[0]).toBe('Cloning https://github.com/acme/agent-server at main')
    expect(messages(partial)).not.toContain('Build complete')
    expect(logs(rid).deploy).toBeNull()
    clock.advance(300)
    expect(await status(d, rid)).toBe('DEPLOYED')
    const { build, deploy } = logs(rid)
    const text = messages(build).join('\n')
    for (const step of [
      'Checked out commit',
      'Installing dependencies',
      'Building image',
      'Pushing image'
    ]) {
      expect(text).toContain(step)
    }
    expect(last(build)!.message).toMatch(/^Build complete/)
    expect(build!.map(l => l.level)).toContain('WARNING')
    expect(last(deploy)!.message).toBe(`Revision ${rid} is live`)
    const times = [...build!, ...deploy!].map(l => Date.parse(l.timestamp))
    expect(times.every(t => !Number.isNaN(t))).toBe(true)
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect(new Set([...build!, ...deploy!].map(l => l.level))).toEqual(new Set(['INFO', 'WARNING']))
  })

  it('a failed build ends its log with the ERROR that failed it, and has no deploy log', async () => {
    const d = await create(
      codehostBody('fails', {
        source_revision_config: { repo_ref: 'fail-build', graph_config_path: 'g.json' }
      })
    )
    clock.advance(1000)
    expect(await status(d, d.latest_revision_id!)).toBe('BUILD_FAILED')
    const { build, deploy } = logs(d.latest_revision_id!)
    expectLastLine(build, 'ERROR', 'failed to build')
    expect(build!.filter(l => l.level === 'ERROR')).toHaveLength(1)
    expect(deploy).toBeNull()
  })

  it('a failed deploy ends the deploy log with its error after a complete build', async () => {
    const d = await create(
      dockerBody('img', {
        source_revision_config: { image_uri: 'registry.example.com/a:fail-deploy' }
      }),
      SELF_KEY
    )
    clock.advance(1000)
    expect(await status(d, d.latest_revision_id!, SELF_KEY)).toBe('DEPLOY_FAILED')
    const { build, deploy } = logs(d.latest_revision_id!)
    expect(messages(build)[0]).toBe('Using pre-built image registry.example.com/a:fail-deploy')
    expect(last(build)!.message).toMatch(/^Build complete/)
    expectLastLine(deploy, 'ERROR', 'health check')
  })

  it('a superseded revision stops where it was, with a warning', async () => {
    const d = await create()
    clock.advance(350)
    await patchRef(emu, d.id, 'x')
    clock.advance(1000)
    expect(await status(d, d.latest_revision_id!)).toBe('SKIPPED')
    const { build, deploy } = logs(d.latest_revision_id!)
    expectLastLine(build, 'WARNING', 'skipped')
    expect(messages(build)).not.toContain('Pushing image')
    expect(deploy).toBeNull()
  })

  it('fixture revisions come with complete logs; an unknown revision has none', () => {
    emu.loadFixture(demoFixture())
    const seeded = emu.state().tenants.flatMap(t => t.deployments)[0]!
    const { build, deploy } = logs(seeded.latest_revision_id!)
    expect(messages(build)[0]).toBe('Cloning https://github.com/acme/support-bot at main')
    expect(last(build)!.message).toMatch(/^Build complete/)
    expect(last(deploy)!.message).toBe(`Revision ${seeded.latest_revision_id} is live`)
    expect(emu.revisionLogs('99999999-9999-4999-8999-999999999999')).toBeNull()
  })
})

describe('scripted outcomes', () => {
  it('the next revision fails its build with the given lines, the last one its ERROR', async () => {
    const secret = 'sk-planted-secret-value'
    const scripted = emu.script({
      outcome: 'BUILD_FAILED',
      logLines: [`npm ERR! authentication token ${secret} rejected`, 'npm ERR! code E401']
    })
    expect(scripted).toMatchObject({ outcome: 'BUILD_FAILED', log: 'build', revisionId: null })
    expect(emu.scripts()).toHaveLength(1)
    const d = await create()
    expect(emu.scripts()).toEqual([])
    clock.advance(1000)
    expect(await status(d, d.latest_revision_id!)).toBe('BUILD_FAILED')
    const build = logs(d.latest_revision_id!).build!
    expect(build.slice(-2)).toEqual([
      expect.objectContaining({
        message: `npm ERR! authentication token ${secret} rejected`,
        level: 'INFO'
      }),
      expect.objectContaining({ message: 'npm ERR! code E401', level: 'ERROR' })
    ])
    expect(messages(build)).toContain('Installing dependencies: pip install -e .')
    // Used up: the revision after it deploys.
    const next = Deployment.parse((await patchRef(emu, d.id, 'main')).body)
    clock.advance(1000)
    expect(await status(d, next.latest_revision_id!)).toBe('DEPLOYED')
  })

  it('a revision still in progress fails its deploy; levels can be given', async () => {
    const d = await create()
    clock.advance(350)
    emu.script({
      outcome: 'DEPLOY_FAILED',
      revisionId: d.latest_revision_id!,
      logLines: [
        { message: 'OOMKilled: memory limit 512Mi', level: 'WARNING' },
        { message: 'Readiness probe failed', level: 'ERROR' }
      ]
    })
    clock.advance(1000)
    expect(await status(d, d.latest_revision_id!)).toBe('DEPLOY_FAILED')
    const deploy = logs(d.latest_revision_id!).deploy!
    expect(deploy.slice(-2).map(l => [l.level, l.message])).toEqual([
      ['WARNING', 'OOMKilled: memory limit 512Mi'],
      ['ERROR', 'Readiness probe failed']
    ])
    expect(() =>
      emu.script({ outcome: 'BUILD_FAILED', revisionId: d.latest_revision_id! })
    ).toThrow(/already finished \(DEPLOY_FAILED\)/)
  })

  it('a script for one deployment waits for that deployment’s next revision', async () => {
    const a = await create(codehostBody('a'))
    const b = await create(codehostBody('b'))
    emu.script({ outcome: 'BUILD_FAILED', deploymentId: b.id })
    const a2 = Deployment.parse((await patchRef(emu, a.id, 'x')).body)
    const b2 = Deployment.parse((await patchRef(emu, b.id, 'x')).body)
    clock.advance(1000)
    expect(await status(a, a2.latest_revision_id!)).toBe('DEPLOYED')
    expect(await status(b, b2.latest_revision_id!)).toBe('BUILD_FAILED')
    expect(last(logs(b2.latest_revision_id!).build)!.level).toBe('ERROR')
  })

  it('DEPLOYED overrides the failure rules and may carry lines; CREATE_FAILED has one ERROR', async () => {
    emu.script({ outcome: 'DEPLOYED', logLines: ['pip: a newer version is available'] })
    const ok = await create(
      codehostBody('ok', {
        source_revision_config: { repo_ref: 'fail-build', graph_config_path: 'g.json' }
      })
    )
    emu.script({ outcome: 'CREATE_FAILED' })
    const bad = await create(codehostBody('bad'))
    clock.advance(1000)
    expect(await status(ok, ok.latest_revision_id!)).toBe('DEPLOYED')
    expect(messages(logs(ok.latest_revision_id!).build)).toContain(
      'pip: a newer version is available'
    )
    expect(await status(bad, bad.latest_revision_id!)).toBe('CREATE_FAILED')
    expect(logs(bad.latest_revision_id!)).toEqual({
      build: [expect.objectContaining({ level: 'ERROR' })],
      deploy: null
    })
  })

  it('admin routes: POST/GET/DELETE /_emulator/scripts and GET /_emulator/revisions/:id/logs', async () => {
    const added = await admin('POST', '/scripts', { outcome: 'BUILD_FAILED', logLines: ['boom'] })
    expect(added.status).toBe(200)
    expect(added.body.script).toMatchObject({
      outcome: 'BUILD_FAILED',
      logLines: [{ message: 'boom', level: 'ERROR' }]
    })
    expect((await admin('GET', '/scripts')).body.scripts).toHaveLength(1)
    expect((await admin('DELETE', '/scripts')).body.scripts).toEqual([])
    expect(emu.scripts()).toEqual([])

    const wrongLog = await admin('POST', '/scripts', { outcome: 'BUILD_FAILED', log: 'deploy' })
    expect([wrongLog.status, wrongLog.body.detail]).toEqual([
      400,
      'The lines of a BUILD_FAILED go into the build log.'
    ])
    expect((await admin('POST', '/scripts', { outcome: 'FAILED' })).status).toBe(400)
    const unknown = await admin('POST', '/scripts', {
      outcome: 'BUILD_FAILED',
      revisionId: '99999999-9999-4999-8999-999999999999'
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.detail).toContain('not found')

    const d = await create()
    clock.advance(1000)
    const got = await admin('GET', `/revisions/${d.latest_revision_id}/logs`)
    expect(got.status).toBe(200)
    expect(last(got.body.deploy)).toMatchObject({
      message: `Revision ${d.latest_revision_id} is live`
    })
    expect(
      (await admin('GET', '/revisions/99999999-9999-4999-8999-999999999999/logs')).status
    ).toBe(404)
  })

  it('reset drops pending scripts', async () => {
    emu.script({ outcome: 'BUILD_FAILED' })
    emu.reset()
    expect(emu.scripts()).toEqual([])
  })
})
