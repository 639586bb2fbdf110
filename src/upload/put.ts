// The PUT of an archive to the signed `upload_url`, streamed from disk (Node's fetch would buffer
// a file body), with the headers the URL was signed for, as the LangGraph CLIs send them, and
// never the API key: the upload host is not the control plane. Through the one request
// (src/net/): no redirect followed, one timeout on the run's clock, stopped by the signal.
// The result never holds the URL (its query is the signature: describeUploadUrl() may be logged).
// After anything but 'stored', a PATCH names no object: ask for a new URL and PUT again
// ('unusable': a URL refused here, which another from the same service would repeat).
import { open, type FileHandle } from 'node:fs/promises'
import type { Clock } from '../clock.ts'
import { isLoopbackHost } from '../control-plane/base-url.ts'
import { sanitizeServerText } from '../inert.ts'
import { MAX_ARCHIVE_BYTES } from './archive.ts'
import { ReusedBuffers } from './reused-buffers.ts'
import { VERSION } from '../version.ts'
import { request, RequestFailure, type Answer, type BodyWriter } from '../net/request.ts'

/** The LangGraph CLIs' timeout for the same PUT. */
export const DEFAULT_PUT_TIMEOUT_MS = 300_000
/** The most of the archive read at once. */
const CHUNK = 256 * 1024
/** The most of an answer's body kept for the message. */
const MAX_DETAIL_BYTES = 4096
/** Connection errors that mean nothing reached the upload host. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'])

export interface PutOptions {
  /** The `upload_url`, as answered. */
  url: string
  /** The archive's file and its size (archive.ts). */
  file: string
  size: number
  timeoutMs?: number
  /** The run's clock: the timeout is measured on it. */
  clock: Pick<Clock, 'sleep'>
  signal?: AbortSignal
  /** A loopback upload URL is taken (only when base-url is loopback too); default true. */
  loopbackAllowed?: boolean
}

export type PutResult =
  | { outcome: 'stored'; status: number }
  /** The host answered with another status (a 3xx included: never followed). */
  | { outcome: 'refused'; status: number; detail: string }
  /** The archive went out (all or part) but no answer came back: timeout or lost connection. */
  | { outcome: 'lost'; reason: string }
  /** Nothing reached the host (connection refused, name not found). */
  | { outcome: 'not-sent'; reason: string }
  /** The URL itself is refused (scheme, credentials): nothing sent, and no point asking again. */
  | { outcome: 'unusable'; reason: string }
  | { outcome: 'cancelled' }

/** Why `url` is no place to PUT to: https, or http to a loopback host when `loopbackAllowed`. */
export function uploadUrlProblem(url: string, loopbackAllowed = true): string | undefined {
  const u = URL.parse(url)
  if (!u) return 'the upload URL is not a URL'
  if (u.username || u.password) return 'the upload URL carries credentials (user:password@)'
  if (!loopbackAllowed && isLoopbackHost(u.hostname))
    return `the upload URL names this machine (${u.host}), but the control plane is not on this machine: a remote control plane does not choose a port of the runner to send the source to`
  if (u.protocol === 'https:') return undefined
  if (u.protocol === 'http:' && isLoopbackHost(u.hostname)) return undefined
  return `the upload URL must be https (plain http only to this machine), not ${u.protocol}//${u.hostname}`
}

/** The URL as it may be logged: origin and path, without the query that signs it. */
export function describeUploadUrl(url: string, base?: string | URL): string {
  const u = URL.parse(url, base === undefined ? undefined : String(base))
  if (!u) return '(not a URL)'
  return u.protocol === 'http:' || u.protocol === 'https:'
    ? `${u.origin}${u.pathname}`
    : `a ${u.protocol} URL`
}

/** `text` with the signed URL's query (and the URL whole) cut out: what an error may say. */
function withoutSignature(text: string, url: URL): string {
  let out = text
  for (const secret of [url.href, url.search, url.search.slice(1)])
    if (secret.length > 1) out = out.split(secret).join('?…')
  return out
}

function headers(size: number): Record<string, string> {
  return {
    'Content-Type': 'application/gzip',
    'Content-Length': String(size),
    'X-Goog-Content-Length-Range': `0,${MAX_ARCHIVE_BYTES}`,
    'User-Agent': `control-plane-deploy/${VERSION}`
  }
}

