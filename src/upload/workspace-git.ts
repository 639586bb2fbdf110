// What git says of the workspace an archive was taken from, for the log and the summary: the
// commit checked out, whether tracked files differ from it ("with uncommitted changes"), and
// which of the archive's files git does not track (untrackedMembers: named in the log, as the
// commit alone would say the archive is that commit's files).
// Untracked files do not count (`--untracked-files=no`): they are often build output the ignore
// files leave out. Fixed arguments, no shell; `--no-optional-locks` so that reading never takes
// the index lock of a checkout another step is using. No git, no checkout, or a git that refuses
// the directory (another owner's checkout) all give `{}`: the facts are optional.
import { readGit } from '../runner/git.ts'

export interface WorkspaceGit {
  /** The full commit id of HEAD, when the workspace is in a checkout with a commit. */
  commit?: string
  /** Whether tracked files differ from that commit (staged or not). */
  uncommittedChanges?: boolean
}

const git = (cwd: string, args: string[]) => readGit(cwd, args, 10_000)

export async function readWorkspaceGit(workspace: string): Promise<WorkspaceGit> {
  const head = (await git(workspace, ['rev-parse', '--verify', '-q', 'HEAD']))?.trim()
  if (!head || !/^[0-9a-f]{40,64}$/.test(head)) return {}
  const status = await git(workspace, ['status', '--porcelain', '--untracked-files=no'])
  if (status === undefined) return { commit: head }
  return { commit: head, uncommittedChanges: status.trim() !== '' }
}

/** `3f2c1a9 (with uncommitted changes)`: the line the log and the summary show. */
export function describeWorkspaceGit(facts: WorkspaceGit): string | undefined {
  if (!facts.commit) return undefined
  return `${facts.commit.slice(0, 12)}${facts.uncommittedChanges ? ' (with uncommitted changes)' : ''}`
}

/** The members (from the archive's `root`) git does not track; undefined outside a checkout. */
export async function untrackedMembers(
  root: string,
  members: readonly string[]
): Promise<string[] | undefined> {
  const listed = await git(root, ['ls-files', '-z', '--cached'])
  if (listed === undefined) return undefined
  const tracked = new Set(listed.split('\0'))
  return members.filter(m => !tracked.has(m))
}
