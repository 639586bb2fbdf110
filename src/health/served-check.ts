// The revision served, asked on the gate's probes: each 2xx probe from the first on also reads
// `GET /info` and feeds ServedTracker (served-revision.ts has the rule). An /info unreadable three
// times before any revision was named is `unknown`.
import { sanitizeServerText } from '../inert.ts'
import type { WindowCheck, WindowStep } from './window.ts'
import { noAnswer, type AgentCall } from './verify/agent-call.ts'
import {
  readInfo,
  ServedTracker,
  type Expected,
  type InfoReading,
  type ServedVerdict
} from './verify/served-revision.ts'
import type { FlowLog } from '../log.ts'

/** /info answering nothing readable this many times, before any revision was named: unknown. */
const UNREADABLE_AFTER = 3

export interface ServedCheck {
  check: WindowCheck
  /** The verdict once the gate ended (`healthy`: its end decides; else only what was settled). */
  verdict(gateHealthy: boolean): ServedVerdict | undefined
}

export function servedCheck(call: AgentCall, expected: Expected, log: FlowLog): ServedCheck {
  const tracker = new ServedTracker(expected)
  let settled: ServedVerdict | undefined
  let unreadable = 0
  let named = false
  let said: string | undefined
  const say = (line: string) => {
    if (line !== said) log.info(line)
    said = line
  }
  const settle = (v: ServedVerdict): WindowStep => {
    settled = v
    return v.verdict === 'stale' ? 'fail' : 'settled'
  }
  const ask = async (timeoutMs: number, signal?: AbortSignal): Promise<WindowStep> => {
    const reading = await readOnce(call, expected, timeoutMs, signal)
    if (signal?.aborted) return 'wait'
    say(describeReading(reading, expected))
    const v = tracker.observe(reading)
    if (v) return settle(v)
    if (reading.kind === 'this') return 'match'
    if (reading.kind === 'other') named = true
    if (reading.kind !== 'no-answer' || tracker.matched) return tracker.matched ? 'match' : 'wait'
    if (named || ++unreadable < UNREADABLE_AFTER) return 'wait'
    const notice = `the served revision could not be read (${reading.reason}, ${UNREADABLE_AFTER} times): it was not checked`
    return settle({ verdict: 'unknown', notice })
  }
  return {
    check: { ask },
    verdict: healthy =>
      settled ??
      (healthy ? tracker.end() : tracker.matched ? { verdict: 'this' as const } : undefined)
  }
}

async function readOnce(
  call: AgentCall,
  expected: Expected,
  timeoutMs: number,
  signal?: AbortSignal
): Promise<InfoReading> {
  const bound = AbortSignal.timeout(Math.max(1, timeoutMs))
  try {
    const answer = await call({
      method: 'GET',
      path: '/info',
      signal: signal ? AbortSignal.any([signal, bound]) : bound
    })
    return readInfo(answer, expected)
  } catch (error) {
    return { kind: 'no-answer', reason: noAnswer(error) }
  }
}

function describeReading(r: InfoReading, e: Expected): string {
  switch (r.kind) {
    case 'this':
      return `GET /info: revision ${e.revisionId} answers, ${e.whose ?? "this run's"} revision.`
    case 'other':
      return `GET /info: ${otherServed(r, e)}; probing on until this run's answers, or the timeout.`
    case 'no-host':
      return 'GET /info: no host block (the server does not say which revision it serves).'
    case 'no-answer':
      return `GET /info: ${sanitizeServerText(r.reason, 160)}.`
  }
}

/** What answers instead of the run's revision: another revision, or this one under another deployment. */
function otherServed(r: InfoReading & { kind: 'other' }, e: Expected): string {
  const id = sanitizeServerText(r.revisionId ?? 'none', 80)
  const project = r.projectId === null ? 'none' : sanitizeServerText(r.projectId, 80)
  if (r.revisionId?.toLowerCase() === e.revisionId.toLowerCase())
    return `revision ${id} answers, but as deployment ${project}, not this run's deployment ${e.deploymentId}`
  const of = r.projectId !== null && r.projectId.toLowerCase() !== e.deploymentId.toLowerCase()
  return `revision ${id}${of ? ` of deployment ${project}` : ''} answers, not yet this run's revision ${e.revisionId} (the previous one drains while the new one starts)`
}
