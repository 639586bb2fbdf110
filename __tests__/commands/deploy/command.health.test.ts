import { expect, test, beforeEach, describe } from '@jest/globals'
import { createServer, type Server } from 'node:net'
import { networkInterfaces } from 'node:os'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort, type FakePort } from '../../builders/fake-port.ts'
import { heldIn, loadSeeded, seededDeployment, DEPLOYS_AT_ONCE } from '../../builders/in-process.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'
import { startEmulator } from '../../../emulator/server.ts'
import { SHA } from '../../builders.ts'

// The health gate's rules that are the run's, not the door's: run() in-process through a fake port
// against the emulator on one virtual clock (its agent servers answer over loopback HTTP). What is
// asserted is what the agent servers and the control plane received, the exit code, the outputs
// and the log lines. The bundle's own share is in __tests__/e2e/health.test.ts.

const v = virtualEmulator()
const { now, sleep } = v

/** A short window: probes every 2 s (poll-interval), 2 s of 2xx; an always-on server. */
const GATE = {
  'health-check': 'true',
  'health-check-window': '2s',
  'deployment-type': 'dedicated',
  'poll-interval': '2s'
}

const deploy = async (over: Record<string, string>) => {
  const port = fakePort(emulatorInputs(v.emu, { ...GATE, ...over }))
  const result = await run(port, { now, sleep })
  const lines = (kind: string) => port.calls.filter(c => c.startsWith(`${kind}: `))
  return { ...result, port, errors: lines('error'), warnings: lines('warning') }
}

/**
 * A deployment READY with one DEPLOYED revision of `main` (what a first good deploy leaves), made
 * a minute before the run.
 */
function seed(name: string): string {
  const id = loadSeeded(v.emu, [seededDeployment(v.emu, name)])
  v.t += 60_000
  return id
}
const held = (name: string) => heldIn(v.emu, name)
const redeploys = () => v.emu.requests().filter(r => r.path.endsWith('/redeploy'))
const probes = () => v.emu.agents.probes()
const writes = () => v.emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')

test('unhealthy: the step fails naming the last answers; with on-failure: rollback the previous revision is redeployed', async () => {
  const name = 'flap'
  seed(name)
  const good = held(name).active_revision_id!
  v.emu.agents.script('*', { health: 'flapping', status: 502, body: 'graph failed to load' })
  const r = await deploy({ name, 'on-failure': 'rollback' })
  expect(r.exitCode).toBe(1)
  expect(r.outputs.health).toBe('unhealthy')
  expect(r.outputs['revision-status']).toBe('DEPLOYED')
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(
    /^error: Agent server unhealthy: Revision \S+ of "[^"]+" is DEPLOYED, but its agent server is unhealthy/
  )
  expect(r.errors[0]).toMatch(
    /Last answers: 200 .*; 502 "\{"ok":false,"error":"graph failed to load"\}"/
  )
  // Rolled back by one redeploy of the good revision, said in the error and in the outputs.
  expect(r.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
  expect(redeploys()).toHaveLength(1)
  expect(redeploys()[0]!.path).toContain(good)
  expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  expect(r.port.summaries.join('\n')).toContain('Agent server unhealthy')
})

test('unhealthy, but another run wrote meanwhile: the rollback holds back and says why', async () => {
  const name = 'overtaken'
  const id = seed(name)
  v.emu.agents.script('*', { sequence: ['healthy', 'healthy'], health: 'failing' })
  // /info says nothing here: the other run's revision would answer it (new-revision.test.ts).
  v.emu.agents.scriptApp('*', { host: false })
  const port = fakePort(
    emulatorInputs(v.emu, { ...GATE, name, 'health-check-window': '4s', 'on-failure': 'rollback' })
  )
  // Another run's update lands as this run starts probing its server.
  const group = port.group
  port.group = async (title, fn) => {
    if (title === 'Health check of the agent server')
      await fetch(`${v.emu.url}/v2/deployments/${id}`, {
        method: 'PATCH',
        headers: { 'x-api-key': v.emu.credentials().apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ source_revision_config: { repo_ref: 'other-run' } })
      })
    return group(title, fn)
  }
  const r = await run(port, { now, sleep })
  expect(r.exitCode).toBe(1)
  expect(r.outputs.health).toBe('unhealthy')
  expect(redeploys()).toEqual([])
  const errors = port.calls.filter(c => c.startsWith('error: '))
  expect(errors[0]).toMatch(/Not rolled back: revision \S+ came after this run's revision/)
})

