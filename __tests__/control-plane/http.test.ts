import { describe, expect, test } from '@jest/globals'
import { AbortedError, ApiError, NetworkError } from '../../src/control-plane/errors.ts'
import { backoffDelay, parseRetryAfter } from '../../src/control-plane/http-util.ts'
import * as scripted from '../builders/scripted-server.ts'

const NOW = Date.parse('2025-03-04T05:06:07Z')

describe('parseRetryAfter', () => {
  test.each([
    ['0', 0],
    ['3', 3000],
    [' 7 ', 7000],
    ['120', 120_000],
    ['1.5', 1500]
  ])('seconds %j -> %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms)
  })

  test('an HTTP date is the time left until it', () => {
    expect(parseRetryAfter(new Date(NOW + 42_000).toUTCString(), NOW)).toBe(42_000)
    expect(parseRetryAfter('Tue, 04 Mar 2025 05:07:07 GMT', NOW)).toBe(60_000)
  })

  test('an HTTP date in the past means now', () => {
    expect(parseRetryAfter('Tue, 04 Mar 2025 05:00:00 GMT', NOW)).toBe(0)
  })

  test.each([undefined, '', '   ', 'soon', 'later, please'])('%j is no Retry-After', value => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined()
  })

  test('a repeated header uses the first value', () => {
    expect(parseRetryAfter(['2', '30'], NOW)).toBe(2000)
  })
})

describe('backoffDelay (full jitter)', () => {
  test('the cap doubles with each attempt from the base, up to the maximum', () => {
    const top = () => 1
    expect([1, 2, 3, 4, 5, 6, 7].map(a => backoffDelay(a, 500, 20_000, top))).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 20_000
    ])
    expect(backoffDelay(40, 500, 20_000, top)).toBe(20_000)
  })

  test('the delay is a uniform draw below the cap', () => {
    expect(backoffDelay(3, 500, 20_000, () => 0)).toBe(0)
    expect(backoffDelay(3, 500, 20_000, () => 0.25)).toBe(500)
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(4, 100, 20_000)
      expect(d).toBeGreaterThanOrEqual(0)
      expect(d).toBeLessThanOrEqual(800)
      expect(Number.isInteger(d)).toBe(true)
    }
  })

  test('random draws spread out (jitter), not one fixed value', () => {
    const draws = new Set(Array.from({ length: 50 }, () => backoffDelay(5, 1000, 60_000)))
    expect(draws.size).toBeGreaterThan(10)
  })
})

/** A client whose sleeps are recorded and skipped, with a fixed jitter draw. */
function scheduled(baseUrl: string, extra: Parameters<typeof scripted.makeClient>[1] = {}) {
  const sleeps: number[] = []
  const debug: string[] = []
  const { retry, ...rest } = extra
  const client = scripted.makeClient(baseUrl, {
    random: () => 0.5,
    sleep: async ms => {
      sleeps.push(ms)
    },
    debug: line => debug.push(line),
    ...rest,
    retry: { baseDelayMs: 100, maxDelayMs: 1000, ...retry }
  })
  return { client, sleeps, debug }
}

