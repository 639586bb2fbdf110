// What a hostile page or a careless setting must not get from the emulator: an answer to a Host
// that is not loopback (DNS rebinding reads /_emulator/credentials), a clock at infinite speed, a
// base path with dot segments, a fault wait that the timer cannot keep, an admin request that a
// web page could send cross-site.
import { afterEach, describe, expect, it } from '@jest/globals'
import { request } from 'node:http'
import type { Emulator } from '../../emulator/server.ts'
import { MAX_FAULT_DELAY_MS } from '../../emulator/faults/transport.ts'
import { start } from '../builders/emulator.ts'

let emu: Emulator | undefined
afterEach(async () => {
  await emu?.close()
  emu = undefined
})

/** A GET with this Host header (fetch would not let a test choose it). */
function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(emu!.url)
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'GET', headers: { host } },
      res => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      }
    )
    req.on('error', reject)
    req.end()
  })
}

describe('Host header: only loopback names are answered', () => {
  it.each([
    'evil.example',
    'evil.example:4010',
    '127.0.0.1.nip.io',
    'localhost.evil.example',
    '10.0.0.1',
    '[::2]',
    'localhost@evil.example'
  ])('%j is refused with 421 on every route, credentials included', async host => {
    emu = await start()
    for (const path of [
      '/_emulator/credentials',
      '/v2/deployments',
      '/_uploads/x',
      '/_agents/x/ok'
    ]) {
      const r = await getWithHost(path, host)
      expect([path, r.status]).toEqual([path, 421])
      expect(r.body).not.toContain('key-cloud')
    }
    const r = await getWithHost('/_emulator/credentials', host)
    expect(JSON.parse(r.body).detail).toContain(
      'answers only requests addressed to a loopback host'
    )
    expect(JSON.parse(r.body).detail).toContain('--allow-host')
  })

  it.each(['localhost', 'LOCALHOST:4010', '127.0.0.1', '127.9.8.7:80', '[::1]', '[::1]:4010'])(
    '%j is answered',
    async host => {
      emu = await start()
      const r = await getWithHost('/_emulator/credentials', host)
      expect(r.status).toBe(200)
      expect(JSON.parse(r.body).apiKey).toBe('key-cloud')
    }
  )

  it('allowedHosts adds names, and a specific --host address is answered by itself', async () => {
    emu = await start({ allowedHosts: ['emulator.test'] })
    expect((await getWithHost('/_emulator/credentials', 'emulator.test:8080')).status).toBe(200)
    expect((await getWithHost('/_emulator/credentials', 'other.test')).status).toBe(421)
    await expect(start({ allowedHosts: ['bad/host'] })).rejects.toThrow(
      "invalid allowed host 'bad/host'"
    )
  })
})

describe('start options and settings the clock or the timers cannot keep are refused', () => {
  it.each([Infinity, NaN, 0, -1, 1e9])('speed %p', async speed => {
    await expect(start({ speed })).rejects.toThrow(`invalid speed ${speed}`)
  })

  it('speed through configure and the admin route', async () => {
    emu = await start()
    expect(() => emu!.configure({ speed: Infinity })).toThrow()
    const r = await fetch(`${emu.url}/_emulator/speed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ factor: 1e300 })
    })
    expect(r.status).toBe(400)
    expect(emu.config().speed).toBe(1)
  })

  it.each(['/a/../b', '/a/./b', '//a', '/a b', '/a%2F..'])('base path %j', async basePath => {
    await expect(start({ basePath })).rejects.toThrow(`invalid base path '${basePath}'`)
  })

  it(`a fault wait over ${MAX_FAULT_DELAY_MS} ms is refused (1e12 ms used to answer at once)`, async () => {
    emu = await start()
    expect(() => emu!.addFaults({ kind: 'delay', ms: 1e12 })).toThrow()
    expect(() => emu!.addFaults({ kind: 'trickle', intervalMs: MAX_FAULT_DELAY_MS + 1 })).toThrow()
    const r = await fetch(`${emu.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'delay', ms: 1e12 })
    })
    expect(r.status).toBe(400)
    expect(emu.faults()).toEqual([])
    expect(emu.addFaults({ kind: 'delay', ms: MAX_FAULT_DELAY_MS })).toHaveLength(1)
  })
})

describe('issue 33: the admin API refuses what a web page could send', () => {
  const fault = JSON.stringify({ kind: 'status', status: 500 })
  it.each([
    ['/faults', 'text/plain', {}],
    ['/fixture', 'text/plain;charset=UTF-8', {}],
    ['/faults', 'application/x-www-form-urlencoded', {}],
    ['/faults', 'multipart/form-data; boundary=x', {}],
    ['/reset', undefined, {}],
    ['/faults', 'application/json', { origin: 'https://evil.example' }],
    ['/faults', 'application/json', { origin: 'null' }],
    ['/faults', 'application/json', { 'sec-fetch-site': 'cross-site' }],
    ['/faults', 'application/json', { 'sec-fetch-site': 'same-site' }]
  ] as [string, string | undefined, Record<string, string>][])(
    'POST %s as %s %j: 403, nothing changed',
    async (path, type, extra) => {
      emu = await start()
      const before = emu.state()
      const r = await fetch(`${emu.url}/_emulator${path}`, {
        method: 'POST',
        headers: { ...(type ? { 'content-type': type } : {}), ...extra },
        body: path === '/reset' ? undefined : path === '/fixture' ? '{"tenants":[]}' : fault
      })
      expect(r.status).toBe(403)
      expect(((await r.json()) as { detail: string }).detail).toMatch(/as a web page could send it/)
      expect(emu.faults()).toEqual([])
      expect(emu.state()).toEqual(before)
    }
  )

  it('a script with Content-Type: application/json, or a page of the emulator itself, is answered', async () => {
    emu = await start()
    const post = (headers: Record<string, string>) =>
      fetch(`${emu!.url}/_emulator/faults`, { method: 'POST', headers, body: fault })
    expect((await post({ 'content-type': 'application/json' })).status).toBe(200)
    const self = { 'content-type': 'application/json', origin: new URL(emu.url).origin }
    expect((await post({ ...self, 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    expect(emu.faults()).toHaveLength(2)
    expect((await fetch(`${emu.url}/_emulator/state`)).status).toBe(200)
  })
})