/** PUTs the archive once. Never throws: whatever the host answers, or fails, is a result. */
export async function putArchive(o: PutOptions): Promise<PutResult> {
  const problem = uploadUrlProblem(o.url, o.loopbackAllowed ?? true)
  if (problem) return { outcome: 'unusable', reason: problem }
  const url = new URL(o.url)
  if (o.signal?.aborted) return { outcome: 'cancelled' }
  let fh: FileHandle
  try {
    fh = await open(o.file, 'r')
  } catch (err) {
    return { outcome: 'not-sent', reason: `reading the archive: ${(err as Error).message}` }
  }
  try {
    const { size } = await fh.stat()
    if (size !== o.size)
      return { outcome: 'not-sent', reason: 'the archive changed size before it was sent' }
    return await send(o, url, fh)
  } catch (err) {
    // Our bug, not the host's answer: still a result, and never the URL's signature.
    const text = err instanceof Error ? err.message : String(err)
    return { outcome: 'lost', reason: sanitizeServerText(withoutSignature(text, url), 200) }
  } finally {
    await fh.close()
  }
}

/** Hands the file to the request through two reused buffers (reused-buffers.ts), then ends it. */
function pump(fh: FileHandle, size: number, handed: (n: number) => void): BodyWriter {
  return async (req, closed) => {
    const pair = new ReusedBuffers(CHUNK)
    for (let left = size; left > 0;) {
      const buf = await Promise.race([pair.next(), closed])
      if (!buf) return
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, left), null)
      if (bytesRead === 0) throw new Error('the archive became shorter while it was sent')
      left -= bytesRead
      handed(bytesRead)
      pair.write(buf.subarray(0, bytesRead), (bytes, done) => req.write(bytes, done))
    }
    req.end()
  }
}

async function send(o: PutOptions, url: URL, fh: FileHandle): Promise<PutResult> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_PUT_TIMEOUT_MS
  let handed = 0
  try {
    const answer = await request({
      url,
      method: 'PUT',
      headers: headers(o.size),
      body: pump(fh, o.size, n => (handed += n)),
      timeoutMs,
      clock: o.clock,
      ...(o.signal ? { signal: o.signal } : {}),
      maxBody: MAX_DETAIL_BYTES
    })
    return answerOf(answer, answer.sent || handed === o.size, url)
  } catch (err) {
    if (!(err instanceof RequestFailure)) throw err
    return failureOf(err, timeoutMs, url)
  }
}

/** What a failed PUT means, given how far it came. */
function failureOf(err: RequestFailure, timeoutMs: number, url: URL): PutResult {
  if (err.kind === 'cancelled') return { outcome: 'cancelled' }
  if (err.kind === 'body') {
    const cause = err.cause as Error
    return { outcome: 'not-sent', reason: `reading the archive: ${cause.message}` }
  }
  // A host may answer and close before the body is in.
  if (err.answer)
    return { outcome: 'refused', status: err.answer.status, detail: 'the connection closed' }
  if (err.kind === 'timeout')
    return { outcome: 'lost', reason: `no answer within ${Math.round(timeoutMs / 1000)} s` }
  if (!err.sent && err.code && NOT_SENT_CODES.has(err.code))
    return { outcome: 'not-sent', reason: err.code }
  const why = withoutSignature(err.code ?? err.message, url)
  return { outcome: 'lost', reason: sanitizeServerText(why, 200) }
}

/** What a whole answer means; `whole`: every byte was handed (its 'finish' may come after it). */
function answerOf(answer: Answer, whole: boolean, url: URL): PutResult {
  const { status } = answer
  const ok = status >= 200 && status < 300
  if (ok && whole) return { outcome: 'stored', status }
  if (ok) return { outcome: 'lost', reason: `HTTP ${status} before the whole archive was sent` }
  const detail =
    status >= 300 && status < 400
      ? `a redirect to ${answer.redirect ? describeUploadUrl(answer.redirect, url) : '(no Location)'}, not followed`
      : sanitizeServerText(answer.body, 300)
  return { outcome: 'refused', status, detail }
}
