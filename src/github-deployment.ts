// A GitHub deployment around the control-plane deploy, so that the deploy shows up where GitHub
// shows deploys: the repository's Deployments page, the environment, and the pull request.
//
// Best effort by design: GitHub is a mirror of the outcome, never a judge of it. A failure to talk
// to GitHub is one warning and the deploy goes on; the job's result is decided by the control plane
// alone (main.ts). The token is masked by the entry layer before anything runs and never appears
// in a message: only GitHub's status code and its own (redacted) message do.
import * as core from '@actions/core'
import type { getOctokit } from '@actions/github'
import { baseUrlProblem } from './control-plane/base-url.ts'
import { sanitizeServerText, type Redactor } from './control-plane/redact.ts'
import type { DeployState } from './deploy/flow.ts'
import type { Options } from './options.ts'

/** Longest wait for one GitHub request; on cancellation far less (the step exits 1.5 s after). */
const REQUEST_TIMEOUT_MS = 10_000
const CANCEL_REQUEST_TIMEOUT_MS = 1_000
/** GitHub cuts a status description at 140 characters. */
const MAX_DESCRIPTION = 140

/** The states this run writes (GitHub also has `queued` and `pending`). */
export type GitHubDeploymentState = 'in_progress' | 'success' | 'failure' | 'error' | 'inactive'

export interface GitHubDeploymentTarget {
  token: string
  /** REST API root: `GITHUB_API_URL`, `https://api.github.com` by default. */
  apiUrl: string
  owner: string
  repo: string
  /** The commit the deployment is for. */
  sha: string
  environment: string
  environmentUrl: string | undefined
  /** The workflow run: `GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID`. */
  logUrl: string | undefined
  description: string
}

/** The final status for an outcome of the deploy, with a one-line description. */
export function finalStatus(
  state: DeployState,
  error: string | undefined
): { state: Exclude<GitHubDeploymentState, 'in_progress'>; description: string } {
  const revision = state.revisionId ? `Revision ${state.revisionId}` : 'The revision'
  switch (state.outcome) {
    case 'deployed':
      return { state: 'success', description: `${revision} is DEPLOYED.` }
    case 'no-revision':
      return { state: 'success', description: 'Updated; no new revision was needed.' }
    case 'accepted':
      return {
        state: 'success',
        description: `${revision} accepted (wait: false); not waited for.`
      }
    case 'skipped':
      // This commit was not deployed: a newer revision (with its own run) superseded it.
      return {
        state: 'inactive',
        description: `${revision} was superseded by ${state.newerRevisionId ? `revision ${state.newerRevisionId}` : 'a newer revision'}.`
      }
    case 'failed':
      return {
        state: 'failure',
        description: `${revision} ended ${state.revisionStatus ?? 'failed'}.`
      }
    case 'timeout':
      return {
        state: 'failure',
        description: `Timed out while ${state.revisionStatus ?? 'waiting'}; ${revision.toLowerCase()} goes on.`
      }
    case 'cancelled':
      return {
        state: 'inactive',
        description: `Cancelled${state.revisionId ? `; revision ${state.revisionId} goes on on the control plane` : ''}.`
      }
    case 'dry-run':
      return { state: 'success', description: 'Dry run: nothing was written.' }
    default:
      return { state: 'error', description: error ?? 'The deploy failed.' }
  }
}

/**
 * Where the GitHub deployment goes, or why there is none. `undefined`: GitHub deployments are
 * off (`environment` not set) or this is a dry run; a string: a reason to warn about.
 */
