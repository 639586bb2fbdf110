// The proxy's tunnelling agent is made once for each proxy and scheme, and shared by every request
// after it; without a proxy a request takes a pool's agent, or a fresh connection.
import { afterEach, expect, test } from '@jest/globals'
import { agentFor, KeepAlivePool } from '../../src/net/agents.ts'

const saved = { ...process.env }
afterEach(() => {
  process.env = { ...saved }
})

test('requests behind one proxy share its agent; another proxy has its own', async () => {
  process.env.https_proxy = 'http://proxy.invalid:3128'
  delete process.env.no_proxy
  delete process.env.NO_PROXY
  const first = await agentFor(new URL('https://a.example/x'), undefined)
  const second = await agentFor(new URL('https://b.example/y'), new KeepAlivePool())
  expect(first).toBeTruthy()
  expect(second).toBe(first)
  process.env.https_proxy = 'http://other-proxy.invalid:3128'
  expect(await agentFor(new URL('https://a.example/x'), undefined)).not.toBe(first)
})

test("without a proxy: the pool's kept-alive agent, or none (a fresh connection)", () => {
  delete process.env.https_proxy
  delete process.env.HTTPS_PROXY
  delete process.env.http_proxy
  delete process.env.HTTP_PROXY
  const pool = new KeepAlivePool()
  const url = new URL('https://a.example/x')
  expect(agentFor(url, undefined)).toBe(false)
  expect(agentFor(url, pool)).toBe(agentFor(url, pool))
  pool.close()
})
