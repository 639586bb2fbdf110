// A failure of the health gate (src/health/), thrown, with what to do about it. The flows turn it
// into their ending (ending.ts); the deploy's own steps return theirs as values (a Stop).

export class DeployError extends Error {
  /** What happened, without the hint. */
  readonly problem: string
  readonly hint: string | undefined
  /** Short title for the job's error annotation. */
  readonly title: string
  /** How the run ended: `error`, or `timeout` for a wait that ran out before the deploy began. */
  readonly endsAs: 'error' | 'timeout'
  /** Ended before anything was sent (the workspace cannot be archived): the CLI exits 2. */
  nothingSent = false

  constructor(
    message: string,
    hint?: string,
    title = 'Deploy failed',
    outcome: 'error' | 'timeout' = 'error'
  ) {
    super(hint ? `${message}\n${hint}` : message)
    this.name = 'DeployError'
    this.problem = message
    this.hint = hint
    this.title = title
    this.endsAs = outcome
  }
}
