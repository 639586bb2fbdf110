// `on-failure: rollback`: put back the revision active before this run wrote, and follow it. Only
// what this run broke: its failed revision still the latest and the previous one still active, as
// read right before the redeploy; otherwise nothing is sent.
import { sameCommit } from '../commits.ts'
import { shownStatus } from '../../../report/status-words.ts'
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import type { Deployment, Revision } from '../../../control-plane/schema.ts'
import { formatDuration } from '../../../duration.ts'
import { awaitNewRevision, writeReconciled, type Notes } from '../steps/converging-writes.ts'
import { waitForRevision, type WaitOptions } from '../steps/wait.ts'
import type { RollbackResult } from '../../../interface/journal.ts'

export interface RollbackInput {
  deploymentId: string
  /** The deployment's `active_revision_id` before this run wrote. */
  previousActive: string | null
  failedRevisionId: string
  /** What this run changed of the deployment's own (secrets, settings): a redeploy keeps it. */
  notUndone: string[]
  wait: Pick<
    WaitOptions,
    'timeoutMs' | 'pollIntervalMs' | 'cadence' | 'signal' | 'clock' | 'onProgress'
  >
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
  // Read again right before the write: another run may have written or deployed since.
  const now = await client.getDeployment(input.deploymentId)
  const refused = holdBack(now, input.failedRevisionId, previous)
  if (refused) return { kind: 'not-done', reason: refused }
  notes.info(`Rolling back: redeploying revision ${previous}, active before this run.`)
  const { notUndone } = input
  let answer: Deployment
  try {
    const redeploy = () => client.redeployRevision(input.deploymentId, previous)
    answer = await writeReconciled(
      client,
      now,
      redeploy,
      true,
      'redeploy',
      notes,
      input.wait.clock.now
    )
  } catch (err) {
    // A cancel is the run's to report; any other failure is the rollback's, not the verdict's.
    if (input.wait.signal?.aborted) throw err
    const text = err instanceof Error ? err.message.split('\n')[0]! : String(err)
    return { kind: 'failed', restoredId: previous, reason: text, notUndone }
  }
  const revisionId = await redeployedRevision(client, answer, now.latest_revision_id, notes)
  if (!revisionId) {
    const reason = `the redeploy was answered, but no new revision appeared (the latest is still ${now.latest_revision_id ?? 'none'})`
    return { kind: 'unconfirmed', restoredId: previous, reason, notUndone }
  }
  const result = await waitForRevision({
    client,
    deploymentId: input.deploymentId,
    revisionId,
    ...input.wait,
    onStatus: input.onStatus
  })
  notes.info(
    `Rollback revision ${revisionId}: ${result.status !== undefined ? shownStatus(result.status) : 'no status read'} after ${formatDuration(result.elapsedMs)}.`
  )
  const { status, outcome, timeline } = result
  const rebuilt = await rebuiltOther(client, input.deploymentId, previous, result.revision, notes)
  const done = { revisionId, restoredId: previous, status, outcome, timeline, notUndone }
  return { kind: 'done', ...done, ...(rebuilt ? { rebuilt } : {}) }
}

/** A codehost redeploy builds the ref as it is now: a branch that moved on, another commit. */
async function rebuiltOther(
  client: ControlPlaneClient,
  deploymentId: string,
  restoredId: string,
  made: Revision | undefined,
  notes: Notes
): Promise<{ built: string; restored: string } | undefined> {
  const built = made?.source_revision_config?.repo_commit_sha
  if (!built) return undefined
  let before: Revision | undefined
  try {
    before = await client.getRevision(deploymentId, restoredId)
  } catch {
    // Only a warning rests on this read: the rollback stands as it ended.
    return undefined
  }
  const restored = before.source_revision_config?.repo_commit_sha
  if (!restored || sameCommit(built, restored)) return undefined
  const ref = before.source_revision_config?.repo_ref
  notes.warning(
    `The rollback's redeploy of revision ${restoredId} built commit ${built}, not ${restored} that revision ran: its ref ${ref ?? ''} moved on, and a redeploy of a branch builds its current commit. Deploy from tags to roll back to exactly what ran.`
  )
  return { built, restored }
}

/** Why the rollback must not be made now, or undefined when it is still this run's to make. */
function holdBack(now: Deployment, failed: string, previous: string): string | undefined {
  if (now.latest_revision_id !== failed) {
    return `revision ${now.latest_revision_id ?? '(none)'} came after this run's revision ${failed} (another run wrote it), so rolling back would undo that`
  }
  // This run's own revision is active when it was DEPLOYED and then found unhealthy.
  if (now.active_revision_id !== previous && now.active_revision_id !== failed) {
    return `revision ${now.active_revision_id ?? '(none)'} became active after this run started (another run deployed it), so rolling back to ${previous} would undo that`
  }
  return undefined
}

/** The revision the redeploy made: the answer's, or one that appears shortly after. */
async function redeployedRevision(
  client: ControlPlaneClient,
  answer: Deployment,
  before: string | null,
  notes: Notes
): Promise<string | undefined> {
  if (answer.latest_revision_id && answer.latest_revision_id !== before)
    return answer.latest_revision_id
  const late = await awaitNewRevision(client, answer.id, before, notes, 'redeploy')
  return late?.latest_revision_id ?? undefined
}
