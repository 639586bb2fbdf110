// What the CI the CLI runs in implies for the inputs left empty: the ref to deploy, the commit the
// revision is expected to build, the repository and the pull (merge) request, as the action takes
// them from the triggering event (src/event.ts). Each CI says it in its own variables; outside any
// CI, the git checkout in the working directory says it. One sentence says which source was used.
import { eventDefaults, type EventDefaults } from '../event.ts'
import type { GitHubContext } from '../github/context.ts'
import { githubRepository, type GitFacts } from './git.ts'

export interface DetectedDefaults {
  defaults: EventDefaults
  /** Where the defaults come from, in one sentence for the log. */
  source: string
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
}

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

/** The facts of a run on a tag, a pull request or a branch, in that order. */
function facts(
  ci: string,
  on: { tag?: string; pr?: number; prBranch?: string; branch?: string },
  sha: string | undefined,
  repositoryUrl?: string
): CiFacts {
  const base = { ci, sha, repositoryUrl }
  if (on.tag) return { ...base, trigger: `tag ${on.tag}`, ref: tagRef(on.tag) }
  if (on.pr !== undefined) {
    return {
      ...base,
      trigger: `pull request #${on.pr}`,
      ref: on.prBranch,
      pullRequestNumber: on.pr
    }
  }
  return { ...base, trigger: on.branch ? `branch ${on.branch}` : 'a build', ref: on.branch }
}

// Each CI's own variables, as its documentation names them.

function gitlab(env: NodeJS.ProcessEnv): CiFacts | undefined {
  if (env.GITLAB_CI !== 'true') return undefined
  const iid = positive(env.CI_MERGE_REQUEST_IID)
  if (iid !== undefined && !text(env.CI_COMMIT_TAG)) {
    // In a merged results pipeline CI_COMMIT_SHA is the merge commit; the source branch's head is
    // what the control plane builds from the branch.
    const sha = commit(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA) ?? commit(env.CI_COMMIT_SHA)
    return {
      ci: 'GitLab CI',
      trigger: `merge request !${iid}`,
      ref: text(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME),
      sha,
      pullRequestNumber: iid
    }
  }
  return facts(
    'GitLab CI',
    { tag: text(env.CI_COMMIT_TAG), branch: text(env.CI_COMMIT_BRANCH ?? env.CI_COMMIT_REF_NAME) },
    commit(env.CI_COMMIT_SHA)
  )
}

function bitbucket(env: NodeJS.ProcessEnv): CiFacts | undefined {
  if (!text(env.BITBUCKET_BUILD_NUMBER)) return undefined
  return facts(
    'Bitbucket Pipelines',
    {
      tag: text(env.BITBUCKET_TAG),
      pr: positive(env.BITBUCKET_PR_ID),
      prBranch: text(env.BITBUCKET_BRANCH),
      branch: text(env.BITBUCKET_BRANCH)
    },
    commit(env.BITBUCKET_COMMIT),
    text(env.BITBUCKET_GIT_HTTP_ORIGIN)
  )
}

function circleci(env: NodeJS.ProcessEnv): CiFacts | undefined {
  if (env.CIRCLECI !== 'true') return undefined
  const pr =
    positive(env.CIRCLE_PR_NUMBER) ??
    positive(/\/pull\/(\d+)/.exec(env.CIRCLE_PULL_REQUEST ?? '')?.[1])
  return facts(
    'CircleCI',
    {
      tag: text(env.CIRCLE_TAG),
      pr,
      prBranch: text(env.CIRCLE_BRANCH),
      branch: text(env.CIRCLE_BRANCH)
    },
    commit(env.CIRCLE_SHA1),
    text(env.CIRCLE_REPOSITORY_URL)
  )
}

function buildkite(env: NodeJS.ProcessEnv): CiFacts | undefined {
  if (env.BUILDKITE !== 'true') return undefined
  return facts(
    'Buildkite',
    {
      tag: text(env.BUILDKITE_TAG),
      pr: positive(env.BUILDKITE_PULL_REQUEST),
      prBranch: text(env.BUILDKITE_BRANCH),
      branch: text(env.BUILDKITE_BRANCH)
    },
    // `HEAD` on a build started by hand: the checkout says which commit that was.
    commit(env.BUILDKITE_COMMIT),
    text(env.BUILDKITE_REPO)
  )
}

function jenkins(env: NodeJS.ProcessEnv): CiFacts | undefined {
  if (!text(env.JENKINS_URL)) return undefined
  const pr = positive(env.CHANGE_ID)
  return facts(
    'Jenkins',
    {
      tag: text(env.TAG_NAME),
      pr,
      prBranch: text(env.CHANGE_BRANCH),
      branch: branch(env.BRANCH_NAME) ?? branch(env.GIT_BRANCH)
    },
    commit(env.GIT_COMMIT),
    text(env.GIT_URL)
  )
}

const CIS = [gitlab, bitbucket, circleci, buildkite, jenkins]

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
  const ci = CIS.map(read => read(env)).find(f => f !== undefined)
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
    source: `Defaults from ${where}: ${describe(defaults, ci ? fromGit : new Set())}.`
  }
}
