// Errors are values with a message written for the person reading the job log: what failed, the
// HTTP status, and what to check. Every text that came from the server is sanitised first.
import { dialectOfPath } from './dialect.ts'
import type { ValidationErrorEntry } from './schema.ts'
import { sanitizeServerText } from '../inert.ts'
import type { Say } from '../interface/naming.ts'

export type Operation =
  | 'list deployments'
  | 'create deployment'
  | 'get deployment'
  | 'patch deployment'
  | 'get revision'
  | 'delete listener'
  | 'list repositories'
  | 'list revisions'
  | 'redeploy revision'
  | 'delete deployment'
  | 'get revision logs'
  | 'create revision'
  | 'set display name'
  | 'get deployment logs'
  | 'request upload url'
  | 'resize deployment'

export interface RequestContext {
  method: string
  /** Path below the base URL, without the query string. */
  path: string
  operation: Operation
  /** The base URL's host and path, for messages (the transport adds them). */
  base?: { host: string; path: string }
}

/** A request as the transport sent it, with how its hints name an input: as the run's door does. */
export interface SentContext extends RequestContext {
  say: Say
}

/** The path as sent, the base URL's path included: what a user compares with the service's docs. */
export function fullPath(ctx: RequestContext): string {
  return `${ctx.base?.path ?? ''}${ctx.path}`
}

/** Base of every error the client raises. */
export class ControlPlaneError extends Error {
  readonly method: string
  readonly path: string
  readonly operation: Operation

  constructor(ctx: RequestContext, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.method = ctx.method
    this.path = ctx.path
    this.operation = ctx.operation
  }
}

/** The service answered with an error status. */
export class ApiError extends ControlPlaneError {
  readonly status: number
  /** The server's `detail`, sanitised; for a 422, one line per entry. */
  readonly detail: string
  readonly validation: ValidationErrorEntry[] | undefined
  readonly hint: string | undefined
  /** A Retry-After the transport did not wait out (capped): a later try waits this first. */
  retryAfterMs: number | undefined
  /** An earlier attempt went out unanswered: a 404 to a retried DELETE may be its work. */
  afterUnknownOutcome = false

  constructor(
    ctx: SentContext,
    status: number,
    detail: string,
    validation?: ValidationErrorEntry[]
  ) {
    const hint = hintFor(ctx, status, detail)
    const head = `${ctx.operation} failed: HTTP ${status} on ${ctx.method} ${fullPath(ctx)}`
    const body = detail ? (detail.includes('\n') ? `\n${detail}` : `: ${detail}`) : ''
    super(ctx, `${head}${body}${hint ? `\n${hint}` : ''}`)
    this.status = status
    this.detail = detail
    this.validation = validation
    this.hint = hint
    this.retryAfterMs = undefined
  }
}

/** The service answered 2xx but with a body that is not JSON or does not fit the interface. */
export class UnexpectedResponseError extends ControlPlaneError {
  readonly status: number
  /** What is wrong with the body, without the request. */
  readonly problem: string
  constructor(ctx: RequestContext, status: number, problem: string) {
    super(
      ctx,
      `${ctx.operation}: unexpected response from the control plane (HTTP ${status} on ${ctx.method} ${fullPath(ctx)}): ${problem}`
    )
    this.status = status
    this.problem = problem
  }
}

/** A well-formed answer about another resource: a read asks again; never a write's outcome. */
export class OtherResourceError extends UnexpectedResponseError {}

/** A 3xx: never followed, so the API key never reaches another host. */
export class RedirectRefusedError extends ControlPlaneError {
  readonly status: number
  readonly targetOrigin: string
  /** Origin and path of the Location (no query string, no credentials): what base-url should be. */
  readonly target: string
  constructor(ctx: SentContext, status: number, target: { origin: string; path: string }) {
    const where = target.origin + target.path
    super(
      ctx,
      `${ctx.operation} refused a redirect: HTTP ${status} on ${ctx.method} ${fullPath(ctx)} points to ${where}. ` +
        `Redirects are not followed so that the API key is sent only to ${ctx.say('base-url')}; set it to the final address.`
    )
    this.status = status
    this.targetOrigin = target.origin
    this.target = where
  }
}

