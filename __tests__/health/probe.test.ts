// The probe over real sockets: local servers that answer, redirect, hang, reset or send too much.
import { makeClock } from '../../src/clock.ts'
import { afterEach, describe, expect, test } from '@jest/globals'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Redactor } from '../../src/control-plane/redact.ts'
import { checkHealth } from '../../src/health/window.ts'
import { LOOPBACK } from '../../src/control-plane/vouched-hosts.ts'
import { httpProbe, MAX_PROBE_BODY, ProbeTimeoutError } from '../../src/health/probe.ts'

const KEY = 'lsv2_pt_probe_test_key_abcdef0123456789'
const servers: Server[] = []

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void
): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = []
  const server = createServer((req, res) => {
    seen.push(req)
    handler(req, res)
  })
  servers.push(server)
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise(r => s.close(r))
  }
})

describe('one probe', () => {
  test('a 200 is read with its body; the key goes in X-Api-Key', async () => {
    const agent = await serve((_req, res) => res.end('{"ok": true}'))
    const res = await httpProbe({
      url: new URL(`${agent.url}/ok?check_db=1`),
      headers: { 'x-api-key': KEY },
      timeoutMs: 5000
    })
    expect(res).toEqual({ status: 200, body: '{"ok": true}' })
    expect(agent.seen[0]!.url).toBe('/ok?check_db=1')
    expect(agent.seen[0]!.headers['x-api-key']).toBe(KEY)
  })

  test('a redirect is returned as it is: the other host is never asked', async () => {
    const other = await serve((_req, res) => res.end('{"ok": true}'))
    const agent = await serve((_req, res) => {
      res.writeHead(307, { location: `${other.url}/ok` })
      res.end()
    })
    const res = await httpProbe({
      url: new URL(`${agent.url}/ok`),
      headers: { 'x-api-key': KEY },
      timeoutMs: 5000
    })
    expect(res).toMatchObject({ status: 307, location: `${other.url}/ok` })
    expect(other.seen).toHaveLength(0)
  })

  test('a 200 whose body trickles past the timeout resolves as a slow body, not as no answer', async () => {
    const agent = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"ok":')
      // The rest never comes. The timeout is long enough for the head to arrive on a busy machine.
    })
    const res = await httpProbe({ url: new URL(`${agent.url}/ok`), headers: {}, timeoutMs: 2000 })
    expect(res).toEqual({ status: 200, body: '{"ok":', slowBody: true })
  })

  test('no answer within the timeout is a ProbeTimeoutError', async () => {
    const agent = await serve(() => undefined)
    await expect(
      httpProbe({ url: new URL(`${agent.url}/ok`), headers: {}, timeoutMs: 200 })
    ).rejects.toBeInstanceOf(ProbeTimeoutError)
  })

  test('a reset connection is an error with its code', async () => {
    const agent = await serve(req => req.socket.destroy())
    await expect(
      httpProbe({ url: new URL(`${agent.url}/ok`), headers: {}, timeoutMs: 5000 })
    ).rejects.toMatchObject({ code: 'ECONNRESET' })
  })

  test('a huge body is read only up to its first kilobytes', async () => {
    const agent = await serve((_req, res) => {
      res.writeHead(500)
      // More than the probe reads, and never ended: the status is the answer.
      res.write('x'.repeat(MAX_PROBE_BODY * 4))
    })
    const res = await httpProbe({ url: new URL(`${agent.url}/ok`), headers: {}, timeoutMs: 5000 })
    expect(res.status).toBe(500)
    expect(res.body.length).toBe(MAX_PROBE_BODY)
  })
})

describe('the gate over real sockets', () => {
  test('a loopback agent server answering 200: healthy, each probe with the key', async () => {
    const agent = await serve((_req, res) => res.end('{"ok": true}'))
    const r = await checkHealth({
      url: agent.url,
      path: '/ok',
      apiKey: KEY,
      deadline: Date.now() + 60_000,
      windowMs: 100,
      intervalMs: 50,
      clock: makeClock(),
      redactor: new Redactor([KEY]),
      // The control plane on loopback too (base-url): loopback is vouched for.
      vouched: [LOOPBACK]
    })
    expect(r.health).toBe('healthy')
    expect(agent.seen.length).toBe(r.probes)
    expect(agent.seen.every(req => req.headers['x-api-key'] === KEY)).toBe(true)
  })
})
