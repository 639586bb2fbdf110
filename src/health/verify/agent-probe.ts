// An AgentCall through the health gate's own transport and key rule: the path appended to the
// deployment's URL as the gate's probes are (probeTarget: never resolved against it, never another
// origin), X-Api-Key only where the gate sends it (a loopback address or a vouched host), proxies
// as the probe honours them, no redirect followed. One client for every request of the gate.
import { httpProbe, type ProbeTransport } from '../probe.ts'
import type { HostPattern } from '../../control-plane/vouched-hosts.ts'
import { probeTarget } from '../target.ts'
import type { AgentCall } from './agent-call.ts'

/** More than a run's output excerpt ever shows; the rest of a long answer is not read. */
export const MAX_AGENT_BODY = 256 * 1024
/** The transport's own bound: the checks bound each request tighter through its signal. */
const REQUEST_BOUND_MS = 31 * 60_000

export interface AgentProbeOptions {
  /** The deployment's custom_url. */
  url: string
  apiKey: string
  vouched: readonly HostPattern[]
  transport?: ProbeTransport
}

export function agentProbe(o: AgentProbeOptions): AgentCall {
  const transport = o.transport ?? httpProbe
  return async req => {
    const target = probeTarget(o.url, req.path, o.vouched)
    if ('problem' in target) throw new Error(target.problem)
    const key: Record<string, string> =
      target.vouchedBy !== undefined ? { 'x-api-key': o.apiKey } : {}
    const res = await transport({
      url: target.url,
      method: req.method,
      headers: { ...key, accept: 'application/json' },
      ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
      timeoutMs: REQUEST_BOUND_MS,
      signal: req.signal,
      maxBody: MAX_AGENT_BODY
    })
    if (res.slowBody) throw new Error('the answer was still arriving when the time ran out')
    if (res.status >= 300 && res.status < 400)
      return {
        status: res.status,
        body: `redirect to ${redirectHost(res.location, target.url)}, not followed`
      }
    return { status: res.status, body: res.body }
  }
}

/** Where a redirect leads (its host only: a sign-in page's query may carry anything). */
function redirectHost(location: string | undefined, base: URL): string {
  if (!location) return 'nowhere (no Location)'
  try {
    return new URL(location, base).host
  } catch {
    return 'an invalid Location'
  }
}
