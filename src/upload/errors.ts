// The one error the upload modules throw for a workspace that cannot be archived: a message for a
// person, naming the input as the user set it, and what to do when it is not the usual (run where
// the project is checked out). Thrown before any request is sent.
export class ArchiveError extends Error {
  override name = 'ArchiveError'
  readonly hint: string | undefined

  constructor(message: string, hint?: string) {
    super(message)
    this.hint = hint
  }
}