export function githubDeploymentTarget(
  o: Options,
  env: NodeJS.ProcessEnv
): GitHubDeploymentTarget | string | undefined {
  if (o.environment === undefined || o.githubToken === undefined || o.dryRun) return undefined
  const repository = env.GITHUB_REPOSITORY?.trim() ?? ''
  const [owner, repo, ...rest] = repository.split('/')
  if (!owner || !repo || rest.length > 0) {
    return 'GITHUB_REPOSITORY is not set to owner/name: no GitHub deployment is created.'
  }
  const sha = o.expectedSha ?? env.GITHUB_SHA?.trim()
  if (!sha) return 'No commit is known (GITHUB_SHA is not set): no GitHub deployment is created.'
  const apiUrl = (env.GITHUB_API_URL?.trim() || 'https://api.github.com').replace(/\/+$/, '')
  let api: URL
  try {
    api = new URL(apiUrl)
  } catch {
    return 'GITHUB_API_URL is not a URL: no GitHub deployment is created.'
  }
  if (baseUrlProblem(api.href)) {
    return 'GITHUB_API_URL must be https (the token travels with every request): no GitHub deployment is created.'
  }
  const server = (env.GITHUB_SERVER_URL?.trim() || 'https://github.com').replace(/\/+$/, '')
  const runId = env.GITHUB_RUN_ID?.trim()
  return {
    token: o.githubToken,
    apiUrl,
    owner,
    repo,
    sha,
    environment: o.environment,
    environmentUrl: o.environmentUrl,
    logUrl: runId ? `${server}/${owner}/${repo}/actions/runs/${runId}` : undefined,
    description: `Deploy ${o.name ? `"${o.name}"` : `deployment ${o.target.kind === 'id' ? o.target.deploymentId : ''}`} through the control plane`
  }
}

/** What went wrong talking to GitHub, with what to do about it; never the token. */
export function describeGitHubError(err: unknown, redactor: Redactor): string {
  const status =
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { status?: unknown }).status === 'number'
      ? (err as { status: number }).status
      : undefined
  const raw = err instanceof Error ? err.message : String(err)
  // Redact before cutting: a cut could split the token and leave half of it.
  const message = sanitizeServerText(redactor.redact(raw), 300)
  const hint =
    status === 401
      ? 'the token was refused: pass `github-token: ${{ github.token }}` or a valid token.'
      : status === 403
        ? 'the token may not write deployments: give the job `permissions: deployments: write` (pull requests from forks only get a read-only token).'
        : status === 404
          ? 'the repository was not found with this token (a token for another repository, or without access).'
          : status === 409 || status === 422
            ? 'GitHub refused the deployment (is the commit pushed to this repository?).'
            : status !== undefined && status >= 500
              ? 'GitHub had a server error.'
              : status === undefined
                ? 'GitHub could not be reached.'
                : ''
  return `${status !== undefined ? `HTTP ${status}: ` : ''}${message}${hint ? ` (${hint})` : ''}`
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length <= MAX_DESCRIPTION ? oneLine : `${oneLine.slice(0, MAX_DESCRIPTION - 1)}…`
}

/** A GitHub deployment in progress: created and set `in_progress` by `start`, ended by `finish`. */
export class GitHubDeployment {
  private readonly target: GitHubDeploymentTarget
  private readonly octokit: ReturnType<typeof getOctokit>
  private readonly redactor: Redactor
  readonly id: number

  private constructor(
    target: GitHubDeploymentTarget,
    octokit: ReturnType<typeof getOctokit>,
    redactor: Redactor,
    id: number
  ) {
    this.target = target
    this.octokit = octokit
    this.redactor = redactor
    this.id = id
  }

