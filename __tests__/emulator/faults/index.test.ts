// Injected faults and the global rate limit, seen from an HTTP client.
import { describe, expect, it } from '@jest/globals'
import { Deployment } from '../../../src/control-plane/schema.ts'
import type { Emulator } from '../../../emulator/server.ts'
import {
  call,
  codehostBody,
  emulatorPerTest,
  type Json,
  manualClock,
  OTHER_KEY,
  start
} from '../../builders/emulator.ts'

const { emu } = emulatorPerTest()

const names = (e: Emulator) => e.state().tenants.flatMap(t => t.deployments.map(d => d.name))

describe('matching', () => {
  it('applies `times` times, then is gone', async () => {
    emu.setFaults({ kind: 'status', status: 503, path: '/v2/deployments', times: 2 })
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(503)
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(503)
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(200)
    expect(emu.faults()).toEqual([])
  })

  it('persistent faults stay until cleared', async () => {
    emu.setFaults({ kind: 'status', status: 500 })
    for (let i = 0; i < 3; i++) expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(500)
    emu.clearFaults()
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(200)
  })

  it('matches method and path patterns (* = one segment, ** = any)', async () => {
    emu.setFaults({ kind: 'status', status: 502, method: 'GET', path: '/v2/deployments/*' })
    const id = '99999999-9999-4999-8999-999999999999'
    expect((await call(emu, 'GET', `/v2/deployments/${id}`)).status).toBe(502)
    expect((await call(emu, 'PATCH', `/v2/deployments/${id}`, { body: {} })).status).toBe(404)
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(200)
    expect((await call(emu, 'GET', `/v2/deployments/${id}/revisions/${id}`)).status).toBe(404)
    emu.setFaults({ kind: 'status', status: 502, path: '/v2/deployments/**' })
    expect((await call(emu, 'GET', `/v2/deployments/${id}/revisions/${id}`)).status).toBe(502)
  })

  it('skip lets the first matching requests through', async () => {
    emu.setFaults({ kind: 'status', status: 500, skip: 1, times: 1 })
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(200)
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(500)
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(200)
  })

  it('rejects an invalid fault spec', () => {
    expect(() => emu.setFaults({ kind: 'nonsense' } as never)).toThrow()
  })
})

