// A GitHub deployment around the control-plane deploy, so that it shows where GitHub shows deploys
// (the Deployments page, the environment, the pull request). A mirror of the outcome, never its
// judge: a failure is one warning and the deploy goes on. The token is masked by the door and never
// in a message: only GitHub's status code and its own (redacted) message are.
import type { Redactor } from '../control-plane/redact.ts'
import { sanitizeServerText } from '../inert.ts'
import type { Journal } from '../interface/journal.ts'
import { OUTCOMES, type GitHubFinalState } from '../interface/outcomes.ts'
import type { Clock } from '../clock.ts'
import {
  describeGitHubError,
  githubApiUrl,
  isRetryable,
  loadOctokit,
  runUrl,
  UnexpectedAnswerError,
  type GitHubLog,
  type Octokit,
  type GitHubApi
} from './api.ts'
import { CONTEXT_GAPS, type GitHubContext } from '../runner/context.ts'
import type { Options } from '../inputs/options.ts'

/** What the GitHub deployment reads of the inputs. */
export type GitHubDeploymentOptions = Pick<
  Options,
  'environment' | 'environmentUrl' | 'githubToken' | 'dryRun' | 'expectedSha' | 'name' | 'target'
>

/** Longest wait for one GitHub request; on cancellation far less (the step exits 1.5 s after). */
const REQUEST_TIMEOUT_MS = 10_000
const CANCEL_REQUEST_TIMEOUT_MS = 1_000
/** Pause before the one retry of a status. */
const RETRY_DELAY_MS = 1_000
/** GitHub cuts a status description at 140 characters. */
const MAX_DESCRIPTION = 140

/** The states this run writes: `in_progress`, then the outcome's (outcomes.ts). */
export type GitHubDeploymentState = 'in_progress' | GitHubFinalState

export interface GitHubDeploymentTarget extends GitHubApi {
  token: string
  owner: string
  repo: string
  sha: string
  environment: string
  environmentUrl: string | undefined
  /** The workflow run's page (`runUrl` of the context). */
  logUrl: string | undefined
  description: string
}

/** The final status for an outcome of the deploy, with a one-line description. */
export function finalStatus(
  journal: Journal,
  error: string | undefined
): { state: GitHubFinalState; description: string } {
  // A run with no outcome failed before it had one.
  const row = OUTCOMES[journal.outcome ?? 'error']
  return { state: row.github, description: row.githubSays({ ...journal, error }) }
}

/** Where the GitHub deployment goes; undefined when off or a dry run; a string: why not. */
export function githubDeploymentTarget(
  o: GitHubDeploymentOptions,
  context: GitHubContext
): GitHubDeploymentTarget | string | undefined {
  if (o.environment === undefined || o.githubToken === undefined || o.dryRun) return undefined
  const none = (why: string) => `${why}: no GitHub deployment is created.`
  const repository = context.repo
  if (!repository) return none(CONTEXT_GAPS.repository)
  const sha = o.expectedSha ?? context.sha
  if (!sha) return none(CONTEXT_GAPS.sha)
  const api = githubApiUrl(context)
  if (typeof api === 'string') return none(api)
  return {
    token: o.githubToken,
    apiUrl: api.apiUrl,
    ...(api.proxy ? { proxy: api.proxy } : {}),
    owner: repository.owner,
    repo: repository.repo,
    sha,
    environment: o.environment,
    environmentUrl: o.environmentUrl,
    logUrl: runUrl(context),
    description: `Deploy ${o.name ? `"${o.name}"` : `deployment ${o.target.kind === 'id' ? o.target.deploymentId : ''}`} through the control plane`
  }
}

/** What went wrong creating or updating a GitHub deployment, with what to do; never the token. */
export function describeDeploymentError(err: unknown, redactor: Redactor, host?: string): string {
  return describeGitHubError(err, redactor, host, {
    403: 'the token may not write deployments: give the job `permissions: deployments: write` (pull requests from forks only get a read-only token).',
    404: 'the repository was not found with this token (a token for another repository, or without access).',
    409: 'GitHub refused the deployment (is the commit pushed to this repository?).',
    422: 'GitHub refused the deployment (is the commit pushed to this repository?).'
  })
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length <= MAX_DESCRIPTION ? oneLine : `${oneLine.slice(0, MAX_DESCRIPTION - 1)}…`
}

/** What the GitHub-deployment code needs from the entry layer. */
export interface GitHubDeploymentDeps {
  /** Knows the token and every secret: applied to every line from GitHub. */
  redactor: Redactor
  log: GitHubLog
  /** The run's clock: the pause before a retry. */
  clock: Pick<Clock, 'sleep'>
}

/** A GitHub deployment in progress, created and set `in_progress`, ended by `finish`. */
export interface GitHubDeployment {
  /** GitHub's id of the deployment: the `github-deployment-id` output. */
  readonly id: number
  /** The final status for the deploy's outcome; `cancelling`: keep it short, the step is ending. */
  finish(journal: Journal, error: string | undefined, cancelling?: boolean): Promise<void>
}

