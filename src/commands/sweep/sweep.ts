// `command: sweep`: the deployments whose whole name matches `sweep-names` are judged by the
// criteria, and those that go deleted one by one, each re-read right before its delete and held
// back unless unchanged since the listing. Nothing else is ever touched.
import { ApiError, ControlPlaneError } from '../../control-plane/errors.ts'
import { sanitizeServerText } from '../../inert.ts'
import type { Deployment } from '../../control-plane/schema.ts'
import type { Options } from '../../inputs/options.ts'
import { matchName, type NamePattern } from '../../inputs/sweep-names.ts'
import { deleteReconciled } from '../delete/delete.ts'
import type { FlowDeps } from '../deploy/deps.ts'
import type { Failure } from '../../interface/ending.ts'
import { firstLine } from '../deploy/steps/conclude.ts'
import { choose, type Candidate, type SweepRow } from './choose.ts'
import type { PullState, PullStates } from '../../github/pull-state.ts'

/** What a sweep reads of the inputs. */
export type SweepOptions = Pick<
  Options,
  | 'sweepNames'
  | 'sweepClosed'
  | 'sweepMaxAge'
  | 'sweepMaxCount'
  | 'deleteTracingProject'
  | 'dryRun'
  | 'githubToken'
  | 'repository'
  | 'repositoryExplicit'
>

export interface SweepResult {
  rows: SweepRow[]
  /** Names this run deleted. */
  swept: string[]
  /** Why the closed criterion did not run, when it was asked for (no token, not on GitHub...). */
  closedSkipped?: string
  failure?: Failure
}

/** What the run found out about where pull requests are read (upkeep.ts decides it). */
export type PullSource = PullStates | { skipped: string } | undefined

export async function sweep(
  o: SweepOptions,
  deps: FlowDeps,
  source: PullSource
): Promise<SweepResult> {
  const pattern = o.sweepNames!
  const result: SweepResult = { rows: [], swept: [] }
  if (source && 'skipped' in source) result.closedSkipped = source.skipped
  try {
    const candidates = await deps.log.group('Find the matching deployments', () =>
      listMatching(pattern, deps)
    )
    const pulls = source && 'read' in source ? await readPulls(candidates, source, deps) : undefined
    result.rows = choose(candidates, {
      pulls,
      mark: source && 'read' in source ? source.mark : '#',
      maxAgeMs: o.sweepMaxAge,
      maxCount: o.sweepMaxCount,
      now: deps.clock.now()
    })
    await deps.log.group('Delete', () => deleteGoing(o, deps, result))
  } catch (err) {
    if (!(err instanceof ControlPlaneError)) throw err
    result.failure = { message: err.message, title: 'Sweep failed' }
  }
  return result
}

/** Every deployment whose whole name matches: the list read to its end, filtered by a part of the name. */
async function listMatching(pattern: NamePattern, deps: FlowDeps): Promise<Candidate[]> {
  const found: Candidate[] = []
  let listed = 0
  for await (const d of deps.client.iterateDeployments({ name_contains: pattern.literal })) {
    listed++
    const m = matchName(pattern, d.name)
    if (m) found.push(candidateOf(d, m.pr))
  }
  deps.log.info(
    `${listed} ${listed === 1 ? 'deployment has' : 'deployments have'} "${pattern.literal}" in the name; ${found.length} match ${pattern.text} as a whole.`
  )
  return found
}

function candidateOf(d: Deployment, pr: number | undefined): Candidate {
  return {
    id: d.id,
    name: d.name,
    status: d.status,
    updatedAt: d.updated_at,
    updatedMs: Date.parse(d.updated_at),
    latestRevisionId: d.latest_revision_id,
    ...(pr === undefined ? {} : { pr })
  }
}

