// The health gate's rules that are the run's, not the door's: run() in-process through a fake port
// against the emulator on one virtual clock (its agent servers answer over loopback HTTP). What is
// asserted is what the agent servers and the control plane received, the exit code, the outputs
// and the log lines. The bundle's own share is in __tests__/e2e/health.test.ts.
import { expect, test } from '@jest/globals'
import { createServer, type Server } from 'node:net'
import { networkInterfaces } from 'node:os'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import { heldIn, loadSeeded, seededDeployment } from '../../builders/in-process.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

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
