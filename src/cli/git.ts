// What the git checkout in the working directory says: the commit checked out, its branch (or the
// tag when HEAD is detached on one), and the `origin` remote. Read with the git command, once.
import { execFileSync } from 'node:child_process'

export interface GitFacts {
  sha?: string
  branch?: string
  /** The tag HEAD is exactly on, when it is on no branch. */
  tag?: string
  originUrl?: string
}

/** One git command's output, trimmed; undefined when git fails or is not installed. */
function git(cwd: string, args: string[]): string | undefined {
  try {
    const out = execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000
    }).trim()
    return out === '' ? undefined : out
  } catch {
    return undefined
  }
}

/** The checkout at `cwd`; `{}` outside one. */
export function readGit(cwd: string): GitFacts {
  const sha = git(cwd, ['rev-parse', '--verify', '-q', 'HEAD'])
  if (sha === undefined) return {}
  const facts: GitFacts = { sha }
  const branch = git(cwd, ['symbolic-ref', '--short', '-q', 'HEAD'])
  if (branch !== undefined) facts.branch = branch
  else {
    const tag = git(cwd, ['describe', '--tags', '--exact-match', 'HEAD'])
    if (tag !== undefined) facts.tag = tag
  }
  const origin = git(cwd, ['remote', 'get-url', 'origin'])
  if (origin !== undefined) facts.originUrl = origin
  return facts
}

const GITHUB_URL = [
  // https://github.com/owner/name(.git), with or without credentials before the host
  /^(?:https?|git):\/\/(?:[^@/]*@)?(?:www\.)?github\.com(?::\d+)?\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/i,
  // ssh://git@github.com(:22)/owner/name.git
  /^ssh:\/\/(?:[^@/]*@)?(?:ssh\.)?github\.com(?::\d+)?\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/i,
  // git@github.com:owner/name.git (scp-like)
  /^(?:[^@/:]+@)?github\.com:\/?([^/]+)\/([^/]+?)(?:\.git)?\/?$/i
]
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/
const NAME = /^[A-Za-z0-9._-]{1,100}$/

/** `owner/name` of a github.com remote URL in any of git's forms; undefined for anything else. */
export function githubRepository(url: string | undefined): string | undefined {
  if (!url) return undefined
  for (const form of GITHUB_URL) {
    const m = form.exec(url.trim())
    if (m && OWNER.test(m[1]!) && NAME.test(m[2]!) && m[2] !== '.' && m[2] !== '..') {
      return `${m[1]}/${m[2]}`
    }
  }
  return undefined
}

/** The host of a remote URL in git's forms (`https://host/...`, `ssh://git@host/...`, `git@host:...`). */
export function remoteHost(url: string | undefined): string | undefined {
  const m = /^(?:[a-z+]+:\/\/)?(?:[^@/\s]+@)?([A-Za-z0-9.-]+)(?::\d+)?[:/]/.exec(url?.trim() ?? '')
  const host = m?.[1]?.toLowerCase()
  return host === 'github.com' ? undefined : host
}
