// A failure of the deploy flow itself (not of one request), with what to do about it.
export class DeployError extends Error {
  readonly hint: string | undefined
  /** Short title for the job's error annotation. */
  readonly title: string

  constructor(message: string, hint?: string, title = 'Deploy failed') {
    super(hint ? `${message}\n${hint}` : message)
    this.name = 'DeployError'
    this.hint = hint
    this.title = title
  }
}
