// The transport: one request at a time, with a per-request timeout, an overall deadline, retries
// with full-jitter backoff that honour Retry-After, redirects refused, and a cap on body size.
// Each attempt is one request of src/net/ (the runner's proxy, no redirect followed: it would send
// X-Api-Key to a redirect's host), on kept-alive sockets of this transport's own.
import { request, RequestFailure, type Answer, type Headers } from '../net/request.ts'
import { KeepAlivePool } from '../net/agents.ts'
import {
  AbortedError,
  ApiError,
  NetworkError,
  OutcomeUnknownError,
  RedirectRefusedError,
  UnexpectedResponseError,
  renderValidationErrors,
  type RequestContext,
  type SentContext
} from './errors.ts'
import { Redactor } from './redact.ts'
import { sanitizeServerText } from '../inert.ts'
import { loadSchema } from './load-schema.ts'
import type { ClientOptions, RetryPolicy } from './client-options.ts'
import {
  backoffDelay,
  buildUrl,
  formatBytes,
  formatSeconds,
  locationOf,
  parseRetryAfter
} from './http-util.ts'

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  maxRateLimitedAttempts: 30,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000
}

/** The client's options as its transport takes them: headers made, defaults applied. */
export interface TransportOptions extends Pick<
  ClientOptions,
  'baseUrl' | 'deadline' | 'signal' | 'debug' | 'say' | 'onRateLimited' | 'clock' | 'random'
> {
  headers: Record<string, string>
  requestTimeoutMs: number
  retry: RetryPolicy
  maxBodyBytes: number
  redactor: Redactor
}

export interface RequestSpec extends RequestContext {
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  /** Safe to send again after a lost answer; by default GET and DELETE are, POST and PATCH not. */
  idempotent?: boolean
  /** A deadline for this request and its retries, earlier than the transport's own. */
  deadline?: number
}

/** A request as sent: with the base URL and the door's Say that its errors' hints name inputs by. */
type SentSpec = RequestSpec & SentContext

export interface RawResponse {
  status: number
  headers: Headers
  text: string
}

/** Statuses after which a request that is safe to repeat is tried again. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504])
/** Connection errors that mean the request never reached the server: safe even for writes. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'])

/** Attempts made so far, this one included, and how many of them failed other than by a 429. */
interface Tries {
  attempt: number
  failed: number
}

/** A retry to make after `delay` ms, and what to report if it is never made. */
interface Retry {
  delay: number
  /** What the run reports if time runs out before the retry is answered. */
  error: Error
  /** The failed attempt may have done what it asked (it reached the server). */
  mayHaveApplied: boolean
}

export class Transport {
  readonly #opts: TransportOptions
  readonly #pool = new KeepAlivePool()
  #requests = 0

  constructor(opts: TransportOptions) {
    this.#opts = opts
  }

  /** Requests sent on the wire so far, retries included. */
  get requestCount(): number {
    return this.#requests
  }

