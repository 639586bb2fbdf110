// What a run does once its revision ended `*_FAILED`: show why (the log's last lines) and, with
// `on-failure: rollback`, put the previous revision back. Both are returned for the journal; neither
// changes the verdict: the deploy that was asked for did not happen.
import { formatDuration } from '../../../duration.ts'
import type { DeployOptions } from '../options.ts'
import { LOG_BUDGET_MS, readFailureLog } from './failure-logs.ts'
import type { FailureLog, RollbackResult } from '../../../interface/journal.ts'
import type { FlowDeps } from '../deps.ts'
import { REMOVED, type Plan } from '../steps/plan.ts'
import { rollBack, type RollbackInput } from './rollback.ts'
import { progressLine } from '../../../report/status-words.ts'

export interface AfterFailure {
  log: FailureLog | undefined
  rollback: RollbackResult | undefined
}

/** `before`: what a rollback restores (the revision active before the write) and what it cannot. */
export async function afterFailure(
  o: Pick<DeployOptions, 'failureLogs' | 'onFailure' | 'timeoutMs' | 'pollIntervalMs'>,
  ids: { deploymentId: string; revisionId: string; status: string },
  before: { previousActive: string | null; plan: Plan | undefined },
  deps: FlowDeps
): Promise<AfterFailure> {
  const log = o.failureLogs > 0 ? await showLog(o.failureLogs, ids, deps) : undefined
  if (o.onFailure !== 'rollback') return { log, rollback: undefined }
  const input: RollbackInput = {
    deploymentId: ids.deploymentId,
    previousActive: before.previousActive,
    failedRevisionId: ids.revisionId,
    notUndone: notUndoneBy(before.plan),
    wait: {
      timeoutMs: o.timeoutMs,
      pollIntervalMs: o.pollIntervalMs,
      cadence: deps.cadence,
      signal: deps.signal,
      clock: deps.clock,
      onProgress: (status, ms) => deps.log.info(progressLine(status, formatDuration(ms)))
    },
    onStatus: (status, ms) => deps.log.info(`${status} after ${formatDuration(ms)}`)
  }
  const rollback = await deps.log.group('Roll back', async () => {
    const r = await rollBack(deps.client, input, deps.log)
    if (r.kind === 'not-done') deps.log.info(`No rollback: ${r.reason}.`)
    if (r.kind === 'failed') deps.log.warning(describeRollback(r)!, 'Rollback failed')
    if (r.kind === 'unconfirmed') deps.log.warning(describeRollback(r)!, 'Rollback not confirmed')
    if (r.kind === 'done' && r.notUndone.length)
      deps.log.warning(notUndoneSentence(r.notUndone)!, 'Rollback is partial')
    return r
  })
  return { log, rollback }
}

async function showLog(
  lines: number,
  ids: { deploymentId: string; revisionId: string; status: string },
  deps: FlowDeps
): Promise<FailureLog | undefined> {
  const { client } = deps
  const deadline = deps.clock.now() + LOG_BUDGET_MS
  const result = await readFailureLog(client, ids, ids.status, lines, client.redactor, deadline)
  if (result.kind !== 'log') {
    deps.log.warning(
      `Could not show the log of revision ${ids.revisionId}: ${result.reason}. The result stands as it is.`,
      'Log not available'
    )
    return undefined
  }
  const { log } = result
  const type = log.type === 'build' ? 'Build' : 'Deploy'
  const title = `${type} log of revision ${ids.revisionId} (last ${log.lines.length} lines)`
  await deps.log.group(title, async () => {
    for (const line of log.lines) deps.log.info(line)
  })
  return log
}

/** What the rollback did, for the error annotation, and what it left as this run set it. */
export function describeRollback(r: RollbackResult | undefined): string | undefined {
  if (!r) return undefined
  if (r.kind === 'not-done') return `Not rolled back: ${r.reason}.`
  const left = notUndoneSentence(r.notUndone)
  const tail = left ? ` ${left}` : ''
  if (r.kind === 'failed')
    return `The rollback failed: the redeploy of revision ${r.restoredId} was not made (${r.reason}).`
  if (r.kind === 'unconfirmed')
    return `The rollback could not be confirmed: ${r.reason}; check the deployment on the control plane.${tail}`
  const other = r.rebuilt
    ? ` It built commit ${r.rebuilt.built}, not ${r.rebuilt.restored} that revision ${r.restoredId} ran (its branch moved on).`
    : ''
  if (r.outcome === 'deployed')
    return `Rolled back: revision ${r.revisionId} (a redeploy of ${r.restoredId}) is DEPLOYED.${other}${tail}`
  return `The rollback did not restore service: revision ${r.revisionId} (a redeploy of ${r.restoredId}) ended ${r.status ?? 'without a status'} (${r.outcome}).${tail}`
}

/** The sentence that says what a redeploy left as this run set it; undefined when nothing. */
function notUndoneSentence(names: string[]): string | undefined {
  if (!names.length) return undefined
  return `The rollback redeploys the old revision only: this run's changes to ${names.join(', ')} stay as this run set them (they belong to the deployment, not to a revision).`
}

/** What an update changed that a redeploy does not put back (it restores only ref, path, image). */
function notUndoneBy(plan: Plan | undefined): string[] {
  if (plan?.kind !== 'update') return []
  const names: string[] = []
  for (const c of plan.changes) {
    if (c.field.startsWith('source_revision_config.')) continue
    const secret = /^secrets\.(.+)$/.exec(c.field)?.[1]
    if (secret !== undefined) {
      const how = c.to === REMOVED ? 'removed' : c.from === undefined ? 'added' : 'set'
      names.push(`secret ${secret} (${how})`)
    } else names.push(inputName(c.field))
  }
  return names
}

/** `source_config.install_command` as the input that sets it: `install-command`. */
function inputName(field: string): string {
  const leaf = field.split('.').at(-1) ?? field
  return leaf.replace(/_/g, '-')
}
