// One health probe: through the one request (src/net/), to exactly the URL given, bounded in time,
// no redirect followed, a few kilobytes read, by the runner's proxy (TLS still ends at the server).
import { request, RequestFailure, type Answer } from '../net/request.ts'

export interface ProbeRequest {
  url: URL
  headers: Record<string, string>
  timeoutMs: number
  signal?: AbortSignal
  /** Default GET. */
  method?: 'GET' | 'POST'
  /** Sent as `application/json`. */
  body?: string
  /** Bytes of the answer read at most (default MAX_PROBE_BODY). */
  maxBody?: number
}

export interface ProbeResponse {
  status: number
  /** The Location header of a 3xx, as sent. */
  location?: string
  /** The start of the body (at most MAX_PROBE_BODY bytes). */
  body: string
  /** The headers came, but the body was still arriving when the time ran out. */
  slowBody?: boolean
}

/** Sends one probe; rejects without an answer in time (a body still arriving is `slowBody`). */
export type ProbeTransport = (req: ProbeRequest) => Promise<ProbeResponse>

/** More than enough for `{"ok": true}` or an error page's first lines. */
export const MAX_PROBE_BODY = 4096

export class ProbeTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`)
    this.name = 'ProbeTimeoutError'
  }
}

export const httpProbe: ProbeTransport = async req => {
  const sized: Record<string, string> =
    req.body === undefined ? {} : { 'content-type': 'application/json' }
  try {
    const answer = await request({
      url: req.url,
      method: req.method ?? 'GET',
      headers: { ...req.headers, ...sized },
      ...(req.body === undefined ? {} : { body: req.body }),
      timeoutMs: req.timeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
      maxBody: req.maxBody ?? MAX_PROBE_BODY
    })
    return responseOf(answer)
  } catch (err) {
    if (!(err instanceof RequestFailure)) throw err
    // The status came: a timeout from then on is a slow body, not a missing answer.
    if (err.kind === 'timeout' && err.answer) return { ...responseOf(err.answer), slowBody: true }
    if (err.kind === 'timeout') throw new ProbeTimeoutError(req.timeoutMs)
    if (err.kind === 'incomplete') throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
    throw err.cause
  }
}

function responseOf(answer: Answer): ProbeResponse {
  const location = answer.headers.location
  return { status: answer.status, ...(location ? { location } : {}), body: answer.body }
}
