// Which of the matching deployments the sweep deletes, and why: pure. A deployment goes when any
// criterion says so; a state that could not be read says nothing.
import { formatAge } from '../../duration.ts'
import type { PullState } from '../../github/pull-state.ts'

/** A deployment whose whole name matched, as the listing showed it. */
export interface Candidate {
  id: string
  name: string
  status: string
  updatedAt: string
  /** `updated_at` in ms; NaN when the service's text is no date. */
  updatedMs: number
  latestRevisionId: string | null
  /** The `{pr}` part of its name. */
  pr?: number
}

export type Fate =
  | 'deleted'
  | 'would-delete'
  | 'kept'
  /** It changed since the listing (someone deploys it now): left alone. */
  | 'held-back'
  /** Gone before its delete arrived. */
  | 'gone'
  | 'being-deleted'
  | 'failed'

export interface SweepRow extends Candidate {
  fate: Fate
  /** Why it goes (criteria met), or why it stays. */
  why: string[]
}

export interface Criteria {
  /** Pull request states by number; undefined: the closed criterion is off or skipped. */
  pulls: ReadonlyMap<number, PullState> | undefined
  /** `#` (GitHub) or `!` (GitLab), for the reasons. */
  mark: string
  maxAgeMs: number | undefined
  maxCount: number | undefined
  now: number
}

const BEING_DELETED = 'AWAITING_DELETE'

/** Each candidate with the reasons it goes (`would-delete`) or stays (`kept`), oldest first. */
export function choose(candidates: readonly Candidate[], c: Criteria): SweepRow[] {
  const rows = [...candidates].sort((a, b) => age(a) - age(b)).map(d => decide(d, c))
  if (c.maxCount === undefined) return rows
  const staying = rows.filter(r => r.fate === 'kept')
  const over = staying.length - c.maxCount
  for (const r of staying.slice(0, Math.max(0, over))) {
    r.fate = 'would-delete'
    r.why = [
      `beyond the count: only the newest ${c.maxCount} of the ${staying.length} that the other criteria keep stay`
    ]
  }
  return rows
}

/** The sort key, oldest first: a last change that is no date counts as the newest (it stays). */
function age(d: Candidate): number {
  return Number.isFinite(d.updatedMs) ? d.updatedMs : Infinity
}

function decide(d: Candidate, c: Criteria): SweepRow {
  if (d.status === BEING_DELETED)
    return { ...d, fate: 'being-deleted', why: ['already being deleted'] }
  const goes: string[] = []
  const stays: string[] = []
  const pull = d.pr === undefined ? undefined : c.pulls?.get(d.pr)
  const pr = `pull request ${c.mark}${d.pr}`
  if (pull?.kind === 'closed') goes.push(`${pr} is ${pull.merged ? 'merged' : 'closed'}`)
  else if (pull?.kind === 'open') stays.push(`${pr} is open`)
  else if (pull?.kind === 'absent') stays.push(`no ${pr}`)
  else if (pull?.kind === 'failed') stays.push(`${pr} could not be read`)
  if (c.maxAgeMs !== undefined) {
    const age = c.now - d.updatedMs
    if (Number.isFinite(age) && age > c.maxAgeMs)
      goes.push(`last change ${formatAge(age)} ago, older than ${formatAge(c.maxAgeMs)}`)
    else if (Number.isFinite(age)) stays.push(`last change ${formatAge(Math.max(0, age))} ago`)
    else stays.push('no readable last change')
  }
  return goes.length
    ? { ...d, fate: 'would-delete', why: goes }
    : { ...d, fate: 'kept', why: stays.length ? stays : ['no criterion says it goes'] }
}