/** No answer (refused, reset, timed out, a body over the cap): the cause in words, what to check. */
export class NetworkError extends ControlPlaneError {
  readonly reason: string
  readonly attempts: number
  constructor(ctx: SentContext, reason: string, attempts: number, options?: ErrorOptions) {
    const code = (options?.cause as NodeJS.ErrnoException | undefined)?.code
    const words = causeInWords(code)
    const host = ctx.base?.host ?? 'the control plane'
    const tries = attempts > 1 ? `, ${attempts} attempts` : ''
    super(
      ctx,
      `${ctx.operation} failed at ${host}: ${words ?? reason} (${words ? `${reason}; ` : ''}${ctx.method} ${fullPath(ctx)}${tries}).` +
        (code === 'EBODYTOOLARGE' ? '' : `\nHint: ${whatToCheck(code, host, ctx.say('base-url'))}`),
      options
    )
    this.reason = reason
    this.attempts = attempts
  }
}

const TLS_CODE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|EPROTO/

/** A socket error's code, as a person says it; undefined for codes without words here. */
function causeInWords(code: string | undefined): string | undefined {
  if (code === undefined) return undefined
  if (code === 'ENOTFOUND') return 'its DNS name was not found'
  if (code === 'EAI_AGAIN') return 'the DNS lookup failed (no DNS server answered)'
  if (code === 'ECONNREFUSED') return 'the connection was refused, nothing listens on that port'
  if (code === 'ECONNRESET') return 'the connection was reset'
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'no route to the host'
  if (code === 'ETIMEDOUT') return 'the connection timed out'
  if (TLS_CODE.test(code)) return 'the TLS handshake failed (its certificate is not trusted here)'
  return undefined
}

function whatToCheck(code: string | undefined, host: string, baseUrl: string): string {
  const tls = code !== undefined && TLS_CODE.test(code)
  if (tls)
    return `check that ${baseUrl} names ${host} as its certificate does; behind a proxy that re-signs TLS, give its CA in NODE_EXTRA_CA_CERTS.`
  return `check ${baseUrl} (${host}), and the proxy (HTTPS_PROXY, NO_PROXY) if this network needs one.`
}

/** A write that went out unanswered: maybe applied. Reconciled by reading, never a blind retry. */
export class OutcomeUnknownError extends ControlPlaneError {
  readonly reason: string
  /** Timed out: the change may still land after this error (a reset or a status is an end). */
  readonly pending: boolean
  constructor(ctx: RequestContext, reason: string, options?: ErrorOptions & { pending?: boolean }) {
    super(
      ctx,
      `${ctx.operation}: outcome unknown (${reason}) on ${ctx.method} ${ctx.path}; the change may or may not have been applied`,
      options
    )
    this.reason = reason
    this.pending = options?.pending ?? false
  }
}

/** The run was cancelled or its overall deadline passed while a request was pending. */
export class AbortedError extends ControlPlaneError {}

/** A list whose pages never end (paging.ts): raised before the caller acts on half a list. */
export class EndlessListError extends ControlPlaneError {
  readonly pages: number
  readonly pageSize: number
  constructor(ctx: RequestContext, what: string, pages: number, pageSize: number, why: string) {
    super(
      ctx,
      `The ${what} list did not end: ${pages} pages of ${pageSize} read without a short page (${why}); ` +
        "the control plane's paging looks broken."
    )
    this.pages = pages
    this.pageSize = pageSize
  }
}

