// The health gate end to end: the bundle deploys to the emulator, whose codehost deployments have
// their agent server at `http://127.0.0.1:<port>/_agents/<id>` (emulator/agents/servers.ts). What is asserted
// is what the agent servers and the control plane received, the exit code, the outputs and the log.
// The gate's own rules (unhealthy, rollback, unavailable, redirects) run in-process, in
// __tests__/commands/deploy/command.health.test.ts: here is what the bundle shows.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import {
  DEPLOYS_AT_ONCE,
  e2e,
  e2eWithGitHub,
  leaks,
  runAction as run,
  uniqueName,
  pullRequest,
  redeploys
} from './harness.ts'

/** A short window keeps each case to seconds: probes every 2 s (poll-interval), 2 s of 2xx. */
// An always-on server: a Serverless one (a create's default) takes a 503 for a wake-up
// (commands/deploy/command.new-revision.test.ts).
const GATE = {
  'health-check': 'true',
  'health-check-window': '2s',
  'deployment-type': 'dedicated'
}
const TOKEN = 'ghs_health0gate0token00000000000000000001'

const probes = (emu: Emulator, id?: string) => emu.agents.probes(id)
/** What a run asked the control plane, without how often it polled. */
const kinds = (emu: Emulator) =>
  [
    ...new Set(emu.requests().map(r => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, ':id')}`))
  ].sort()

// One emulator whose agent servers' database is down, revisions deployed at once (no build log is
// read, so two runs ask the same kinds of request): a run without the gate, a healthy one, then
// one whose custom path checks the database, until its timeout.
e2e(
  'off by default: no probe is sent, and the gate adds no request to the control plane; healthy: the agent server is probed with the key after DEPLOYED, health=healthy; a custom path with a query is probed as given: a database down fails /ok?check_db=1 until the timeout, not /ok',
  async t => {
    t.emu.agents.script('*', { database: 'down', status: 500 })
    const off = await run({ inputs: t.inputs({ name: uniqueName('off') }) })
    expect(off.code).toBe(0)
    expect(off.outputs.health).toBe('')
    expect(probes(t.emu)).toEqual([])
    const without = kinds(t.emu)
    t.emu.clearRequests()

    const r = await run({ inputs: t.inputs({ name: uniqueName('healthy'), ...GATE }) })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs.health).toBe('healthy')
    expect(kinds(t.emu)).toEqual(without)
    const seen = probes(t.emu, r.outputs['deployment-id'])
    expect(seen.length).toBeGreaterThanOrEqual(2)
    // Each 2xx probe of /ok also asks /info which revision answers (the same key rule).
    expect(seen.every(p => ['/ok', '/info'].includes(p.path) && p.key === 'valid')).toBe(true)
    expect(seen.every(p => p.status === 200)).toBe(true)
    expect(r.outputs['served-revision']).toBe('this')
    expect(r.stdout).toMatch(/::group::Health check of the agent server/)
    expect(r.stdout).toMatch(/Healthy: \d+ probes/)
    expect(r.summary).toMatch(/\| Health \| healthy \|/)
    expect(leaks(r, [t.key])).toEqual([])

    const checked = await run({
      inputs: t.inputs({
        name: uniqueName('db'),
        ...GATE,
        'health-check': '/ok?check_db=1',
        timeout: '14s'
      })
    })
    expect(checked.code).toBe(1)
    expect(checked.outputs.health).toBe('unhealthy')
    expect(checked.errors[0]).toMatch(/no probe answered 2xx before the timeout/)
    expect(checked.errors[0]).toMatch(/500 "\{"ok":false,"error":"database unreachable"\}"/)
    // /info only after a 2xx: the healthy run's.
    expect(new Set(probes(t.emu).map(p => p.path))).toEqual(
      new Set(['/ok', '/info', '/ok?check_db=1'])
    )
  },
  { stageDurationsMs: DEPLOYS_AT_ONCE }
)

// Every bad input is named at once: two problems, one run.
e2e(
  'invalid inputs, each named before any request: health-check with wait: false, and database-size on Serverless',
  async t => {
    const r = await run({
      inputs: t.inputs({
        name: uniqueName('nowait'),
        ...GATE,
        wait: 'false',
        'deployment-type': 'serverless',
        'database-size': 'small'
      })
    })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/title=Invalid inputs::.*health-check.*needs `wait: true`/)
    expect(r.errors[0]).toMatch(/`database-size` applies only to a Dedicated deployment/)
    expect(t.emu.requests()).toEqual([])
  }
)

e2eWithGitHub(
  'unhealthy on GitHub, without on-failure: no rollback, the job fails, the deployment status is failure, the pull request comment says unhealthy, and the key is in no log line, output or summary even when the agent server echoes it',
  async (t, gh) => {
    t.emu.agents.script('*', { health: 'flapping', body: `rejected key ${t.key}` })
    const r = await run({
      inputs: t.inputs({
        name: uniqueName('gh'),
        ...GATE,
        'github-token': TOKEN,
        environment: 'preview',
        'pr-comment': 'true'
      }),
      event: pullRequest(9),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(redeploys(t.emu)).toEqual([])
    expect(r.errors[0]).toContain('rejected key ***')
    const states = gh.requests
      .filter(q => q.path.endsWith('/statuses'))
      .map(q => (q.body as { state: string }).state)
    expect(states).toEqual(['in_progress', 'failure'])
    expect(gh.comments(9)).toHaveLength(1)
    expect(gh.comments(9)[0]!.body).toMatch(/❌ Unhealthy/)
    expect(leaks(r, [t.key, TOKEN])).toEqual([])
  }
)
