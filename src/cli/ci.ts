// What the CI the CLI runs in implies for the inputs left empty: the ref to deploy, the commit the
// revision is expected to build, the repository and the pull (merge) request, as the action takes
// them from the triggering event (src/github/event.ts). Each CI says it in its own variables; outside any
// CI, the git checkout in the working directory says it. One sentence says which source was used.
import { eventDefaults, type EventDefaults, type GitLabContext } from '../github/event.ts'
import type { GitHubContext } from '../github/context.ts'
import { githubRepository, remoteHost, type GitFacts } from './git.ts'

export interface DetectedDefaults {
  defaults: EventDefaults
  /** Where the defaults come from, in one sentence for the log. */
  source: string
  /** The CI runs for a pull (merge) request from a fork: its name, how the CI says it. */
  fork?: ForkFacts & { ci: string }
}

/** What one CI's variables say. */
interface CiFacts {
  ci: string
  /** `push to main`, `tag v1.2.0`, `merge request !12`: what triggered the run. */
  trigger: string
  ref?: string
  sha?: string
  pullRequestNumber?: number
  /** The repository URL the CI names, when it names one. */
  repositoryUrl?: string
  /** The pull (merge) request comes from another repository: which, and the variable that says so. */
  fork?: ForkFacts
}

export interface ForkFacts {
  /** The fork as the CI names it (`someone/agent`, or a URL). */
  name: string
  /** The variable that says so, for the message. */
  variable: string
  /** How to leave such runs out in this CI. */
  skip: string
}

type Env = NodeJS.ProcessEnv

const TAG_PREFIX = 'refs/tags/'
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i

function text(value: string | undefined): string | undefined {
  const v = value?.trim()
  return v ? v : undefined
}

/** A full commit id, not the all-zero one nor a name such as `HEAD`. */
function commit(value: string | undefined): string | undefined {
  const v = text(value)
  return v !== undefined && SHA.test(v) && !/^0+$/.test(v) ? v.toLowerCase() : undefined
}

