// `pr-comment: true`: one comment on the pull request per deployment name, found again by the
// hidden marker on its first line, so that re-runs and later pushes update it in place. Best
// effort: a failure is one warning, never the verdict; 5 s per request, 15 s in all (1 s when
// cancelling). The token goes only to the API root under the API key's rule, in no line built here.
import { Redactor } from '../control-plane/redact.ts'
import { sanitizeServerText } from '../inert.ts'
import {
  describeGitHubError,
  githubApiUrl,
  loadOctokit,
  runUrl,
  UnexpectedAnswerError,
  type GitHubLog,
  type Octokit,
  type Redacts
} from './api.ts'
import { isCommentFor, renderComment, type PrCommentReport } from './comment-body.ts'
import { CONTEXT_GAPS, type GitHubContext } from '../runner/context.ts'

export const PR_COMMENT_REQUEST_TIMEOUT_MS = 5_000
export const PR_COMMENT_BUDGET_MS = 15_000
const CANCEL_BUDGET_MS = 1_000
const PER_PAGE = 100
/** Comments read at most while looking for ours: 2,000. */
const MAX_PAGES = 20

export interface PrCommentDeps {
  /** The `github-token` input; needs `pull-requests: write`. */
  token: string | undefined
  /** Where to post (API root, repository) and what to link to (server, run and attempt). */
  context: GitHubContext
  /** From the event (`eventDefaults(...).pullRequestNumber`); none: no comment. */
  pullRequestNumber: number | undefined
  /** Knows every secret; the token is redacted here in any case. */
  redactor: Redacts
  log: GitHubLog
  /** The step is being cancelled: one short attempt. */
  cancelling?: boolean
  /** The run's clock: the time budget is measured on it. */
  now: () => number
  /** For tests: the limits (default PR_COMMENT_REQUEST_TIMEOUT_MS, PR_COMMENT_BUDGET_MS). */
  limits?: { requestMs: number; budgetMs: number }
  /** `dry-run`: nothing is written; the comment it would post is printed instead. */
  dryRun: boolean
}

export interface PrCommentResult {
  action: 'created' | 'updated' | 'unchanged'
  commentId: number
  /** The comment's page, as GitHub gave it (sanitized). */
  url: string | undefined
  /** The body that is now on the pull request. */
  body: string
}

/** The identity GitHub shows for the workflow's own token. */
export const WORKFLOW_TOKEN_LOGIN = 'github-actions[bot]'

/** GitHub's view of a comment: only what is used, checked before use. */
interface Comment {
  id: number
  body: string
  html_url: string | undefined
  /** Who wrote it; '' when GitHub did not say. */
  login: string
}

function asComment(value: unknown): Comment | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { id, body, html_url: url, user } = value as Record<string, unknown>
  if (typeof id !== 'number') return undefined
  const login = (user as { login?: unknown } | null | undefined)?.login
  return {
    id,
    body: typeof body === 'string' ? body : '',
    html_url: typeof url === 'string' ? url : undefined,
    login: typeof login === 'string' ? login : ''
  }
}

class OutOfTime extends Error {}

/** What the GitHub calls of one posting share: where, the client, and the time budget. */
interface Session {
  octokit: Octokit
  where: { owner: string; repo: string }
  number: number
  request: () => { signal: AbortSignal }
}

/**
 * Creates or updates this name's comment; undefined when nothing was done. Never throws. Only
 * comments by the identity the token acts as are adopted: a marker copied elsewhere is left alone.
 */
