// The health gate end to end: the bundle deploys to the emulator, whose codehost deployments have
// their agent server at `http://127.0.0.1:<port>/_agents/<id>` (emulator/agents/servers.ts). What is asserted
// is what the agent servers and the control plane received, the exit code, the outputs and the log.
import { expect, test } from '@jest/globals'
import { createServer, type Server } from 'node:net'
import { networkInterfaces } from 'node:os'
import type { Emulator } from '../../emulator/server.ts'
import {
  DEPLOYS_AT_ONCE,
  e2e,
  e2eContext,
  e2eWithGitHub,
  leaks,
  runAction as run,
  uniqueName,
  pullRequest,
  warnings,
  withEmulator,
  type E2E,
  redeploys,
  expectRolledBackTo
} from './harness.ts'

/** A short window keeps each case to seconds: probes every 2 s (poll-interval), 2 s of 2xx. */
// An always-on server: a Serverless one (a create's default) takes a 503 for a wake-up (tiers.test.ts).
const GATE = {
  'health-check': 'true',
  'health-check-window': '2s',
  'deployment-type': 'dedicated'
}
const TOKEN = 'ghs_health0gate0token00000000000000000001'

const probes = (emu: Emulator) => emu.agents.probes()
/** What a run asked the control plane, without how often it polled. */
const kinds = (emu: Emulator) =>
  [
    ...new Set(emu.requests().map(r => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, ':id')}`))
  ].sort()

e2e('healthy: the agent server is probed with the key after DEPLOYED; health=healthy', async t => {
  const r = await run({ inputs: t.inputs({ name: uniqueName('healthy'), ...GATE }) })
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(r.outputs.health).toBe('healthy')
  const seen = probes(t.emu)
  expect(seen.length).toBeGreaterThanOrEqual(2)
  // Each 2xx probe of /ok also asks /info which revision answers (the same key rule).
  expect(seen.every(p => ['/ok', '/info'].includes(p.path) && p.key === 'valid')).toBe(true)
  expect(seen.every(p => p.status === 200)).toBe(true)
  expect(r.outputs['served-revision']).toBe('this')
  expect(r.stdout).toMatch(/::group::Health check of the agent server/)
  expect(r.stdout).toMatch(/Healthy: \d+ probes/)
  expect(r.summary).toMatch(/\| Health \| healthy \|/)
  expect(leaks(r, [t.key])).toEqual([])
})

/**
 * A case that waits for the run's timeout: a jest timeout of its own, well beyond it, and revisions
 * deployed at once, so the run's timeout is spent on the gate's probes, not on the stages.
 */
const e2eToTimeout = (title: string, body: (t: E2E) => Promise<void>) =>
  test.concurrent(
    title,
    () =>
      withEmulator({ speed: 4, stageDurationsMs: DEPLOYS_AT_ONCE }, emu => body(e2eContext(emu))),
    90_000
  )

e2eToTimeout(
  'a custom path with a query is probed as given: a database down fails /ok?check_db=1 until the timeout, not /ok',
  async t => {
    t.emu.agents.script('*', { database: 'down', status: 500 })
    const [plain, checked] = await Promise.all([
      run({ inputs: t.inputs({ name: uniqueName('db'), ...GATE }) }),
      run({
        inputs: t.inputs({
          name: uniqueName('db'),
          ...GATE,
          'health-check': '/ok?check_db=1',
          timeout: '14s'
        })
      })
    ])
    expect(plain.code).toBe(0)
    expect(plain.outputs.health).toBe('healthy')
    expect(checked.code).toBe(1)
    expect(checked.outputs.health).toBe('unhealthy')
    expect(checked.errors[0]).toMatch(/no probe answered 2xx before the timeout/)
    expect(checked.errors[0]).toMatch(/500 "\{"ok":false,"error":"database unreachable"\}"/)
    // /info only after a 2xx: the plain run's.
    expect(new Set(probes(t.emu).map(p => p.path))).toEqual(
      new Set(['/ok', '/info', '/ok?check_db=1'])
    )
  }
)

e2e(
  'unhealthy: the step fails naming the last answers; with on-failure: rollback the previous revision is redeployed',
  async t => {
    const name = uniqueName('flap')
    t.seed(name)
    const good = t.named(name)[0]!.active_revision_id!
    t.emu.agents.script('*', { health: 'flapping', status: 502, body: 'graph failed to load' })
    const r = await run({ inputs: t.inputs({ name, ...GATE, 'on-failure': 'rollback' }) })
    expect(r.code).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(r.outputs['revision-status']).toBe('DEPLOYED')
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /^::error title=Agent server unhealthy::Revision \S+ of "[^"]+" is DEPLOYED, but its agent server is unhealthy/
    )
    expect(r.errors[0]).toMatch(
      /Last answers: 200 .*; 502 "\{"ok":false,"error":"graph failed to load"\}"/
    )
    expectRolledBackTo(r, t.emu, good)
    expect(r.summary).toContain('Agent server unhealthy')
  }
)

e2e('unhealthy, but another run wrote meanwhile: the rollback holds back and says why', async t => {
  const name = uniqueName('overtaken')
  t.seed(name)
  t.emu.agents.script('*', { sequence: ['healthy', 'healthy'], health: 'failing' })
  // /info says nothing here: the other run's revision would answer it (new-revision.test.ts).
  t.emu.agents.scriptApp('*', { host: false })
  const r = await run({
    inputs: t.inputs({ name, ...GATE, 'health-check-window': '4s', 'on-failure': 'rollback' }),
    // Another run's update lands while this run probes its server.
    onStdout: {
      when: '::group::Health check of the agent server',
      run: async () => {
        const id = t.named(name)[0]!.id
        await fetch(`${t.emu.url}/v2/deployments/${id}`, {
          method: 'PATCH',
          headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
          body: JSON.stringify({ source_revision_config: { repo_ref: 'other-run' } })
        })
      }
    }
  })
  expect(r.code).toBe(1)
  expect(r.outputs.health).toBe('unhealthy')
  expect(redeploys(t.emu)).toEqual([])
  expect(r.errors[0]).toMatch(/Not rolled back: revision \S+ came after this run's revision/)
})

e2e('unhealthy without on-failure: no rollback, the job fails', async t => {
  t.emu.agents.script('*', { health: 'flapping' })
  const r = await run({ inputs: t.inputs({ name: uniqueName('flap'), ...GATE }) })
  expect(r.code).toBe(1)
  expect(r.outputs.health).toBe('unhealthy')
  expect(redeploys(t.emu)).toEqual([])
})

e2e('unavailable (every probe 404): one warning, the run succeeds, health=unavailable', async t => {
  t.emu.agents.script('*', { health: 'unavailable' })
  const r = await run({ inputs: t.inputs({ name: uniqueName('off'), ...GATE }) })
  expect(r.code).toBe(0)
  expect(r.outputs.health).toBe('unavailable')
  expect(warnings(r.stdout).filter(w => /title=Health check unavailable/.test(w))).toHaveLength(1)
  expect(probes(t.emu).map(p => p.status)).toEqual([404, 404, 404])
})

e2e('the first probes failing, then healthy: the run waits for the first 2xx', async t => {
  t.emu.agents.script('*', { failFirst: 2, status: 503 })
  const r = await run({ inputs: t.inputs({ name: uniqueName('warm'), ...GATE }) })
  expect(r.code).toBe(0)
  expect(r.outputs.health).toBe('healthy')
  expect(
    probes(t.emu)
      .map(p => p.status)
      .slice(0, 3)
  ).toEqual([503, 503, 200])
  expect(r.stdout).toMatch(/Probe 1: 503/)
})

e2e(
  'a redirect is not followed: the other host gets nothing, the answer names it, the step fails',
  async t => {
    const other = await listen('127.0.0.1')
    try {
      // 200 first, then a redirect (to a login page, say): unhealthy at the second probe.
      t.emu.agents.script('*', {
        sequence: ['healthy'],
        health: 'redirect',
        location: `http://127.0.0.1:${other.port}/ok`
      })
      const r = await run({ inputs: t.inputs({ name: uniqueName('redir'), ...GATE }) })
      expect(r.code).toBe(1)
      expect(r.outputs.health).toBe('unhealthy')
      expect(r.errors[0]).toMatch(
        new RegExp(`307 "redirect to 127\\.0\\.0\\.1:${other.port}, not followed"`)
      )
      expect(other.connections()).toBe(0)
    } finally {
      await other.close()
    }
  }
)

