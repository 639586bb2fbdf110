// How a flow ended, as a value: `deploy()` and the delete each build theirs in one place. A step's
// expected failure is returned (a Stop) and its flow returns it as it is; what is thrown is a
// cancel or a request that failed. Only an error nobody expected (a bug) is left to run().
import { ControlPlaneError, NetworkError } from '../../control-plane/errors.ts'
import type { FailingOutcome, Outcome } from '../../interface/outcomes.ts'

/** What a cancel's message says of the run (the DeployState's, which imports the steps' types). */
interface RunSoFar {
  name: string | undefined
  revisionId: string | undefined
  writing?: 'create' | 'update' | 'delete' | undefined
}

/** What the job's error says about a run that did not do what was asked. */
export interface Failure {
  message: string
  hint?: string | undefined
  /** Short title for the job's error annotation. */
  title: string
  /** Nothing was sent: a problem of the inputs or the workspace (the CLI's exit code 2). */
  nothingSent?: boolean
}

/**
 * How a flow ended. A failing outcome (outcomes.ts: not exit 0) always carries its failure; a
 * done one may too (a superseded revision whose successor failed, a delete not seen gone).
 */
export type Ending =
  | { outcome: Exclude<Outcome, FailingOutcome>; failure?: Failure | undefined }
  | { outcome: FailingOutcome; failure: Failure }

/** A step's expected failure, as a value: what it returns for its flow to end with. */
export type Stop = { outcome: 'error' | 'timeout'; failure: Failure }

/**
 * A step's expected failure: `error`, or `timeout` for a wait that ran out before the deploy
 * began; `nothingSent` when nothing was sent (a problem of the workspace: the CLI exits 2).
 */
export function stop(
  message: string,
  hint: string | undefined,
  title = 'Deploy failed',
  {
    outcome = 'error',
    nothingSent = false
  }: { outcome?: 'error' | 'timeout'; nothingSent?: boolean } = {}
): Stop {
  return { outcome, failure: { message, hint, title, ...(nothingSent ? { nothingSent } : {}) } }
}

/** Whether a step ended its flow (returned a Stop) rather than giving its result. */
export function stopped<T>(x: T | Stop): x is Stop {
  return typeof x === 'object' && x !== null && 'outcome' in x && 'failure' in x
}

/** The job's error for a failure: the message, then the hint on its own line. */
export function failureText(f: Failure): string {
  return f.hint ? `${f.message}\n${f.hint}` : f.message
}

/**
 * The ending of a flow that threw: cancelled when the run was stopped (whatever the error), or a
 * request that failed. Undefined for anything else: a bug, for run() to report.
 */
export function endingOfError(
  err: unknown,
  state: RunSoFar,
  signal: AbortSignal | undefined
): Ending | undefined {
  if (signal?.aborted) {
    return {
      outcome: 'cancelled',
      failure: { message: cancelledMessage(state), title: 'Deploy cancelled' }
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
function cancelledMessage(state: RunSoFar): string {
  const name = state.name ? `"${state.name}"` : 'the deployment'
  if (state.writing === 'create') {
    return (
      `Cancelled while the create of deployment ${name} was in flight: whether it was applied is unknown. ` +
      'A re-run finds the deployment by its name and updates it, or creates it.'
    )
  }
  if (state.writing === 'delete') {
    return `Cancelled while the delete of deployment ${name} was in flight: whether it was applied is unknown. A re-run deletes it, or finds it gone.`
  }
  if (state.writing === 'update') {
    return (
      `Cancelled while the update of deployment ${name} was in flight: whether it made a new revision is unknown. ` +
      'A re-run applies the update again.'
    )
  }
  const revision = state.revisionId
    ? `; revision ${state.revisionId} goes on on the control plane`
    : ''
  return `Cancelled${revision}.`
}