/** A deployment GitHub made, as its statuses are written. */
interface Made {
  target: GitHubDeploymentTarget
  octokit: Octokit
  deps: GitHubDeploymentDeps
  id: number
}

/** Creates the deployment and sets it `in_progress`; undefined (warned) when GitHub said no. */
async function start(
  target: GitHubDeploymentTarget,
  deps: GitHubDeploymentDeps
): Promise<GitHubDeployment | undefined> {
  const { redactor, log } = deps
  const host = new URL(target.apiUrl).host
  let octokit: Octokit
  let id: number
  try {
    octokit = await loadOctokit(target.token, target)
    const created = await octokit.rest.repos.createDeployment({
      owner: target.owner,
      repo: target.repo,
      ref: target.sha,
      environment: target.environment,
      task: 'deploy',
      description: clip(target.description),
      // No merge of the default branch into the ref, and no wait for the commit's checks: this
      // run is one of those checks, and GitHub would refuse a ref whose checks are pending.
      auto_merge: false,
      required_contexts: [],
      request: { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }
    })
    const data = created.data as { id?: unknown; message?: unknown }
    if (typeof data.id !== 'number') {
      const said =
        typeof data.message === 'string'
          ? sanitizeServerText(redactor.redact(data.message), 200)
          : undefined
      throw new UnexpectedAnswerError(created.status, 'a deployment', said)
    }
    id = data.id
  } catch (err) {
    log.warning(
      `Could not create a GitHub deployment in environment "${target.environment}": ${describeDeploymentError(err, redactor, host)} The deploy goes on.`,
      'GitHub deployment not created'
    )
    return undefined
  }
  const made: Made = { target, octokit, deps, id }
  log.info(
    `GitHub deployment ${id} in environment "${target.environment}" for commit ${target.sha}.`
  )
  await setStatus(made, 'in_progress', 'Deploying through the control plane.')
  const finish = async (journal: Journal, error: string | undefined, cancelling = false) => {
    const final = finalStatus(journal, error)
    // The URL to show: the input, else the deployment's own custom URL once known.
    const url = target.environmentUrl ?? journal.url
    await setStatus(made, final.state, final.description, { cancelling, environmentUrl: url })
  }
  return { id, finish }
}

/** One status; a failed attempt is retried once unless the step is being cancelled. */
async function setStatus(
  { target, octokit, deps, id }: Made,
  state: GitHubDeploymentState,
  description: string,
  opts: { cancelling?: boolean; environmentUrl?: string | undefined } = {}
): Promise<boolean> {
  const { redactor, log } = deps
  const cancelling = opts.cancelling ?? false
  const url = opts.environmentUrl ?? target.environmentUrl
  // GitHub shows the URL as the environment's link: only for a deploy that is live or going on.
  const environmentUrl = state === 'success' || state === 'in_progress' ? url : undefined
  const attempts = cancelling ? 1 : 2
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await octokit.rest.repos.createDeploymentStatus({
        owner: target.owner,
        repo: target.repo,
        deployment_id: id,
        state,
        description: clip(redactor.redact(description)),
        ...(target.logUrl ? { log_url: target.logUrl } : {}),
        ...(environmentUrl ? { environment_url: environmentUrl } : {}),
        ...(state === 'success' ? { auto_inactive: true } : {}),
        request: {
          signal: AbortSignal.timeout(cancelling ? CANCEL_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS)
        }
      })
      log.info(`GitHub deployment ${id}: ${state}.`)
      return true
    } catch (err) {
      if (attempt < attempts && isRetryable(err)) {
        await deps.clock.sleep(RETRY_DELAY_MS)
        continue
      }
      const why = describeDeploymentError(err, redactor, new URL(target.apiUrl).host)
      log.warning(
        `Could not set GitHub deployment ${id} to ${state}: ${why}`,
        'GitHub deployment status not set'
      )
      return false
    }
  }
  return false
}

/** The run's GitHub deployment, created and `in_progress`, or undefined. Never throws. */
export async function startGitHubDeployment(
  o: GitHubDeploymentOptions,
  context: GitHubContext,
  deps: GitHubDeploymentDeps
): Promise<GitHubDeployment | undefined> {
  const { redactor, log } = deps
  if (o.environment !== undefined && o.dryRun) {
    log.info(`Dry run: no GitHub deployment is created in environment "${o.environment}".`)
    return undefined
  }
  const notCreated = (line: string) => void log.warning(line, 'GitHub deployment not created')
  const target = githubDeploymentTarget(o, context)
  if (typeof target === 'string') return notCreated(target)
  if (target === undefined) return undefined
  try {
    return await start(target, deps)
  } catch (err) {
    return notCreated(
      `Could not create a GitHub deployment: ${describeDeploymentError(err, redactor)}`
    )
  }
}
