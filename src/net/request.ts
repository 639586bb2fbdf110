// One HTTP exchange, the one way src/ sends a request: to exactly the URL given (a 3xx is an answer
// like any other, never followed), through the environment's proxy (agents.ts), within one time
// budget, stopped by the caller's signal, reading at most `maxBody` bytes; retries: the caller's.
import * as http from 'node:http'
import * as https from 'node:https'
import type { Clock } from '../clock.ts'
import { agentFor, type KeepAlivePool } from './agents.ts'

export type Headers = http.IncomingHttpHeaders

/** What streams a body: writes it to `out` and ends it; stops once `closed` resolves. */
export type BodyWriter = (out: http.ClientRequest, closed: Promise<void>) => Promise<void>

export interface Request {
  url: URL
  method: string
  headers: Record<string, string>
  /** A whole body (its Content-Length set), or a writer that streams it. */
  body?: string | Buffer | BodyWriter
  /** The time the whole exchange may take, from when its agent is ready (or worked out then). */
  timeoutMs: number | (() => number)
  /** The clock that measures it; real time by default. */
  clock?: Pick<Clock, 'sleep'>
  signal?: AbortSignal
  /** Bytes of the answer's body read at most. */
  maxBody: number
  /** Keep-alive agents for a direct request; without one, a fresh connection closed after it. */
  pool?: KeepAlivePool
}

export interface Answer {
  status: number
  headers: Headers
  /** The body, at most maxBody bytes of it. */
  body: string
  /** More than maxBody bytes came: the rest was not read. */
  cut: boolean
  /** The request was written whole (its 'finish'). */
  sent: boolean
  /** A 3xx's Location, as sent: never followed. */
  redirect?: string
}

/** How a request failed ('incomplete': closed while the answer came; 'failed': see its cause). */
export type FailureKind = 'cancelled' | 'timeout' | 'incomplete' | 'failed' | 'body'

export class RequestFailure extends Error {
  readonly kind: FailureKind
  readonly code: string | undefined
  /** The time budget it had. */
  readonly budgetMs: number
  /** The request was written whole. */
  readonly sent: boolean
  /** What came before the failure, when the status did. */
  readonly answer: Answer | undefined

  constructor(
    kind: FailureKind,
    o: { cause: unknown } & Pick<RequestFailure, 'budgetMs' | 'sent' | 'answer'>
  ) {
    const cause = o.cause
    const said = cause instanceof Error ? cause.message : String(cause)
    super(kind === 'timeout' ? `no answer within ${o.budgetMs} ms` : said, { cause })
    this.name = 'RequestFailure'
    this.kind = kind
    this.code = (cause as NodeJS.ErrnoException | undefined)?.code
    this.budgetMs = o.budgetMs
    this.sent = o.sent
    this.answer = o.answer
  }
}

/** A signal that aborts once `ms` have passed (on `clock`, if given); stop() ends the wait. */
function timer(ms: number, clock?: Pick<Clock, 'sleep'>) {
  if (!clock) return { signal: AbortSignal.timeout(ms), stop: () => undefined }
  const fired = new AbortController()
  const stopped = new AbortController()
  clock.sleep(ms, stopped.signal).then(
    () => fired.abort(new Error(`no answer within ${ms} ms`)),
    () => undefined
  )
  return { signal: fired.signal, stop: () => stopped.abort() }
}

/** Sends `r` once and reads its answer; see the top of this file. */
export async function request(r: Request): Promise<Answer> {
  const agent = await agentFor(r.url, r.pool)
  // The budget starts once the agent is ready: loading it is this process's time, not the server's.
  const budgetMs = Math.max(1, typeof r.timeoutMs === 'number' ? r.timeoutMs : r.timeoutMs())
  const time = timer(budgetMs, r.clock)
  const signal = r.signal ? AbortSignal.any([time.signal, r.signal]) : time.signal
  const whole = typeof r.body === 'function' ? undefined : r.body
  const headers: http.OutgoingHttpHeaders = { ...r.headers }
  if (whole !== undefined) headers['content-length'] = String(Buffer.byteLength(whole))
  // A fresh connection per request, closed after it: no socket outlives the exchange.
  if (!r.pool) headers.connection = 'close'
  const lib = r.url.protocol === 'https:' ? https : http
  const req = lib.request(r.url, { method: r.method, headers, agent, signal })
  try {
    return await exchange(req, r, whole, (kind, cause, sent, answer) => {
      const why = r.signal?.aborted ? 'cancelled' : time.signal.aborted ? 'timeout' : kind
      return new RequestFailure(why, { cause, budgetMs, sent, answer })
    })
  } finally {
    time.stop()
  }
}

type Fail = (kind: FailureKind, cause: unknown, sent: boolean, answer?: Answer) => RequestFailure

/** An answer whose body is joined only when read: a cut answer is mostly refused unread. */
function answerOf(
  status: number,
  headers: Headers,
  chunks: Buffer[],
  cut: boolean,
  sent: boolean,
  location: string | undefined
): Answer {
  let text: string | undefined
  return {
    status,
    headers,
    get body() {
      return (text ??= Buffer.concat(chunks).toString('utf8'))
    },
    cut,
    sent,
    ...(location !== undefined ? { redirect: location } : {})
  }
}

/** The request written and its answer read, up to the cap; the first ending wins. */
function exchange(
  req: http.ClientRequest,
  r: Request,
  whole: string | Buffer | undefined,
  failure: Fail
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let sent = false
    /** What came so far, once the status did. */
    let partial: (() => Answer) | undefined
    let close = () => {}
    const closed = new Promise<void>(done => (close = done))
    const answered = (answer: Answer, destroy: boolean) => {
      close()
      resolve(answer)
      if (destroy) req.destroy()
    }
    const fail = (kind: FailureKind, cause: unknown) => {
      close()
      reject(failure(kind, cause, sent, partial?.()))
      req.destroy()
    }
    req.on('error', err => fail('failed', err))
    req.on('finish', () => (sent = true))
    req.on('response', res => {
      const chunks: Buffer[] = []
      let size = 0
      const status = res.statusCode ?? 0
      const location = status >= 300 && status < 400 ? res.headers.location : undefined
      const now = (cut: boolean): Answer =>
        answerOf(status, res.headers, chunks, cut, sent, location)
      partial = () => now(false)
      res.on('data', (chunk: Buffer) => {
        const room = r.maxBody - size
        size += chunk.length
        if (room > 0) chunks.push(chunk.subarray(0, room))
        // Past the cap the rest is not waited for: the answer so far is the answer.
        if (chunk.length > room) {
          answered(now(true), true)
          res.destroy()
        }
      })
      res.on('error', err => fail('failed', err))
      res.on('aborted', () => fail('incomplete', new Error('the connection closed')))
      // A fresh connection is closed at once: a writer still streaming stops with it.
      res.on('end', () => answered(now(false), !r.pool))
    })
    if (typeof r.body === 'function') r.body(req, closed).catch((err: unknown) => fail('body', err))
    else req.end(whole)
  })
}
