// `on-failure: rollback`: when this run's revision failed, put back the revision that was active
// before this run wrote, and follow it to its end. Only what this run broke is rolled back: not
// over another run's revision that became active meanwhile, and not when nothing was active.
import type { ControlPlaneClient } from '../control-plane/client.ts'
import { formatDuration } from '../duration.ts'
import { writeReconciled, type Notes } from './apply.ts'
import { waitForRevision, type TimelineEntry, type WaitOptions } from './wait.ts'

export type RollbackResult =
  /** Nothing was sent: why not. */
  | { kind: 'not-done'; reason: string }
  /** The redeploy could not be made (its request failed for good). */
  | { kind: 'failed'; restoredId: string; reason: string }
  | {
      kind: 'done'
      /** The revision the redeploy started, followed to its end. */
      revisionId: string
      /** The revision whose configuration was redeployed. */
      restoredId: string
      status: string | undefined
      outcome: 'deployed' | 'failed' | 'skipped' | 'timeout' | 'cancelled' | 'error'
      timeline: TimelineEntry[]
    }

export interface RollbackInput {
  deploymentId: string
  /** The deployment's `active_revision_id` before this run wrote. */
  previousActive: string | null
  /** This run's revision, which failed. */
  failedRevisionId: string
  wait: Pick<WaitOptions, 'timeoutMs' | 'pollIntervalMs' | 'cadence' | 'signal' | 'now' | 'sleep'>
  onStatus?: (status: string, elapsedMs: number) => void
}

export async function rollBack(
  client: ControlPlaneClient,
  input: RollbackInput,
  notes: Notes
): Promise<RollbackResult> {
  const previous = input.previousActive
  if (!previous) {
    return {
      kind: 'not-done',
      reason: 'nothing to roll back to: the deployment had no active revision before this run'
    }
  }
  // Read again: another run may have deployed since this one noted the active revision.
  const now = await client.getDeployment(input.deploymentId)
  if (now.active_revision_id !== previous) {
    return {
      kind: 'not-done',
      reason: `revision ${now.active_revision_id ?? '(none)'} became active after this run started (another run deployed it), so rolling back to ${previous} would undo that`
    }
  }
  notes.info(`Rolling back: redeploying revision ${previous}, active before this run.`)
  let answer
  try {
    answer = await writeReconciled(
      client,
      now,
      () => client.redeployRevision(input.deploymentId, previous),
      true,
      'redeploy',
      notes,
      input.wait.now
    )
  } catch (err) {
    // A cancel is the run's to report; any other failure is the rollback's, not the verdict's.
    if (input.wait.signal?.aborted) throw err
    const text = err instanceof Error ? err.message.split('\n')[0]! : String(err)
    return { kind: 'failed', restoredId: previous, reason: text }
  }
  // Usually a new revision follows; a service that reuses the old one is followed as it is.
  const revisionId =
    answer.latest_revision_id && answer.latest_revision_id !== now.latest_revision_id
      ? answer.latest_revision_id
      : previous
  const result = await waitForRevision({
    client,
    deploymentId: input.deploymentId,
    revisionId,
    ...input.wait,
    onStatus: input.onStatus
  })
  notes.info(
    `Rollback revision ${revisionId}: ${result.status ?? 'no status read'} after ${formatDuration(result.elapsedMs)}.`
  )
  return {
    kind: 'done',
    revisionId,
    restoredId: previous,
    status: result.status,
    outcome: result.outcome,
    timeline: result.timeline
  }
}