function positive(value: string | undefined): number | undefined {
  const n = Number(text(value))
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/** A branch without the prefixes some CIs leave on it (`origin/main`, `refs/heads/main`). */
function branch(value: string | undefined): string | undefined {
  return text(value)?.replace(/^(?:refs\/heads\/|origin\/)/, '') || undefined
}

function tagRef(tag: string): string {
  return tag.startsWith(TAG_PREFIX) ? tag : TAG_PREFIX + tag
}

/** Two names of one repository (`acme/agent`, its URLs in any form), compared case-blind. */
function sameRepository(a: string, b: string): boolean {
  const key = (r: string) =>
    (githubRepository(r) ?? r.replace(/\.git\/?$/, '').replace(/\/+$/, '')).toLowerCase()
  return key(a) === key(b)
}

/**
 * One CI: how to know it, and where its documentation says each fact is. A pull request is a fork's
 * when `fork` names one; the CLI then refuses to deploy by default, as the action does.
 */
interface CiRow {
  ci: string
  is(env: Env): boolean
  tag(env: Env): string | undefined
  pr(env: Env): number | undefined
  /** `merge request !12`, `pull request #12`. */
  prWord: string
  prBranch(env: Env): string | undefined
  branch(env: Env): string | undefined
  sha(env: Env): string | undefined
  repositoryUrl(env: Env): string | undefined
  fork(env: Env): ForkFacts | undefined
}

const CIS: readonly CiRow[] = [
  {
    ci: 'GitLab CI',
    is: env => env.GITLAB_CI === 'true',
    tag: env => text(env.CI_COMMIT_TAG),
    pr: env => positive(env.CI_MERGE_REQUEST_IID),
    prWord: 'merge request !',
    prBranch: env => text(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME),
    branch: env => text(env.CI_COMMIT_BRANCH ?? env.CI_COMMIT_REF_NAME),
    // In a merged results pipeline CI_COMMIT_SHA is the merge commit; the source branch's head is
    // what the control plane builds from the branch.
    sha: env => commit(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA) ?? commit(env.CI_COMMIT_SHA),
    repositoryUrl: () => undefined,
    fork: env => {
      const path = text(env.CI_MERGE_REQUEST_SOURCE_PROJECT_PATH)
      const base = text(env.CI_MERGE_REQUEST_PROJECT_PATH) ?? text(env.CI_PROJECT_PATH)
      const id = text(env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID)
      const baseId = text(env.CI_MERGE_REQUEST_PROJECT_ID) ?? text(env.CI_PROJECT_ID)
      const byPath = path !== undefined && base !== undefined && !sameRepository(path, base)
      const byId = id !== undefined && baseId !== undefined && id !== baseId
      if (!byPath && !byId) return undefined
      return {
        name: path ?? `project ${id}`,
        variable: byPath
          ? 'CI_MERGE_REQUEST_SOURCE_PROJECT_PATH'
          : 'CI_MERGE_REQUEST_SOURCE_PROJECT_ID',
        skip: 'add `rules: - if: $CI_MERGE_REQUEST_SOURCE_PROJECT_ID == $CI_PROJECT_ID` to the job'
      }
    }
  },
  {
    ci: 'Bitbucket Pipelines',
    is: env => text(env.BITBUCKET_BUILD_NUMBER) !== undefined,
    tag: env => text(env.BITBUCKET_TAG),
    pr: env => positive(env.BITBUCKET_PR_ID),
    prWord: 'pull request #',
    prBranch: env => text(env.BITBUCKET_BRANCH),
    branch: env => text(env.BITBUCKET_BRANCH),
    sha: env => commit(env.BITBUCKET_COMMIT),
    repositoryUrl: env => text(env.BITBUCKET_GIT_HTTP_ORIGIN),
    // Bitbucket runs no pipeline of the base repository for a fork's pull request.
    fork: () => undefined
  },
  {
    ci: 'CircleCI',
    is: env => env.CIRCLECI === 'true',
    tag: env => text(env.CIRCLE_TAG),
    pr: env =>
      positive(env.CIRCLE_PR_NUMBER) ??
      positive(/\/pull\/(\d+)/.exec(env.CIRCLE_PULL_REQUEST ?? '')?.[1]),
    prWord: 'pull request #',
    prBranch: env => text(env.CIRCLE_BRANCH),
    branch: env => text(env.CIRCLE_BRANCH),
    sha: env => commit(env.CIRCLE_SHA1),
    repositoryUrl: env => text(env.CIRCLE_REPOSITORY_URL),
    // Set only on a pull request from a fork.
    fork: env => {
      const user = text(env.CIRCLE_PR_USERNAME)
      const repo = text(env.CIRCLE_PR_REPONAME)
      if (user === undefined && repo === undefined) return undefined
      return {
        name: user && repo ? `${user}/${repo}` : (user ?? repo)!,
        variable: user ? 'CIRCLE_PR_USERNAME' : 'CIRCLE_PR_REPONAME',
        skip: 'turn off "Build forked pull requests" in the project settings, or end the job early when CIRCLE_PR_USERNAME is set'
      }
    }
  },
  {
    ci: 'Buildkite',
    is: env => env.BUILDKITE === 'true',
    tag: env => text(env.BUILDKITE_TAG),
    pr: env => positive(env.BUILDKITE_PULL_REQUEST),
    prWord: 'pull request #',
    prBranch: env => text(env.BUILDKITE_BRANCH),
    branch: env => text(env.BUILDKITE_BRANCH),
    // `HEAD` on a build started by hand: the checkout says which commit that was.
    sha: env => commit(env.BUILDKITE_COMMIT),
    repositoryUrl: env => text(env.BUILDKITE_REPO),
    fork: env => {
      const head = text(env.BUILDKITE_PULL_REQUEST_REPO)
      const base = text(env.BUILDKITE_REPO)
      if (head === undefined || (base !== undefined && sameRepository(head, base))) return undefined
      return {
        name: githubRepository(head) ?? head,
        variable: 'BUILDKITE_PULL_REQUEST_REPO',
        skip: 'turn off "Build pull requests from third-party forked repositories" in the pipeline settings'
      }
    }
  },
  {
    ci: 'Jenkins',
    is: env => text(env.JENKINS_URL) !== undefined,
    tag: env => text(env.TAG_NAME),
    pr: env => positive(env.CHANGE_ID),
    prWord: 'pull request #',
    prBranch: env => text(env.CHANGE_BRANCH),
    branch: env => branch(env.BRANCH_NAME) ?? branch(env.GIT_BRANCH),
    sha: env => commit(env.GIT_COMMIT),
    repositoryUrl: env => text(env.GIT_URL),
    // Set by the branch source plugins only when the change comes from a fork.
    fork: env => {
      const fork = text(env.CHANGE_FORK)
      if (fork === undefined) return undefined
      return {
        name: fork,
        variable: 'CHANGE_FORK',
        skip: "set the branch source's \"Discover pull requests from forks\" to nobody, or add `when { not { changeRequest fork: '.*' } }`"
      }
    }
  },
  {
    ci: 'Azure Pipelines',
    is: env => env.TF_BUILD?.toLowerCase() === 'true',
    tag: env => /^refs\/tags\/(.+)$/.exec(text(env.BUILD_SOURCEBRANCH) ?? '')?.[1],
    // GitHub pull requests have a number; Azure Repos ones an id.
    pr: env =>
      positive(env.SYSTEM_PULLREQUEST_PULLREQUESTNUMBER) ??
      positive(env.SYSTEM_PULLREQUEST_PULLREQUESTID),
    prWord: 'pull request #',
    prBranch: env => branch(env.SYSTEM_PULLREQUEST_SOURCEBRANCH),
    branch: env => {
      const ref = text(env.BUILD_SOURCEBRANCH)
      return ref?.startsWith('refs/heads/') ? branch(ref) : undefined
    },
    // A pull request build's BUILD_SOURCEVERSION is the merge commit; the source branch's head is
    // what the control plane builds from the branch.
    sha: env => commit(env.SYSTEM_PULLREQUEST_SOURCECOMMITID) ?? commit(env.BUILD_SOURCEVERSION),
    repositoryUrl: env => text(env.BUILD_REPOSITORY_URI),
    fork: env => {
      if (env.SYSTEM_PULLREQUEST_ISFORK?.trim().toLowerCase() !== 'true') return undefined
      return {
        name: text(env.SYSTEM_PULLREQUEST_SOURCEREPOSITORYURI) ?? 'a fork',
        variable: 'SYSTEM_PULLREQUEST_ISFORK',
        skip: "turn off \"Build pull requests from forks of this repository\" in the pipeline's triggers, or add `condition: ne(variables['System.PullRequest.IsFork'], 'True')` to the job"
      }
    }
  },
  {
    ci: 'Travis CI',
    is: env => env.TRAVIS === 'true',
    tag: env => text(env.TRAVIS_TAG),
    // `false` outside a pull request.
    pr: env => positive(env.TRAVIS_PULL_REQUEST),
    prWord: 'pull request #',
    prBranch: env => text(env.TRAVIS_PULL_REQUEST_BRANCH),
    // On a pull request, TRAVIS_BRANCH is its base branch: prBranch is used then.
    branch: env => text(env.TRAVIS_BRANCH),
    sha: env => commit(env.TRAVIS_PULL_REQUEST_SHA) ?? commit(env.TRAVIS_COMMIT),
    repositoryUrl: () => undefined,
    fork: env => {
      const head = text(env.TRAVIS_PULL_REQUEST_SLUG)
      const base = text(env.TRAVIS_REPO_SLUG)
      if (head === undefined || base === undefined || sameRepository(head, base)) return undefined
      return {
        name: head,
        variable: 'TRAVIS_PULL_REQUEST_SLUG',
        skip: 'add `if: type != pull_request OR head_repo = repo` to the job'
      }
    }
  }
]

/** The fork as the log may show it: a CI variable's text, so nothing but a name's characters. */
function forkOf(row: CiRow, env: Env): ForkFacts | undefined {
  const fork = row.fork(env)
  if (!fork) return undefined
  return { ...fork, name: fork.name.slice(0, 200).replace(/[^\w./:@+ -]/g, '?') }
}

/** The facts of a run on a tag, a pull request or a branch, in that order. */
function factsOf(row: CiRow, env: Env): CiFacts {
  const base = { ci: row.ci, sha: row.sha(env), repositoryUrl: row.repositoryUrl(env) }
  const tag = row.tag(env)
  if (tag) return { ...base, trigger: `tag ${tag}`, ref: tagRef(tag) }
  const pr = row.pr(env)
  if (pr !== undefined) {
    const fork = forkOf(row, env)
    return {
      ...base,
      trigger: `${row.prWord}${pr}${fork ? ` from the fork ${fork.name}` : ''}`,
      ref: row.prBranch(env),
      pullRequestNumber: pr,
      ...(fork ? { fork } : {})
    }
  }
  const b = row.branch(env)
  // A fork signal without a pull request number still says the code is not the repository's.
  const fork = forkOf(row, env)
  return {
    ...base,
    trigger: b ? `branch ${b}` : 'a build',
    ref: b,
    ...(fork ? { fork } : {})
  }
}

/** `abc1234` for the log: the commit's first 12 characters. */
function short(sha: string): string {
  return sha.slice(0, 12)
}

/** `ref main, commit 1a2b..., repository acme/agent`, each with where it came from when not the CI. */
function describe(d: EventDefaults, fromGit: Set<string>): string {
  const parts: string[] = []
  const from = (key: string) =>
    fromGit.has(key) ? ` (${key === 'repository' ? 'origin remote' : 'git checkout'})` : ''
  if (d.ref) parts.push(`ref ${d.ref}${from('ref')}`)
  if (d.expectedSha) parts.push(`commit ${short(d.expectedSha)}${from('sha')}`)
  if (d.repository) parts.push(`repository ${d.repository}${from('repository')}`)
  return parts.length ? parts.join(', ') : 'no ref, commit or repository'
}

function fromGitHubActions(github: GitHubContext): DetectedDefaults {
  const defaults = eventDefaults(github)
  const event = github.eventName ?? 'an event'
  return {
    defaults,
    source: `Defaults from GitHub Actions (${event}): ${describe(defaults, new Set())}.`
  }
}

/** The code host of CIs that build only their own (GitLab's, Bitbucket's) repositories. */
const HOSTED_BY: Readonly<Record<string, string>> = {
  'GitLab CI': 'GitLab',
  'Bitbucket Pipelines': 'Bitbucket'
}

/**
 * Where a repository that is not a GitHub one is: its CI's code host, or the host its URL (the
 * CI's, else the checkout's origin remote) names; undefined when nothing says.
 */
function codeHostOf(ci: CiFacts | undefined, originUrl: string | undefined): string | undefined {
  return (ci && HOSTED_BY[ci.ci]) ?? remoteHost(ci?.repositoryUrl ?? originUrl)
}

/**
 * The defaults of the CI in `env`, completed from the git checkout (`git` is read only when
 * something is missing); outside any CI, the checkout's alone. Inside GitHub Actions (`github`,
 * the context the door read) the event's.
 */
export function detectDefaults(
  env: NodeJS.ProcessEnv,
  git: () => GitFacts,
  github?: GitHubContext
): DetectedDefaults {
  if (github) return fromGitHubActions(github)
  const row = CIS.find(r => r.is(env))
  const ci = row ? factsOf(row, env) : undefined
  let checkout: GitFacts | undefined
  const readCheckout = () => (checkout ??= git())
  const fromGit = new Set<string>()
  const defaults: EventDefaults = {}

  let ref = ci?.ref
  let sha = ci?.sha
  if (ref === undefined && ci === undefined) {
    const g = readCheckout()
    ref = g.branch ?? (g.tag ? tagRef(g.tag) : undefined)
    if (ref !== undefined) fromGit.add('ref')
  }
  if (sha === undefined) {
    sha = readCheckout().sha
    if (sha !== undefined) fromGit.add('sha')
  }
  const ciRepository = githubRepository(ci?.repositoryUrl)
  const repository = ciRepository ?? githubRepository(readCheckout().originUrl)
  if (repository !== undefined && ciRepository === undefined) fromGit.add('repository')

  if (ref !== undefined) defaults.ref = ref
  if (sha !== undefined) defaults.expectedSha = sha
  if (repository !== undefined) defaults.repository = repository
  if (ci?.pullRequestNumber !== undefined) defaults.pullRequestNumber = ci.pullRequestNumber
  if (ci?.fork) defaults.forkHead = ci.fork.name
  const host = repository === undefined ? codeHostOf(ci, checkout?.originUrl) : undefined
  if (host !== undefined) defaults.codeHost = host

  const where = ci
    ? `${ci.ci} (${ci.trigger})`
    : checkout?.sha !== undefined
      ? 'the git checkout'
      : undefined
  if (where === undefined) {
    return {
      defaults,
      source:
        'No CI and no git checkout found: ref, commit and repository have no defaults (give --ref and --repository).'
    }
  }
  return {
    defaults,
    source: `Defaults from ${where}: ${describe(defaults, ci ? fromGit : new Set())}.`,
    ...(ci?.fork ? { fork: { ...ci.fork, ci: ci.ci } } : {})
  }
}

/**
 * Why a run for a fork's pull (merge) request stops before any request unless `repository` and
 * `ref` are both given, and how to deploy it deliberately or skip it: the CLI's words for the rule
 * the action applies to a pull request from a fork (src/github/event.ts).
 */
export function forkRefusal(fork: NonNullable<DetectedDefaults['fork']>): string {
  return (
    `This ${fork.ci} run is for a change from the fork ${fork.name} (${fork.variable}): its branch ` +
    "is not in this project's repository, so the default ref would deploy a same-named branch " +
    'of the base repository (or fail). Nothing was sent. To deploy the fork deliberately, give ' +
    'both --repository (the fork on GitHub, which the integration must be able to read) and ' +
    `--ref (or CONTROL_PLANE_REPOSITORY and CONTROL_PLANE_REF); to skip forks, ${fork.skip}.`
  )
}

/** Why a fork's change is never uploaded (`internal_source`), whatever else is given. */
export function forkUploadRefusal(fork: NonNullable<DetectedDefaults['fork']>): string {
  return (
    `This ${fork.ci} run is for a change from the fork ${fork.name} (${fork.variable}): an upload ` +
    "deploy (internal_source) would build the fork's code with this project's API key, so it is " +
    `refused. Nothing was sent. To skip forks, ${fork.skip}.`
  )
}

/** The token the sweep reads GitLab merge requests with (a job token cannot). */
export const GITLAB_TOKEN_VARIABLE = 'CONTROL_PLANE_GITLAB_TOKEN'

/**
 * The GitLab pipeline the CLI runs in, for the sweep's merge request reads: its API root
 * (`CI_API_V4_URL`), project (`CI_PROJECT_ID`) and `CONTROL_PLANE_GITLAB_TOKEN`; undefined outside
 * GitLab CI or when the pipeline does not say where its API is.
 */
export function gitlabContext(env: Env): GitLabContext | undefined {
  if (env.GITLAB_CI !== 'true') return undefined
  const apiUrl = text(env.CI_API_V4_URL)
  const projectId = text(env.CI_PROJECT_ID)
  if (apiUrl === undefined || projectId === undefined) return undefined
  const token = text(env[GITLAB_TOKEN_VARIABLE])
  return { apiUrl, projectId, ...(token ? { token } : {}) }
}
