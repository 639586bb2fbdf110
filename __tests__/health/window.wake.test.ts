// The health gate on a Serverless deployment (`wakes`): a server scaled to zero wakes on the first
// probe. A 503 or a slow answer while it wakes is warming, never unhealthy, within the deadline;
// the result names the probe that waited on the wake-up.
import { describe, expect, test } from '@jest/globals'
import { Redactor } from '../../src/control-plane/redact.ts'
import { ProbeTimeoutError, type ProbeRequest } from '../../src/health/probe.ts'
import { checkHealth, WAKE_MAX_MS, type HealthCheckOptions } from '../../src/health/window.ts'

const URL_ = 'http://127.0.0.1:9/agent'

/**
 * A virtual clock and a server asleep until `wakesAt`: before it, a probe gets `asleep` (a 503,
 * or no answer until the probe's own time runs out: then `slow`), after it 200.
 */
function sleeper(wakesAt: number, asleep: '503' | 'slow', wakes: boolean) {
  let t = 0
  const timeouts: number[] = []
  const transport = async (req: ProbeRequest) => {
    timeouts.push(req.timeoutMs)
    if (t >= wakesAt) return { status: 200, body: '{"ok":true}' }
    if (asleep === '503') return { status: 503, body: 'waking up' }
    if (t + req.timeoutMs < wakesAt) {
      t += req.timeoutMs
      throw new ProbeTimeoutError(req.timeoutMs)
    }
    t = wakesAt
    return { status: 200, body: '{"ok":true}' }
  }
  const o: HealthCheckOptions = {
    url: URL_,
    path: '/ok',
    apiKey: 'k',
    deadline: 120_000,
    windowMs: 10_000,
    intervalMs: 2000,
    redactor: new Redactor([]),
    clock: { now: () => t, sleep: async ms => void (t += ms) },
    transport,
    ...(wakes ? { wakes: true } : {})
  }
  return { o, timeouts }
}

describe('a Serverless server waking up', () => {
  test('503s while it wakes are warming; the first 2xx names the wait', async () => {
    const s = sleeper(20_000, '503', true)
    const r = await checkHealth(s.o)
    expect(r.health).toBe('healthy')
    expect(r.wokeUp).toEqual({ probe: 11, waitedMs: 20_000 })
  })

  test('a slow first answer is waited for, up to the deadline, instead of cut at 10 s', async () => {
    const s = sleeper(25_000, 'slow', true)
    const r = await checkHealth(s.o)
    expect(r.health).toBe('healthy')
    expect(r.wokeUp).toEqual({ probe: 1, waitedMs: 25_000 })
    expect(s.timeouts[0]).toBe(120_000)
    // From the first 2xx on, each probe has its usual bound again.
    expect(s.timeouts[1]).toBe(10_000)
  })

  test('a server that never wakes is unhealthy at the deadline, said as that', async () => {
    const s = sleeper(Infinity, '503', true)
    const r = await checkHealth(s.o)
    expect(r.health).toBe('unhealthy')
    expect(r.reason).toMatch(/did not wake up before the timeout/)
    expect(r.answers.every(a => a.warming)).toBe(true)
  })

  test('a 503 inside the window starts the window again instead of failing it', async () => {
    let n = 0
    const s = sleeper(0, '503', true)
    s.o.transport = async () => (++n === 3 ? { status: 503, body: '' } : { status: 200, body: '' })
    const r = await checkHealth(s.o)
    expect(r.health).toBe('healthy')
    // Without `wakes` the same answers are unhealthy.
    n = 0
    const { wakes: _, ...plain } = s.o
    expect((await checkHealth(plain)).health).toBe('unhealthy')
  })

  test('without `wakes` (Dedicated) nothing is warming and no wake-up is said', async () => {
    const s = sleeper(6000, '503', false)
    const r = await checkHealth(s.o)
    expect(r.health).toBe('healthy')
    expect(r.wokeUp).toBeUndefined()
    expect(r.answers.some(a => a.warming)).toBe(false)
  })
})

