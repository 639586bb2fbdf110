// `command: check`: writes nothing. It plans the deploy this run's inputs describe (as the dry run
// does, planned.ts) and reads the deployment's revisions, then lists each difference: a planned
// change, an active revision that is not the latest, an active revision built from another commit
// than the ref names now, a deployment that does not exist. At most three requests: the look-up
// and, where needed, the latest and the active revision.
import { ApiError, ControlPlaneError } from '../../control-plane/errors.ts'
import type { Deployment, Revision } from '../../control-plane/schema.ts'
import { revisionOutcome } from '../../control-plane/vocabulary.ts'
import type { Options } from '../../inputs/options.ts'
import type { FlowDeps } from '../deps.ts'
import { stopped, type Failure, type Stop } from '../ending.ts'
import { shownStatus } from '../status-words.ts'
import { findDeploymentByName } from '../steps/find-deployment.ts'
import { plannedChanges } from './planned.ts'

export type DriftKind = 'absent' | 'planned' | 'not-latest' | 'commit'

export interface Difference {
  kind: DriftKind
  /** One line that says it, then its details (the plan's lines). */
  text: string
  details: string[]
}

export interface CheckResult {
  name: string | undefined
  deploymentId: string | undefined
  differences: Difference[]
  /** Criteria that could not be judged, and why. */
  skipped: string[]
  failure?: Failure
}

export async function check(o: Options, deps: FlowDeps): Promise<CheckResult> {
  const result: CheckResult = {
    name: o.name,
    deploymentId: undefined,
    differences: [],
    skipped: []
  }
  try {
    const current = await deps.log.group('Find the deployment', () => find(o, deps))
    if (stopped(current)) {
      result.failure = current.failure
      return result
    }
    if (!current) {
      const what =
        o.target.kind === 'id' ? `Deployment ${o.target.deploymentId}` : `Deployment "${o.name}"`
      result.differences.push({
        kind: 'absent',
        text: `${what} does not exist: a deploy would create it.`,
        details: []
      })
      return result
    }
    result.name = current.name
    result.deploymentId = current.id
    const refused = planned(o, deps, current, result)
    if (refused) {
      result.failure = refused
      return result
    }
    await deps.log.group('Revisions', () => revisions(o, deps, current, result))
  } catch (err) {
    if (err instanceof ControlPlaneError)
      result.failure = { message: err.message, title: 'Check failed' }
    else throw err
  }
  return result
}

async function find(o: Options, deps: FlowDeps): Promise<Deployment | undefined | Stop> {
  const target = o.target
  if (target.kind === 'name') return findDeploymentByName(deps.client, target.name, deps.say)
  return deps.client.getDeployment(target.deploymentId).catch(err => {
    if (err instanceof ApiError && err.status === 404) return undefined
    throw err
  })
}

/** The planned changes, as differences; the deploy's failure when it would refuse. */
function planned(
  o: Options,
  deps: FlowDeps,
  current: Deployment,
  result: CheckResult
): Failure | undefined {
  const plan = plannedChanges(o, current, deps.say)
  if (stopped(plan)) return plan.failure
  if (plan.unread.length)
    result.skipped.push(
      `secret values of ${plan.unread.join(', ')}: the control plane does not return them, so only their names are compared`
    )
  if (plan.lines.length) {
    result.differences.push({
      kind: 'planned',
      text: `A deploy with these inputs would change "${current.name}":`,
      details: plan.lines
    })
  }
  return undefined
}

/** The active revision against the latest, and the commit it built against the ref's. */
async function revisions(
  o: Options,
  deps: FlowDeps,
  d: Deployment,
  result: CheckResult
): Promise<void> {
  const { client } = deps
  const latestId = d.latest_revision_id
  const activeId = d.active_revision_id
  let active: Pick<Revision, 'source_revision_config'> | undefined =
    activeId !== null && activeId === latestId ? d : undefined
  if (latestId !== null && latestId !== activeId) {
    const latest = await client.getRevision(d.id, latestId)
    const state =
      revisionOutcome(latest.status) === 'failed'
        ? 'failed'
        : revisionOutcome(latest.status) === 'in_progress'
          ? 'in progress'
          : 'not active'
    result.differences.push({
      kind: 'not-latest',
      text:
        activeId === null
          ? `"${d.name}" has no active revision: its latest, ${latestId}, is ${shownStatus(latest.status)} (${state}).`
          : `The active revision ${activeId} is not the latest: ${latestId} is ${shownStatus(latest.status)} (${state}).`,
      details: []
    })
    if (activeId !== null && wantsCommit(o)) active = await client.getRevision(d.id, activeId)
  }
  commit(o, active, activeId, result)
  deps.log.info(
    `Latest revision ${latestId ?? 'none'}, active ${activeId ?? 'none'}${active?.source_revision_config?.repo_commit_sha ? `, built ${active.source_revision_config.repo_commit_sha}` : ''}.`
  )
}

/** Whether the commit that the ref names now is known: a codehost deploy of the event's ref. */
function wantsCommit(o: Options): boolean {
  return o.source === 'codehost' && o.expectedSha !== undefined
}

function commit(
  o: Options,
  active: Pick<Revision, 'source_revision_config'> | undefined,
  activeId: string | null,
  result: CheckResult
): void {
  if (o.source !== 'codehost' || activeId === null) return
  if (o.expectedSha === undefined) {
    result.skipped.push(
      `the commit built: the ref ${o.ref ?? '(none)'} is not the event's or the checkout's, so the commit it names now is not known here`
    )
    return
  }
  const built = active?.source_revision_config?.repo_commit_sha
  if (!built) {
    result.skipped.push(
      `the commit built: the control plane does not report it for revision ${activeId}`
    )
    return
  }
  if (built.toLowerCase() === o.expectedSha.toLowerCase()) return
  result.differences.push({
    kind: 'commit',
    text: `The active revision ${activeId} built commit ${built}, but ${o.ref} names ${o.expectedSha} now.`,
    details: []
  })
}
