// The PUT of an archive to the signed `upload_url` that `POST .../upload-url` answered: the file
// streamed from disk (never read whole: Node's fetch with a file body buffers it), with
// `Content-Type: application/gzip`, `Content-Length` and `X-Goog-Content-Length-Range:
// 0,209715200` (what the URL was signed for, as the LangGraph CLIs send it), and nothing else of
// ours: never the API key, the upload host is not the control plane. No redirect is followed (a
// 3xx is a refusal), the whole PUT has one timeout, on the run's clock (the caller's deadline is on
// it too), and the abort signal stops it.
// Behind a proxy the environment names for the URL, it goes through @actions/http-client's
// tunnelling agent (loaded only then), as the control plane's transport and the health probes do.
//
//   const result = await putArchive({ url, file: archive.file, size: archive.size, clock, signal })
//   result.outcome  // 'stored' | 'refused' (an answer, with its status) | 'lost' (sent, no
//                   // answer: the object may or may not be there) | 'not-sent' | 'cancelled'
//
// The result never holds the URL: its query is the signature. describeUploadUrl() is what may be
// logged. After anything but 'stored', name no object in a PATCH: ask for a new URL and PUT again
// ('unusable': a URL we refuse to send to, which another URL from the same service would repeat).
// Nothing the upload host answers throws: every answer, a malformed one included, is a result.
import * as http from 'node:http'
import * as https from 'node:https'
import { open, type FileHandle } from 'node:fs/promises'
import { getProxyUrl } from '@actions/http-client/lib/proxy'
import type { Clock } from '../clock.ts'
import { isLoopbackHost } from '../control-plane/base-url.ts'
import { sanitizeServerText } from '../control-plane/redact.ts'
import { MAX_ARCHIVE_BYTES } from './archive.ts'
import { ReusedBuffers } from './reused-buffers.ts'
import { VERSION } from '../version.ts'

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

/**
 * Why `url` is no place to PUT the source: https, or plain http to this machine only; this machine
 * only when `loopbackAllowed` (a remote control plane may not pick a port of the runner).
 */
export function uploadUrlProblem(url: string, loopbackAllowed = true): string | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return 'the upload URL is not a URL'
  }
  if (u.username || u.password) return 'the upload URL carries credentials (user:password@)'
  if (!loopbackAllowed && isLoopbackHost(u.hostname))
    return `the upload URL names this machine (${u.host}), but the control plane is not on this machine: a remote control plane does not choose a port of the runner to send the source to`
  if (u.protocol === 'https:') return undefined
  if (u.protocol === 'http:' && isLoopbackHost(u.hostname)) return undefined
  return `the upload URL must be https (plain http only to this machine), not ${u.protocol}//${u.hostname}`
}

/** The URL as it may be logged: origin and path, without the query that signs it. */
export function describeUploadUrl(url: string, base?: string | URL): string {
  try {
    const u = new URL(url, base)
    return u.protocol === 'http:' || u.protocol === 'https:'
      ? `${u.origin}${u.pathname}`
      : `a ${u.protocol} URL`
  } catch {
    return '(not a URL)'
  }
}

/** `text` with the signed URL's query (and the URL whole) cut out: what an error may say. */
function withoutSignature(text: string, url: URL): string {
  let out = text
  for (const secret of [url.href, url.search, url.search.slice(1)])
    if (secret.length > 1) out = out.split(secret).join('?…')
  return out
}

async function agentFor(url: URL): Promise<http.Agent | false> {
  if (!getProxyUrl(url)?.hostname) return false
  const { HttpClient } = await import('@actions/http-client')
  const client = new HttpClient(undefined, [], { allowRedirects: false, allowRetries: false })
  return client.getAgent(url.href)
}

function headers(size: number): http.OutgoingHttpHeaders {
  return {
    'Content-Type': 'application/gzip',
    'Content-Length': String(size),
    'X-Goog-Content-Length-Range': `0,${MAX_ARCHIVE_BYTES}`,
    'User-Agent': `control-plane-deploy/${VERSION}`,
    Connection: 'close'
  }
}

/**
 * PUTs the archive once. Never throws: a URL it refuses (uploadUrlProblem) is 'unusable', an
 * archive it cannot read 'not-sent', and whatever goes wrong after that a result too.
 */
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
    const agent = await agentFor(url)
    return await send(o, url, agent, fh)
  } catch (err) {
    // Our bug, not the host's answer: still a result, and never the URL's signature.
    const text = err instanceof Error ? err.message : String(err)
    return { outcome: 'lost', reason: sanitizeServerText(withoutSignature(text, url), 200) }
  } finally {
    await fh.close()
  }
}