/** The state of each pull request the names hold, read once each; a failed read is a warning. */
async function readPulls(
  candidates: readonly Candidate[],
  source: PullStates,
  deps: FlowDeps
): Promise<Map<number, PullState>> {
  const numbers = [...new Set(candidates.flatMap(c => (c.pr === undefined ? [] : [c.pr])))]
  const states = new Map<number, PullState>()
  if (!numbers.length) return states
  const title = `Read ${numbers.length} pull request states from ${source.where}`
  await deps.log.group(title, async () => {
    for (const n of numbers.sort((a, b) => a - b)) {
      if (deps.signal?.aborted) break
      const state = await source.read(n)
      states.set(n, state)
      const which = `${source.mark}${n}`
      if (state.kind === 'failed')
        deps.log.warning(
          `Pull request ${which}: ${state.reason}. Its deployments are kept on this criterion.`,
          'Pull request not read'
        )
      else
        deps.log.info(
          `Pull request ${which}: ${state.kind === 'closed' ? (state.merged ? 'merged' : 'closed') : state.kind === 'open' ? 'open' : 'not found'}.`
        )
    }
  })
  return states
}

/** Deletes, oldest first, those that go; a dry run only says so. */
async function deleteGoing(o: SweepOptions, deps: FlowDeps, result: SweepResult): Promise<void> {
  const going = result.rows.filter(r => r.fate === 'would-delete')
  if (!going.length) {
    deps.log.info('Nothing to delete.')
    return
  }
  for (const row of going) {
    if (o.dryRun) {
      deps.log.info(`Dry run: would delete "${row.name}": ${row.why.join('; ')}.`)
      continue
    }
    if (deps.signal?.aborted) break
    await deleteOne(o, deps, row, result)
  }
  if (o.dryRun) deps.log.info('Dry run: nothing was deleted.')
}

/** Re-reads one deployment, and deletes it when it is as listed. */
async function deleteOne(
  o: SweepOptions,
  deps: FlowDeps,
  row: SweepRow,
  result: SweepResult
): Promise<void> {
  const { client, log } = deps
  let now: Deployment
  try {
    now = await client.getDeployment(row.id)
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return gone(row, deps)
    if (!(err instanceof ControlPlaneError)) throw err
    const why = `could not be read again before its delete: ${firstLine(err)}`
    return holdBack(row, why, `"${row.name}" ${why}. It is kept; a later sweep tries again.`, log)
  }
  const changed = changeSince(row, now, o.sweepNames!)
  if (changed) {
    const line = `Held back "${row.name}": it changed since the listing (${changed}); it is kept.`
    return holdBack(row, 'it changed since the listing', line, log)
  }
  try {
    const answer = await deleteReconciled(deps, row.id, o.deleteTracingProject)
    if (answer === 'not-found') return gone(row, deps)
  } catch (err) {
    if (!(err instanceof ControlPlaneError)) throw err
    row.fate = 'failed'
    row.why.push(firstLine(err))
    result.failure ??= { message: err.message, title: 'Sweep delete failed' }
    return
  }
  row.fate = 'deleted'
  // As the re-read named it (the same name as listed: changeSince holds it).
  result.swept.push(now.name)
  const project = o.deleteTracingProject ? ' and its tracing project' : ''
  log.info(`Deleted "${row.name}" (${row.id})${project}: ${row.why.join('; ')}.`)
}

/** How the re-read differs from the listing: another id or name (a misnamed entry), a change. */
function changeSince(row: SweepRow, now: Deployment, pattern: NamePattern): string | undefined {
  if (now.id !== row.id) return `read again, it answers as id ${sanitizeServerText(now.id, 80)}`
  if (now.name !== row.name || !matchName(pattern, now.name))
    return `read again, it is named "${sanitizeServerText(now.name, 200)}"`
  if (now.updated_at !== row.updatedAt || now.latest_revision_id !== row.latestRevisionId)
    return `last change ${sanitizeServerText(now.updated_at, 80)}, latest revision ${sanitizeServerText(now.latest_revision_id ?? 'none', 80)}: someone may deploy it now`
  return undefined
}

function holdBack(row: SweepRow, why: string, line: string, log: FlowDeps['log']): void {
  row.fate = 'held-back'
  row.why.push(why)
  log.warning(line, 'Deployment held back')
}

function gone(row: SweepRow, deps: FlowDeps): void {
  row.fate = 'gone'
  row.why.push('it was gone before its delete arrived')
  deps.log.info(`"${row.name}" was already gone.`)
}
