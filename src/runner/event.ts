// The triggering event -> the default `ref`, the commit the revision is expected to build, and the
// repository (the "default ref" table of the action's interface). Pure: it reads the context the
// door built (context.ts, beside it), never the environment.
import { text, type GitHubContext } from './context.ts'

/** What the triggering event implies when the `ref` and `repository` inputs are empty. */
export interface EventDefaults {
  /** A branch name (`main`) or a full tag ref (`refs/tags/v1.2.0`), as `repo_ref` takes it. */
  ref?: string
  /** Where the door read `ref` (a CI variable, `BUILDKITE_BRANCH`): input problems name it. */
  refFrom?: string
  /** The commit the revision is expected to build. */
  expectedSha?: string
  /** `owner/name` of the workflow's repository. */
  repository?: string
  /** The pull request's number, on an event about one (the `pr-comment` goes there). */
  pullRequestNumber?: number
  /**
   * Set when the pull request comes from another repository (a fork): its `owner/name`, or
   * `an unknown repository` when the fork was deleted. Its head branch is not in `repository`.
   */
  forkHead?: string
  /** The directory an upload archives, set by the door (the runner's workspace, the CLI's cwd). */
  workspace?: string
  /** Files this run writes (absolute), set by the door: an upload never archives them. */
  ownFiles?: string[]
  /** Where the repository is, when the CLI knows it is not GitHub: `codehost` cannot build it. */
  codeHost?: string
}

/**
 * The GitLab pipeline the CLI runs in (cli/ci.ts), for the sweep's merge request reads: its API,
 * project and the token that may read them (`CONTROL_PLANE_GITLAB_TOKEN`; a job token cannot).
 */
export interface GitLabContext {
  apiUrl: string
  projectId: string
  /** Undefined when the variable is not set: the closed criterion is then skipped. */
  token?: string
}

/** What `forkHead` says when the payload has no head repository (a deleted fork). */
export const UNKNOWN_FORK = 'an unknown repository'

const forkWords = (forkHead: string) =>
  forkHead === UNKNOWN_FORK ? 'a fork that no longer exists' : `the fork \`${forkHead}\``

/** Why a fork pull request stops unless `repository` and `ref` are both set, and what to do. */
export function forkPullRequestMessage(forkHead: string, repository: string | undefined): string {
  const base = repository ? `\`${repository}\`` : "the workflow's repository"
  return (
    `This pull request comes from ${forkWords(forkHead)}: its head branch is not in ${base}, which is what the ` +
    'integration builds by default, so the default `ref` would deploy a same-named branch of ' +
    `${base}, or fail. Nothing was written. To preview pull requests from forks, use a trusted ` +
    'workflow (for example `pull_request_target` with an environment that requires a reviewer) and ' +
    'set both `repository` and `ref` explicitly; to skip forks, add ' +
    '`if: github.event.pull_request.head.repo.full_name == github.repository` to the job.'
  )
}

/** Why a change from a fork is never uploaded: the fork's code would deploy with the key. */
export function forkUploadMessage(forkHead: string): string {
  return (
    `This pull request comes from ${forkWords(forkHead)}: an upload deploy (\`internal_source\`) would build the ` +
    "fork's code with this repository's API key, so it is refused. Nothing was written. To skip " +
    'forks, add `if: github.event.pull_request.head.repo.full_name == github.repository` to the job.'
  )
}

const TAG_PREFIX = 'refs/tags/'
const BRANCH_PREFIX = 'refs/heads/'
const PULL_PREFIX = 'refs/pull/'
const ZERO_SHA = /^0+$/

/** `payload.a.b.c` without trusting the payload's shape. */
function at(payload: unknown, ...path: string[]): unknown {
  let node = payload
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** A commit id, or undefined for none or the all-zero id of a deleted ref. */
function sha(value: unknown): string | undefined {
  const s = text(value)
  return s !== undefined && !ZERO_SHA.test(s) ? s : undefined
}

/** A pull request's number from the payload (`pull_request.number`, else `number`). */
function pullRequestNumber(payload: unknown): number | undefined {
  const n = at(payload, 'pull_request', 'number') ?? at(payload, 'number')
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/**
 * The head repository when not the base one, by full name, case-blind (`head.repo.fork` is true
 * in a repository that is itself a fork: it proves nothing); undefined when the payload is silent.
 */
function forkHeadOf(payload: unknown, repository: string | undefined): string | undefined {
  const pr = at(payload, 'pull_request')
  if (typeof pr !== 'object' || pr === null) return undefined
  const headRepo = at(pr, 'head', 'repo')
  // GitHub sends `head.repo: null` when the fork has been deleted.
  if (headRepo === null) return UNKNOWN_FORK
  const head = text(at(headRepo, 'full_name'))
  const base = text(at(pr, 'base', 'repo', 'full_name')) ?? repository
  if (head === undefined || base === undefined) return undefined
  return head.toLowerCase() === base.toLowerCase() ? undefined : head
}

/** `refs/tags/x` as is, `refs/heads/x` -> `x` (or `refName`); any other ref: `refName`. */
function refFromGithubRef(ref: string | undefined, refName: string | undefined) {
  if (ref?.startsWith(TAG_PREFIX) && ref.length > TAG_PREFIX.length) return ref
  if (ref?.startsWith(BRANCH_PREFIX) && ref.length > BRANCH_PREFIX.length) {
    return refName ?? ref.slice(BRANCH_PREFIX.length)
  }
  return refName
}

/**
 * The default `ref`, expected commit and repository for the triggering event:
 * - push: the branch name, or `refs/tags/<tag>` for a tag; expected the context's `sha`;
 * - release: `refs/tags/<release.tag_name>` from the payload; expected the context's `sha`;
 * - pull_request(_target) (and any on `refs/pull/...`): the head branch (`headRef`); expected the
 *   pull request's head commit, not the merge commit in `sha`;
 * - anything else (workflow_dispatch, schedule, ...): the context's `refName` as a branch, or
 *   `refs/tags/...` when its `ref` is a tag; expected the context's `sha`.
 * A push that deletes its ref (all-zero commit) has no expected commit. On a pull request, also
 * its number and, when it comes from a fork, the fork (`forkHead`).
 */
export function eventDefaults(context: GitHubContext): EventDefaults {
  const { eventName, refName, repository, payload } = context
  const githubRef = context.ref
  const githubSha = sha(context.sha)
  const result: EventDefaults = {}
  if (repository !== undefined) result.repository = repository

  let ref: string | undefined
  let expectedSha: string | undefined
  if (
    eventName === 'pull_request' ||
    eventName === 'pull_request_target' ||
    githubRef?.startsWith(PULL_PREFIX)
  ) {
    ref = context.headRef ?? text(at(payload, 'pull_request', 'head', 'ref'))
    expectedSha = sha(at(payload, 'pull_request', 'head', 'sha'))
    const number = pullRequestNumber(payload)
    if (number !== undefined) result.pullRequestNumber = number
    const fork = forkHeadOf(payload, repository)
    if (fork !== undefined) result.forkHead = fork
  } else if (eventName === 'release') {
    const tag = text(at(payload, 'release', 'tag_name'))
    ref = tag !== undefined ? TAG_PREFIX + tag : refFromGithubRef(githubRef, undefined)
    expectedSha = githubSha
  } else {
    ref = refFromGithubRef(githubRef, refName)
    expectedSha = eventName === 'push' && at(payload, 'deleted') === true ? undefined : githubSha
  }
  if (ref !== undefined) result.ref = ref
  if (expectedSha !== undefined) result.expectedSha = expectedSha
  return result
}