describe('the retry schedule', () => {
  test('exponential backoff with jitter between attempts, then success', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(503),
        scripted.reply(503),
        scripted.reply(503),
        scripted.reply(503),
        scripted.reply(200, scripted.deploymentBody())
      )
    )
    const { client, sleeps } = scheduled(server.origin)
    const deployment = await client.getDeployment(scripted.DEPLOYMENT_ID)
    expect(deployment.id).toBe(scripted.DEPLOYMENT_ID)
    expect(server.requests).toHaveLength(5)
    // random() = 0.5 of a cap of 100, 200, 400, 800 ms.
    expect(sleeps).toEqual([50, 100, 200, 400])
  })

  test('the backoff cap stops at maxDelayMs', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(502),
        scripted.reply(502),
        scripted.reply(502),
        scripted.reply(200, [])
      )
    )
    const { client, sleeps } = scheduled(server.origin, {
      retry: { baseDelayMs: 100, maxDelayMs: 150, maxAttempts: 5 },
      random: () => 1
    })
    await client.listRepositories(scripted.DEPLOYMENT_ID)
    expect(sleeps).toEqual([100, 150, 150])
  })

  test('gives up after maxAttempts with the last error', async () => {
    const server = await scripted.startServer(
      scripted.reply(503, { detail: 'upstream overloaded' })
    )
    const { client, sleeps } = scheduled(server.origin, { retry: { maxAttempts: 3 } })
    const err = await scripted.rejectionOf(client.getDeployment(scripted.DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(503)
    expect(err.message).toContain('upstream overloaded')
    expect(server.requests).toHaveLength(3)
    expect(sleeps).toHaveLength(2)
  })

  test('network errors follow the same schedule and end in a NetworkError naming the attempts', async () => {
    const server = await scripted.startServer(scripted.hangUp)
    const { client, sleeps } = scheduled(server.origin, { retry: { maxAttempts: 4 } })
    const err = await scripted.rejectionOf(client.getDeployment(scripted.DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(NetworkError)
    expect((err as NetworkError).attempts).toBe(4)
    expect(err.message).toContain('the connection was reset (ECONNRESET; GET /v2/deployments/')
    expect(err.message).toContain(', 4 attempts).\nHint: check `base-url` (127.0.0.1:')
    expect(server.requests).toHaveLength(4)
    expect(sleeps).toEqual([50, 100, 200])
  })

  test('a rate limit has a budget of its own: a reset after many 429s is retried, not fatal', async () => {
    const limited = scripted.reply(429, { detail: 'slow down' }, { 'Retry-After': '1' })
    const server = await scripted.startServer(
      scripted.script(
        ...Array.from({ length: 6 }, () => limited),
        scripted.hangUp,
        scripted.reply(200, scripted.deploymentBody())
      )
    )
    const { client, sleeps } = scheduled(server.origin, { retry: { maxAttempts: 3 } })
    const deployment = await client.getDeployment(scripted.DEPLOYMENT_ID)
    expect(deployment.id).toBe(scripted.DEPLOYMENT_ID)
    expect(server.requests).toHaveLength(8)
    expect(sleeps).toHaveLength(7)
  })

  test('failed attempts between 429s still end at maxAttempts, naming the last failure', async () => {
    const limited = scripted.reply(429, undefined, { 'Retry-After': '1' })
    const server = await scripted.startServer(
      scripted.script(limited, scripted.hangUp, limited, scripted.hangUp, limited, scripted.hangUp)
    )
    const { client } = scheduled(server.origin, { retry: { maxAttempts: 3 } })
    const err = await scripted.rejectionOf(client.getDeployment(scripted.DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(NetworkError)
    expect(err.message).toContain('the connection was reset (ECONNRESET; GET /v2/deployments/')
    expect(err.message).toContain(', 6 attempts)')
    expect(server.requests).toHaveLength(6)
  })

  test('Retry-After in seconds is the floor of the pause, the backoff’s jitter on top', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(429, { detail: 'slow down' }, { 'Retry-After': '7' }),
        scripted.reply(200, [])
      )
    )
    const { client, sleeps, debug } = scheduled(server.origin)
    await client.listRepositories(scripted.DEPLOYMENT_ID)
    // 7 s asked, plus the jittered backoff of a first retry (0.5 × 100 ms) to spread a herd.
    expect(sleeps).toEqual([7050])
    expect(debug.some(l => l.includes('HTTP 429') && l.includes('7050 ms (Retry-After)'))).toBe(
      true
    )
  })

  test('Retry-After as an HTTP date is measured from the injected clock', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(503, undefined, { 'Retry-After': new Date(NOW + 3000).toUTCString() }),
        scripted.reply(200, [])
      )
    )
    const { client, sleeps } = scheduled(server.origin, { now: () => NOW })
    await client.listRepositories(scripted.DEPLOYMENT_ID)
    expect(sleeps).toEqual([3050])
  })

  test('a long Retry-After is capped by maxRetryAfterMs', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(429, undefined, { 'Retry-After': '3600' }),
        scripted.reply(200, [])
      )
    )
    const { client, sleeps } = scheduled(server.origin, {
      retry: { maxRetryAfterMs: 2500 }
    })
    await client.listRepositories(scripted.DEPLOYMENT_ID)
    expect(sleeps).toEqual([2550])
  })

  test('an unreadable Retry-After falls back to the backoff', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(503, undefined, { 'Retry-After': 'whenever' }),
        scripted.reply(200, [])
      )
    )
    const { client, sleeps } = scheduled(server.origin)
    await client.listRepositories(scripted.DEPLOYMENT_ID)
    expect(sleeps).toEqual([50])
  })

  test('no retry when the Retry-After would end past the deadline: the error comes at once', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(503, { detail: 'maintenance' }, { 'Retry-After': '30' }),
        scripted.reply(200, [])
      )
    )
    const { client, sleeps } = scheduled(server.origin, {
      now: () => NOW,
      deadline: NOW + 10_000
    })
    const err = await scripted.rejectionOf(client.listRepositories(scripted.DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(503)
    expect(server.requests).toHaveLength(1)
    expect(sleeps).toEqual([])
  })

  test('no request starts once the deadline has passed', async () => {
    const server = await scripted.startServer(scripted.reply(200, []))
    let clock = NOW
    const { client } = scheduled(server.origin, { now: () => clock, deadline: NOW + 1000 })
    await client.listRepositories(scripted.DEPLOYMENT_ID)
    clock = NOW + 1000
    const err = await scripted.rejectionOf(client.listRepositories(scripted.DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(AbortedError)
    expect(err.message).toContain('deadline')
    expect(server.requests).toHaveLength(1)
  })

  test('the clock passing the deadline during a backoff stops the retries, naming the last answer', async () => {
    const server = await scripted.startServer(scripted.reply(503))
    let clock = NOW
    const { client } = scheduled(server.origin, {
      now: () => clock,
      deadline: NOW + 5000,
      sleep: async ms => {
        clock += ms + 5000
      }
    })
    const err = await scripted.rejectionOf(client.listRepositories(scripted.DEPLOYMENT_ID))
    // What the run reports is the answer it retried after, not that the next try was never sent.
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(503)
    expect(server.requests).toHaveLength(1)
  })

  test('cancelling during a backoff ends the call with AbortedError, without another request', async () => {
    const server = await scripted.startServer(scripted.reply(503))
    const controller = new AbortController()
    const sleeps: number[] = []
    let backingOff!: () => void
    const inBackoff = new Promise<void>(resolve => (backingOff = resolve))
    const client = scripted.makeClient(server.origin, {
      signal: controller.signal,
      retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 },
      random: () => 1,
      // A backoff that never ends by itself: the call can end only through the cancel.
      sleep: (ms, signal) => {
        sleeps.push(ms)
        backingOff()
        return new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
        )
      }
    })
    const pending = scripted.rejectionOf(client.listRepositories(scripted.DEPLOYMENT_ID))
    await inBackoff
    controller.abort()
    const err = await pending
    expect(err).toBeInstanceOf(AbortedError)
    expect(sleeps).toEqual([10_000])
    expect(server.requests).toHaveLength(1)
  })
  test('a per-call deadline stops retries that the client alone would make', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(503, { detail: 'busy' }, { 'Retry-After': '5' }),
        scripted.reply(503, { detail: 'busy' }, { 'Retry-After': '5' }),
        scripted.reply(200, scripted.deploymentBody())
      )
    )
    const { client, sleeps } = scheduled(server.origin, { now: () => NOW })
    const err = await scripted.rejectionOf(
      client.getDeployment(scripted.DEPLOYMENT_ID, { deadline: NOW + 1000 })
    )
    expect(err).toMatchObject({ status: 503 })
    expect(sleeps).toEqual([])
    // Without it, the same answer is waited out and retried.
    await client.getDeployment(scripted.DEPLOYMENT_ID)
    expect(sleeps).toEqual([5050])
    expect(server.requests).toHaveLength(3)
  })

  test('a per-call deadline already past sends nothing', async () => {
    const server = await scripted.startServer(scripted.reply(200, scripted.deploymentBody()))
    const { client } = scheduled(server.origin, { now: () => NOW })
    const err = await scripted.rejectionOf(
      client.getRevision(scripted.DEPLOYMENT_ID, scripted.DEPLOYMENT_ID, { deadline: NOW - 1 })
    )
    expect(err).toBeInstanceOf(AbortedError)
    expect(server.requests).toHaveLength(0)
  })

  test("the earlier of the client's and the call's deadlines applies", async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(429, undefined, { 'Retry-After': '1' }),
        scripted.reply(200, scripted.deploymentBody())
      )
    )
    const { client, sleeps } = scheduled(server.origin, {
      now: () => NOW,
      deadline: NOW + 500
    })
    const err = await scripted.rejectionOf(
      client.getDeployment(scripted.DEPLOYMENT_ID, { deadline: NOW + 60_000 })
    )
    expect(err).toMatchObject({ status: 429 })
    expect(sleeps).toEqual([])
    expect(server.requests).toHaveLength(1)
  })
})