/** `source_config.repo_url: Field required`: the location without its `body`/`query`/`path` root. */
export function renderValidationEntry(entry: ValidationErrorEntry): string {
  const loc = [...entry.loc]
  if (loc.length > 1 && (loc[0] === 'body' || loc[0] === 'query' || loc[0] === 'path')) loc.shift()
  const where = loc.map(p => sanitizeServerText(String(p), 80)).join('.')
  const msg = sanitizeServerText(entry.msg, 300)
  return where ? `${where}: ${msg}` : msg
}

export function renderValidationErrors(entries: ValidationErrorEntry[]): string {
  const shown = entries.slice(0, 20).map(renderValidationEntry)
  if (entries.length > shown.length) shown.push(`… and ${entries.length - shown.length} more`)
  return shown.join('\n')
}

function hintFor(ctx: SentContext, status: number, detail: string): string | undefined {
  const text = detail.toLowerCase()
  const { say } = ctx
  switch (status) {
    case 400:
      return text.includes('already exists')
        ? `Hint: the name is taken (names stay taken after a delete, with their tracing project); choose another name or set ${say('deployment-id')}.`
        : 'Hint: the control plane rejected the request; check the inputs named above.'
    case 401:
      return `Hint: check the API key (${say('api-key')}): the control plane did not accept it (expired, revoked, or for another region: see ${say('base-url')}).`
    case 403:
      if (text.includes('requires workspace specification'))
        return `Hint: this organization-scoped key needs a workspace: set ${say('tenant-id')} to the workspace id.`
      if (text.includes('not enabled'))
        return 'Hint: deployments are not enabled for this organization; ask its admin to enable them.'
      if (ctx.path.includes('/listeners/'))
        return 'Hint: listeners are only allowed for organizations on self-hosted enterprise plans.'
      return `Hint: check ${say('tenant-id')} and that the key's workspace may manage deployments.`
    case 404:
      return `Hint: ${notFoundSubject(ctx.path)} was not found with this key and ${say('tenant-id')}; check the id, ${say('tenant-id')} and ${say('base-url')}.${dialectHint(ctx)}`
    case 409:
      if (text.includes('agent environment'))
        return 'Hint: another deployment holds this agent environment (agent-based workspaces): deploy to that deployment, or delete it first.'
      return text.includes('tracing project')
        ? `Hint: a tracing project of this name remains (a deployment deleted without ${say.set('delete-tracing-project', 'true')} keeps it, and it holds the name): delete that tracing project in the web app, or choose another name.`
        : 'Hint: a deployment with this name already exists.'
    case 422:
      return 'Hint: the control plane rejected the request body or parameters; the lines above name each field.'
    case 429:
      return `Hint: the control plane is rate limiting this key; fewer parallel jobs or a longer ${say('poll-interval')} help.`
    default:
      return status >= 500
        ? 'Hint: the control plane failed on its side; re-run the job later. If a deployment was being created or updated, the re-run converges on it.'
        : undefined
  }
}

/** A 404 on a path the two wire dialects name differently may mean the other dialect. */
function dialectHint(ctx: SentContext): string {
  const spoken = dialectOfPath(ctx.path)
  if (spoken === undefined) return ''
  const other = spoken === 'interface' ? 'langsmith' : 'interface'
  return ` If this control plane speaks the \`${other}\` names, set ${ctx.say.set('api-dialect', other)}.`
}

function notFoundSubject(path: string): string {
  const parts = path.split('/').filter(Boolean)
  const after = (word: string) => {
    const i = parts.lastIndexOf(word)
    return i >= 0 ? parts[i + 1] : undefined
  }
  if (parts.includes('revisions'))
    return `revision ${after('revisions')} of deployment ${after('deployments') ?? after('projects')}`
  if (parts.includes('deployments') && after('deployments'))
    return `deployment ${after('deployments')}`
  if (parts.includes('listeners')) return `listener ${after('listeners')}`
  for (const forge of ['codehost', 'github'])
    if (parts.includes(forge)) return `forge integration ${after(forge)} (integration-id)`
  return 'the resource'
}
