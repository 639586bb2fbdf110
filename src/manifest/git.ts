// What the git checkout in the workspace says for a plan: its commit, whether it is shallow, whether
// it holds a commit, the files that differ between a commit and HEAD, and a file as a commit had it.
// Fixed arguments, no shell, `--no-optional-locks` (another step may use the checkout); a git that
// fails says "unknown", and unknown plans a deploy.
import { readGit } from '../runner/git.ts'

const git = (cwd: string, args: string[]) => readGit(cwd, args, 30_000)

/** The checkout at `dir`: its HEAD and whether it is shallow; undefined when it is none. */
export interface Checkout {
  dir: string
  head: string
  shallow: boolean
}

export async function readCheckout(dir: string): Promise<Checkout | undefined> {
  const head = (await git(dir, ['rev-parse', '--verify', '-q', 'HEAD']))?.trim()
  if (!head) return undefined
  const shallow = (await git(dir, ['rev-parse', '--is-shallow-repository']))?.trim() === 'true'
  return { dir, head, shallow }
}

const COMMIT = /^[0-9a-f]{7,64}$/i

/** Whether the checkout holds this commit (a shallow one may not). */
export async function hasCommit(c: Checkout, sha: string): Promise<boolean> {
  if (!COMMIT.test(sha)) return false
  return (await git(c.dir, ['cat-file', '-e', `${sha}^{commit}`])) !== undefined
}

/** The files (from the workspace) that differ between `from` and HEAD; undefined when git fails. */
export async function changedSince(c: Checkout, from: string): Promise<string[] | undefined> {
  if (!COMMIT.test(from)) return undefined
  // Renames as a deletion and an addition: both paths count.
  const out = await git(c.dir, [
    'diff',
    '--name-only',
    '--no-renames',
    '--relative',
    '-z',
    from,
    'HEAD'
  ])
  return out?.split('\0').filter(Boolean)
}

/** A file (from the workspace) as commit `sha` had it; undefined when it had none. */
export function fileAt(c: Checkout, sha: string, path: string): Promise<string | undefined> {
  if (!COMMIT.test(sha)) return Promise.resolve(undefined)
  return git(c.dir, ['show', `${sha}:./${path}`])
}
