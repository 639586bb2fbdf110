// The one client of the agent server: every request of the gate and the checks is sent by
// sendToAgent, which decides its headers (X-Api-Key only to a vouched host), to probeTarget's URL.
import { httpProbe, type ProbeRequest, type ProbeResponse, type ProbeTransport } from '../probe.ts'
import type { HostPattern } from '../../control-plane/vouched-hosts.ts'
import { probeTarget, vouchedBy } from '../target.ts'
import type { AgentCall } from './agent-call.ts'

/** More than a run's output excerpt ever shows; the rest of a long answer is not read. */
export const MAX_AGENT_BODY = 256 * 1024
/** The transport's own bound: the checks bound each request tighter through its signal. */
const REQUEST_BOUND_MS = 31 * 60_000

/** The agent server of a deployment, and what may be sent to it. */
export interface AgentServer {
  /** The deployment's custom_url. */
  url: string | null | undefined
  apiKey: string
  /** Hosts the key may go to (custom-url's, health-check-hosts, the deployment's own, LOOPBACK). */
  vouched?: readonly HostPattern[]
  /** How a request is sent (default HTTP; tests script it). */
  transport?: ProbeTransport
}

/** One request to a target: its URL checked again right before the key goes (not its word). */
export function sendToAgent(
  a: AgentServer,
  target: { url: URL; vouchedBy: string | undefined },
  req: Omit<ProbeRequest, 'url' | 'headers'>
): Promise<ProbeResponse> {
  const vouched =
    target.vouchedBy !== undefined && vouchedBy(target.url, a.vouched ?? []) !== undefined
  const key: Record<string, string> = vouched ? { 'x-api-key': a.apiKey } : {}
  const transport = a.transport ?? httpProbe
  return transport({ ...req, url: target.url, headers: { ...key, accept: 'application/json' } })
}

export function agentProbe(o: AgentServer): AgentCall {
  return async req => {
    const target = probeTarget(o.url, req.path, o.vouched)
    if ('problem' in target) throw new Error(target.problem)
    const res = await sendToAgent(o, target, {
      method: req.method,
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
export function redirectHost(location: string | undefined, base: URL): string {
  if (!location) return 'nowhere (no Location)'
  return URL.parse(location, base.href)?.host ?? 'an invalid Location'
}
