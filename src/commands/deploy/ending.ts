// The ending of a flow that threw: a cancel, or a request that failed; what it says of the run.
import { ControlPlaneError, NetworkError } from '../../control-plane/errors.ts'
import type { Ending } from '../../interface/ending.ts'
import type { Journal, Learned } from '../../interface/journal.ts'
import { record, toldBy } from './facts.ts'

/** What a cancel's message says of the run. */
type RunSoFar = Pick<Journal, 'name' | 'revisionId' | 'writing'>

/** Cancelled when the run was stopped (whatever the error), or a request failed; else a bug. */
export function endingOfError(
  err: unknown,
  journal: RunSoFar,
  signal: AbortSignal | undefined
): Ending | undefined {
  if (signal?.aborted) {
    return {
      outcome: 'cancelled',
      failure: { message: cancelledMessage(journal), title: 'Deploy cancelled' }
    }
  }
  if (err instanceof ControlPlaneError) {
    return {
      outcome: 'error',
      // The message names the operation: the title does not say it again.
      failure: {
        message: err.message,
        title: err instanceof NetworkError ? 'Control plane unreachable' : 'Control plane error'
      }
    }
  }
  return undefined
}

/** What is known at a cancel, and what is not: a write in flight may have landed. */
function cancelledMessage(run: RunSoFar): string {
  const name = run.name ? `"${run.name}"` : 'the deployment'
  if (run.writing === 'create') {
    return (
      `Cancelled while the create of deployment ${name} was in flight: whether it was applied is unknown. ` +
      'A re-run finds the deployment by its name and updates it, or creates it.'
    )
  }
  if (run.writing === 'delete') {
    return `Cancelled while the delete of deployment ${name} was in flight: whether it was applied is unknown. A re-run deletes it, or finds it gone.`
  }
  if (run.writing === 'update') {
    return (
      `Cancelled while the update of deployment ${name} was in flight: whether it made a new revision is unknown. ` +
      'A re-run applies the update again.'
    )
  }
  const revision = run.revisionId ? `; revision ${run.revisionId} goes on on the control plane` : ''
  return `Cancelled${revision}.`
}

/**
 * A flow's steps to their ending, journalled: the facts a throw carries recorded, a cancel or a
 * failed request as its ending, anything else (a bug) journalled and thrown on. `kept`: the
 * outcome a throw leaves instead of its own (a delete applied before it stays `deleted`).
 */
export async function journalledEnding(
  journal: Learned,
  signal: AbortSignal | undefined,
  steps: () => Promise<Ending>,
  kept: (ending: Ending | undefined) => 'deleted' | undefined = () => undefined
): Promise<Ending> {
  let ending: Ending | undefined
  try {
    ending = await steps()
  } catch (err) {
    record(journal, toldBy(err))
    ending = endingOfError(err, journal, signal)
    const outcome = kept(ending)
    if (!ending) {
      record(journal, { outcome: outcome ?? 'error' })
      throw err
    }
    if (outcome) ending = { ...ending, outcome }
  }
  record(journal, { outcome: ending.outcome })
  return ending
}
