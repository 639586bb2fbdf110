// The LangSmith client's fetch, built on the one request of src/net/: to the LangSmith API's origin
// only (the key goes nowhere else: a URL elsewhere is refused unsent), a redirect an answer never
// followed, the run's proxy and cancel, a cap on the body; 429 and 5xx retried here, with backoff
// and Retry-After, on the run's clock and within its deadline (the client's own retries, on real
// time and deaf to Retry-After, are off: langsmith.ts). The client sees a plain Response.
import { makeClock, type Clock } from '../clock.ts'
import { DEFAULT_RETRY } from '../control-plane/http.ts'
import { backoffDelay, parseRetryAfter } from '../control-plane/http-util.ts'
import { request, type Answer } from '../net/request.ts'

/** Bytes of one LangSmith answer read at most (a page of examples or feedback). */
export const MAX_LANGSMITH_BODY = 16 * 1024 * 1024
const REQUEST_TIMEOUT_MS = 60_000

export interface LangsmithFetchOptions {
  /** The LangSmith API's URL: its origin is the only one requests go to. */
  apiUrl: string
  signal?: AbortSignal | undefined
  /** Counted per request sent (the run's request count). */
  onRequest?: () => void
  /** The run's clock: the pauses before retries. Real time when absent. */
  clock?: Clock
  /** Epoch ms on `clock`: no retry whose pause would end past it. */
  deadline?: number
  /** Told each retry about to be made, as a line for the log. */
  onRetry?: (line: string) => void
  random?: () => number
}

/** What LangSmith answers when it is busy or failing for a moment. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504])

type FetchInput = string | URL | { url: string }

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  new Headers(init?.headers).forEach((value, name) => (out[name] = value))
  return out
}

async function bodyOf(body: RequestInit['body']): Promise<string | Buffer | undefined> {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return Buffer.from(body)
  if (body instanceof ArrayBuffer) return Buffer.from(body)
  // A Blob, FormData or stream: read through a Response, as fetch itself would.
  return Buffer.from(await new Response(body).arrayBuffer())
}

const NULL_BODY = new Set([101, 204, 205, 304])

function responseOf(answer: Answer): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  return new Response(NULL_BODY.has(answer.status) ? null : answer.body, {
    status: answer.status,
    headers
  })
}

/**
 * The pause before retry `attempt` after `answer`, or undefined when it is final: not a 429 or a
 * 5xx, out of attempts, or the pause would end past the deadline. Retry-After is a floor, cut to
 * a minute, with a backoff on top (jobs told the same do not come back together).
 */
function pauseAfter(o: LangsmithFetchOptions, clock: Clock, answer: Answer, attempt: number) {
  if (!RETRYABLE.has(answer.status)) return undefined
  const limit =
    answer.status === 429 ? DEFAULT_RETRY.maxRateLimitedAttempts : DEFAULT_RETRY.maxAttempts
  if (attempt >= limit) return undefined
  const { baseDelayMs, maxDelayMs, maxRetryAfterMs } = DEFAULT_RETRY
  const backoff = backoffDelay(attempt, baseDelayMs, maxDelayMs, o.random)
  const after = parseRetryAfter(answer.headers['retry-after'], clock.now())
  const delay = after === undefined ? backoff : Math.min(after, maxRetryAfterMs) + backoff
  if (o.deadline !== undefined && clock.now() + delay >= o.deadline) return undefined
  return { delay, retryAfter: after !== undefined }
}

/** A fetch for the `langsmith` client that keeps to the project's rules of requests. */
export function langsmithFetch(o: LangsmithFetchOptions): typeof fetch {
  const origin = new URL(o.apiUrl).origin
  const clock = o.clock ?? makeClock()
  return (async (input: FetchInput, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    )
    if (url.origin !== origin)
      throw new Error(
        `a LangSmith request to ${url.origin} was refused unsent: only ${origin} (langsmith-api-url) gets the key`
      )
    const signals = [o.signal, init?.signal ?? undefined].filter(
      (s): s is AbortSignal => s !== undefined
    )
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined
    const method = init?.method ?? 'GET'
    const body = init?.body == null ? undefined : await bodyOf(init.body)
    for (let attempt = 1; ; attempt++) {
      o.onRequest?.()
      const answer = await request({
        url,
        method,
        headers: headersOf(init),
        ...(body === undefined ? {} : { body }),
        timeoutMs: REQUEST_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
        maxBody: MAX_LANGSMITH_BODY
      })
      const pause = pauseAfter(o, clock, answer, attempt)
      if (!pause) return responseOf(answer)
      o.onRetry?.(
        `LangSmith ${method} ${url.pathname}: HTTP ${answer.status}; retry ${attempt} in ${pause.delay} ms${pause.retryAfter ? ' (Retry-After)' : ''}`
      )
      await clock.sleep(pause.delay, signal)
    }
  }) as typeof fetch
}