export async function postPrComment(
  report: PrCommentReport,
  deps: PrCommentDeps
): Promise<PrCommentResult | undefined> {
  const { log, context } = deps
  const where = whereToPost(deps)
  if (!where) return undefined
  const { number, token, repository, api } = where
  const tokenRedactor = new Redactor([token])
  const redactor: Redacts = { redact: text => deps.redactor.redact(tokenRedactor.redact(text)) }
  const body = commentBody(report, context, repository, redactor)
  if (deps.dryRun || !token) {
    log.info(`Dry run: no comment is posted on pull request #${number}; it would say:`)
    for (const line of body.split('\n')) log.info(`  ${line}`)
    return undefined
  }
  const { now } = deps
  // The budget is GitHub's time: it starts once the client is loaded (seconds on a loaded runner);
  // a cancelled run's short budget counts from now, the runner's kill does too.
  const { requestMs, budgetMs } = deps.limits ?? {
    requestMs: PR_COMMENT_REQUEST_TIMEOUT_MS,
    budgetMs: deps.cancelling ? CANCEL_BUDGET_MS : PR_COMMENT_BUDGET_MS
  }
  let deadline = deps.cancelling ? now() + budgetMs : Infinity
  const request = () => {
    const left = deadline - now()
    if (left <= 0) throw new OutOfTime()
    return { signal: AbortSignal.timeout(Math.min(left, requestMs)) }
  }
  const step = { now: 'read the comments of' }
  try {
    const octokit = await loadOctokit(token, api)
    if (!deps.cancelling) deadline = now() + budgetMs
    const session: Session = { octokit, where: repository, number, request }
    return await post(session, report.name, body, token, step, { log, redactor })
  } catch (err) {
    const what =
      err instanceof OutOfTime
        ? `gave up after ${budgetMs / 1000} s.`
        : describeGitHubError(err, redactor, api.host, {
            403: 'the token may not write pull requests: give the job `permissions: pull-requests: write` (pull requests from forks only get a read-only token).',
            404: 'the pull request was not found with this token.'
          })
    log.warning(
      `Could not ${step.now} pull request #${number}: ${what} The result of the run stands.`,
      NOT_POSTED
    )
    return undefined
  }
}

const NOT_POSTED = 'Pull request comment not posted'

/** The pull request, token, repository and API root to post with; undefined (said) when one is missing. */
function whereToPost(deps: PrCommentDeps) {
  const { log, context, pullRequestNumber: number } = deps
  if (number === undefined) {
    log.info('pr-comment: this run is not about a pull request; no comment is posted.')
    return undefined
  }
  const notPosted = (line: string) => void log.warning(line, NOT_POSTED)
  const token = deps.token?.trim() ?? ''
  if (!token && !deps.dryRun)
    return notPosted(
      'pr-comment needs `github-token` (with `pull-requests: write`): no comment is posted.'
    )
  const repository = context.repo
  if (!repository)
    return notPosted(`${CONTEXT_GAPS.repository}: no pull request comment is posted.`)
  const api = githubApiUrl(context)
  if (typeof api === 'string') return notPosted(`${api}: no pull request comment is posted.`)
  return { number, token, repository, api }
}

/** The comment's text, redacted value by value (before Markdown escaping) and as a whole. */
function commentBody(
  report: PrCommentReport,
  context: GitHubContext,
  repository: { owner: string; repo: string },
  redactor: Redacts
): string {
  const clean = Object.fromEntries(
    Object.entries(report).map(([k, v]) => [k, typeof v === 'string' ? redactor.redact(v) : v])
  ) as unknown as PrCommentReport
  return redactor.redact(
    renderComment(clean, {
      run: runUrl(context, true),
      repository: `${context.serverUrl}/${repository.owner}/${repository.repo}`
    })
  )
}

async function post(
  s: Session,
  name: string,
  body: string,
  token: string,
  step: { now: string },
  out: { log: GitHubLog; redactor: Redacts }
): Promise<PrCommentResult> {
  const { log, redactor } = out
  const said = (action: 'created' | 'updated', c: Comment): PrCommentResult => {
    const url = cleanUrl(c.html_url, redactor)
    log.info(`Pull request #${s.number}: comment ${action}${url ? `: ${url}` : '.'}`)
    return { action, commentId: c.id, url, body }
  }
  const me = await identity(s, token)
  const mine = await commentsFor(s, name, me, log)
  const ours = mine[0]
  if (ours === undefined) {
    step.now = 'create a comment on'
    const created = await write(s, { body })
    // Runs that overlap may each have created one: converge on the oldest.
    step.now = 'tidy the comments on'
    return said('created', await converge(s, name, created, body, log))
  }
  step.now = 'tidy the comments on'
  for (const extra of mine.slice(1)) await remove(s, extra.id)
  if (ours.body === body) {
    log.info(`Pull request #${s.number}: comment ${ours.id} already says this.`)
    return { action: 'unchanged', commentId: ours.id, url: cleanUrl(ours.html_url, redactor), body }
  }
  step.now = 'update the comment on'
  return said('updated', await write(s, { body, id: ours.id }))
}

