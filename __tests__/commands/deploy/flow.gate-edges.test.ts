// The health gate's and the re-create's rough edges, in-process against the emulator with one
// virtual clock: the timeout bounds the gate (window and probes), a slow body is said as such,
// credentials in custom_url are named (never shown), a deployment deleted during the gate is said
// as deleted, and a name held by a tracing project is named as that, with no url of the deleted
// deployment left.
import { expect, test } from '@jest/globals'
import { ControlPlaneClient } from '../../../src/control-plane/client.ts'
import { failureText, type Ending } from '../../../src/interface/ending.ts'
import { deploy } from '../../../src/commands/deploy/flow.ts'
import { newJournal } from '../../../src/commands/deploy/facts.ts'
import {
  ProbeTimeoutError,
  type ProbeRequest,
  type ProbeResponse
} from '../../../src/health/probe.ts'
import type { Options } from '../../../src/inputs/options.ts'
import type { SmokeCase } from '../../../src/inputs/smoke-cases.ts'
import { ACTION_SAY, linesLog, testOptions } from '../../builders.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

const v = virtualEmulator()
const { now, sleep } = v

const client = () => {
  const c = v.emu.credentials()
  return new ControlPlaneClient({
    baseUrl: v.emu.url,
    apiKey: c.apiKey,
    tenantId: c.tenantId,
    say: ACTION_SAY,
    clock: { now, sleep }
  })
}

function inputs(raw: Record<string, string> = {}): Options {
  const c = v.emu.credentials()
  return testOptions(
    { 'api-key': c.apiKey, 'tenant-id': c.tenantId, 'integration-id': c.integrationId!, ...raw },
    { baseUrl: v.emu.url }
  )
}

/** A probe that takes `ms` of virtual time and answers `answer` (or what it returns). */
const probeOf =
  (answer: ProbeResponse | ((req: ProbeRequest) => Promise<ProbeResponse>), ms = 50) =>
  async (req: ProbeRequest): Promise<ProbeResponse> => {
    v.t += Math.min(ms, req.timeoutMs)
    return typeof answer === 'function' ? answer(req) : answer
  }

async function run(
  o: Options,
  probe?: (req: ProbeRequest) => Promise<ProbeResponse>,
  smokeCases?: readonly SmokeCase[]
) {
  const { lines, log } = linesLog()
  const state = newJournal(o)
  const c = client()
  const started = v.t
  let ending: Ending
  try {
    ending = await deploy(o, state, {
      client: c,
      log,
      say: ACTION_SAY,
      clock: { now, sleep },
      ...(probe ? { probe } : {}),
      ...(smokeCases ? { smokeCases } : {})
    })
  } finally {
    c.close()
  }
  const error = ending.failure
  return { state, lines, error, error_: error ? failureText(error) : '', tookMs: v.t - started }
}

test('the timeout bounds the gate: a window it cuts short is a timeout, not healthy, not rolled back', async () => {
  const r = await run(
    inputs({ 'health-check': 'true', 'health-check-window': '30m', timeout: '5m' }),
    probeOf({ status: 200, body: '{"ok":true}' })
  )
  expect(r.error).toBeDefined()
  expect(r.error?.title).toBe('Health check timed out')
  expect(r.error_).toMatch(/answered 2xx, but the timeout came .* into the 30m window of 2xx/)
  expect(r.state.outcome).toBe('timeout')
  expect(r.state.health).toBeUndefined()
  // The whole run, wait and gate, within the timeout (and a poll of slack).
  expect(r.tookMs).toBeLessThanOrEqual(5 * 60_000 + 15_000)
})

test('a probe inside the window cut short by the deadline is the timeout, not an unhealthy server', async () => {
  let n = 0
  const r = await run(
    inputs({ 'health-check': 'true', 'health-check-window': '30m', timeout: '5m' }),
    probeOf(async req => {
      // 2xx, but the probe that the deadline cuts short gets no answer in its time.
      if (req.timeoutMs >= 10_000) return { status: 200, body: '{"ok":true}' }
      n++
      v.t += req.timeoutMs - 50
      throw new ProbeTimeoutError(req.timeoutMs)
    })
  )
  expect(n).toBe(1)
  expect(r.error?.title).toBe('Health check timed out')
  expect(r.state.outcome).toBe('timeout')
  expect(r.tookMs).toBeLessThanOrEqual(5 * 60_000 + 15_000)
})

test("the checks after the window end at the run's deadline, not one window after it", async () => {
  // The window takes 4 of the 5 minutes; the smoke case would wait 10 minutes for its answer.
  const slowCase = { name: 'echo', graph: 'agent', input: {}, expect: {}, timeoutMs: 600_000 }
  const r = await run(
    inputs({ 'health-check': 'true', 'health-check-window': '4m', timeout: '5m' }),
    probeOf(async req => {
      if (!req.url.pathname.endsWith('/runs/wait')) return { status: 200, body: '{"ok":true}' }
      // No answer until the run gives up on it: the case's timer (virtual time) ends it.
      return new Promise((_, reject) =>
        req.signal?.addEventListener('abort', () => reject(new Error('aborted')))
      )
    }),
    [slowCase]
  )
  expect(r.error?.title).toBe('Health check timed out')
  expect(r.error_).toMatch(/Timed out during the checks of revision/)
  expect(r.state.outcome).toBe('timeout')
  expect(r.tookMs).toBeLessThanOrEqual(5 * 60_000 + 15_000)
})

