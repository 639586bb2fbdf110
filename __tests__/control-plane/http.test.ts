import { describe, expect, test, afterAll, afterEach, beforeAll } from '@jest/globals'
import { AbortedError, ApiError, NetworkError } from '../../src/control-plane/errors.ts'
import { backoffDelay, parseRetryAfter } from '../../src/control-plane/http-util.ts'
import * as scripted from '../builders/scripted-server.ts'
import { makeClock } from '../../src/clock.ts'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { DEFAULT_RETRY, Transport } from '../../src/control-plane/http.ts'
import { Redactor } from '../../src/control-plane/redact.ts'
import { startEmulator, type Emulator } from '../../emulator/server.ts'
import { ACTION_SAY } from '../builders.ts'

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

// The transport honours the runner's proxy settings (http_proxy / https_proxy, loopback hosts
// bypassed), through a local CONNECT proxy that forwards every tunnel to the emulator: the
// control plane's host name is only ever resolved by the proxy.
describe('proxy', () => {
  let emu: Emulator
  let proxy: Server
  let proxyUrl: string
  /** The request lines of the CONNECTs the proxy was asked for. */
  const tunnels: string[] = []
  const sockets = new Set<Socket>()
  const saved = { ...process.env }

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, allowedHosts: ['control-plane.invalid'] })
    const target = Number(new URL(emu.url).port)
    proxy = createServer(client => {
      sockets.add(client)
      client.once('data', head => {
        const line = head.toString('latin1').split('\r\n')[0] ?? ''
        tunnels.push(line)
        if (!line.startsWith('CONNECT ')) return void client.destroy()
        // Whatever host was asked for, the tunnel leads to the emulator.
        const upstream = connect(target, '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
          client.pipe(upstream).pipe(client)
        })
        sockets.add(upstream)
        upstream.on('error', () => client.destroy())
      })
      client.on('error', () => undefined)
    })
    await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve))
    const address = proxy.address()
    proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })

  afterEach(() => {
    process.env = { ...saved }
    tunnels.length = 0
    emu.clearRequests()
  })

  afterAll(async () => {
    for (const s of sockets) s.destroy()
    await new Promise(resolve => proxy.close(resolve))
    await emu.close()
  })

  function transport(baseUrl: string): Transport {
    return new Transport({
      baseUrl,
      headers: { 'X-Api-Key': emu.credentials().apiKey, Accept: 'application/json' },
      requestTimeoutMs: 5000,
      retry: { ...DEFAULT_RETRY, maxAttempts: 1 },
      maxBodyBytes: 1024 * 1024,
      redactor: new Redactor([]),
      say: ACTION_SAY,
      clock: makeClock()
    })
  }

  const list = { method: 'GET', path: '/v2/deployments', operation: 'list deployments' } as const

  test('with http_proxy set, a request to the control plane goes through a CONNECT tunnel of the proxy', async () => {
    process.env.http_proxy = proxyUrl
    const port = new URL(emu.url).port
    // A host only the proxy can reach: no resolver knows it.
    const t = transport(`http://control-plane.invalid:${port}`)
    try {
      const first = await t.send(list)
      const second = await t.send(list)
      expect(first.status).toBe(200)
      expect(second.status).toBe(200)
      expect(tunnels[0]).toBe(`CONNECT control-plane.invalid:${port} HTTP/1.1`)
      expect(emu.requests().map(r => r.path)).toEqual(['/v2/deployments', '/v2/deployments'])
    } finally {
      t.close()
    }
  })

  test('a loopback control plane is reached directly, whatever the proxy settings', async () => {
    process.env.http_proxy = proxyUrl
    process.env.HTTPS_PROXY = proxyUrl
    const t = transport(emu.url)
    try {
      expect((await t.send(list)).status).toBe(200)
      expect(tunnels).toEqual([])
      expect(emu.requests()).toHaveLength(1)
    } finally {
      t.close()
    }
  })

  test('no_proxy naming the host sends the request directly, past the proxy', async () => {
    process.env.http_proxy = proxyUrl
    process.env.no_proxy = 'example.com,control-plane.invalid'
    const t = transport(`http://control-plane.invalid:${new URL(emu.url).port}`)
    try {
      // Direct, the name does not resolve: the request fails without the proxy seeing it.
      await expect(t.send(list)).rejects.toThrow()
      expect(tunnels).toEqual([])
      expect(emu.requests()).toHaveLength(0)
    } finally {
      t.close()
    }
  })
})
