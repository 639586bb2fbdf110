// The checks' requests go through the gate's probe: its transport (a POST with a JSON body over a
// real socket) and its key rule (probeTarget), with the transport faked only to see where the key
// would go for hosts that cannot be served here.
import { afterEach, beforeAll, describe, expect, test } from '@jest/globals'
import { loadPublicSuffixes } from '../../../src/control-plane/public-suffixes.ts'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { agentProbe, sendToAgent } from '../../../src/health/verify/agent-probe.ts'
import {
  LOOPBACK,
  parseHostPatterns,
  type HostPattern
} from '../../../src/control-plane/vouched-hosts.ts'
import type { ProbeRequest } from '../../../src/health/probe.ts'

const KEY = 'lsv2_pt_agent_probe_key_0123456789abcdef'
const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise(r => s.close(r))
  }
})

const signal = new AbortController().signal

beforeAll(loadPublicSuffixes)

describe('agentProbe', () => {
  test('a POST carries its JSON body and the key to a loopback server; the answer is read', async () => {
    const seen: { method?: string; type?: string; key?: string; body: string }[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        seen.push({
          method: req.method,
          type: req.headers['content-type'],
          key: req.headers['x-api-key'] as string,
          body
        })
        res.end('[{"assistant_id":"a"}]')
      })
    })
    servers.push(server)
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`
    const call = agentProbe({ url, apiKey: KEY, vouched: [LOOPBACK] })
    const answer = await call({
      method: 'POST',
      path: '/assistants/search',
      body: { graph_id: 'agent', limit: 1 },
      signal
    })
    expect(answer).toEqual({ status: 200, body: '[{"assistant_id":"a"}]' })
    expect(seen).toEqual([
      {
        method: 'POST',
        type: 'application/json',
        key: KEY,
        body: '{"graph_id":"agent","limit":1}'
      }
    ])
  })

  const sentTo = async (url: string, vouched: HostPattern[]) => {
    const sent: ProbeRequest[] = []
    const call = agentProbe({
      url,
      apiKey: KEY,
      vouched,
      transport: async req => {
        sent.push(req)
        return { status: 200, body: '{}' }
      }
    })
    await call({ method: 'GET', path: '/info', signal })
    return sent
  }

  test('the key goes only to a host vouched for, as the gate sends it', async () => {
    const hosts = parseHostPatterns('*.agents.example.com') as HostPattern[]
    const vouched = await sentTo('https://a.agents.example.com/x', hosts)
    const other = await sentTo('https://elsewhere.example.net', hosts)
    expect(vouched[0]!.headers['x-api-key']).toBe(KEY)
    expect(vouched[0]!.url.href).toBe('https://a.agents.example.com/x/info')
    expect(other[0]!.headers['x-api-key']).toBeUndefined()
  })

  test('plain http to another machine is refused, nothing sent', async () => {
    const sent: ProbeRequest[] = []
    const call = agentProbe({
      url: 'http://agent.example.com',
      apiKey: KEY,
      vouched: [],
      transport: async req => {
        sent.push(req)
        return { status: 200, body: '' }
      }
    })
    await expect(call({ method: 'GET', path: '/info', signal })).rejects.toThrow(/plain http/)
    expect(sent).toEqual([])
  })
})

test('sendToAgent checks the host again: a target that says it is vouched for, to a host that is not, gets no key', async () => {
  const sent: ProbeRequest[] = []
  const transport = async (req: ProbeRequest) => {
    sent.push(req)
    return { status: 200, body: '{}' }
  }
  const a = {
    url: 'https://a.example.com',
    apiKey: KEY,
    vouched: parseHostPatterns('a.example.com') as HostPattern[],
    transport
  }
  await sendToAgent(
    a,
    { url: new URL('https://other.example.net/ok'), vouchedBy: 'a.example.com' },
    { timeoutMs: 1000, signal }
  )
  await sendToAgent(
    a,
    { url: new URL('https://a.example.com/ok'), vouchedBy: 'a.example.com' },
    { timeoutMs: 1000, signal }
  )
  expect(sent.map(r => [r.url.host, r.headers?.['x-api-key']])).toEqual([
    ['other.example.net', undefined],
    ['a.example.com', KEY]
  ])
})
