// The deploy's first step: the deployment the inputs name, as it is now. One on its way out cannot
// be updated: named by name, it is waited for and created anew; named by id, it is an error.
import { shownStatus } from '../../../report/status-words.ts'
import type { Deployment } from '../../../control-plane/schema.ts'
import { DELETING_STATUSES } from '../../../control-plane/vocabulary.ts'
import { formatDuration } from '../../../duration.ts'
import type { DeployOptions } from '../options.ts'
import type { FlowDeps } from '../deps.ts'
import { stop, stopped, type Stop } from '../../../interface/ending.ts'
import { findDeploymentByName, otherName } from './find-deployment.ts'
import { goneLine, waitUntilGone } from './gone.ts'
import { seen, told } from '../facts.ts'
import type { Journal, Learned } from '../../../interface/journal.ts'

/** The deployment to update, or none (to create it), with what its read told. */
export interface Target {
  current: Deployment | undefined
  learned?: Learned
}

export async function findTarget(
  o: DeployOptions,
  journal: Journal,
  deps: FlowDeps
): Promise<Target | (Stop & { learned?: Learned })> {
  const { client, log } = deps
  const found = await log.group('Find the deployment', async () => {
    const t = o.target
    const d =
      t.kind === 'id'
        ? await client.getDeployment(t.deploymentId)
        : await findDeploymentByName(client, t.name, deps.say)
    if (stopped(d)) return d
    if (!d) {
      log.info(`No deployment is named "${o.name}".`)
      return undefined
    }
    const other = otherName(o, d, deps.say)
    if (other) return other
    const learned = seen(d, log, journal)
    log.info(`Found deployment "${d.name}" (${d.id}), status ${shownStatus(d.status)}.`)
    return { current: d, learned }
  })
  if (stopped(found) || !found?.current) return found ?? { current: undefined }
  if (!DELETING_STATUSES.includes(found.current.status)) return found
  const learned = found.learned ?? {}
  const gone = await awaitDeletion(o, deps, found.current).catch((err: unknown) => {
    throw told(err, learned)
  })
  if (gone !== undefined && gone !== 'gone') return { ...gone, learned }
  // Nothing of the deleted deployment is this run's: not its id, status or url.
  const none = { deploymentId: undefined, deploymentStatus: undefined, url: undefined }
  return {
    current: undefined,
    learned: gone ? { ...learned, ...none, urlProblem: undefined } : learned
  }
}

/** The deployment is being deleted: wait until it is gone, so that the run can create it anew. */
async function awaitDeletion(
  o: DeployOptions,
  deps: FlowDeps,
  d: Deployment
): Promise<undefined | 'gone' | Stop> {
  const { log } = deps
  if (o.target.kind === 'id') {
    return stop(
      `Deployment ${d.id} ("${d.name}") is being deleted (${shownStatus(d.status)}): it cannot be updated, and a deployment named by id is never created anew.`,
      `Deploy by name (without ${deps.say('deployment-id')}) to create it again once it is gone.`,
      'Deployment being deleted'
    )
  }
  if (o.dryRun) {
    log.info(
      `Deployment "${d.name}" (${d.id}) is being deleted (${shownStatus(d.status)}): a run would wait until it is gone, then create it anew.`
    )
    return undefined
  }
  const result = await log.group(`Wait until deployment "${d.name}" is gone`, async () => {
    log.info(
      `Deployment "${d.name}" (${d.id}) is being deleted (${shownStatus(d.status)}), so it cannot be updated: ` +
        `waiting until it is gone (at most the timeout, ${formatDuration(o.timeoutMs)}), then creating it anew.`
    )
    const r = await waitUntilGone(deps.client, d.id, o, deps)
    if (r.kind === 'gone') log.info(goneLine(r.elapsedMs))
    return r
  })
  if (result.kind === 'timeout') {
    return stop(
      `Timed out: deployment "${d.name}" (${d.id}) was still ${result.status === undefined ? 'without a status' : shownStatus(result.status)} after ${formatDuration(o.timeoutMs)}; nothing was deployed.`,
      `Run again once the deletion has finished, or raise ${deps.say('timeout')}.`,
      'Deployment being deleted',
      { outcome: 'timeout' }
    )
  }
  return 'gone'
}
