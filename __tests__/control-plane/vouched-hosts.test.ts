// Which hosts the key may go to: the grammar of health-check-hosts and how a probe URL's host is
// compared with it, exactly (case, IDNA, trailing dots, ports, look-alikes, IP literals).
import { beforeAll, describe, expect, test } from '@jest/globals'
import { loadPublicSuffixes } from '../../src/control-plane/public-suffixes.ts'
import {
  deploymentHost,
  exactHost,
  LOOPBACK,
  matchesHost,
  parseHostPattern,
  parseHostPatterns,
  type HostPattern
} from '../../src/control-plane/vouched-hosts.ts'
import { probeTarget } from '../../src/health/target.ts'

beforeAll(loadPublicSuffixes)

const pattern = (text: string): HostPattern => {
  const p = parseHostPattern(text)
  if ('problem' in p) throw new Error(p.problem)
  return p
}
const matches = (p: string, url: string) => matchesHost(pattern(p), new URL(url))

describe('health-check-hosts entries', () => {
  test('host names, *.domain patterns and IP literals, each with an optional port', () => {
    expect(pattern('Agent.Example.com.')).toMatchObject({
      host: 'agent.example.com',
      wildcard: false
    })
    expect(pattern('*.example.com:8443')).toMatchObject({
      host: 'example.com',
      wildcard: true,
      port: '8443'
    })
    expect(pattern('10.0.0.5')).toMatchObject({ host: '10.0.0.5' })
    expect(pattern('[fd00::1]:443')).toMatchObject({ host: '[fd00::1]', port: '443' })
    expect(pattern('bücher.example')).toMatchObject({ host: 'xn--bcher-kva.example' })
  })

  test.each([
    ['https://agent.example.com', /is a URL/],
    ['*', /not a host name/],
    ['*.com', /whole top-level domain/],
    ['a.*.example.com', /not a host name/],
    ['*example.com', /not a host name/],
    ['user@agent.example.com', /not a host name/],
    ['agent.example.com/ok', /not a host name/],
    ['agent.example.com:0', /port out of range/],
    ['agent.example.com:65536', /port out of range/],
    ['a..example.com', /empty label/],
    ['*.10.0.0.5', /needs a domain name, not an IP address/],
    ['127.1', /reads as "127.0.0.1"/],
    ['ｅｘａｍｐｌｅ.com', /\\uff45.*reads as "example.com"/],
    ['exa\u200bmple.com', /\\u200b.*reads as "example.com"/]
  ])('%j is refused', (entry, why) => {
    const p = parseHostPattern(entry)
    expect('problem' in p && p.problem).toMatch(why)
  })

  test('a list: commas or line breaks, empty entries ignored; every bad entry named', () => {
    expect(parseHostPatterns('a.example.com,\n *.b.example.com ,,')).toHaveLength(2)
    expect(parseHostPatterns('ok.example.com, *, https://x.example')).toEqual({
      problems: [expect.stringMatching(/"\*"/), expect.stringMatching(/"https:\/\/x.example"/)]
    })
  })
})

describe('matching a probe URL', () => {
  test('*.example.com: names below example.com at any depth, never example.com or look-alikes', () => {
    expect(matches('*.example.com', 'https://agent.example.com/ok')).toBe(true)
    expect(matches('*.example.com', 'https://a.b.example.com/ok')).toBe(true)
    expect(matches('*.example.com', 'https://example.com/ok')).toBe(false)
    expect(matches('*.example.com', 'https://evil-example.com/ok')).toBe(false)
    expect(matches('*.example.com', 'https://evilexample.com/ok')).toBe(false)
    expect(matches('*.example.com', 'https://example.com.evil.net/ok')).toBe(false)
    expect(matches('*.example.com', 'https://agent.example.com.evil.net/ok')).toBe(false)
  })

  test('case, IDNA and one trailing dot are one host; two dots are not', () => {
    expect(matches('agent.example.com', 'https://AGENT.Example.COM./ok')).toBe(true)
    expect(matches('agent.example.com', 'https://agent.example.com../ok')).toBe(false)
    expect(matches('bücher.example', 'https://xn--bcher-kva.example/ok')).toBe(true)
    expect(matches('bücher.example', 'https://BÜCHER.example/ok')).toBe(true)
  })

  test('a port in the entry is that port only; without one, any port', () => {
    expect(matches('agent.example.com:8443', 'https://agent.example.com:8443/ok')).toBe(true)
    expect(matches('agent.example.com:8443', 'https://agent.example.com/ok')).toBe(false)
    expect(matches('agent.example.com:443', 'https://agent.example.com/ok')).toBe(true)
    expect(matches('agent.example.com', 'https://agent.example.com:9999/ok')).toBe(true)
  })

  test('IP literals match as the URL parser writes them', () => {
    expect(matches('10.0.0.5', 'https://10.0.0.5/ok')).toBe(true)
    expect(matches('10.0.0.5', 'https://0x0a.0.0.5/ok')).toBe(true)
    expect(matches('10.0.0.5', 'https://10.0.0.50/ok')).toBe(false)
    expect(matches('[fd00::1]', 'https://[fd00:0::1]/ok')).toBe(true)
  })

  test('the custom-url input vouches for its exact host and port', () => {
    const own = exactHost('https://agent.example.com/tenant')!
    expect(matchesHost(own, new URL('https://agent.example.com/ok'))).toBe(true)
    expect(matchesHost(own, new URL('https://agent.example.com:8443/ok'))).toBe(false)
    expect(matchesHost(own, new URL('https://x.agent.example.com/ok'))).toBe(false)
  })
})