test('unavailable (every probe 404): one warning, the run succeeds, health=unavailable', async () => {
  v.emu.agents.script('*', { health: 'unavailable' })
  const r = await deploy({ name: 'off' })
  expect(r.exitCode).toBe(0)
  expect(r.outputs.health).toBe('unavailable')
  expect(r.warnings.filter(w => w.startsWith('warning: Health check unavailable: '))).toHaveLength(
    1
  )
  expect(probes().map(p => p.status)).toEqual([404, 404, 404])
})

test('the first probes failing, then healthy: the run waits for the first 2xx', async () => {
  v.emu.agents.script('*', { failFirst: 2, status: 503 })
  const r = await deploy({ name: 'warm' })
  expect(r.exitCode).toBe(0)
  expect(r.outputs.health).toBe('healthy')
  expect(
    probes()
      .map(p => p.status)
      .slice(0, 3)
  ).toEqual([503, 503, 200])
  expect(r.port.calls.join('\n')).toMatch(/Probe 1: 503/)
})

test('a redirect is not followed: the other host gets nothing, the answer names it, the step fails', async () => {
  const other = await listen('127.0.0.1')
  try {
    // 200 first, then a redirect (to a login page, say): unhealthy at the second probe.
    v.emu.agents.script('*', {
      sequence: ['healthy'],
      health: 'redirect',
      location: `http://127.0.0.1:${other.port}/ok`
    })
    const r = await deploy({ name: 'redir' })
    expect(r.exitCode).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(r.errors[0]).toMatch(
      new RegExp(`307 "redirect to 127\\.0\\.0\\.1:${other.port}, not followed"`)
    )
    expect(other.connections()).toBe(0)
  } finally {
    await other.close()
  }
})

test('plain http to another machine is refused before any write and without a connection', async () => {
  const host = lanAddress()
  const agent = await listen(host ?? '127.0.0.1')
  try {
    const url = `http://${host ?? 'agent.example.invalid'}:${agent.port}`
    const r = await deploy({ name: 'plain', 'custom-url': url })
    expect(r.exitCode).toBe(1)
    expect(r.errors[0]).toMatch(
      /^error: Health check refused: .*plain http to another machine: the api-key is sent only over https or to a loopback address/
    )
    expect(writes()).toEqual([])
    expect(agent.connections()).toBe(0)
    expect(r.outputs.health).toBe('')
  } finally {
    await agent.close()
  }
})

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

// Where the health gate may send the API key, as far as a run's inputs decide it, in-process:
// run() through a fake port against a real emulator. Where the key does go (hosts vouched for or
// not, through the runner's proxy and CA certificates) is in __tests__/e2e/trust.test.ts.
describe('command.keys', () => {
  test('health-check-hosts naming a shared hosting domain is one input error, nothing sent', async () => {
    const emu = await startEmulator({ port: 0 })
    try {
      const port = fakePort(
        emulatorInputs(emu, {
          name: 'psl',
          'health-check': 'true',
          'health-check-window': '0',
          timeout: '60s',
          'health-check-hosts': 'agent.example.com, *.github.io'
        })
      )
      const result = await run(port)
      // Invalid inputs: the run's code 2, which the action's door turns into the runner's 1.
      expect(result.exitCode).toBe(2)
      const errors = port.calls.filter(c => c.startsWith('error: '))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(
        /^error: Invalid inputs: .*`health-check-hosts`: "\*\.github\.io" would match hosts of many owners \(github\.io is a public suffix, on the Public Suffix List\)/s
      )
      expect(emu.requests()).toEqual([])
    } finally {
      await emu.close()
    }
  }, 60_000)
})

