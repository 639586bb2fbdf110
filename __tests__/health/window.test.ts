import { describe, expect, test } from '@jest/globals'
import { Redactor } from '../../src/control-plane/redact.ts'
import {
  checkHealth,
  HealthTargetError,
  UNAVAILABLE_AFTER,
  WAKE_MAX_MS,
  type HealthCheckOptions
} from '../../src/health/window.ts'
import { exactHost } from '../../src/control-plane/vouched-hosts.ts'
import { ProbeTimeoutError, type ProbeRequest, type ProbeResponse } from '../../src/health/probe.ts'

const KEY = 'lsv2_pt_health_gate_test_key_0123456789'
const URL_ = 'https://agent.example.com'

type Scripted = ProbeResponse | Error | ((t: number) => ProbeResponse | Error)

/**
 * A virtual clock and an agent server that answers probe n with script[n] (the last one
 * repeating); each answer takes `answerMs` of virtual time.
 */
function agent(script: Scripted[], answerMs = 50) {
  let t = 0
  const sent: { at: number; req: ProbeRequest }[] = []
  const transport = async (req: ProbeRequest): Promise<ProbeResponse> => {
    sent.push({ at: t, req })
    t += answerMs
    let a = script[Math.min(sent.length - 1, script.length - 1)]!
    if (typeof a === 'function') a = a(t)
    if (a instanceof Error) throw a
    return a
  }
  const base: HealthCheckOptions = {
    url: URL_,
    path: '/ok',
    apiKey: KEY,
    vouched: [exactHost(URL_)!],
    deadline: 60_000,
    windowMs: 30_000,
    intervalMs: 5000,
    redactor: new Redactor([KEY]),
    clock: {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms
      }
    },
    transport
  }
  return { sent, base, now: () => t }
}

const ok: ProbeResponse = { status: 200, body: '{"ok": true}' }
const down = (status: number, body = 'database unreachable'): ProbeResponse => ({ status, body })

describe('healthy', () => {
  test('a 2xx at once, then every probe of the window 2xx: healthy after about window/interval + 1 probes', async () => {
    const a = agent([ok])
    const r = await checkHealth(a.base)
    expect(r.health).toBe('healthy')
    expect(r.probes).toBe(7)
    expect(r.answers).toEqual([
      { status: 200, excerpt: '{"ok": true}' },
      { status: 200, excerpt: '{"ok": true}' },
      { status: 200, excerpt: '{"ok": true}' }
    ])
    // The window is 30 s after the first 2xx, not longer.
    expect(a.sent.at(-1)!.at).toBeLessThanOrEqual(30_050)
  })

  test('failing probes before the first 2xx are waited out until the deadline', async () => {
    const a = agent([down(503), down(502), new ProbeTimeoutError(10_000), ok])
    const r = await checkHealth({ ...a.base, windowMs: 10_000 })
    expect(r.health).toBe('healthy')
    expect(r.probes).toBe(4 + 2)
  })

  test('a window of 0 is one 2xx', async () => {
    const a = agent([ok])
    const r = await checkHealth({ ...a.base, windowMs: 0 })
    expect(r).toMatchObject({ health: 'healthy', probes: 1 })
  })

  test('each probe asks GET {url}{path} with the key and nothing else', async () => {
    const a = agent([ok])
    await checkHealth({
      ...a.base,
      url: 'https://agent.example.com/tenant/agent/',
      path: '/ok?check_db=1',
      windowMs: 0
    })
    const req = a.sent[0]!.req
    expect(req.url.href).toBe('https://agent.example.com/tenant/agent/ok?check_db=1')
    expect(req.headers).toEqual({ 'x-api-key': KEY, accept: 'application/json' })
  })
})