/**
 * Who the token acts as: the workflow's (`ghs_`, which cannot ask) is `github-actions[bot]`,
 * another is asked. A wrong guess costs one comment created and removed: its author then counts.
 */
async function identity(s: Session, token: string): Promise<string> {
  if (token.startsWith('ghs_')) return WORKFLOW_TOKEN_LOGIN
  try {
    const me = await s.octokit.request('GET /user', { request: s.request() })
    const login = (me.data as { login?: unknown }).login
    return typeof login === 'string' ? login : WORKFLOW_TOKEN_LOGIN
  } catch (err) {
    if (err instanceof OutOfTime) throw err
    return WORKFLOW_TOKEN_LOGIN
  }
}

/** This name's comments by `me`, oldest first; a marker in someone else's is said once. */
async function commentsFor(
  s: Session,
  name: string,
  me: string,
  log?: GitHubLog
): Promise<Comment[]> {
  const mine: Comment[] = []
  const others = new Set<string>()
  for (let page = 1; page <= MAX_PAGES; page++) {
    const listed = await s.octokit.rest.issues.listComments({
      ...s.where,
      issue_number: s.number,
      per_page: PER_PAGE,
      page,
      request: s.request()
    })
    const data: unknown = listed.data
    if (!Array.isArray(data)) throw new UnexpectedAnswerError(listed.status, 'a list of comments')
    for (const c of data.map(asComment)) {
      if (!c || !isCommentFor(c.body, name)) continue
      if (c.login === me) mine.push(c)
      else others.add(sanitizeServerText(c.login || 'someone', 60))
    }
    if (data.length < PER_PAGE) break
  }
  if (others.size && log) {
    log.info(
      `Pull request #${s.number}: a comment by ${[...others].join(', ')} carries the marker of "${name}"; ` +
        `only comments by ${me}, who this token acts as, are updated, so it is left as it is.`
    )
  }
  return mine.sort((a, b) => a.id - b.id)
}

/** After a create: the oldest of this name's comments by the same author stays, the others go. */
async function converge(
  s: Session,
  name: string,
  created: Comment,
  body: string,
  log: GitHubLog
): Promise<Comment> {
  const mine = await commentsFor(s, name, created.login || WORKFLOW_TOKEN_LOGIN)
  const kept = mine[0] ?? created
  const extras = mine.slice(1)
  if (!mine.some(c => c.id === created.id) && kept.id !== created.id) extras.push(created)
  for (const extra of extras) await remove(s, extra.id)
  if (extras.length) {
    log.info(
      `Pull request #${s.number}: another run posted the comment of "${name}" at the same time; kept comment ${kept.id}, removed ${extras.length}.`
    )
  }
  return kept.id === created.id || kept.body === body ? kept : write(s, { body, id: kept.id })
}

async function write(s: Session, what: { body: string; id?: number }): Promise<Comment> {
  const answer =
    what.id === undefined
      ? await s.octokit.rest.issues.createComment({
          ...s.where,
          issue_number: s.number,
          body: what.body,
          request: s.request()
        })
      : await s.octokit.rest.issues.updateComment({
          ...s.where,
          comment_id: what.id,
          body: what.body,
          request: s.request()
        })
  const comment = asComment(answer.data)
  if (!comment) throw new UnexpectedAnswerError(answer.status, 'a comment')
  return comment
}

async function remove(s: Session, id: number): Promise<void> {
  try {
    await s.octokit.rest.issues.deleteComment({ ...s.where, comment_id: id, request: s.request() })
  } catch (err) {
    // Another run removed it first: what was to happen has happened.
    if ((err as { status?: unknown }).status !== 404) throw err
  }
}

/** GitHub's link to the comment, fit for one log line. */
function cleanUrl(url: string | undefined, redactor: Redacts): string | undefined {
  return url && /^https?:\/\/\S+$/.test(url)
    ? sanitizeServerText(redactor.redact(url), 300)
    : undefined
}
