// `pr-comment: true`: one comment on the pull request per deployment name, found again by the
// hidden marker on its first line, so that re-runs and later pushes update it in place.
//
// Strictly best effort, like GitHub deployments: any failure is one warning and never the verdict;
// it never throws; it takes at most 5 s per request and 15 s in all (1 s when the step is being
// cancelled). The token goes only to GITHUB_API_URL under the same rule as the API key (https, or
// plain http to this machine), and no line built here contains it.
import { Redactor, sanitizeServerText } from '../control-plane/redact.ts'
import {
  describeGitHubError,
  githubApiUrl,
  githubRepository,
  loadOctokit,
  runUrl,
  UnexpectedAnswerError,
  type GitHubLog,
  type Redacts
} from './api.ts'
import { isCommentFor, renderComment, type PrCommentReport } from './comment-body.ts'

export type { PrCommentOutcome, PrCommentReport } from './comment-body.ts'

export const PR_COMMENT_REQUEST_TIMEOUT_MS = 5_000
export const PR_COMMENT_BUDGET_MS = 15_000
const CANCEL_BUDGET_MS = 1_000
const PER_PAGE = 100
/** Comments read at most while looking for ours: 2,000. */
const MAX_PAGES = 20

export interface PrCommentDeps {
  /** The `github-token` input; needs `pull-requests: write`. */
  token: string | undefined
  /** GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_SERVER_URL, GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT. */
  env: NodeJS.ProcessEnv
  /** From the event (`eventDefaults(...).pullRequestNumber`); none: no comment. */
  pullRequestNumber: number | undefined
  /** Knows every secret; the token is redacted here in any case. */
  redactor: Redacts
  log: GitHubLog
  /** The step is being cancelled: one short attempt. */
  cancelling?: boolean
  /** For tests: the clock the time budget is measured on. */
  now?: () => number
}

export interface PrCommentResult {
  action: 'created' | 'updated' | 'unchanged'
  commentId: number
  /** The comment's page, as GitHub gave it (sanitized). */
  url: string | undefined
  /** The body that is now on the pull request. */
  body: string
}

/** GitHub's view of a comment: only what is used, checked before use. */
interface Comment {
  id: number
  body: string
  html_url: string | undefined
}

function asComment(value: unknown): Comment | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { id, body, html_url: url } = value as Record<string, unknown>
  if (typeof id !== 'number') return undefined
  return {
    id,
    body: typeof body === 'string' ? body : '',
    html_url: typeof url === 'string' ? url : undefined
  }
}

class OutOfTime extends Error {}

/**
 * Creates or updates this deployment name's comment on the pull request. Returns what was done,
 * or undefined when nothing was (not a pull request, or after its one warning). Never throws.
 */
export async function postPrComment(
  report: PrCommentReport,
  deps: PrCommentDeps
): Promise<PrCommentResult | undefined> {
  const { log, env, pullRequestNumber: number } = deps
  const title = 'Pull request comment not posted'
  if (number === undefined) {
    log.info('pr-comment: this run is not about a pull request; no comment is posted.')
    return undefined
  }
  const token = deps.token?.trim()
  if (!token) {
    log.warning(
      'pr-comment needs `github-token` (with `pull-requests: write`): no comment is posted.',
      title
    )
    return undefined
  }
  const repository = githubRepository(env)
  if (!repository) {
    log.warning(
      'GITHUB_REPOSITORY is not set to owner/name: no pull request comment is posted.',
      title
    )
    return undefined
  }
  const api = githubApiUrl(env)
  if (typeof api === 'string') {
    log.warning(`${api}: no pull request comment is posted.`, title)
    return undefined
  }

  const tokenRedactor = new Redactor([token])
  const redactor: Redacts = { redact: text => deps.redactor.redact(tokenRedactor.redact(text)) }
  const now = deps.now ?? Date.now
  const deadline = now() + (deps.cancelling ? CANCEL_BUDGET_MS : PR_COMMENT_BUDGET_MS)
  const request = () => {
    const left = deadline - now()
    if (left <= 0) throw new OutOfTime()
    return { signal: AbortSignal.timeout(Math.min(left, PR_COMMENT_REQUEST_TIMEOUT_MS)) }
  }
  const server = (env.GITHUB_SERVER_URL?.trim() || 'https://github.com').replace(/\/+$/, '')
  // Each value before it is escaped for Markdown (an escaped secret would no longer match), and the
  // whole body again.
  const clean = Object.fromEntries(
    Object.entries(report).map(([k, v]) => [k, typeof v === 'string' ? redactor.redact(v) : v])
  ) as unknown as PrCommentReport
  const body = redactor.redact(
    renderComment(clean, {
      run: runUrl(env, true),
      repository: `${server}/${repository.owner}/${repository.repo}`
    })
  )
  const where = { owner: repository.owner, repo: repository.repo }
  let step = 'read the comments of'
  try {
    const octokit = await loadOctokit(token, api.apiUrl)
    let ours: Comment | undefined
    for (let page = 1; page <= MAX_PAGES && ours === undefined; page++) {
      const listed = await octokit.rest.issues.listComments({
        ...where,
        issue_number: number,
        per_page: PER_PAGE,
        page,
        request: request()
      })
      const data: unknown = listed.data
      if (!Array.isArray(data)) {
        throw new UnexpectedAnswerError(listed.status, 'a list of comments')
      }
      ours = data.map(asComment).find(c => c !== undefined && isCommentFor(c.body, report.name))
      if (data.length < PER_PAGE) break
    }
    let answer: { status: number; data: unknown }
    let action: PrCommentResult['action']
    if (ours === undefined) {
      step = 'create a comment on'
      action = 'created'
      answer = await octokit.rest.issues.createComment({
        ...where,
        issue_number: number,
        body,
        request: request()
      })
    } else if (ours.body === body) {
      log.info(`Pull request #${number}: comment ${ours.id} already says this.`)
      return {
        action: 'unchanged',
        commentId: ours.id,
        url: cleanUrl(ours.html_url, redactor),
        body
      }
    } else {
      step = 'update the comment on'
      action = 'updated'
      answer = await octokit.rest.issues.updateComment({
        ...where,
        comment_id: ours.id,
        body,
        request: request()
      })
    }
    const comment = asComment(answer.data)
    if (!comment) throw new UnexpectedAnswerError(answer.status, 'a comment')
    const url = cleanUrl(comment.html_url, redactor)
    log.info(`Pull request #${number}: comment ${action}${url ? `: ${url}` : '.'}`)
    return { action, commentId: comment.id, url, body }
  } catch (err) {
    const what =
      err instanceof OutOfTime
        ? `gave up after ${(deps.cancelling ? CANCEL_BUDGET_MS : PR_COMMENT_BUDGET_MS) / 1000} s.`
        : describeGitHubError(err, redactor, api.host, {
            403: 'the token may not write pull requests: give the job `permissions: pull-requests: write` (pull requests from forks only get a read-only token).',
            404: 'the pull request was not found with this token.'
          })
    log.warning(
      `Could not ${step} pull request #${number}: ${what} The result of the run stands.`,
      title
    )
    return undefined
  }
}

/** GitHub's link to the comment, fit for one log line. */
function cleanUrl(url: string | undefined, redactor: Redacts): string | undefined {
  return url && /^https?:\/\/\S+$/.test(url)
    ? sanitizeServerText(redactor.redact(url), 300)
    : undefined
}