describe('unhealthy', () => {
  test('never a 2xx: probes until the deadline, then unhealthy with the last answers', async () => {
    const a = agent([down(500, 'boom 1'), down(503, 'boom 2'), down(502, `key ${KEY} leaked`)])
    const r = await checkHealth(a.base)
    expect(r.health).toBe('unhealthy')
    expect(r.reason).toMatch(/no probe answered 2xx before the timeout/)
    // Every 5 s from 0 to the 60 s deadline, the last one on it.
    expect(a.sent.map(s => s.at)).toEqual([
      0, 5050, 10_100, 15_150, 20_200, 25_250, 30_300, 35_350, 40_400, 45_450, 50_500, 55_550,
      60_000
    ])
    expect(r.answers).toEqual([
      { status: 502, excerpt: 'key *** leaked' },
      { status: 502, excerpt: 'key *** leaked' },
      { status: 502, excerpt: 'key *** leaked' }
    ])
  })

  test('one failed probe after the first 2xx is unhealthy at once (a flapping server)', async () => {
    const a = agent([ok, ok, down(500), ok])
    const r = await checkHealth(a.base)
    expect(r).toMatchObject({ health: 'unhealthy', probes: 3 })
    expect(r.reason).toMatch(/probe 3 failed after the agent server had answered 2xx/)
    expect(r.answers.map(x => x.status)).toEqual([200, 200, 500])
  })

  test('a 404 after the first 2xx is a failure, not unavailable', async () => {
    const a = agent([ok, down(404, 'Not Found')])
    expect((await checkHealth(a.base)).health).toBe('unhealthy')
  })

  test('a redirect is an unhealthy answer naming the host it points at; it is not followed', async () => {
    const a = agent([{ status: 302, location: 'https://login.example.net/sso?next=/ok', body: '' }])
    const r = await checkHealth({ ...a.base, deadline: 10_000 })
    expect(r.health).toBe('unhealthy')
    expect(r.answers.at(-1)).toEqual({
      status: 302,
      excerpt: 'redirect to login.example.net, not followed'
    })
    expect(new Set(a.sent.map(s => s.req.url.host))).toEqual(new Set(['agent.example.com']))
  })

  test('timeouts and resets are answers without a status', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
    const a = agent([new ProbeTimeoutError(10_000), reset])
    const r = await checkHealth({ ...a.base, deadline: 5000 })
    expect(r.health).toBe('unhealthy')
    expect(r.answers).toEqual([
      { status: null, excerpt: 'no answer within 10000 ms' },
      { status: null, excerpt: 'the connection was reset' }
    ])
  })

  test('a long body is cut short and cleaned of control characters', async () => {
    const a = agent([down(500, `\u001b[31mred\u001b[0m\n::error::x ${'y'.repeat(500)}`)])
    const r = await checkHealth({ ...a.base, deadline: 0 })
    const excerpt = r.answers[0]!.excerpt
    expect(excerpt.startsWith('red : :error: :x yyy')).toBe(true)
    expect(excerpt.length).toBeLessThan(160)
  })
})

describe('unavailable', () => {
  test(`${UNAVAILABLE_AFTER} probes all 404: the health routes are off; no need to wait the timeout out`, async () => {
    const a = agent([down(404, '{"detail":"Not Found"}')])
    const r = await checkHealth(a.base)
    expect(r).toMatchObject({ health: 'unavailable', probes: UNAVAILABLE_AFTER })
  })

  test('a 404 among other failures is unhealthy', async () => {
    const a = agent([down(404), down(503), down(404)])
    expect((await checkHealth({ ...a.base, deadline: 20_000 })).health).toBe('unhealthy')
  })

  test('404s then a 2xx: the window decides', async () => {
    const a = agent([down(404), ok])
    expect((await checkHealth(a.base)).health).toBe('healthy')
  })
})

describe('where the key may go', () => {
  const refused = async (url: string | null) => {
    const a = agent([ok])
    await expect(checkHealth({ ...a.base, url })).rejects.toBeInstanceOf(HealthTargetError)
    expect(a.sent).toHaveLength(0)
  }

  test('plain http to another machine is refused before any probe', async () => {
    await refused('http://agent.example.com')
    await refused('http://10.0.0.7:8000')
  })

  test('no custom_url, another scheme, or credentials in it: refused', async () => {
    await refused(null)
    await refused('ftp://agent.example.com')
    await refused('https://user:pass@agent.example.com')
  })

  test('the refusal says why, without the key', async () => {
    const a = agent([ok])
    await expect(checkHealth({ ...a.base, url: `http://example.com/${KEY}` })).rejects.toThrow(
      /plain http to another machine: the api-key is sent only over https or to a loopback address/
    )
  })

  test('plain http to a loopback address is allowed', async () => {
    for (const url of [
      'http://127.0.0.1:9',
      'http://127.8.0.1',
      'http://[::1]:80',
      'http://localhost'
    ]) {
      const a = agent([ok])
      expect((await checkHealth({ ...a.base, url, windowMs: 0 })).health).toBe('healthy')
    }
  })
})

