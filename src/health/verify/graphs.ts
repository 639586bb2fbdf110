// Every graph of the config has its assistant: the agent server creates a default one per graph
// it loaded, so `POST /assistants/search` answering `[]` means that graph did not load. 401/403
// (custom auth) and 404 (the routes turned off in the config's `http`) cannot tell: inconclusive.
import {
  bounded,
  DEFAULT_REQUEST_TIMEOUT_MS,
  isAuthStatus,
  jsonOf,
  noAnswer,
  type AgentCall
} from './agent-call.ts'
import { describeAnswer, triesText, withRetries, type RetryOptions } from './retry.ts'

export type GraphVerdict = 'found' | 'missing' | 'inconclusive' | 'error'

export interface GraphCheck {
  graph: string
  verdict: GraphVerdict
  /** Why, for anything but `found`. */
  reason?: string
  /** `error` because no answer came (the deadline may have cut it short), not a wrong one. */
  noAnswer?: true
}

export interface GraphsResult {
  /** `failed`: a graph missing or not listed; `inconclusive`: none failed, one could not tell. */
  verdict: 'passed' | 'failed' | 'inconclusive' | 'cancelled'
  graphs: GraphCheck[]
  /** In words for the log, naming the graphs; absent when passed. */
  reason?: string
}

export interface GraphsOptions {
  call: AgentCall
  graphs: readonly string[]
  signal: AbortSignal
  /** The longest one request may take (default 10 s; less when the deadline is nearer). */
  requestTimeoutMs?: number
  /** Tries again until then (the gate's deadline, the probes' interval); one try without it. */
  retry?: Omit<RetryOptions, 'signal'>
}

export async function checkGraphs(o: GraphsOptions): Promise<GraphsResult> {
  const graphs: GraphCheck[] = []
  for (const graph of o.graphs) {
    if (o.signal.aborted) return { verdict: 'cancelled', graphs }
    graphs.push(await checkGraph(o, graph))
  }
  if (o.signal.aborted) return { verdict: 'cancelled', graphs }
  const failed = graphs.filter(g => g.verdict === 'missing' || g.verdict === 'error')
  const unsure = graphs.filter(g => g.verdict === 'inconclusive')
  if (failed.length > 0)
    return { verdict: 'failed', graphs, reason: failed.map(describe).join('; ') }
  if (unsure.length > 0)
    return { verdict: 'inconclusive', graphs, reason: unsure.map(describe).join('; ') }
  return { verdict: 'passed', graphs }
}

const describe = (g: GraphCheck) => `graph "${g.graph}": ${g.reason}`

async function checkGraph(o: GraphsOptions, graph: string): Promise<GraphCheck> {
  const perTry = () => {
    const left = o.retry ? o.retry.deadline - o.retry.clock.now() : Infinity
    return Math.max(1, Math.min(o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, left))
  }
  const send = () =>
    o.call({
      method: 'POST',
      path: '/assistants/search',
      body: { graph_id: graph, limit: 1 },
      signal: bounded(o.signal, perTry())
    })
  // Without `retry`: a deadline already passed, so the first try is the last.
  const once = { clock: { now: () => 0, sleep: async () => {} }, deadline: 0, intervalMs: 1 }
  const tried = await withRetries(send, { ...(o.retry ?? once), signal: o.signal })
  const { last } = tried
  if (last.kind === 'lost')
    return {
      graph,
      verdict: 'error',
      reason: `its assistants could not be listed: ${noAnswer(last.error)}${triesText(tried)}`,
      noAnswer: true
    }
  const { status, body } = last.answer
  if (isAuthStatus(status) || status === 404) {
    const why =
      status === 404 ? 'the assistants routes are turned off' : 'not allowed with the key sent'
    return {
      graph,
      verdict: 'inconclusive',
      reason: `/assistants/search answered ${status} (${why})`
    }
  }
  const list = jsonOf(body)
  if (status < 200 || status >= 300 || !Array.isArray(list))
    return {
      graph,
      verdict: 'error',
      reason: `${describeAnswer('/assistants/search', { ...tried, last })}, not a list of assistants`
    }
  if (list.length === 0)
    return {
      graph,
      verdict: 'missing',
      reason: 'the agent server has no assistant for it: the graph did not load'
    }
  return { graph, verdict: 'found' }
}
