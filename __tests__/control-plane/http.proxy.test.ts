// The transport honours the runner's proxy settings (http_proxy / https_proxy, loopback hosts
// bypassed), through a local CONNECT proxy that forwards every tunnel to the emulator: the
// control plane's host name is only ever resolved by the proxy.
import { makeClock } from '../../src/clock.ts'
import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { DEFAULT_RETRY, Transport } from '../../src/control-plane/http.ts'
import { Redactor } from '../../src/control-plane/redact.ts'
import { startEmulator, type Emulator } from '../../emulator/server.ts'
import { ACTION_SAY } from '../builders.ts'

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
