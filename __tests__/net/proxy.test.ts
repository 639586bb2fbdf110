// Which proxy a request takes, from the variables a door read: the runner's tools' rule, and
// nothing read from the environment here.
import { afterEach, expect, test } from '@jest/globals'
import { proxyDispatcher, proxyFor } from '../../src/net/proxy.ts'
import type { ProxyVariables } from '../../src/runner/proxy.ts'

const VARS = {
  httpsProxy: 'http://user:p%40ss@proxy.corp:3128',
  httpProxy: 'proxy.corp',
  noProxy: 'internal.corp, .svc, exact.host:8443'
}
const via = (url: string, vars: ProxyVariables = VARS) => proxyFor(new URL(url), vars)?.href

const saved = { ...process.env }
afterEach(() => {
  process.env = { ...saved }
})

test('by the scheme of the target; a bare host is an http proxy', () => {
  expect(via('https://api.github.com/repos')).toBe('http://user:p%40ss@proxy.corp:3128/')
  expect(via('http://plain.example/')).toBe('http://proxy.corp/')
  expect(via('https://api.github.com/', {})).toBeUndefined()
  expect(proxyFor(new URL('https://api.github.com/'), undefined)).toBeUndefined()
})

test('never for loopback nor a no_proxy entry: a domain and its names, host:port, `*`', () => {
  for (const direct of [
    'https://localhost:8443/',
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://internal.corp/',
    'https://api.internal.corp/',
    'https://a.b.svc/',
    'https://exact.host:8443/'
  ])
    expect({ direct, proxy: via(direct) }).toEqual({ direct, proxy: undefined })
  for (const proxied of [
    'https://notinternal.corp/',
    'https://exact.host/',
    'https://svc.example/'
  ])
    expect({ proxied, proxy: via(proxied) }).toEqual({
      proxied,
      proxy: 'http://user:p%40ss@proxy.corp:3128/'
    })
  expect(via('https://anything.example/', { ...VARS, noProxy: '*' })).toBeUndefined()
})

test('the environment is not read: only the variables handed in count', async () => {
  process.env.https_proxy = 'http://env-proxy.invalid:3128'
  expect(proxyFor(new URL('https://api.github.com/'), undefined)).toBeUndefined()
  expect(await proxyDispatcher('https://api.github.com/', undefined)).toBeUndefined()
  const dispatcher = await proxyDispatcher('https://api.github.com/', VARS)
  expect(dispatcher?.constructor.name).toBe('ProxyAgent')
  await dispatcher?.close()
})