describe('bounded and cancellable', () => {
  test('a server that never answers costs at most deadline/interval + 1 probes', async () => {
    const a = agent([new ProbeTimeoutError(10_000)], 10_000)
    const r = await checkHealth(a.base)
    expect(r.health).toBe('unhealthy')
    expect(r.probes).toBeLessThanOrEqual(60_000 / 5000 + 1)
    expect(a.now()).toBeLessThanOrEqual(60_000 + 10_000)
  })

  test('every probe is bounded by the probe timeout', async () => {
    const a = agent([ok])
    await checkHealth({ ...a.base, probeTimeoutMs: 3000, windowMs: 0 })
    expect(a.sent[0]!.req.timeoutMs).toBe(3000)
  })

  test('an abort ends the check; an answer that comes after it is not counted', async () => {
    const controller = new AbortController()
    const a = agent([
      t => {
        if (t > 5000) controller.abort()
        return down(503)
      }
    ])
    const r = await checkHealth({ ...a.base, signal: controller.signal })
    expect(r.health).toBe('cancelled')
    expect(r.probes).toBe(1)
    expect(a.sent).toHaveLength(2)
  })
})

describe('a check alongside the probes (the revision served)', () => {
  /** Answers `steps` in turn (the last repeating), counting its asks. */
  const alongside = (steps: ('match' | 'wait' | 'settled' | 'fail')[]) => {
    let asked = 0
    return {
      asked: () => asked,
      check: { ask: async () => steps[Math.min(asked++, steps.length - 1)]! }
    }
  }

  test('a match from the first probe: the window is the same one, no probe more', async () => {
    const a = agent([ok])
    const side = alongside(['match'])
    const r = await checkHealth({ ...a.base, alongside: side.check })
    expect(r.health).toBe('healthy')
    expect(r.probes).toBe(7)
    expect(side.asked()).toBe(7)
  })

  test('waiting at first: the probes go on, and its own window runs from its first match', async () => {
    const a = agent([ok])
    const side = alongside(['wait', 'wait', 'wait', 'match'])
    const r = await checkHealth({ ...a.base, alongside: side.check })
    expect(r.health).toBe('healthy')
    // 3 probes (15 s) before the match, then 30 s of window: 10 probes.
    expect(r.probes).toBe(10)
  })

  test('never matching: the probes go on until the deadline, then end without a last probe', async () => {
    const a = agent([ok])
    const side = alongside(['wait'])
    const r = await checkHealth({ ...a.base, alongside: side.check })
    expect(r.health).toBe('healthy')
    expect(a.now()).toBe(60_000)
    expect(a.sent.every(s => s.at < 60_000)).toBe(true)
  })

  test('settled (no host block): asked once, the window is the probes’ own', async () => {
    const a = agent([ok])
    const side = alongside(['settled'])
    const r = await checkHealth({ ...a.base, alongside: side.check })
    expect(r.health).toBe('healthy')
    expect(r.probes).toBe(7)
    expect(side.asked()).toBe(1)
  })

  test('fail stops the probes at once; not asked before the first 2xx', async () => {
    const a = agent([down(503), ok])
    const side = alongside(['match', 'fail'])
    const r = await checkHealth({ ...a.base, alongside: side.check })
    expect(r.probes).toBe(3)
    expect(side.asked()).toBe(2)
  })
})

// The health gate on a Serverless deployment (`wakes`): a server scaled to zero wakes on the first
// probe. A 503 or a slow answer while it wakes is warming, never unhealthy, within the deadline;
// the result names the probe that waited on the wake-up.
describe('wake', () => {
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
      s.o.transport = async () =>
        ++n === 3 ? { status: 503, body: '' } : { status: 200, body: '' }
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
      expect(r.reason).toMatch(
        /after 3m of wake-up, past the 3m a wake-up may take: it is unhealthy/
      )
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
})