describe('kinds', () => {
  it('429 with and without Retry-After', async () => {
    emu.setFaults([
      { kind: 'status', status: 429, retryAfter: 7, times: 1 },
      { kind: 'status', status: 429, times: 1 }
    ])
    const first = await call(emu, 'GET', '/v2/deployments')
    expect([first.status, first.headers.get('retry-after')]).toEqual([429, '7'])
    expect(first.body).toEqual({ detail: 'Too Many Requests' })
    const second = await call(emu, 'GET', '/v2/deployments')
    expect([second.status, second.headers.get('retry-after')]).toEqual([429, null])
  })

  it('5xx with a JSON or a plain-text body', async () => {
    emu.setFaults([
      { kind: 'status', status: 504, body: 'text', times: 1 },
      { kind: 'status', status: 500, times: 1 }
    ])
    const text = await call(emu, 'GET', '/v2/deployments')
    expect(text.status).toBe(504)
    expect(text.headers.get('content-type')).toMatch(/^text\/html/)
    expect(text.text).toContain('504 Gateway Timeout')
    const json = await call(emu, 'GET', '/v2/deployments')
    expect(json.body).toEqual({ detail: 'Internal Server Error' })
  })

  it('reset: the connection drops and nothing is applied', async () => {
    emu.setFaults({ kind: 'reset', times: 1 })
    await expect(
      call(emu, 'POST', '/v2/deployments', { body: codehostBody('r') })
    ).rejects.toThrow()
    expect(names(emu)).toEqual([])
    expect(emu.requests()[0]).toMatchObject({ status: null, fault: 'reset' })
  })

  it('lost-response: the write is applied, then the connection drops', async () => {
    emu.setFaults({ kind: 'lost-response', method: 'POST', times: 1 })
    await expect(
      call(emu, 'POST', '/v2/deployments', { body: codehostBody('lost') })
    ).rejects.toThrow()
    expect(names(emu)).toEqual(['lost'])
    const retry = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('lost') })
    expect(retry.status).toBe(409)
  })

  it('delay: answers normally after the pause', async () => {
    emu.setFaults({ kind: 'delay', ms: 150, times: 1 })
    const t0 = Date.now()
    const r = await call(emu, 'GET', '/v2/deployments')
    expect(r.status).toBe(200)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140)
  })

  it('non-json: 200 with HTML', async () => {
    emu.setFaults({ kind: 'non-json', times: 1 })
    const r = await call(emu, 'GET', '/v2/deployments')
    expect(r.status).toBe(200)
    expect(() => JSON.parse(r.text)).toThrow()
  })

  it('bad-schema: 200 JSON that does not parse as a Deployment', async () => {
    emu.setFaults({ kind: 'bad-schema', times: 1 })
    const r = await call(emu, 'GET', '/v2/deployments/99999999-9999-4999-8999-999999999999')
    expect(r.status).toBe(200)
    expect(r.body).not.toHaveProperty('id')
    expect(Deployment.safeParse(r.body).success).toBe(false)
  })

  it('redirect: 3xx to another origin', async () => {
    emu.setFaults({
      kind: 'redirect',
      status: 307,
      location: 'https://elsewhere.example/x',
      times: 1
    })
    const r = await call(emu, 'GET', '/v2/deployments')
    expect(r.status).toBe(307)
    expect(r.headers.get('location')).toBe('https://elsewhere.example/x')
  })

  it('huge-body: streams the requested number of bytes, chunked by default', async () => {
    const bytes = 8 * 1024 * 1024 + 3
    emu.setFaults([
      { kind: 'huge-body', bytes, times: 1 },
      { kind: 'huge-body', bytes: 1000, contentLength: true, times: 1 }
    ])
    const res = await fetch(`${emu.url}/v2/deployments`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBeNull()
    let total = 0
    for await (const chunk of res.body!) total += (chunk as Uint8Array).length
    expect(total).toBe(bytes)
    const declared = await fetch(`${emu.url}/v2/deployments`)
    expect(declared.headers.get('content-length')).toBe('1000')
    expect((await declared.arrayBuffer()).byteLength).toBe(1000)
  })

  it('huge-body: a client that aborts early does not hang the emulator', async () => {
    emu.setFaults({ kind: 'huge-body', bytes: 500 * 1024 * 1024, times: 1 })
    const controller = new AbortController()
    const res = await fetch(`${emu.url}/v2/deployments`, { signal: controller.signal })
    const reader = res.body!.getReader()
    await reader.read()
    controller.abort()
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(200)
  })

  it('trickle: the normal answer, a few bytes at a time', async () => {
    emu.setFaults({ kind: 'trickle', chunkBytes: 8, intervalMs: 5, times: 1 })
    const t0 = Date.now()
    const res = await fetch(`${emu.url}/v2/deployments`, { headers: { 'x-api-key': 'key-cloud' } })
    const chunks: number[] = []
    for await (const chunk of res.body!) chunks.push((chunk as Uint8Array).length)
    expect(res.status).toBe(200)
    // 8 bytes every 5 ms: the whole answer takes at least that long (a lower bound, which a
    // loaded machine only lengthens; how the reader groups the bytes depends on its timing).
    const bytes = chunks.reduce((a, b) => a + b, 0)
    expect(bytes).toBeGreaterThan(16)
    expect(Date.now() - t0).toBeGreaterThanOrEqual((Math.ceil(bytes / 8) - 1) * 4)
  })

  it('detail: a custom status and detail text', async () => {
    const text = '::error::injected\u001b[31m red'
    emu.setFaults({ kind: 'detail', status: 400, detail: text, times: 1 })
    const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('d') })
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ detail: text })
  })

  it('echo-input-422: entries echo the request body, secret values included', async () => {
    emu.setFaults({ kind: 'echo-input-422', times: 1 })
    const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('e') })
    expect(r.status).toBe(422)
    expect(JSON.stringify(r.body)).toContain('sk-secret-value')
    expect((r.body as Json).detail).toContainEqual(
      expect.objectContaining({ loc: ['body', 'secrets', 0, 'value'], input: 'sk-secret-value' })
    )
  })
})

describe('global rate limit', () => {
  it('answers 429 above R requests per second per key, with a configurable Retry-After', async () => {
    const clock = manualClock()
    const limited = await start({ now: clock.now, rateLimit: { rps: 3, retryAfter: 1 } })
    try {
      for (let i = 0; i < 3; i++)
        expect((await call(limited, 'GET', '/v2/deployments')).status).toBe(200)
      const over = await call(limited, 'GET', '/v2/deployments')
      expect([over.status, over.headers.get('retry-after')]).toEqual([429, '1'])
      expect((await call(limited, 'GET', '/v2/deployments', { key: OTHER_KEY })).status).toBe(200)
      clock.advance(1001)
      expect((await call(limited, 'GET', '/v2/deployments')).status).toBe(200)
      limited.configure({ rateLimit: { rps: 1 } })
      clock.advance(1001)
      expect((await call(limited, 'GET', '/v2/deployments')).status).toBe(200)
      const noHeader = await call(limited, 'GET', '/v2/deployments')
      expect([noHeader.status, noHeader.headers.get('retry-after')]).toEqual([429, null])
      expect(limited.requests().at(-1)?.fault).toBe('rate-limit')
    } finally {
      await limited.close()
    }
  })
})