  /** Sends a request and returns the parsed JSON of a 2xx answer (undefined for 204). */
  async send(request: RequestSpec): Promise<{ status: number; json: unknown }> {
    // Errors name the host and the full path, and inputs as the door does.
    const spec: SentSpec = { ...request, base: this.#base(), say: this.#opts.say }
    const idempotent = spec.idempotent ?? (spec.method === 'GET' || spec.method === 'DELETE')
    let unknownOutcome = false
    /** The answer (or failure) a retry was sent after: what the run reports if time runs out. */
    let last: Error | undefined
    // A rate limit paces the run and has a budget of its own: a reset between 429s must not find
    // the budget of failed attempts spent by them.
    let failed = 0
    for (let attempt = 1; ; attempt++) {
      this.#checkAborted(spec, last)
      const tried = await this.#once(spec).then(
        res => ({ res }),
        (err: unknown) => ({ err })
      )
      let retry: Retry
      if ('err' in tried) {
        failed++
        retry = this.#retryAfterFailure(spec, tried.err, { attempt, failed }, idempotent)
      } else {
        const { res } = tried
        if (res.status >= 200 && res.status < 300)
          return { status: res.status, json: this.#json(spec, res) }
        if (res.status >= 300 && res.status < 400) throw this.#redirectRefused(spec, res)
        const error = await this.#apiError(spec, res)
        error.afterUnknownOutcome = unknownOutcome
        if (res.status !== 429) failed++
        retry = this.#retryAfterStatus(spec, res, error, { attempt, failed }, idempotent)
      }
      unknownOutcome ||= retry.mayHaveApplied
      last = retry.error
      await this.#sleep(retry.delay, spec)
    }
  }

  /** After no answer: the retry to make, or the error when a write may have been applied. */
  #retryAfterFailure(spec: SentSpec, err: unknown, tries: Tries, idempotent: boolean): Retry {
    const { attempt, failed } = tries
    if (err instanceof AbortedError || err instanceof UnexpectedResponseError) throw err
    const e = err as NodeJS.ErrnoException & { sent?: boolean }
    const lastReason = this.#reason(e)
    const notSent = e.code !== undefined && NOT_SENT_CODES.has(e.code)
    if (!idempotent && !notSent) {
      const pending = e.name === 'TimeoutError' || e.code === 'ETIMEDOUT'
      throw new OutcomeUnknownError(spec, lastReason, { cause: err, pending })
    }
    // The same oversized answer would come again: fetching it twice only wastes time.
    if (e.code === 'EBODYTOOLARGE')
      throw new NetworkError(spec, lastReason, attempt, { cause: err })
    const delay = this.#backoff(attempt)
    if (failed >= this.#opts.retry.maxAttempts || !this.#fits(delay, spec))
      throw new NetworkError(spec, lastReason, attempt, { cause: err })
    this.#log(`${spec.method} ${spec.path}: ${lastReason}; retry ${attempt} in ${delay} ms`)
    const error = new NetworkError(spec, lastReason, attempt, { cause: err })
    return { delay, error, mayHaveApplied: !notSent }
  }

  /** After an error status: the retry to make, or the error when the status is final. */
  #retryAfterStatus(
    spec: SentSpec,
    res: RawResponse,
    error: ApiError,
    tries: Tries,
    idempotent: boolean
  ): Retry {
    const { retry } = this.#opts
    const { attempt, failed } = tries
    // A 429 is refused before anything is applied, so even a write may be sent again.
    const retryable = RETRYABLE_STATUS.has(res.status) && (idempotent || res.status === 429)
    if (!retryable) {
      if (!idempotent && res.status >= 500)
        throw new OutcomeUnknownError(spec, `HTTP ${res.status}`, { cause: error })
      throw error
    }
    const retryAfter = parseRetryAfter(res.headers['retry-after'], this.#opts.clock.now())
    // Retry-After is a floor: parallel jobs on one key, all told the same, would come back together
    // to be refused again. A jittered backoff on top spreads the herd out.
    const delay =
      retryAfter !== undefined
        ? Math.min(retryAfter, retry.maxRetryAfterMs) + this.#backoff(attempt)
        : this.#backoff(attempt)
    const spent =
      res.status === 429 ? attempt >= retry.maxRateLimitedAttempts : failed >= retry.maxAttempts
    if (spent || !this.#fits(delay, spec)) {
      if (retryAfter !== undefined) error.retryAfterMs = Math.min(retryAfter, retry.maxRetryAfterMs)
      throw error
    }
    this.#log(
      `${spec.method} ${spec.path}: HTTP ${res.status}; retry ${attempt} in ${delay} ms` +
        (retryAfter !== undefined ? ' (Retry-After)' : '')
    )
    if (res.status === 429) this.#opts.onRateLimited?.(delay)
    // A 429 is refused before anything is done; any other retried status may have done it.
    return { delay, error, mayHaveApplied: res.status !== 429 }
  }

  /** A redirect is never followed (it would carry the API key to its host): where it pointed. */
  #redirectRefused(spec: SentSpec, res: RawResponse): RedirectRefusedError {
    const target = locationOf(res.headers.location, this.#opts.baseUrl)
    const path = sanitizeServerText(this.#opts.redactor.redact(target.path), 200)
    return new RedirectRefusedError(spec, res.status, { origin: target.origin, path })
  }

  /**
   * A pause before the caller tries again (a write reconciled, a read that did not fit): `ms`, or
   * the backoff of `attempt`. False at once when it would end past the deadline, or cancelled.
   */
  async pause(attempt: number, ms?: number): Promise<boolean> {
    const delay = ms ?? this.#backoff(attempt)
    const deadline = this.#opts.deadline
    const now = this.#opts.clock.now()
    if (this.#opts.signal?.aborted || (deadline !== undefined && now + delay >= deadline))
      return false
    try {
      await this.#opts.clock.sleep(delay, this.#opts.signal)
    } catch {
      return false
    }
    return !this.#opts.signal?.aborted
  }

  close(): void {
    this.#pool.close()
  }

  #base(): { host: string; path: string } {
    const url = new URL(this.#opts.baseUrl)
    return { host: url.host, path: url.pathname.replace(/\/+$/, '') }
  }

  #backoff(attempt: number): number {
    const { baseDelayMs, maxDelayMs } = this.#opts.retry
    return backoffDelay(attempt, baseDelayMs, maxDelayMs, this.#opts.random ?? Math.random)
  }

  #deadline(spec: SentSpec): number | undefined {
    const a = this.#opts.deadline
    const b = spec.deadline
    return a === undefined ? b : b === undefined ? a : Math.min(a, b)
  }

  /** Whether waiting `delay` ms still leaves time for another attempt before the deadline. */
  #fits(delay: number, spec: SentSpec): boolean {
    const deadline = this.#deadline(spec)
    const now = this.#opts.clock.now()
    return deadline === undefined || now + delay < deadline
  }

