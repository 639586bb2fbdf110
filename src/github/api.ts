// What the GitHub-side features share: their log, where the token may go, a lazily loaded octokit,
// and errors described as what happened. Nothing here talks to the runner.
import { baseUrlProblem } from '../control-plane/base-url.ts'
import { sanitizeServerText } from '../inert.ts'
import type { FlowLog } from '../log.ts'
import { proxyDispatcher } from '../net/proxy.ts'
import { CONTEXT_GAPS, type GitHubContext } from '../runner/context.ts'
import type { ProxyVariables } from '../runner/proxy.ts'

/** How GitHub code speaks to the job log. */
export type GitHubLog = Pick<FlowLog, 'info' | 'warning'>

export type Octokit = Awaited<ReturnType<typeof loadOctokit>>

/** What removes secret values from text (a `Redactor`, or several chained). */
export interface Redacts {
  redact(text: string): string
}

/** Where GitHub's REST API is, and the proxy variables it is reached through. */
export interface GitHubApi {
  apiUrl: string
  proxy?: ProxyVariables
}

/** The REST API root of the context, or why the token may not go there. */
export function githubApiUrl(context: GitHubContext): (GitHubApi & { host: string }) | string {
  const { apiUrl } = context
  let api: URL
  try {
    api = new URL(apiUrl)
  } catch {
    return CONTEXT_GAPS.apiUrl
  }
  // The token travels with every request: the same rule as for the API key.
  if (baseUrlProblem(api.href)) return CONTEXT_GAPS.apiUrlNotHttps
  return { apiUrl, host: api.host, ...(context.proxy ? { proxy: context.proxy } : {}) }
}

/** The link to this workflow run (and its attempt), when the runner says which run it is. */
export function runUrl(context: GitHubContext, withAttempt = false): string | undefined {
  const { repo, runId, runAttempt } = context
  if (!repo || !runId) return undefined
  const base = `${context.serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}`
  return withAttempt && runAttempt ? `${base}/attempts/${runAttempt}` : base
}

/**
 * Octokit for the API root, loaded only now: it is a large part of the bundle and most runs never
 * need it. Made from its parts, not `@actions/github`, whose import reads the runner's variables
 * and event file again: the door read them once, into the context the API root comes from.
 */
export async function loadOctokit(token: string, { apiUrl, proxy }: GitHubApi) {
  const [{ Octokit }, { restEndpointMethods }] = await Promise.all([
    import('@octokit/core'),
    import('@octokit/plugin-rest-endpoint-methods')
  ])
  const fetch = await proxyFetch(apiUrl, proxy)
  return new (Octokit.plugin(restEndpointMethods))({
    auth: `token ${token}`,
    baseUrl: apiUrl,
    ...(fetch ? { request: { fetch } } : {})
  })
}

/** Behind a proxy (the door's proxy variables), a fetch through it; none otherwise (Node's own). */
async function proxyFetch(
  apiUrl: string,
  proxy: ProxyVariables | undefined
): Promise<typeof globalThis.fetch | undefined> {
  const dispatcher = await proxyDispatcher(apiUrl, proxy)
  if (!dispatcher) return undefined
  const { fetch } = await import('undici')
  return ((url: string, init: object) =>
    fetch(url, { ...init, dispatcher })) as unknown as typeof globalThis.fetch
}

/** GitHub answered, but not with what the request asks for (a proxy page, a wrong API root). */
export class UnexpectedAnswerError extends Error {
  readonly answerStatus: number
  constructor(status: number, expected: string, said?: string) {
    super(`answered ${status} with a body that is not ${expected}${said ? `: ${said}` : ''}`)
    this.answerStatus = status
  }
}

/** The HTTP status of an answer GitHub gave; undefined when no answer came. */
function answerStatus(err: unknown): number | undefined {
  if (err instanceof UnexpectedAnswerError) return err.answerStatus
  if (typeof err !== 'object' || err === null) return undefined
  const { status, response } = err as { status?: unknown; response?: unknown }
  if (typeof status !== 'number') return undefined
  // Octokit reports a connection failure or a timeout as status 500 without a response.
  return status === 500 && response === undefined ? undefined : status
}

/** Whether a second try may go better: no answer, a server error, or rate limiting. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof UnexpectedAnswerError) return false
  const status = answerStatus(err)
  return status === undefined || status >= 500 || status === 429
}

/** Codes of a failed connection: system errors, undici's, TLS and certificate ones. */
const NETWORK_CODE =
  /^(E[A-Z]+|UND_ERR_[A-Z_]+|ERR_TLS_[A-Z_]+|CERT_[A-Z_]+|[A-Z_]*SELF_SIGNED[A-Z_]*|UNABLE_TO_[A-Z_]+)$/

/** The first `code` (ECONNREFUSED, ENOTFOUND...) or timeout along an error's causes. */
function networkCause(err: unknown): { code?: string; timedOut: boolean } {
  let node: unknown = err
  for (let depth = 0; depth < 5 && typeof node === 'object' && node !== null; depth++) {
    const { code, name, cause } = node as { code?: unknown; name?: unknown; cause?: unknown }
    if (name === 'TimeoutError' || name === 'AbortError') return { timedOut: true }
    if (typeof code === 'string' && NETWORK_CODE.test(code)) return { code, timedOut: false }
    node = cause
  }
  return { timedOut: false }
}

/** What to do about a status whatever the feature, when its `hints` say nothing. */
const HINTS_BY_STATUS: Record<number, string> = {
  401: 'the token was refused: pass `github-token: ${{ github.token }}` or a valid token.',
  429: 'GitHub is rate limiting this token.'
}

/** What went wrong talking to `host`, and what to do (`hints`: a feature's). Never the token. */
export function describeGitHubError(
  err: unknown,
  redactor: Redacts,
  host = 'GitHub',
  hints: Partial<Record<401 | 403 | 404 | 409 | 422, string>> = {}
): string {
  const clean = (text: string) => sanitizeServerText(redactor.redact(text), 300)
  if (err instanceof UnexpectedAnswerError) return `${host} ${clean(err.message)}`
  const status = answerStatus(err)
  if (status === undefined) {
    const cause = networkCause(err)
    if (cause.timedOut) return `${host} did not answer in time.`
    if (cause.code) return `could not connect to ${host}: ${cause.code}.`
    const raw = err instanceof Error ? err.message : String(err)
    return `${host} could not be reached: ${clean(raw)}.`
  }
  // Redact before cutting: a cut could split the token and leave half of it.
  const message = clean(err instanceof Error ? err.message : String(err))
  const hint =
    (hints as Record<number, string | undefined>)[status] ??
    HINTS_BY_STATUS[status] ??
    (status >= 500 ? 'GitHub had a server error.' : undefined)
  return `HTTP ${status}: ${message}${hint ? ` (${hint})` : ''}`
}
