// One health probe: a GET (or a POST with a JSON body: the checks of the new revision) with the
// headers given to exactly the URL given, bounded in time, following no redirect, reading at most
// a few kilobytes of the answer (or `maxBody`). Behind a proxy the environment names for
// that URL, it goes through @actions/http-client's tunnelling agent (loaded only then, as the
// control-plane transport does), so TLS still ends at the agent server.
import * as http from 'node:http'
import * as https from 'node:https'
import { getProxyUrl } from '@actions/http-client/lib/proxy'

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

/**
 * Sends one probe; rejects on a network error or when `timeoutMs` passes without an answer. An
 * answer whose body is still arriving then resolves with `slowBody`.
 */
export type ProbeTransport = (req: ProbeRequest) => Promise<ProbeResponse>

/** More than enough for `{"ok": true}` or an error page's first lines. */
export const MAX_PROBE_BODY = 4096

export class ProbeTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`)
    this.name = 'ProbeTimeoutError'
  }
}

async function agentFor(url: URL): Promise<http.Agent | false> {
  if (!getProxyUrl(url)?.hostname) return false
  const { HttpClient } = await import('@actions/http-client')
  const client = new HttpClient(undefined, [], { allowRedirects: false, allowRetries: false })
  return client.getAgent(url.href)
}

export const httpProbe: ProbeTransport = async req => {
  const timeout = AbortSignal.timeout(Math.max(1, req.timeoutMs))
  const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout
  const agent = await agentFor(req.url)
  const lib = req.url.protocol === 'https:' ? https : http
  const max = req.maxBody ?? MAX_PROBE_BODY
  const payload = req.body === undefined ? undefined : Buffer.from(req.body)
  const sized = payload
    ? { 'content-type': 'application/json', 'content-length': String(payload.length) }
    : {}
  return new Promise<ProbeResponse>((resolve, reject) => {
    const timedOut = () => timeout.aborted && !req.signal?.aborted
    const fail = (err: unknown) => reject(timedOut() ? new ProbeTimeoutError(req.timeoutMs) : err)
    const request = lib.request(req.url, {
      method: req.method ?? 'GET',
      // A fresh connection per probe, closed after it: no socket outlives the check.
      agent,
      headers: { ...req.headers, ...sized, connection: 'close' },
      signal
    })
    request.on('error', fail)
    request.on('response', res => {
      const chunks: Buffer[] = []
      let size = 0
      const done = (slowBody = false) => {
        const location = res.headers.location
        resolve({
          status: res.statusCode ?? 0,
          ...(location ? { location } : {}),
          body: Buffer.concat(chunks).toString('utf8'),
          ...(slowBody ? { slowBody } : {})
        })
      }
      // The status came: a timeout from here on is a slow body, not a missing answer.
      timeout.addEventListener('abort', () => done(true), { once: true })
      res.on('data', (chunk: Buffer) => {
        if (size >= max) return
        chunks.push(chunk.subarray(0, max - size))
        size += chunk.length
        // The status is the answer; the rest of a long body is not waited for.
        if (size >= max) {
          done()
          res.destroy()
        }
      })
      res.on('end', () => done())
      res.on('error', err => (timedOut() ? done(true) : fail(err)))
      res.on('aborted', () =>
        timedOut() ? done(true) : fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
      )
    })
    request.end(payload)
  })
}