/** Hands the file to the request through two reused buffers (reused-buffers.ts), then ends it. */
async function pump(
  fh: FileHandle,
  req: http.ClientRequest,
  size: number,
  closed: Promise<void>,
  handed: (n: number) => void
) {
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

/** What one PUT has done so far: what its failure or its answer means depends on it. */
interface Progress {
  /** The request finished: every byte was flushed. */
  sent: boolean
  /** The status of an answer that came (a host may answer and close before the body is in). */
  answered?: number
  /** Bytes handed to the request. */
  handed: number
}

function send(
  o: PutOptions,
  url: URL,
  agent: http.Agent | false,
  fh: FileHandle
): Promise<PutResult> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_PUT_TIMEOUT_MS
  const timer = runTimer(o.clock, Math.max(1, timeoutMs))
  const timeout = timer.signal
  const signal = o.signal ? AbortSignal.any([timeout, o.signal]) : timeout
  const lib = url.protocol === 'https:' ? https : http
  return new Promise<PutResult>(resolve => {
    const progress: Progress = { sent: false, handed: 0 }
    let settled = false
    const req = lib.request(url, { method: 'PUT', headers: headers(o.size), agent, signal })
    let close = () => {}
    const closed = new Promise<void>(r => (close = r))
    const done = (result: PutResult) => {
      if (settled) return
      settled = true
      close()
      timer.stop()
      req.destroy()
      resolve(result)
    }
    const failed = (err: NodeJS.ErrnoException) =>
      done(failureOf(err, progress, { cancelled: o.signal?.aborted, timeout, timeoutMs, url }))
    req.on('error', failed)
    req.on('finish', () => (progress.sent = true))
    req.on('response', res => {
      progress.answered = res.statusCode ?? 0
      res.on('error', failed)
      readAnswer(res)
        .then(text => done(answerOf(res, text, progress, o.size, url)), failed)
        // answerOf never throws; were it to, the PUT still ends as a result, not a crash.
        .catch((err: Error) => failed(err))
    })
    pump(fh, req, o.size, closed, n => (progress.handed += n)).catch((err: Error) =>
      done({ outcome: 'not-sent', reason: `reading the archive: ${err.message}` })
    )
  })
}

/** A signal that aborts once `ms` have passed on `clock`; stop() ends the wait for it. */
function runTimer(clock: Pick<Clock, 'sleep'>, ms: number) {
  const fired = new AbortController()
  const stopped = new AbortController()
  clock.sleep(ms, stopped.signal).then(
    () => fired.abort(new Error(`no answer within ${ms} ms`)),
    () => undefined
  )
  return { signal: fired.signal, stop: () => stopped.abort() }
}

/** What a request error means, given how far the PUT came. */
function failureOf(
  err: NodeJS.ErrnoException,
  progress: Progress,
  at: { cancelled: boolean | undefined; timeout: AbortSignal; timeoutMs: number; url: URL }
): PutResult {
  if (at.cancelled) return { outcome: 'cancelled' }
  if (progress.answered !== undefined)
    return { outcome: 'refused', status: progress.answered, detail: 'the connection closed' }
  if (at.timeout.aborted)
    return { outcome: 'lost', reason: `no answer within ${Math.round(at.timeoutMs / 1000)} s` }
  if (!progress.sent && err.code && NOT_SENT_CODES.has(err.code))
    return { outcome: 'not-sent', reason: err.code }
  const why = withoutSignature(err.code ?? err.message, at.url)
  return { outcome: 'lost', reason: sanitizeServerText(why, 200) }
}

/** The first MAX_DETAIL_BYTES of an answer's body, as text. */
function readAnswer(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let kept = 0
    res.on('data', (chunk: Buffer) => {
      if (kept < MAX_DETAIL_BYTES) chunks.push(chunk.subarray(0, MAX_DETAIL_BYTES - kept))
      kept += chunk.length
    })
    res.on('error', reject)
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

/** What a whole answer means. `finish` (flushed) may come after it: every byte handed is enough. */
function answerOf(
  res: http.IncomingMessage,
  text: string,
  progress: Progress,
  size: number,
  url: URL
): PutResult {
  const status = res.statusCode ?? 0
  const ok = status >= 200 && status < 300
  if (ok && (progress.sent || progress.handed === size)) return { outcome: 'stored', status }
  if (ok) return { outcome: 'lost', reason: `HTTP ${status} before the whole archive was sent` }
  const detail =
    status >= 300 && status < 400
      ? `a redirect to ${res.headers.location ? describeUploadUrl(res.headers.location, url) : '(no Location)'}, not followed`
      : sanitizeServerText(text, 300)
  return { outcome: 'refused', status, detail }
}
