// Which revision answers: the agent server's `GET /info` names it in `host.host_revision_id` (and
// the deployment in `host.project_id`), which the service injects into the image. Until the first
// match the probes go on (the previous revision drains while the new one starts); from it on,
// every probe of the window must match. No `host` block is `unknown`: a notice, never a failure.
import {
  bounded,
  DEFAULT_REQUEST_TIMEOUT_MS,
  jsonOf,
  noAnswer,
  type AgentAnswer,
  type AgentCall,
  type Clock
} from './agent-call.ts'

/** What one `/info` answer says about the revision served. */
export type InfoReading =
  | { kind: 'this' }
  | { kind: 'other'; revisionId: string | null; projectId: string | null }
  /** 2xx without a `host.host_revision_id`: the server cannot tell. */
  | { kind: 'no-host' }
  /** Not 2xx, not JSON, or no answer: nothing read. */
  | { kind: 'no-answer'; reason: string }

export interface Expected {
  revisionId: string
  deploymentId: string
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/** Reads one answer of `/info` against the run's revision and deployment. */
export function readInfo(answer: AgentAnswer, expected: Expected): InfoReading {
  if (answer.status < 200 || answer.status >= 300)
    return { kind: 'no-answer', reason: `/info answered ${answer.status}` }
  const body = jsonOf(answer.body)
  if (typeof body !== 'object' || body === null)
    return { kind: 'no-answer', reason: '/info answered no JSON object' }
  const host = (body as { host?: unknown }).host
  const h = typeof host === 'object' && host !== null ? (host as Record<string, unknown>) : {}
  const revisionId = text(h.host_revision_id)
  if (revisionId === null) return { kind: 'no-host' }
  const projectId = text(h.project_id)
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
  const projectOk = projectId === null || same(projectId, expected.deploymentId)
  if (same(revisionId, expected.revisionId) && projectOk) return { kind: 'this' }
  return { kind: 'other', revisionId, projectId }
}

export type ServedRevision =
  | { verdict: 'this'; probes: number; elapsedMs: number }
  | { verdict: 'stale'; probes: number; elapsedMs: number; reason: string }
  | { verdict: 'unknown'; probes: number; elapsedMs: number; notice: string }
  | { verdict: 'cancelled'; probes: number; elapsedMs: number }

export interface ServedRevisionOptions extends Expected {
  call: AgentCall
  clock: Clock
  signal: AbortSignal
  /** Epoch ms (on `clock`): no probe starts after it while none has matched. */
  deadline: number
  /** From the first match on, every probe for this long must match too. */
  windowMs: number
  intervalMs: number
  /** The longest one probe may take (default 10 s). */
  requestTimeoutMs?: number
}

/** Why the revision served is not the run's, naming both revision ids (and a wrong deployment). */
export function staleReason(r: InfoReading & { kind: 'other' }, e: Expected, when: string): string {
  const served = r.revisionId ?? 'none'
  const project =
    r.projectId !== null && r.projectId.toLowerCase() !== e.deploymentId.toLowerCase()
      ? ` of deployment ${r.projectId} (not ${e.deploymentId})`
      : ''
  return `the agent server serves revision ${served}${project}, not this run's revision ${e.revisionId} (${when})`
}

/** Probes `/info` until the run's revision answers for the window, or the deadline passes. */
export async function checkServedRevision(o: ServedRevisionOptions): Promise<ServedRevision> {
  const start = o.clock.now()
  let probes = 0
  let windowEnd: number | undefined
  let last: InfoReading | undefined
  const end = (verdict: 'this' | 'cancelled') => ({
    verdict,
    probes,
    elapsedMs: o.clock.now() - start
  })
  for (;;) {
    if (o.signal.aborted) return end('cancelled')
    const reading = await probeInfo(o)
    if (o.signal.aborted) return end('cancelled')
    probes++
    if (reading.kind === 'no-host') return unknown(probes, o.clock.now() - start)
    if (reading.kind !== 'no-answer' || last === undefined) last = reading
    if (windowEnd === undefined && reading.kind === 'this') windowEnd = o.clock.now() + o.windowMs
    else if (windowEnd !== undefined && reading.kind === 'other') {
      const reason = staleReason(reading, o, `probe ${probes}, after this revision had answered`)
      return { verdict: 'stale', probes, elapsedMs: o.clock.now() - start, reason }
    }
    const until = windowEnd ?? o.deadline
    if (o.clock.now() >= until) {
      if (windowEnd !== undefined) return end('this')
      return never(last, o, probes, o.clock.now() - start)
    }
    try {
      await o.clock.sleep(Math.min(o.intervalMs, until - o.clock.now()), o.signal)
    } catch {
      return end('cancelled')
    }
  }
}

async function probeInfo(o: ServedRevisionOptions): Promise<InfoReading> {
  try {
    const signal = bounded(o.signal, o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS)
    return readInfo(await o.call({ method: 'GET', path: '/info', signal }), o)
  } catch (error) {
    return { kind: 'no-answer', reason: noAnswer(error) }
  }
}

function unknown(probes: number, elapsedMs: number): ServedRevision {
  const notice =
    'the agent server does not say which revision it serves (its /info has no host block): the served revision was not checked'
  return { verdict: 'unknown', probes, elapsedMs, notice }
}

/** The deadline passed without a match: stale when a revision was named, else unknown. */
function never(
  last: InfoReading | undefined,
  e: Expected,
  probes: number,
  elapsedMs: number
): ServedRevision {
  if (last?.kind === 'other') {
    const reason = staleReason(last, e, `still at the timeout, after ${probes} probes`)
    return { verdict: 'stale', probes, elapsedMs, reason }
  }
  const why = last?.kind === 'no-answer' ? last.reason : 'no answer'
  const notice = `the served revision could not be read before the timeout (${why}): it was not checked`
  return { verdict: 'unknown', probes, elapsedMs, notice }
}