describe('a wake-up is a bounded wait', () => {
  test('503s past the bound are an unhealthy server, said when the bound passes, not at the deadline', async () => {
    const s = sleeper(Infinity, '503', true)
    s.o.deadline = 1_800_000
    const r = await checkHealth(s.o)
    expect(r.health).toBe('unhealthy')
    expect(r.reason).toMatch(/after 3m of wake-up, past the 3m a wake-up may take: it is unhealthy/)
    expect(r.reason).not.toMatch(/did not wake up/)
    // It ended at the bound, long before the deadline.
    expect(r.elapsedMs).toBe(WAKE_MAX_MS)
    expect(r.answers.at(-1)?.status).toBe(503)
    expect(r.answers.at(-1)?.warming).toBeUndefined()
  })

  test('while it wakes each answer says how long so far, and the most: the bound, or the deadline when nearer', async () => {
    const far = sleeper(20_000, '503', true)
    far.o.deadline = 1_800_000
    const seen: { waitedMs: number; maxMs: number }[] = []
    far.o.onProbe = (_, a) => void (a.wake && seen.push(a.wake))
    await checkHealth(far.o)
    expect(seen[0]).toEqual({ waitedMs: 0, maxMs: WAKE_MAX_MS })
    expect(seen.at(-1)).toEqual({ waitedMs: 18_000, maxMs: WAKE_MAX_MS })
    const near = sleeper(Infinity, '503', true)
    near.o.onProbe = (_, a) => void (a.wake && seen.push(a.wake))
    const r = await checkHealth(near.o)
    expect(seen.at(-1)?.maxMs).toBe(120_000)
    expect(r.reason).toMatch(/did not wake up before the timeout .*waited 2m of at most 2m/)
  })

  test('a first answer that never comes is waited on up to the bound, then unhealthy', async () => {
    const s = sleeper(Infinity, 'slow', true)
    s.o.deadline = 1_800_000
    const r = await checkHealth(s.o)
    expect(s.timeouts[0]).toBe(WAKE_MAX_MS)
    expect(r.health).toBe('unhealthy')
    expect(r.reason).toMatch(/still gave no answer \(probe 1\) after 3m of wake-up/)
    expect(r.elapsedMs).toBe(WAKE_MAX_MS)
  })

  test('a second sleep inside the window has a bound of its own', async () => {
    let n = 0
    const s = sleeper(0, '503', true)
    s.o.deadline = 1_800_000
    // Awake for two probes after 170 s of 503s, then asleep again for 100 s: healthy.
    s.o.transport = async () => {
      n++
      const awake = (n > 85 && n <= 87) || n > 137
      return awake ? { status: 200, body: '{"ok":true}' } : { status: 503, body: '' }
    }
    const r = await checkHealth(s.o)
    expect(r.health).toBe('healthy')
  })

  test('a 503 carrying the server’s own error is an awake, unhealthy server: never warming', async () => {
    const s = sleeper(0, '503', true)
    s.o.transport = async () => ({
      status: 503,
      body: '{"ok":false,"error":"database unreachable"}'
    })
    const r = await checkHealth(s.o)
    expect(r.health).toBe('unhealthy')
    expect(r.answers.some(a => a.warming)).toBe(false)
    expect(r.answers[0]?.serverError).toBe('database unreachable')
    expect(r.reason).not.toMatch(/did not wake up/)
    expect(r.reason).toMatch(/an error of its own, so it is awake/)
  })

  test('a 503 whose JSON says only what the platform does (no error of the server’s own) is warming', async () => {
    const s = sleeper(10_000, '503', true)
    s.o.transport = async () =>
      s.o.clock.now() >= 10_000
        ? { status: 200, body: '{"ok":true}' }
        : { status: 503, body: '{"detail":"The agent server is waking up (scaled to zero)."}' }
    const r = await checkHealth(s.o)
    expect(r.health).toBe('healthy')
    expect(r.wokeUp).toEqual({ probe: 6, waitedMs: 10_000 })
  })
})