test('a probe that never answers is cut at the deadline, not 10 s after it', async () => {
  let last: ProbeRequest | undefined
  const r = await run(
    inputs({ 'health-check': 'true', timeout: '2m' }),
    probeOf(async req => {
      last = req
      throw Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })
    }, 10_000)
  )
  expect(r.state.health).toBe('unhealthy')
  expect(last!.timeoutMs).toBeLessThan(10_000)
  expect(r.tookMs).toBeLessThanOrEqual(2 * 60_000 + 15_000)
})

test('a 2xx whose body trickles past the probe time is said as a slow body, and is no 2xx', async () => {
  // Dedicated: always on, so a slow answer is no wake-up (a create is Serverless by default).
  const r = await run(
    inputs({ 'health-check': 'true', timeout: '1m', 'deployment-type': 'dedicated' }),
    probeOf({ status: 200, body: '{"ok":', slowBody: true })
  )
  expect(r.state.health).toBe('unhealthy')
  expect(r.error_).toMatch(
    /200, but its body was still arriving when the probe's time ran out \(slow body\): "\{"ok":"/
  )
  expect(r.error_).not.toMatch(/no answer/)
})

test("credentials in the deployment's custom_url are named, never sent or shown", async () => {
  const o = inputs({ 'health-check': 'true' })
  const first = await run({ ...o, healthCheck: false })
  const id = first.state.deploymentId!
  const c = client()
  await c.patchDeployment(id, {
    source_config: { custom_url: 'https://admin:hunter2-secret@agent.example.com' }
  } as never)
  c.close()
  const sent: ProbeRequest[] = []
  const r = await run(
    o,
    probeOf(async req => {
      sent.push(req)
      return { status: 200, body: '' }
    })
  )
  expect(sent).toEqual([])
  expect(r.error?.title).toBe('Health check refused')
  expect(r.error_).toMatch(
    /custom_url for agent\.example\.com carries credentials \(user:password@\), which are never sent or shown/
  )
  expect(r.error_).not.toMatch(/no source_config.custom_url/)
  expect(JSON.stringify(r)).not.toContain('hunter2')
  expect(r.state.url).toBeUndefined()
})

test.each([
  ['before the first 2xx (every probe 404)', 0],
  ['inside the window, with on-failure: rollback', 1]
])(
  'a deployment deleted during the gate %s is said as deleted, not as a wrong id',
  async (_, ok) => {
    let deleted = false
    let n = 0
    const r = await run(
      inputs({ 'health-check': 'true', 'on-failure': 'rollback', timeout: '2m' }),
      probeOf(async () => {
        if (n++ < ok) return { status: 200, body: '{"ok":true}' }
        if (!deleted) {
          deleted = true
          const c = client()
          const d = v.emu
            .state()
            .tenants.flatMap(x => x.deployments)
            .find(x => x.name === 'agent-prod')
          await c.deleteDeployment(d!.id)
          c.close()
        }
        return { status: 404, body: '{"detail":"Not Found"}' }
      })
    )
    expect(r.error?.title).toBe('Deployment deleted')
    expect(r.error_).toMatch(/was deleted during the health check of revision \S+/)
    expect(r.error_).not.toMatch(/get deployment failed|check the id/)
    expect(r.state.health).toBeUndefined()
    expect(r.state.url).toBeUndefined()
  }
)

test('a re-create after a deletion meets the tracing project: named as that, no url of the deleted deployment', async () => {
  const o = inputs({ 'custom-url': 'https://agent.example.com' })
  const first = await run(o)
  const id = first.state.deploymentId!
  const c = client()
  await c.deleteDeployment(id)
  c.close()
  const r = await run(o)
  expect(r.error?.title).toBe('Name held by a tracing project')
  expect(r.error_).toMatch(/A tracing project named "agent-prod" remains/)
  expect(r.error_).toMatch(/delete-tracing-project: true/)
  expect(r.error_).not.toMatch(/a deployment with this name already exists/)
  expect(r.state.url).toBeUndefined()
  expect(r.state.deploymentId).toBeUndefined()
})

test('Serverless: a wake-up is waited on for 3 min at most; 503s past it are unhealthy, long before the timeout', async () => {
  const r = await run(
    inputs({
      'deployment-type': 'serverless',
      'health-check': 'true',
      'health-check-window': '10s',
      timeout: '30m'
    }),
    probeOf({ status: 503, body: 'upstream is starting' })
  )
  expect(r.state.outcome).toBe('unhealthy')
  expect(r.error?.title).toBe('Agent server unhealthy')
  expect(r.error_).toMatch(
    /still answered 503 \(probe \d+\) after 3m(0\ds)? of wake-up, past the 3m a wake-up may take: it is unhealthy, not waking up/
  )
  expect(r.error_).not.toMatch(/did not wake up/)
  expect(r.lines).toContain('Serverless deployment waking up, waited 0s of at most 3m.')
  expect(
    r.lines.filter(l => l.startsWith('Serverless deployment waking up')).length
  ).toBeGreaterThan(5)
  // The bound, not the 30 min timeout, ended the gate (the wait for DEPLOYED is minutes at most).
  expect(r.tookMs).toBeLessThan(15 * 60_000)
})
