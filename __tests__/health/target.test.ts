import { expect, test } from '@jest/globals'
import { isLoopbackHost } from '../../src/control-plane/base-url.ts'
import { probeTarget, vouchedHosts } from '../../src/health/target.ts'

const href = (url: string | null, path: string) => {
  const t = probeTarget(url, path)
  return 'url' in t ? t.url.href : `refused: ${t.problem}`
}

test('the path is appended to custom_url, never resolved against it', () => {
  expect(href('https://a.example.com', '/ok')).toBe('https://a.example.com/ok')
  expect(href('https://a.example.com/x/', '/ok?check_db=1')).toBe(
    'https://a.example.com/x/ok?check_db=1'
  )
  expect(href('https://a.example.com', '//evil.example.net/ok')).toBe(
    'https://a.example.com//evil.example.net/ok'
  )
  expect(href('https://a.example.com', '/@evil.example.net')).toBe(
    'https://a.example.com/@evil.example.net'
  )
})

test('names that only look like loopback are another machine', () => {
  for (const host of ['127.0.0.1.nip.io', 'localhost.example.com', '128.0.0.1', '::2', '0.0.0.0'])
    expect([host, isLoopbackHost(host)]).toEqual([host, false])
  for (const host of ['127.0.0.1', '127.255.0.9', '[::1]', 'LOCALHOST'])
    expect([host, isLoopbackHost(host)]).toEqual([host, true])
  expect(href('http://127.0.0.1.nip.io', '/ok')).toMatch(
    /^refused: .*plain http to another machine/
  )
  expect(href('http://127.1:8000', '/ok')).toBe('http://127.0.0.1:8000/ok')
})

test('without a custom_url there is nothing to probe', () => {
  expect(href(null, '/ok')).toMatch(/no source_config.custom_url/)
  expect(href('not a url', '/ok')).toMatch(/is not a URL/)
})

test('vouchedHosts: in the langsmith dialect, the deployment’s own service host, never *.langgraph.app', () => {
  const o = {
    baseUrl: 'https://api.host.langchain.com',
    apiDialect: 'langsmith' as const,
    customUrl: undefined,
    healthCheckHosts: undefined
  }
  const url = 'https://support-prod-5f1d8e7c.us.langgraph.app'
  const key = (vouched: ReturnType<typeof vouchedHosts>, to: string) => {
    const t = probeTarget(to, '/ok', vouched)
    return 'url' in t && t.vouchedBy !== undefined
  }
  const own = vouchedHosts(o, { name: 'support-prod', url })
  expect(key(own, url)).toBe(true)
  // Another deployment's server on the service, a look-alike, and no deployment named: no key.
  expect(key(own, 'https://support-staging-0a1b2c3d.us.langgraph.app')).toBe(false)
  expect(key(own, 'https://agent-1.us.langgraph.app')).toBe(false)
  expect(key(vouchedHosts(o), url)).toBe(false)
  // A custom_url the control plane gives that is not this deployment's shape vouches for nothing.
  expect(
    vouchedHosts(o, { name: 'support-prod', url: 'https://agent-1.us.langgraph.app' })
  ).toEqual([])
  // The interface dialect: the service's hosts mean nothing there.
  expect(vouchedHosts({ ...o, apiDialect: 'interface' }, { name: 'support-prod', url })).toEqual([])
})
