// After the gate's window: each graph of the config has an assistant, then the smoke cases run
// (verify/), each said in the log; a failure fails like an unhealthy server, 401/403 is a warning.
import { isAbsolute, resolve } from 'node:path'
import { sanitizeServerText } from '../inert.ts'
import { formatDuration } from '../duration.ts'
import type { Clock } from '../clock.ts'
import { DEFAULT_REQUEST_TIMEOUT_MS, type AgentCall } from './verify/agent-call.ts'
import { readGraphIds } from './verify/graph-config.ts'
import { checkGraphs, type GraphsResult } from './verify/graphs.ts'
import { runSmokeCases, smokeVerdict, type SmokeResult } from './verify/smoke.ts'
import type { CaseResult, Verified } from '../interface/journal.ts'
import type { SmokeCase } from '../inputs/smoke-cases.ts'
import type { FlowLog } from '../log.ts'

export interface RevisionChecks {
  graphs?: GraphsResult
  smoke?: SmokeResult
  /** What failed, for the error; undefined when nothing did. */
  failure?: { title: string; what: string }
  /** The run's timeout (not a check) cut them short. */
  timedOut?: boolean
}

export interface RevisionChecksInput {
  call: AgentCall
  /** `graph-config-path`, and the workspace it is relative to (the door's). */
  graphConfigPath: string
  workspace: string | undefined
  cases: readonly SmokeCase[] | undefined
  clock: Clock
  deadline: number
  signal: AbortSignal | undefined
  log: FlowLog
  /** Masks secret values in a case's output. */
  mask: (text: string) => string
  /** The pause before another try of a transient answer (the probes' interval). */
  intervalMs: number
  /** Why the workspace's config does not describe what was built: the graphs are not checked. */
  graphsSkipped?: string
}

export async function checkRevision(i: RevisionChecksInput): Promise<RevisionChecks> {
  const out: RevisionChecks = {}
  const graphs = await graphsStep(i)
  if (graphs) out.graphs = graphs
  const late = () => i.clock.now() >= i.deadline
  // No answer when the deadline came is the timeout's; an answer that persisted is named.
  if (graphs?.verdict === 'failed' && late() && graphs.graphs.some(g => g.noAnswer))
    return { ...out, timedOut: true }
  if (graphs?.verdict === 'failed') {
    const missing = graphs.graphs.some(g => g.verdict === 'missing')
    const title = missing ? 'Graph not served' : 'Graphs not listed'
    return { ...out, failure: { title, what: graphs.reason ?? '' } }
  }
  if (graphs?.verdict === 'cancelled' || !i.cases?.length) return out
  const smoke = await smokeStep(i)
  if (smoke === 'timeout') return { ...out, timedOut: true }
  out.smoke = smoke
  if (smoke.verdict === 'failed')
    out.failure = { title: 'Smoke test failed', what: smokeFailure(smoke.cases) }
  return out
}

async function graphsStep(i: RevisionChecksInput): Promise<GraphsResult | undefined> {
  if (i.graphsSkipped !== undefined) {
    i.log.info(`Graphs not checked: ${i.graphsSkipped}.`)
    return undefined
  }
  const path = isAbsolute(i.graphConfigPath)
    ? i.graphConfigPath
    : resolve(i.workspace ?? '.', i.graphConfigPath)
  const ids = await readGraphIds(path, i.graphConfigPath)
  if ('unreadable' in ids) {
    i.log.info(`Graphs not checked: ${ids.unreadable}.`)
    return undefined
  }
  const result = await checkGraphs({
    call: i.call,
    graphs: ids.graphs,
    signal: i.signal ?? new AbortController().signal,
    // The run's timeout bounds them as it bounds the gate; a transient answer is tried again.
    requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
    retry: { clock: i.clock, deadline: i.deadline, intervalMs: i.intervalMs }
  })
  for (const g of result.graphs)
    i.log.info(
      `POST /assistants/search, graph "${g.graph}": ${g.verdict === 'found' ? 'it has an assistant' : `${g.verdict}: ${g.reason}`}.`
    )
  if (result.verdict === 'inconclusive')
    i.log.warning(
      `The graphs could not be checked: ${result.reason}. Only /ok and /info vouch for this deploy.`,
      'Graphs not checked'
    )
  return result
}

/** The cases in turn, each bounded by its timeout or the run's (then not the case's failure). */
async function smokeStep(i: RevisionChecksInput): Promise<SmokeResult | 'timeout'> {
  const cases: CaseResult[] = []
  const signal = i.signal ?? new AbortController().signal
  for (const c of i.cases ?? []) {
    const left = i.deadline - i.clock.now()
    if (left <= 0) return 'timeout'
    const timeoutMs = Math.min(c.timeoutMs, left)
    const one = await runSmokeCases({ ...i, signal, cases: [{ ...c, timeoutMs }] })
    const result = one.cases[0]
    if (result?.verdict === 'timeout' && timeoutMs < c.timeoutMs) return 'timeout'
    if (!result || one.verdict === 'cancelled') return { verdict: 'cancelled', cases }
    i.log.info(describeCase(result))
    cases.push(result)
  }
  const verdict = smokeVerdict(cases)
  if (verdict === 'inconclusive')
    i.log.warning(
      `Smoke cases could not run: ${cases.find(c => c.verdict === 'inconclusive')?.reason ?? 'not allowed'}. Their verdict is inconclusive.`,
      'Smoke test inconclusive'
    )
  return { verdict, cases }
}

/** One case as the log and the summary say it: verdict, time, why, and its output's start. */
function describeCase(c: CaseResult): string {
  // The server's text: nothing in it may start a line or act as a workflow command.
  const why = c.reason ? `: ${sanitizeServerText(c.reason, 400)}` : ''
  const output = c.excerpt ? ` Output: ${sanitizeServerText(c.excerpt, 400)}` : ''
  return `Smoke case "${c.name}" (graph ${c.graph}): ${c.verdict} in ${formatDuration(c.elapsedMs)}${why}.${output}`
}

function smokeFailure(cases: readonly CaseResult[]): string {
  const bad = cases.filter(c => c.verdict === 'failed' || c.verdict === 'timeout')
  return bad
    .map(
      c =>
        `smoke case "${c.name}" ${c.verdict === 'timeout' ? 'timed out' : 'failed'}${c.reason ? ` (${sanitizeServerText(c.reason, 300)})` : ''}`
    )
    .join('; ')
}

/** What the outputs and the summary keep of the checks. */
export function verifiedOf(c: RevisionChecks): Verified {
  const v: Verified = {}
  const g = c.graphs
  if (g && g.verdict !== 'cancelled')
    v.graphs = {
      verdict: g.verdict,
      checked: g.graphs.map(x => x.graph),
      missing: g.graphs.filter(x => x.verdict === 'missing').map(x => x.graph)
    }
  if (c.smoke && c.smoke.verdict !== 'cancelled') {
    v.smoke = c.smoke.verdict
    v.cases = c.smoke.cases
  }
  return v
}
