// The one error the upload modules throw for a workspace that cannot be archived: a message for a
// person, naming the input as the user set it. Thrown before any request is sent.
export class ArchiveError extends Error {
  override name = 'ArchiveError'
}