  /**
   * Creates the deployment for the commit and environment and sets it `in_progress`; sets the
   * `github-deployment-id` output. Undefined (after one warning) when GitHub said no.
   */
  static async start(
    target: GitHubDeploymentTarget,
    redactor: Redactor
  ): Promise<GitHubDeployment | undefined> {
    // Loaded only here: octokit is a large part of the bundle and most runs never need it.
    const { getOctokit } = await import('@actions/github')
    const octokit = getOctokit(target.token, { baseUrl: target.apiUrl })
    let id: number
    try {
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
            ? `: ${sanitizeServerText(redactor.redact(data.message), 200)}`
            : ''
        throw new Error(`GitHub answered ${created.status} without a deployment${said}`)
      }
      id = data.id
    } catch (err) {
      core.warning(
        `Could not create a GitHub deployment in environment "${target.environment}": ${describeGitHubError(err, redactor)} The deploy goes on.`,
        { title: 'GitHub deployment not created' }
      )
      return undefined
    }
    core.setOutput('github-deployment-id', String(id))
    const deployment = new GitHubDeployment(target, octokit, redactor, id)
    core.info(
      `GitHub deployment ${id} in environment "${target.environment}" for commit ${target.sha}.`
    )
    await deployment.setStatus('in_progress', 'Deploying through the control plane.')
    return deployment
  }

  /** The final status for the deploy's outcome; `cancelling`: keep it short, the step is ending. */
  async finish(state: DeployState, error: string | undefined, cancelling = false): Promise<void> {
    const final = finalStatus(state, error)
    // The URL to show: the input, else the deployment's own custom URL once known.
    const url = this.target.environmentUrl ?? state.url
    await this.setStatus(final.state, final.description, { cancelling, environmentUrl: url })
  }

  /** One status; a failed attempt is retried once unless the step is being cancelled. */
  async setStatus(
    state: GitHubDeploymentState,
    description: string,
    opts: { cancelling?: boolean; environmentUrl?: string | undefined } = {}
  ): Promise<boolean> {
    const { target } = this
    const cancelling = opts.cancelling ?? false
    const url = opts.environmentUrl ?? target.environmentUrl
    // GitHub shows the URL as the environment's link: only for a deploy that is live or going on.
    const environmentUrl = state === 'success' || state === 'in_progress' ? url : undefined
    const attempts = cancelling ? 1 : 2
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await this.octokit.rest.repos.createDeploymentStatus({
          owner: target.owner,
          repo: target.repo,
          deployment_id: this.id,
          state,
          description: clip(this.redactor.redact(description)),
          ...(target.logUrl ? { log_url: target.logUrl } : {}),
          ...(environmentUrl ? { environment_url: environmentUrl } : {}),
          ...(state === 'success' ? { auto_inactive: true } : {}),
          request: {
            signal: AbortSignal.timeout(cancelling ? CANCEL_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS)
          }
        })
        core.info(`GitHub deployment ${this.id}: ${state}.`)
        return true
      } catch (err) {
        const status = (err as { status?: unknown }).status
        const retryable = typeof status !== 'number' || status >= 500 || status === 429
        if (attempt < attempts && retryable) {
          await new Promise(resolve => setTimeout(resolve, 1000))
          continue
        }
        core.warning(
          `Could not set GitHub deployment ${this.id} to ${state}: ${describeGitHubError(err, this.redactor)}`,
          { title: 'GitHub deployment status not set' }
        )
        return false
      }
    }
    return false
  }
}

/**
 * The GitHub deployment of this run, when `environment` is set: created and `in_progress`, or
 * undefined (off, a dry run, or GitHub said no: then after one warning). Never throws.
 */
export async function startGitHubDeployment(
  o: Options,
  env: NodeJS.ProcessEnv,
  redactor: Redactor
): Promise<GitHubDeployment | undefined> {
  if (o.environment !== undefined && o.dryRun) {
    core.info(`Dry run: no GitHub deployment is created in environment "${o.environment}".`)
    return undefined
  }
  const target = githubDeploymentTarget(o, env)
  if (typeof target === 'string') {
    core.warning(target, { title: 'GitHub deployment not created' })
    return undefined
  }
  if (target === undefined) return undefined
  try {
    return await GitHubDeployment.start(target, redactor)
  } catch (err) {
    core.warning(`Could not create a GitHub deployment: ${describeGitHubError(err, redactor)}`, {
      title: 'GitHub deployment not created'
    })
    return undefined
  }
}