e2e(
  'plain http to another machine is refused before any write and without a connection',
  async t => {
    const host = lanAddress()
    const agent = await listen(host ?? '127.0.0.1')
    try {
      const url = `http://${host ?? 'agent.example.invalid'}:${agent.port}`
      const r = await run({
        inputs: t.inputs({ name: uniqueName('plain'), ...GATE, 'custom-url': url })
      })
      expect(r.code).toBe(1)
      expect(r.errors[0]).toMatch(
        /title=Health check refused::.*plain http to another machine: the api-key is sent only over https or to a loopback address/
      )
      expect(t.writes()).toEqual([])
      expect(agent.connections()).toBe(0)
      expect(r.outputs.health).toBe('')
    } finally {
      await agent.close()
    }
  }
)

e2e(
  'the key is in no log line, output or summary, even when the agent server echoes it',
  async t => {
    t.emu.agents.script('*', { health: 'flapping', body: `rejected key ${t.key}` })
    const r = await run({ inputs: t.inputs({ name: uniqueName('echo'), ...GATE }) })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toContain('rejected key ***')
    expect(leaks(r, [t.key])).toEqual([])
  }
)

e2e(
  'off by default: no probe is sent, and the gate adds no request to the control plane',
  async t => {
    const off = await run({ inputs: t.inputs({ name: uniqueName('off') }) })
    expect(off.code).toBe(0)
    expect(off.outputs.health).toBe('')
    expect(probes(t.emu)).toEqual([])
    const without = kinds(t.emu)
    t.emu.clearRequests()
    const on = await run({ inputs: t.inputs({ name: uniqueName('on'), ...GATE }) })
    expect(on.code).toBe(0)
    expect(probes(t.emu).length).toBeGreaterThan(0)
    expect(kinds(t.emu)).toEqual(without)
  }
)

