// Whether a pull request is closed, for `command: sweep`: read with `github-token` from the
// `repository` input's (the workflow's by default), under the token's rule.
import { Redactor } from '../control-plane/redact.ts'
import { sanitizeServerText } from '../inert.ts'
import { describeGitHubError, githubApiUrl, loadOctokit, type Redacts } from './api.ts'
import type { GitHubContext } from '../runner/context.ts'

/** What one read of a pull request says, GitHub's here or GitLab's (commands/sweep/). */
export type PullState =
  | { kind: 'open' }
  /** Closed or merged: its preview is not wanted any more. */
  | { kind: 'closed'; merged: boolean }
  /** No such pull request (404): nothing says its preview may go. */
  | { kind: 'absent' }
  /** The read failed (no answer, refused, a server error): nothing is known. */
  | { kind: 'failed'; reason: string }

/** Reads pull requests of one repository; `where` names them in the log (`acme/agent #12`). */
export interface PullStates {
  /** `GitHub acme/agent` or `GitLab project 42`. */
  where: string
  mark: '#' | '!'
  read(number: number): Promise<PullState>
}

/** One request's longest wait; a read that takes longer has failed. */
export const PULL_READ_TIMEOUT_MS = 10_000

/** A read that says nothing of the pull request asked for. */
export const failedRead = (reason: string): PullState => ({ kind: 'failed', reason })

/** The reader of `repository`'s pull requests, or why none can read them. */
export function githubPullStates(
  token: string,
  context: GitHubContext,
  repository: string,
  redactor: Redacts
): PullStates | string {
  const api = githubApiUrl(context)
  if (typeof api === 'string') return api
  const [owner, repo] = repository.split('/') as [string, string]
  const tokenRedactor = new Redactor([token])
  const redact: Redacts = { redact: text => redactor.redact(tokenRedactor.redact(text)) }
  let octokit: ReturnType<typeof loadOctokit> | undefined
  return {
    where: `GitHub ${repository}`,
    mark: '#',
    read: async (number): Promise<PullState> => {
      try {
        octokit ??= loadOctokit(token, api)
        const { data } = await (
          await octokit
        ).rest.pulls.get({
          owner,
          repo,
          pull_number: number,
          request: { signal: AbortSignal.timeout(PULL_READ_TIMEOUT_MS) }
        })
        return githubState(data, number, repository)
      } catch (err) {
        if ((err as { status?: unknown } | null)?.status === 404) return { kind: 'absent' }
        const reason = describeGitHubError(err, redact, api.host, {
          403: 'the token may not read pull requests: give the job `permissions: pull-requests: read`.'
        })
        return failedRead(reason)
      }
    }
  }
}

/** The answer's state, when it is the pull request asked for: another one's says nothing of it. */
function githubState(data: unknown, number: number, repository: string): PullState {
  const d = data as {
    number?: unknown
    state?: unknown
    merged?: unknown
    base?: { repo?: { full_name?: unknown } | null } | null
  } | null
  const repo = d?.base?.repo?.full_name
  if (d?.number !== number)
    return failedRead(`GitHub answered for pull request ${said(d?.number)}, not #${number}`)
  if (typeof repo !== 'string' || repo.toLowerCase() !== repository.toLowerCase())
    return failedRead(`GitHub answered for repository ${said(repo)}, not ${repository}`)
  if (d.state === 'open') return { kind: 'open' }
  if (d.state === 'closed') return { kind: 'closed', merged: d.merged === true }
  return failedRead('GitHub answered without a pull request state')
}

/** A value of the answer in the log: `#8`, `"other/repo"`, or `none`. */
function said(v: unknown): string {
  if (typeof v === 'number') return `#${v}`
  return typeof v === 'string' ? `"${sanitizeServerText(v, 100)}"` : 'none'
}
