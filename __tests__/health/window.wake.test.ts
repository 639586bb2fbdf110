// The health gate on a Serverless deployment (`wakes`): a server scaled to zero wakes on the first
// probe. A 503 or a slow answer while it wakes is warming, never unhealthy, within the deadline;
// the result names the probe that waited on the wake-up.
import { describe, expect, test } from '@jest/globals'
import { Redactor } from '../../src/control-plane/redact.ts'
import { ProbeTimeoutError, type ProbeRequest } from '../../src/health/probe.ts'
import { checkHealth, type HealthCheckOptions } from '../../src/health/window.ts'

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
