// Which agent a request goes through. Behind a proxy (https_proxy, minus no_proxy and loopback, as
// the runner's tools read them), @actions/http-client's tunnelling agent, one per proxy and scheme,
// keeping no socket (its redirects and retries unused: they would carry a key to a redirect's
// host), loaded only then (it imports undici, a large part of the start-up). Otherwise a fresh
// connection, or a keep-alive pool's.
import * as http from 'node:http'
import * as https from 'node:https'
import { getProxyUrl } from '@actions/http-client/lib/proxy'

/** Tunnelling agents, by target scheme and proxy URL. */
const tunnels = new Map<string, Promise<http.Agent>>()

function tunnelFor(url: URL, proxy: URL): Promise<http.Agent> {
  const key = `${url.protocol} ${proxy.href}`
  let agent = tunnels.get(key)
  if (!agent) {
    agent = import('@actions/http-client').then(({ HttpClient }) =>
      new HttpClient(undefined, [], { allowRedirects: false, allowRetries: false }).getAgent(
        url.href
      )
    )
    // A failed load is not kept: the next request tries again.
    agent.catch(() => tunnels.delete(key))
    tunnels.set(key, agent)
  }
  return agent
}

/** How long a kept-alive socket may stay idle (a slower answer on a busy one is not cut). */
const IDLE_SOCKET_MS = 4_000

/** Keep-alive agents of direct requests, by scheme: one client's, closed with it. */
export class KeepAlivePool {
  readonly #agents = new Map<string, http.Agent>()

  /**
   * An agent (as many sockets as Node's global one) that closes an idle socket before the server
   * would (most wait 5 s or more): a request on a socket being closed fails with a reset, for a
   * write an unknown outcome. Node heeds `Keep-Alive: timeout=` only under an agent timeout.
   */
  agent(protocol: string): http.Agent {
    let agent = this.#agents.get(protocol)
    if (!agent) {
      const options = {
        keepAlive: true,
        maxSockets: http.globalAgent.maxSockets,
        timeout: IDLE_SOCKET_MS
      }
      agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
      this.#agents.set(protocol, agent)
    }
    return agent
  }

  close(): void {
    for (const agent of this.#agents.values()) agent.destroy()
    this.#agents.clear()
  }
}

/** The agent for `url`: the proxy's tunnel, else the pool's, else none (a fresh connection). */
export function agentFor(
  url: URL,
  pool: KeepAlivePool | undefined
): http.Agent | false | Promise<http.Agent> {
  const proxy = getProxyUrl(url)
  if (proxy?.hostname) return tunnelFor(url, proxy)
  return pool ? pool.agent(url.protocol) : false
}
