// `command: delete`: the one deployment of this exact name (or id) is deleted, and with `wait`
// seen gone. Cleanup jobs re-run and pull requests close before a first deploy, so one not there
// is a success. This flow alone records in the journal what its steps learned.
import { shownStatus } from '../../report/status-words.ts'
import { ApiError, ControlPlaneError } from '../../control-plane/errors.ts'
import { DELETING_STATUSES } from '../../control-plane/vocabulary.ts'
import type { Deployment } from '../../control-plane/schema.ts'
import { formatDuration } from '../../duration.ts'
import type { Options } from '../../inputs/options.ts'
import type { FlowOptions } from '../deploy/options.ts'

/** What a delete reads of the inputs. */
export type DeleteOptions = FlowOptions &
  Pick<Options, 'deleteTracingProject' | 'wait' | 'timeoutMs' | 'pollIntervalMs'>
import type { FlowDeps } from '../deploy/deps.ts'
import { stopped, type Ending, type Stop } from '../../interface/ending.ts'
import { journalledEnding } from '../deploy/ending.ts'
import { findNamed } from '../deploy/steps/find-deployment.ts'
import { goneLine, statusOf, waitUntilGone } from '../deploy/steps/gone.ts'
import { record, told, writing } from '../deploy/facts.ts'
import type { Learned } from '../../interface/journal.ts'

/** The delete, to its ending; a failure once it was applied leaves the outcome `deleted`. */
export function deleteDeployment(
  o: DeleteOptions,
  journal: Learned,
  deps: FlowDeps
): Promise<Ending> {
  return journalledEnding(
    journal,
    deps.signal,
    () => steps(o, journal, deps),
    ending => (journal.deleted === true && ending?.outcome !== 'cancelled' ? 'deleted' : undefined)
  )
}

async function steps(o: DeleteOptions, journal: Learned, deps: FlowDeps): Promise<Ending> {
  const { log } = deps
  // A delete builds nothing: no ref or commit to report.
  record(journal, { deleted: false, ref: undefined, expectedSha: undefined })
  const absent =
    o.target.kind === 'id'
      ? `No deployment has the id ${o.target.deploymentId}`
      : `No deployment is named "${o.name}"`
  const found = await log.group('Find the deployment', () => findToDelete(o, deps, absent))
  if (stopped(found)) return found
  if (!found) {
    log.notice(`${absent}.`, 'Nothing to delete')
    return { outcome: 'absent' }
  }
  record(journal, { deploymentId: found.id, name: found.name, deploymentStatus: found.status })
  const project = o.deleteTracingProject ? ' and its tracing project' : ''
  if (o.dryRun) {
    log.info(
      `Dry run: would delete deployment "${found.name}" (${found.id})${project}. Nothing was deleted.`
    )
    return { outcome: 'dry-run' }
  }
  const answer = await log.group('Delete the deployment', () => send(o, deps, found))
  if (answer === 'not-found') {
    record(journal, { deploymentStatus: undefined })
    return { outcome: 'absent' }
  }
  record(journal, { deleted: true })
  if (!o.wait) return { outcome: 'deleted' }
  const gone = await log.group('Wait until it is gone', () => waitGone(o, deps, found.id))
  record(journal, gone.learned)
  return gone.ending
}

/** The deployment the inputs name, or undefined when there is none (a 404 on an id too). */
async function findToDelete(
  o: DeleteOptions,
  deps: FlowDeps,
  absent: string
): Promise<Deployment | undefined | Stop> {
  const { log } = deps
  const d = await findNamed(o, deps, ': nothing was deleted')
  if (stopped(d)) return d
  if (d) log.info(`Found deployment "${d.name}" (${d.id}), status ${shownStatus(d.status)}.`)
  else log.info(`${absent}.`)
  return d
}

/** The DELETE, reconciled by a read when no answer came. */
async function send(o: DeleteOptions, deps: FlowDeps, found: Deployment) {
  const { log } = deps
  const del = () => deleteReconciled(deps, found.id, o.deleteTracingProject)
  const a = await writing(deps, 'delete', del)
  if (a === 'not-found') {
    // Someone else deleted it between the look-up and this request: not this run's doing.
    log.info(`Deployment "${found.name}" (${found.id}) was already gone when the delete arrived.`)
    return a
  }
  const project = o.deleteTracingProject ? ' and its tracing project' : ''
  log.info(`Deleted deployment "${found.name}" (${found.id})${project}.`)
  if (!o.deleteTracingProject) {
    log.info(
      `Its tracing project "${found.name}" was kept, so the name stays taken (a create of it answers 409); set ${deps.say.set('delete-tracing-project', true)} to free it.`
    )
  }
  return a
}

/** The DELETE, reconciled by a read when no answer came after every retry (the sweep's too). */
export function deleteReconciled(
  deps: FlowDeps,
  id: string,
  deleteTracingProject: boolean
): Promise<'deleted' | 'not-found'> {
  return deps.client.deleteDeployment(id, { deleteTracingProject }).catch(async err => {
    if (!(err instanceof ControlPlaneError) || err instanceof ApiError) throw err
    deps.log.warning(`${err.message.split('\n')[0]}; reading the deployment back.`)
    const status = await statusOf(deps.client, id)
    const gone = status === undefined || DELETING_STATUSES.includes(status)
    return gone ? ('deleted' as const) : Promise.reject(err)
  })
}

/** Reads until a 404: `AWAITING_DELETE` in between, bounded by `timeout`. */
async function waitGone(
  o: DeleteOptions,
  deps: FlowDeps,
  id: string
): Promise<{ ending: Ending; learned: Learned }> {
  let status: string | undefined
  const onStatus = (seen: string, ms: number) => {
    status = seen
    deps.log.info(`${shownStatus(seen)} after ${formatDuration(ms)}`)
  }
  const pace = { timeoutMs: o.timeoutMs, pollIntervalMs: o.pollIntervalMs, onStatus }
  const result = await waitUntilGone(deps.client, id, pace, deps).catch((err: unknown) => {
    throw status === undefined ? err : told(err, { deploymentStatus: status })
  })
  if (result.kind === 'gone') {
    deps.log.info(goneLine(result.elapsedMs))
    return { ending: { outcome: 'deleted' }, learned: { deploymentStatus: undefined } }
  }
  const still = result.status === undefined ? 'without a status' : shownStatus(result.status)
  const failure = {
    message: `Deployment ${id} is still ${still} after ${formatDuration(o.timeoutMs)}; the delete goes on on the control plane.`,
    hint: `Raise ${deps.say('timeout')}, or use ${deps.say.set('wait', false)}.`,
    title: 'Delete timed out'
  }
  const learned = status === undefined ? {} : { deploymentStatus: status }
  return { ending: { outcome: 'timeout', failure }, learned }
}
