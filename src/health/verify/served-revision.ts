// Which revision answers: `GET /info` names it in `host.host_revision_id` (the deployment in
// `host.project_id`), which the service injects into the image. Until the first match the probes
// go on (the previous revision drains); from it on, every probe must match. No `host` block is
// `unknown`: a notice, never a failure.
import { jsonOf, type AgentAnswer } from './agent-call.ts'

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
  /** false: no revision drains (a promotion's source): another one answering is stale at once. */
  drains?: boolean
  /** Whose revision the messages name: `this run's` by default. */
  whose?: string
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

/** Why the revision served is not the run's, naming both revision ids (and a wrong deployment). */
function staleReason(r: InfoReading & { kind: 'other' }, e: Expected, when: string): string {
  const served = r.revisionId ?? 'none'
  const otherProject =
    r.projectId !== null && r.projectId.toLowerCase() !== e.deploymentId.toLowerCase()
  if (served.toLowerCase() === e.revisionId.toLowerCase())
    return `the agent server answers as deployment ${r.projectId ?? 'none'}, not this run's deployment ${e.deploymentId}, though with this run's revision ${e.revisionId} (${when})`
  const project = otherProject ? ` of deployment ${r.projectId} (not ${e.deploymentId})` : ''
  return `the agent server serves revision ${served}${project}, not ${e.whose ?? "this run's"} revision ${e.revisionId} (${when})`
}

export type ServedVerdict =
  | { verdict: 'this' }
  | { verdict: 'stale'; reason: string }
  | { verdict: 'unknown'; notice: string }

const NO_HOST =
  'the agent server does not say which revision it serves (its /info has no host block): the served revision was not checked'

/** The host block gone after this revision answered: neither stale nor held through, so unknown. */
const lostHost = (revisionId: string, probe: number) =>
  `revision ${revisionId} answered, then /info probe ${probe} came without its host block (an older server behind the same address answers so): the served revision could not be held through the window, and was not checked`

/**
 * The served-revision rule over a run of `/info` readings, their timing the gate's: the end of
 * the probes gives `this` after a match, else stale (a revision was named) or unknown.
 */
export class ServedTracker {
  probes = 0
  /** From the first match on, every reading must match. */
  matched = false
  private last: InfoReading | undefined
  private readonly expected: Expected
  constructor(expected: Expected) {
    this.expected = { ...expected }
  }

  /** Takes one reading; a verdict when it settles the check, else undefined. */
  observe(reading: InfoReading): ServedVerdict | undefined {
    this.probes++
    if (reading.kind === 'no-host' && this.matched)
      return { verdict: 'unknown', notice: lostHost(this.expected.revisionId, this.probes) }
    if (reading.kind === 'no-host') return { verdict: 'unknown', notice: NO_HOST }
    if (reading.kind !== 'no-answer' || this.last === undefined) this.last = reading
    if (reading.kind === 'this') this.matched = true
    else if ((this.matched || this.expected.drains === false) && reading.kind === 'other') {
      const when = this.matched
        ? `probe ${this.probes}, after this revision had answered`
        : `probe ${this.probes}`
      return { verdict: 'stale', reason: staleReason(reading, this.expected, when) }
    }
    return undefined
  }

  /** The verdict when the probes end (the window after a match, or the deadline). */
  end(): ServedVerdict {
    if (this.matched) return { verdict: 'this' }
    const last = this.last
    if (last?.kind === 'other') {
      const when = `still at the timeout, after ${this.probes} probes`
      return { verdict: 'stale', reason: staleReason(last, this.expected, when) }
    }
    const why = last?.kind === 'no-answer' ? last.reason : 'no answer'
    const notice = `the served revision could not be read before the timeout (${why}): it was not checked`
    return { verdict: 'unknown', notice }
  }
}
