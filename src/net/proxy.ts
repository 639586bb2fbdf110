// Which proxy a request to a URL goes through, from the proxy variables a door read once (the
// rule of the runner's own tools: `https_proxy` or `http_proxy` by the target's scheme, never for
// loopback, never for a `no_proxy` entry: `*`, a host, `host:port`, or a domain and its names).
import type { ProxyVariables } from '../runner/proxy.ts'

const LOOPBACK = /^(localhost|127\.|\[::1\]|\[0:0:0:0:0:0:0:1\])/i

/** The proxy for `url`, or undefined for a direct connection. */
export function proxyFor(url: URL, vars: ProxyVariables | undefined): URL | undefined {
  const given = url.protocol === 'https:' ? vars?.httpsProxy : vars?.httpProxy
  if (!given || !url.hostname || LOOPBACK.test(url.hostname) || bypassed(url, vars?.noProxy))
    return undefined
  const proxy = URL.parse(given) ?? URL.parse(`http://${given}`)
  return proxy?.hostname ? proxy : undefined
}

function bypassed(url: URL, noProxy = ''): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  const hosts = [url.hostname.toUpperCase(), `${url.hostname.toUpperCase()}:${port}`]
  return noProxy
    .split(',')
    .map(entry => entry.trim().toUpperCase())
    .filter(Boolean)
    .some(
      entry =>
        entry === '*' ||
        hosts.some(h => h === entry || h.endsWith(entry.startsWith('.') ? entry : `.${entry}`))
    )
}

/** A dispatcher for fetch through the proxy of `url`; undefined without one. */
export async function proxyDispatcher(url: string, vars: ProxyVariables | undefined) {
  const proxy = proxyFor(new URL(url), vars)
  if (!proxy) return undefined
  const { ProxyAgent } = await import('undici')
  const auth = proxy.username || proxy.password
  return new ProxyAgent({
    uri: proxy.href,
    ...(auth
      ? {
          token: `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
        }
      : {})
  })
}