  async #sleep(ms: number, spec: SentSpec): Promise<void> {
    try {
      await this.#opts.clock.sleep(ms, this.#opts.signal)
    } catch {
      this.#checkAborted(spec)
    }
  }

  /** Throws when cancelled, or when the deadline has passed: then the last answer, if one came. */
  #checkAborted(spec: SentSpec, last?: Error): void {
    if (this.#opts.signal?.aborted) throw new AbortedError(spec, `${spec.operation} cancelled`)
    const deadline = this.#deadline(spec)
    if (deadline !== undefined && this.#opts.clock.now() >= deadline)
      throw last ?? new AbortedError(spec, `${spec.operation} not sent: the deadline has passed`)
  }

  #reason(e: NodeJS.ErrnoException & { budgetMs?: number; byDeadline?: boolean }): string {
    if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT') {
      const within = formatSeconds(e.budgetMs ?? this.#opts.requestTimeoutMs)
      return `no complete answer within ${within}${e.byDeadline ? ' (the deadline of the run)' : ''}`
    }
    if (e.code === 'EBODYTOOLARGE') return e.message
    return sanitizeServerText(this.#opts.redactor.redact(e.code ? `${e.code}` : e.message), 200)
  }

  #json(spec: SentSpec, res: RawResponse): unknown {
    if (res.status === 204 || res.text === '') return undefined
    try {
      return JSON.parse(res.text)
    } catch {
      // Redact before cutting: a cut through a secret would hide it from the redactor.
      const start = sanitizeServerText(this.#opts.redactor.redact(res.text), 80)
      throw new UnexpectedResponseError(
        spec,
        res.status,
        `the body is not JSON (starts with "${start}")`
      )
    }
  }

  async #apiError(spec: SentSpec, res: RawResponse): Promise<ApiError> {
    const { ErrorDetail, HTTPValidationError } = await loadSchema()
    const redact = (s: string) => this.#opts.redactor.redact(s)
    let parsed: unknown
    try {
      parsed = JSON.parse(res.text)
    } catch {
      parsed = undefined
    }
    const validation = HTTPValidationError.safeParse(parsed)
    if (validation.success) {
      // `input` echoes what was sent (secret values among it): it is never shown.
      const entries = validation.data.detail.map(({ loc, msg, type }) => ({
        loc: loc.map(p => (typeof p === 'string' ? redact(p) : p)),
        msg: redact(msg),
        type
      }))
      return new ApiError(spec, res.status, renderValidationErrors(entries), entries)
    }
    const detail = ErrorDetail.safeParse(parsed)
    const text = detail.success ? detail.data.detail : res.text
    return new ApiError(spec, res.status, sanitizeServerText(redact(text)))
  }

  #log(line: string): void {
    // A request body may carry `##[` (the runner reads those commands anywhere in a line).
    this.#opts.debug?.(this.#opts.redactor.redact(line).replace(/#(?=#\[)/g, '# '))
  }

  /** One attempt: the request on the wire within its time budget, and its whole answer. */
  async #once(spec: SentSpec): Promise<RawResponse> {
    const { baseUrl, headers, requestTimeoutMs, signal, maxBodyBytes } = this.#opts
    const deadline = this.#deadline(spec)
    const url = buildUrl(baseUrl, spec.path, spec.query)
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
    // Worked out once the agent is loaded: loading it is this process's time, not the server's.
    const budget = () =>
      deadline === undefined
        ? requestTimeoutMs
        : Math.min(requestTimeoutMs, deadline - this.#opts.clock.now())
    this.#requests++
    this.#log(`→ ${spec.method} ${url.pathname}${url.search}${body ? ` ${body}` : ''}`)
    let answer: Answer
    try {
      answer = await request({
        url,
        method: spec.method,
        headers,
        ...(body === undefined ? {} : { body }),
        timeoutMs: budget,
        ...(signal ? { signal } : {}),
        maxBody: maxBodyBytes,
        pool: this.#pool
      })
    } catch (err) {
      throw err instanceof RequestFailure ? this.#failure(spec, err) : err
    }
    if (answer.cut)
      throw Object.assign(
        new Error(`the answer is larger than ${formatBytes(maxBodyBytes)} and was cut off`),
        { code: 'EBODYTOOLARGE' }
      )
    const size = Buffer.byteLength(answer.body)
    this.#log(`← ${answer.status} ${spec.method} ${url.pathname} (${size} bytes)`)
    return { status: answer.status, headers: answer.headers, text: answer.body }
  }

  /** A failed exchange as reported: cancelled, out of its budget (named), or as it came. */
  #failure(spec: SentSpec, err: RequestFailure): unknown {
    if (err.kind === 'cancelled') return new AbortedError(spec, `${spec.operation} cancelled`)
    if (err.kind === 'timeout')
      return Object.assign(new Error('timeout'), {
        name: 'TimeoutError',
        budgetMs: err.budgetMs,
        byDeadline: err.budgetMs < this.#opts.requestTimeoutMs
      })
    if (err.kind === 'incomplete')
      return new Error('the connection closed before the answer was complete')
    return err.cause
  }
}
