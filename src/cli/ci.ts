// What the CI the CLI runs in implies for the inputs left empty: the ref, the commit expected, the
// repository, the pull request, as the action takes them from its event (runner/event.ts), each
// CI in its own variables, else the git checkout. One sentence says which source was used.
import { eventDefaults, type EventDefaults, type GitLabContext } from '../runner/event.ts'
import { text, type GitHubContext } from '../runner/context.ts'
import type { ForkRefusal } from '../inputs/rules.ts'
import { githubRepository, remoteHost, type GitFacts } from './git.ts'

export interface DetectedDefaults {
  defaults: EventDefaults
  /** Where the defaults come from, in one sentence for the log. */
  source: string
  /** The variable `defaults.ref` was read from (`CI_COMMIT_BRANCH`), or `the git checkout`. */
  refFrom?: string
  /** The CI runs for a pull (merge) request from a fork: its name, how the CI says it. */
  fork?: ForkFacts & { ci: string }
}

/** A value a CI gave, and the variable it gave it in: a message about the value names it. */
interface Read<T> {
  value: T
  from: string
}

type Reader<T> = (env: Env) => Read<T> | undefined

/** What one CI's variables say. */
interface CiFacts {
  ci: string
  /** `push to main`, `tag v1.2.0`, `merge request !12`: what triggered the run. */
  trigger: string
  ref?: Read<string>
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

/** The first of `variables` whose value `parse` takes, and which one it was. */
function read<T>(parse: (value: string | undefined) => T | undefined, ...variables: string[]) {
  return (env: Env): Read<T> | undefined => {
    for (const from of variables) {
      const value = parse(env[from])
      if (value !== undefined) return { value, from }
    }
    return undefined
  }
}

/** Two names of one repository (`acme/agent`, its URLs in any form), compared case-blind. */
function sameRepository(a: string, b: string): boolean {
  const key = (r: string) =>
    (githubRepository(r) ?? r.replace(/\.git\/?$/, '').replace(/\/+$/, '')).toLowerCase()
  return key(a) === key(b)
}

/** One CI: how to know it, and the variables its documentation puts each fact in, read by name. */
interface CiRow {
  ci: string
  is(env: Env): boolean
  tag: Reader<string>
  pr: Reader<number>
  /** `merge request !12`; `pull request #12` when not said. */
  prWord?: string
  /** The pull request's branch; `branch` when not said. */
  prBranch?: Reader<string>
  branch: Reader<string>
  sha: Reader<string>
  repositoryUrl?: Reader<string>
  /** The fork a change comes from, and the variable that says so; with how to skip forks. */
  fork?: { read: Reader<string>; skip: string }
}

/** The merge request's source project is not this one (by path, else by id). */
function gitlabFork(env: Env): Read<string> | undefined {
  const path = text(env.CI_MERGE_REQUEST_SOURCE_PROJECT_PATH)
  const base = text(env.CI_MERGE_REQUEST_PROJECT_PATH) ?? text(env.CI_PROJECT_PATH)
  const id = text(env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID)
  const baseId = text(env.CI_MERGE_REQUEST_PROJECT_ID) ?? text(env.CI_PROJECT_ID)
  if (path !== undefined && base !== undefined && !sameRepository(path, base))
    return { value: path, from: 'CI_MERGE_REQUEST_SOURCE_PROJECT_PATH' }
  if (id !== undefined && baseId !== undefined && id !== baseId)
    return { value: path ?? `project ${id}`, from: 'CI_MERGE_REQUEST_SOURCE_PROJECT_ID' }
  return undefined
}

/** The repository in `head` when not `base`'s (a fork even without `base`, unless `needsBase`). */
function otherRepository(
  head: string,
  base: string,
  o: { needsBase?: boolean; name?: (head: string) => string | undefined }
): Reader<string> {
  return env => {
    const h = text(env[head])
    const b = text(env[base])
    if (h === undefined || (b === undefined ? o.needsBase : sameRepository(h, b))) return undefined
    return { value: o.name?.(h) ?? h, from: head }
  }
}

const CIS: readonly CiRow[] = [
  {
    ci: 'GitLab CI',
    is: env => env.GITLAB_CI === 'true',
    tag: read(text, 'CI_COMMIT_TAG'),
    pr: read(positive, 'CI_MERGE_REQUEST_IID'),
    prWord: 'merge request !',
    prBranch: read(text, 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME'),
    // CI_COMMIT_REF_NAME only where CI_COMMIT_BRANCH is not set at all.
    branch: env =>
      read(
        text,
        env.CI_COMMIT_BRANCH === undefined ? 'CI_COMMIT_REF_NAME' : 'CI_COMMIT_BRANCH'
      )(env),
    // In a merged results pipeline CI_COMMIT_SHA is the merge commit; the source branch's head is
    // what the control plane builds from the branch.
    sha: read(commit, 'CI_MERGE_REQUEST_SOURCE_BRANCH_SHA', 'CI_COMMIT_SHA'),
    fork: {
      read: gitlabFork,
      skip: 'add `rules: - if: $CI_MERGE_REQUEST_SOURCE_PROJECT_ID == $CI_PROJECT_ID` to the job'
    }
  },
  // Bitbucket runs no pipeline of the base repository for a fork's pull request: no `fork`.
  {
    ci: 'Bitbucket Pipelines',
    is: env => text(env.BITBUCKET_BUILD_NUMBER) !== undefined,
    tag: read(text, 'BITBUCKET_TAG'),
    pr: read(positive, 'BITBUCKET_PR_ID'),
    branch: read(text, 'BITBUCKET_BRANCH'),
    sha: read(commit, 'BITBUCKET_COMMIT'),
    repositoryUrl: read(text, 'BITBUCKET_GIT_HTTP_ORIGIN')
  },
  {
    ci: 'CircleCI',
    is: env => env.CIRCLECI === 'true',
    tag: read(text, 'CIRCLE_TAG'),
    pr: env =>
      read(positive, 'CIRCLE_PR_NUMBER')(env) ??
      read(v => positive(/\/pull\/(\d+)/.exec(v ?? '')?.[1]), 'CIRCLE_PULL_REQUEST')(env),
    branch: read(text, 'CIRCLE_BRANCH'),
    sha: read(commit, 'CIRCLE_SHA1'),
    repositoryUrl: read(text, 'CIRCLE_REPOSITORY_URL'),
    // Set only on a pull request from a fork.
    fork: {
      read: env => {
        const user = text(env.CIRCLE_PR_USERNAME)
        const repo = text(env.CIRCLE_PR_REPONAME)
        if (user !== undefined)
          return { value: repo ? `${user}/${repo}` : user, from: 'CIRCLE_PR_USERNAME' }
        return repo === undefined ? undefined : { value: repo, from: 'CIRCLE_PR_REPONAME' }
      },
      skip: 'turn off "Build forked pull requests" in the project settings, or end the job early when CIRCLE_PR_USERNAME is set'
    }
  },
  {
    ci: 'Buildkite',
    is: env => env.BUILDKITE === 'true',
    tag: read(text, 'BUILDKITE_TAG'),
    pr: read(positive, 'BUILDKITE_PULL_REQUEST'),
    branch: read(text, 'BUILDKITE_BRANCH'),
    // `HEAD` on a build started by hand: the checkout says which commit that was.
    sha: read(commit, 'BUILDKITE_COMMIT'),
    repositoryUrl: read(text, 'BUILDKITE_REPO'),
    fork: {
      read: otherRepository('BUILDKITE_PULL_REQUEST_REPO', 'BUILDKITE_REPO', {
        name: githubRepository
      }),
      skip: 'turn off "Build pull requests from third-party forked repositories" in the pipeline settings'
    }
  },
  {
    ci: 'Jenkins',
    is: env => text(env.JENKINS_URL) !== undefined,
    tag: read(text, 'TAG_NAME'),
    pr: read(positive, 'CHANGE_ID'),
    prBranch: read(text, 'CHANGE_BRANCH'),
    branch: read(branch, 'BRANCH_NAME', 'GIT_BRANCH'),
    sha: read(commit, 'GIT_COMMIT'),
    repositoryUrl: read(text, 'GIT_URL'),
    // Set by the branch source plugins only when the change comes from a fork.
    fork: {
      read: read(text, 'CHANGE_FORK'),
      skip: "set the branch source's \"Discover pull requests from forks\" to nobody, or add `when { not { changeRequest fork: '.*' } }`"
    }
  },
  {
    ci: 'Azure Pipelines',
    is: env => env.TF_BUILD?.toLowerCase() === 'true',
    tag: read(v => /^refs\/tags\/(.+)$/.exec(text(v) ?? '')?.[1], 'BUILD_SOURCEBRANCH'),
    // GitHub pull requests have a number; Azure Repos ones an id.
    pr: read(positive, 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER', 'SYSTEM_PULLREQUEST_PULLREQUESTID'),
    prBranch: read(branch, 'SYSTEM_PULLREQUEST_SOURCEBRANCH'),
    branch: read(
      v => (text(v)?.startsWith('refs/heads/') ? branch(v) : undefined),
      'BUILD_SOURCEBRANCH'
    ),
    // A pull request build's BUILD_SOURCEVERSION is the merge commit; the source branch's head is
    // what the control plane builds from the branch.
    sha: read(commit, 'SYSTEM_PULLREQUEST_SOURCECOMMITID', 'BUILD_SOURCEVERSION'),
    repositoryUrl: read(text, 'BUILD_REPOSITORY_URI'),
    fork: {
      read: env =>
        env.SYSTEM_PULLREQUEST_ISFORK?.trim().toLowerCase() === 'true'
          ? {
              value: text(env.SYSTEM_PULLREQUEST_SOURCEREPOSITORYURI) ?? 'a fork',
              from: 'SYSTEM_PULLREQUEST_ISFORK'
            }
          : undefined,
      skip: "turn off \"Build pull requests from forks of this repository\" in the pipeline's triggers, or add `condition: ne(variables['System.PullRequest.IsFork'], 'True')` to the job"
    }
  },
  {
    ci: 'Travis CI',
    is: env => env.TRAVIS === 'true',
    tag: read(text, 'TRAVIS_TAG'),
    // `false` outside a pull request.
    pr: read(positive, 'TRAVIS_PULL_REQUEST'),
    // On a pull request, TRAVIS_BRANCH is its base branch: prBranch is used then.
    prBranch: read(text, 'TRAVIS_PULL_REQUEST_BRANCH'),
    branch: read(text, 'TRAVIS_BRANCH'),
    sha: read(commit, 'TRAVIS_PULL_REQUEST_SHA', 'TRAVIS_COMMIT'),
    fork: {
      read: otherRepository('TRAVIS_PULL_REQUEST_SLUG', 'TRAVIS_REPO_SLUG', { needsBase: true }),
      skip: 'add `if: type != pull_request OR head_repo = repo` to the job'
    }
  }
]

/** The fork as the log may show it: a CI variable's text, so nothing but a name's characters. */
function forkOf(row: CiRow, env: Env): ForkFacts | undefined {
  const fork = row.fork?.read(env)
  if (!fork || !row.fork) return undefined
  const name = fork.value.slice(0, 200).replace(/[^\w./:@+ -]/g, '?')
  return { name, variable: fork.from, skip: row.fork.skip }
}

/** The facts of a run on a tag, a pull request or a branch, in that order. */
function factsOf(row: CiRow, env: Env): CiFacts {
  const base = {
    ci: row.ci,
    sha: row.sha(env)?.value,
    repositoryUrl: row.repositoryUrl?.(env)?.value
  }
  const tag = row.tag(env)
  if (tag)
    return { ...base, trigger: `tag ${tag.value}`, ref: { ...tag, value: tagRef(tag.value) } }
  // A fork signal without a pull request number still says the code is not the repository's.
  const fork = forkOf(row, env)
  const pr = row.pr(env)?.value
  const ref = (pr === undefined ? row.branch : (row.prBranch ?? row.branch))(env)
  const trigger =
    pr !== undefined
      ? `${row.prWord ?? 'pull request #'}${pr}${fork ? ` from the fork ${fork.name}` : ''}`
      : ref
        ? `branch ${ref.value}`
        : 'a build'
  return {
    ...base,
    trigger,
    ref,
    ...(pr === undefined ? {} : { pullRequestNumber: pr }),
    ...(fork ? { fork } : {})
  }
}

/** `ref main, commit 1a2b..., repository acme/agent`, each with where it came from when not the CI. */
function describe(d: EventDefaults, fromGit: Set<string>): string {
  const parts: string[] = []
  const from = (key: string) =>
    fromGit.has(key) ? ` (${key === 'repository' ? 'origin remote' : 'git checkout'})` : ''
  if (d.ref) parts.push(`ref ${d.ref}${from('ref')}`)
  if (d.expectedSha) parts.push(`commit ${d.expectedSha.slice(0, 12)}${from('sha')}`)
  if (d.repository) parts.push(`repository ${d.repository}${from('repository')}`)
  return parts.length ? parts.join(', ') : 'no ref, commit or repository'
}

/** The runner's variables that the event's ref is read from, by the context's fields. */
const GITHUB_REFS = [
  ['GITHUB_HEAD_REF', 'headRef'],
  ['GITHUB_REF_NAME', 'refName'],
  ['GITHUB_REF', 'ref']
] as const

function fromGitHubActions(github: GitHubContext): DetectedDefaults {
  const defaults = eventDefaults(github)
  const event = github.eventName ?? 'an event'
  const ref = defaults.ref
  // The field that holds the event's ref (a tag by its name); none: the payload said it.
  const refFrom = GITHUB_REFS.find(([, field]) => {
    const v = github[field]
    return ref !== undefined && v !== undefined && [v, TAG_PREFIX + v, branch(v)].includes(ref)
  })?.[0]
  return {
    defaults,
    source: `Defaults from GitHub Actions (${event}): ${describe(defaults, new Set())}.`,
    ...(refFrom ? { refFrom } : {})
  }
}

/** The code host of CIs that build only their own (GitLab's, Bitbucket's) repositories. */
const HOSTED_BY: Readonly<Record<string, string>> = {
  'GitLab CI': 'GitLab',
  'Bitbucket Pipelines': 'Bitbucket'
}

/** Where a repository not on GitHub is: its CI's code host, or the host its URL names. */
function codeHostOf(ci: CiFacts | undefined, originUrl: string | undefined): string | undefined {
  return (ci && HOSTED_BY[ci.ci]) ?? remoteHost(ci?.repositoryUrl ?? originUrl)
}

/** The defaults of the CI in `env` (or of GitHub's event), completed from the git checkout. */
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
    const value = g.branch ?? (g.tag ? tagRef(g.tag) : undefined)
    if (value !== undefined) ref = { value, from: 'the git checkout' }
    if (value !== undefined) fromGit.add('ref')
  }
  if (sha === undefined) {
    sha = readCheckout().sha
    if (sha !== undefined) fromGit.add('sha')
  }
  const ciRepository = githubRepository(ci?.repositoryUrl)
  const repository = ciRepository ?? githubRepository(readCheckout().originUrl)
  if (repository !== undefined && ciRepository === undefined) fromGit.add('repository')

  if (ref !== undefined) defaults.ref = ref.value
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
  const source =
    where === undefined
      ? 'No CI and no git checkout found: ref, commit and repository have no defaults (a build of a GitHub repository needs --ref and --repository; an upload, --source internal_source, needs neither).'
      : `Defaults from ${where}: ${describe(defaults, ci ? fromGit : new Set())}.`
  return {
    defaults,
    source,
    ...(ref ? { refFrom: ref.from } : {}),
    ...(ci?.fork ? { fork: { ...ci.fork, ci: ci.ci } } : {})
  }
}

/** The CLI's words for the inputs' fork rule: the CI, its variable, and how to skip forks. */
export function forkRefusalText(
  fork: NonNullable<DetectedDefaults['fork']>,
  refusal: ForkRefusal
): string {
  if (refusal === 'upload') {
    return (
      `This ${fork.ci} run is for a change from the fork ${fork.name} (${fork.variable}): an upload ` +
      "deploy (internal_source) would build the fork's code with this project's API key, so it is " +
      `refused. Nothing was sent. To skip forks, ${fork.skip}.`
    )
  }
  return (
    `This ${fork.ci} run is for a change from the fork ${fork.name} (${fork.variable}): its branch ` +
    "is not in this project's repository, so the default ref would deploy a same-named branch " +
    'of the base repository (or fail). Nothing was sent. To deploy the fork deliberately, give ' +
    'both --repository (the fork on GitHub, which the integration must be able to read) and ' +
    `--ref (or CONTROL_PLANE_REPOSITORY and CONTROL_PLANE_REF); to skip forks, ${fork.skip}.`
  )
}

/** The token the sweep reads GitLab merge requests with (a job token cannot). */
export const GITLAB_TOKEN_VARIABLE = 'CONTROL_PLANE_GITLAB_TOKEN'

/** The GitLab pipeline the CLI runs in, for the sweep's merge request reads (GitLabContext). */
export function gitlabContext(env: Env): GitLabContext | undefined {
  if (env.GITLAB_CI !== 'true') return undefined
  const apiUrl = text(env.CI_API_V4_URL)
  const projectId = text(env.CI_PROJECT_ID)
  if (apiUrl === undefined || projectId === undefined) return undefined
  const token = text(env[GITLAB_TOKEN_VARIABLE])
  return { apiUrl, projectId, ...(token ? { token } : {}) }
}
