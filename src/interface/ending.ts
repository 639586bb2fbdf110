// How a command ended, as a value: each command builds its ending in one place. A step's expected
// failure is returned (a Stop) and its flow returns it as it is; what is thrown is a cancel or a
// request that failed. Only an error nobody expected (a bug) is left to run().
import type { FailingOutcome, Outcome } from './outcomes.ts'

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

/** A step's expected failure; `nothingSent`: a problem of the workspace (the CLI exits 2). */
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
