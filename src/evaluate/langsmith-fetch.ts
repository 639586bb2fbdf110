// The LangSmith client's fetch, built on the one request of src/net/: to the LangSmith API's origin
// only (the key goes nowhere else: a URL elsewhere is refused unsent), a redirect an answer never
// followed, the run's proxy and cancel, a cap on the body. The client sees a plain Response.
import { request } from '../net/request.ts'

/** Bytes of one LangSmith answer read at most (a page of examples or feedback). */
export const MAX_LANGSMITH_BODY = 16 * 1024 * 1024
const REQUEST_TIMEOUT_MS = 60_000

export interface LangsmithFetchOptions {
  /** The LangSmith API's URL: its origin is the only one requests go to. */
  apiUrl: string
  signal?: AbortSignal | undefined
  /** Counted per request sent (the run's request count). */
  onRequest?: () => void
}

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

/** A fetch for the `langsmith` client that keeps to the project's rules of requests. */
export function langsmithFetch(o: LangsmithFetchOptions): typeof fetch {
  const origin = new URL(o.apiUrl).origin
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
    o.onRequest?.()
    const answer = await request({
      url,
      method: init?.method ?? 'GET',
      headers: headersOf(init),
      ...(init?.body == null ? {} : { body: await bodyOf(init.body) }),
      timeoutMs: REQUEST_TIMEOUT_MS,
      ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
      maxBody: MAX_LANGSMITH_BODY
    })
    const headers = new Headers()
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
    return new Response(NULL_BODY.has(answer.status) ? null : answer.body, {
      status: answer.status,
      headers
    })
  }) as typeof fetch
}
