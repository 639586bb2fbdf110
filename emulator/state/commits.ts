// The commit a codehost build reports when no pin names one: the ref resolved in a local clone of
// the repository when the emulator is given one (`--repo DIR`), else a stable commit of its own
// per repository and ref, so that a build always names what it built.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'

const SHA = /^[0-9a-f]{40}$/

/** Compares repository URLs as a hosting service does: case, trailing `/` and `.git` ignored. */
export function normalizeRepoUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
}

/** Where a branch, a tag or a full ref may live in a clone, in git's order. */
function candidates(ref: string): string[] {
  if (ref.startsWith('refs/')) return [ref]
  return [`refs/heads/${ref}`, `refs/remotes/origin/${ref}`, `refs/tags/${ref}`, ref]
}

/** The commit `ref` names in the clone at `dir` now; null when it names none there. */
export function resolveInClone(dir: string, ref: string): string | null {
  for (const name of candidates(ref)) {
    try {
      const out = execFileSync(
        'git',
        ['-C', dir, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }
      ).trim()
      if (SHA.test(out)) return out
    } catch {
      // not this name: the next one
    }
  }
  return null
}

/** A commit of the emulator's own for `repoUrl@ref`: the same on every build and every run. */
export function stableCommit(repoUrl: string, ref: string): string {
  return createHash('sha1')
    .update(`${normalizeRepoUrl(repoUrl)}@${ref}`)
    .digest('hex')
}