describe('the key on a probe', () => {
  const via = (url: string, vouched: HostPattern[] = []) => {
    const t = probeTarget(url, '/ok', vouched)
    return 'problem' in t ? `refused: ${t.problem}` : (t.vouchedBy ?? 'no key')
  }

  test('loopback only when vouched for (base-url on loopback too); another https host only when vouched for', () => {
    expect(via('http://127.0.0.1:8123', [LOOPBACK])).toBe('a loopback address, as base-url is')
    expect(via('https://[::1]:8443', [LOOPBACK])).toBe('a loopback address, as base-url is')
    expect(via('http://localhost:8123', [LOOPBACK])).toBe('a loopback address, as base-url is')
    // A remote control plane: a custom_url naming a runner port gets no key.
    expect(via('http://127.0.0.1:8123')).toBe('no key')
    expect(via('https://[::1]:8443')).toBe('no key')
    expect(via('http://127.0.0.1:8123', [pattern('127.0.0.1')])).toBe('no key')
    expect(via('https://agent.example.com', [LOOPBACK])).toBe('no key')
    expect(via('https://agent.evil.example')).toBe('no key')
    expect(via('https://agent.evil.example', [pattern('*.example.com')])).toBe('no key')
    expect(via('https://agent.example.com', [pattern('*.example.com')])).toBe('*.example.com')
  })

  test('the deployment’s own service host, and no other *.langgraph.app, gets the key', () => {
    const own = deploymentHost({
      name: 'my-agent',
      url: 'https://my-agent-5f1d8e7c2b9a.us.langgraph.app'
    })!
    expect(via('https://my-agent-5f1d8e7c2b9a.us.langgraph.app', [own])).toBe(
      'my-agent-5f1d8e7c2b9a.us.langgraph.app, the agent server host the control plane reported for deployment "my-agent"'
    )
    // Another deployment's server on the same service: anyone's, never the key.
    expect(via('https://other-agent-0a1b2c.us.langgraph.app', [own])).toBe('no key')
    expect(via('https://my-agent-5f1d8e7c2b9a.eu.langgraph.app', [own])).toBe('no key')
    expect(via('https://langgraph.app.evil.net', [own])).toBe('no key')
  })

  test('deploymentHost: only the shape the service gives, with the deployment’s own name', () => {
    const host = (name: string, url: string) => deploymentHost({ name, url })?.host
    expect(host('my-agent', 'https://my-agent-5f1d8e7c.us.langgraph.app/')).toBe(
      'my-agent-5f1d8e7c.us.langgraph.app'
    )
    expect(host('my-agent', 'https://MY-AGENT-5F1D8E7C.us.langgraph.app.')).toBe(
      'my-agent-5f1d8e7c.us.langgraph.app'
    )
    // The name of another deployment, even one that starts with this one's.
    expect(host('my-agent', 'https://my-agent-staging-5f1d8e7c.us.langgraph.app')).toBeUndefined()
    expect(host('my-agent-staging', 'https://my-agent-5f1d8e7c.us.langgraph.app')).toBeUndefined()
    expect(host('my-agent', 'https://agent-1.us.langgraph.app')).toBeUndefined()
    // Not the service's shape: no hash, no region, another domain, plain http, credentials.
    expect(host('my-agent', 'https://my-agent.us.langgraph.app')).toBeUndefined()
    expect(host('my-agent', 'https://my-agent-5f1d8e7c.langgraph.app')).toBeUndefined()
    expect(host('my-agent', 'https://my-agent-5f1d8e7c.us.langgraph.app.evil.net')).toBeUndefined()
    expect(host('my-agent', 'http://my-agent-5f1d8e7c.us.langgraph.app')).toBeUndefined()
    expect(host('my-agent', 'https://u:p@my-agent-5f1d8e7c.us.langgraph.app')).toBeUndefined()
    expect(deploymentHost({ name: undefined, url: 'https://x-1.us.langgraph.app' })).toBeUndefined()
    expect(deploymentHost({ name: 'x', url: null })).toBeUndefined()
  })

  test('userinfo is refused, and what follows @ is the host the pattern is held against', () => {
    expect(via('https://agent.example.com@evil.net', [pattern('*.example.com')])).toMatch(
      /^refused: .*carries credentials/
    )
    // A backslash ends the host as a slash does: the host is evil.net.
    expect(via('https://evil.net\\@agent.example.com', [pattern('*.example.com')])).toBe('no key')
  })

  test('plain http to a vouched host is still refused: the key never travels unencrypted', () => {
    expect(via('http://agent.example.com', [pattern('agent.example.com')])).toMatch(
      /^refused: .*plain http to another machine/
    )
  })
})