// What a run claims, the run's rules: run() in-process through a fake port against the emulator on
// one virtual clock. Listing the same secrets warns of nothing, the deployment's repository is
// kept, a 404 right after the write and an undocumented status are waited through, a name and an
// id of two deployments are refused, and a short timeout alone is accepted. What is asserted is
// what the emulator received, the exit code, the outputs and the log lines. The bundle's share
// (masks, the runner's files, signals, hostile text): __tests__/e2e/trust.test.ts.
describe('command.trust', () => {
  const v = virtualEmulator()
  const { now, sleep } = v

  /** On the code host, main is at the commit the run's event names: what a push builds. */
  const MAIN_AT_EVENT = { 'https://github.com/acme/agent-server@main': SHA }
  beforeEach(() => void v.emu.configure({ repoCommits: MAIN_AT_EVENT }))

  async function deploy(over: Record<string, string>, port: FakePort = portOf(over)) {
    const result = await run(port, { now, sleep })
    const lines = (kind: string) => port.calls.filter(c => c.startsWith(`${kind}: `))
    return { ...result, port, errors: lines('error'), warnings: lines('warning') }
  }
  const portOf = (over: Record<string, string>) =>
    fakePort(emulatorInputs(v.emu, { 'poll-interval': '2s', ...over }))

  /**
   * A deployment READY with one DEPLOYED revision of `main` (what a first good deploy leaves), made
   * a minute before the run.
   */
  function seed(name: string, secrets: Record<string, string> = {}): string {
    const id = loadSeeded(v.emu, [seededDeployment(v.emu, name, secrets)], MAIN_AT_EVENT)
    v.t += 60_000
    return id
  }
  const writes = () => v.emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')

  test('secrets the list leaves out: listing the same secrets again warns of nothing', async () => {
    const name = 'secrets-same'
    seed(name, { ALPHA: 'alpha-1111', BETA: 'beta-2222' })
    const r = await deploy({ name, secrets: 'ALPHA=alpha-1111\nBETA=beta-2222' })
    expect(r.exitCode).toBe(0)
    expect(r.warnings).toEqual([])
  })

  test('the deployment’s repository is kept: an explicit other repository is an error naming both, before any write', async () => {
    const name = 'repo'
    seed(name)
    const r = await deploy({ name, repository: 'acme/support-bot' })
    expect(r.exitCode).toBe(1)
    expect(r.errors.join('\n')).toMatch(
      /builds https:\/\/github.com\/acme\/agent-server, but `repository` is acme\/support-bot/
    )
    expect(writes()).toEqual([])
  })

  test('what a run claims: a 404 on the revision right after the write is waited through', async () => {
    v.emu.addFaults({
      kind: 'status',
      status: 404,
      method: 'GET',
      path: '/v2/deployments/*/revisions/*',
      times: 2
    })
    const r = await deploy({ name: 'late-read' })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')
  })

  test('what a run claims: an undocumented status is waited through with one warning', async () => {
    const port = portOf({ name: 'unknown-status' })
    // Once the run names its revision, the next three reads of it answer a status nobody documents.
    const info = port.info
    port.info = line => {
      const id = /Revision ([0-9a-f-]{36})\./.exec(line)?.[1]
      if (id && !v.emu.faults().length) {
        const body = { id, status: 'FAILED', created_at: 'x', updated_at: 'x', source: 'codehost' }
        v.emu.addFaults({
          kind: 'bad-schema',
          method: 'GET',
          path: `/v2/deployments/*/revisions/${id}`,
          body,
          times: 3
        })
      }
      info(line)
    }
    const r = await deploy({}, port)
    expect(r.exitCode).toBe(0)
    const w = r.warnings.filter(l => /does not document/.test(l))
    expect(w).toHaveLength(1)
    // Shown neutralised, as UNKNOWN: only the model's words are shown as they came.
    expect(w[0]).toContain('status UNKNOWN (undocumented "FAILED")')
  })

  test('what a run claims: name and deployment-id of two deployments are refused before any write', async () => {
    const id = seed('by-id')
    v.emu.clearRequests()
    const r = await deploy({ name: 'someone-else', 'deployment-id': id })
    expect(r.exitCode).toBe(1)
    expect(r.errors.join('\n')).toMatch(/is named "[^"]+", not "someone-else"/)
    expect(writes()).toEqual([])
  })

  test('what a run claims: timeout: 10s alone is accepted (the poll interval follows it)', async () => {
    // Deployed at the first read: the 10 s are the run's to accept, not the stages' to race.
    v.emu.configure({ stageDurationsMs: DEPLOYS_AT_ONCE })
    const r = await deploy({ name: 'short-timeout', timeout: '10s', 'poll-interval': '' })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
  })
})