e2e('health-check with wait: false is refused before any request', async t => {
  const r = await run({ inputs: t.inputs({ name: uniqueName('nowait'), ...GATE, wait: 'false' }) })
  expect(r.code).toBe(1)
  expect(r.errors[0]).toMatch(/title=Invalid inputs::.*health-check.*needs `wait: true`/)
  expect(t.emu.requests()).toEqual([])
})

e2eWithGitHub(
  'unhealthy on GitHub: the deployment status is failure and the pull request comment says unhealthy',
  async (t, gh) => {
    t.emu.agents.script('*', { health: 'flapping' })
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
    const states = gh.requests
      .filter(q => q.path.endsWith('/statuses'))
      .map(q => (q.body as { state: string }).state)
    expect(states).toEqual(['in_progress', 'failure'])
    expect(gh.comments(9)).toHaveLength(1)
    expect(gh.comments(9)[0]!.body).toMatch(/❌ Unhealthy/)
    expect(leaks(r, [t.key, TOKEN])).toEqual([])
  }
)

/** This machine's first address that is not loopback, if it has one. */
function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (!a.internal && a.family === 'IPv4') return a.address
  return undefined
}

/** A TCP server that counts the connections it gets. */
async function listen(host: string) {
  let count = 0
  const server: Server = createServer(socket => {
    count++
    socket.destroy()
  })
  await new Promise<void>(res => server.listen(0, host, res))
  return {
    port: (server.address() as { port: number }).port,
    connections: () => count,
    close: () => new Promise<void>(res => server.close(() => res()))
  }
}
