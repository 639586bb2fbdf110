// The request pipeline: base path, body size, admin or interface; for the interface the request
// log, the rate limit, then a fault or the normal answer.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { handleAdmin } from './admin.ts'
import { AGENTS_PREFIX, handleAgentsAdmin, serveAgent } from '../agents/servers.ts'
import { routeApi } from './api-routes.ts'
import type { Reply } from '../http/io.ts'
import { applyFault, type Exchange } from '../faults/index.ts'
import { refuseCrossSite, refuseHost } from './host-check.ts'
import { loggedBody, parseBody, readBody, stripBasePath, writeReply } from '../http/io.ts'
import { RATE_LIMITED_DETAIL } from '../http/rate-limit.ts'
import { handleLangsmithAdmin, LANGSMITH_PREFIX, serveLangsmith } from './langsmith.ts'
import { segmentsOf } from './router.ts'
import type { Runtime } from '../runtime.ts'
import type { EmulatorControl } from '../types.ts'
import { handleUpload, MAX_UPLOAD_BYTES, uploadFault, UPLOADS_PREFIX } from '../builds/uploads.ts'
import { bodyFromWire, pathFromWire, replyToWire } from './wire.ts'

export interface PipelineOptions {
  basePath: string
  maxBodyBytes: number
  /** Host names answered besides the loopback ones (host-check.ts). */
  allowedHosts: ReadonlySet<string>
}

async function handleApi(
  rt: Runtime,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
  raw: Buffer,
  basePath: string
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase()
  const body = parseBody(raw)
  const query: Record<string, string> = {}
  for (const [k, v] of url.searchParams) query[k] = v
  const entry = rt.log.record(
    { time: new Date(rt.realNow()).toISOString(), method, path, query, body: loggedBody(body) },
    req.headers
  )
  const toWire = (reply: Reply) => replyToWire(rt.ctx.dialect, reply)
  // Everything below speaks interface vocabulary; `send` renders it in the dialect.
  const send = (reply: Reply) => {
    entry.status = reply.status
    writeReply(res, toWire(reply))
  }

  const limit = rt.config.rateLimit
  if (limit && !rt.limiter.admit(limit, String(req.headers['x-api-key'] ?? ''), rt.realNow())) {
    entry.fault = 'rate-limit'
    return send({
      status: 429,
      body: { detail: RATE_LIMITED_DETAIL },
      headers: limit.retryAfter == null ? {} : { 'retry-after': String(limit.retryAfter) }
    })
  }

  const segments = segmentsOf(pathFromWire(rt.ctx.dialect, path))
  const request = bodyFromWire(rt.ctx.dialect, body)
  // The address the client reached this emulator by, for the URLs it hands out (upload-url).
  const origin = `http://${req.headers.host ?? 'localhost'}${basePath}`
  const routeAs = (m: string, b = request) =>
    routeApi(rt.ctx, { method: m, segments, query, headers: req.headers, body: b, origin })
  const fault = rt.faults.take(method, path)
  if (!fault) return send(routeAs(method))
  entry.fault = fault.kind
  const exchange: Exchange = {
    req,
    res,
    method,
    path,
    segments,
    query,
    body: request,
    ctx: rt.ctx,
    toWire,
    normal: () => routeAs(method),
    routeAs: m => routeAs(m.toUpperCase(), { kind: 'none' }),
    send,
    recordStatus: status => {
      entry.status = status
    },
    later: (ms, fn) => rt.later(ms, fn),
    closed: () => rt.closed
  }
  await applyFault(fault, exchange)
}

/** The signed upload URL's PUT, or the fault that hits it (builds/uploads.ts). */
function serveUpload(
  rt: Runtime,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
  raw: Buffer
): void {
  const method = req.method ?? 'GET'
  const fault = rt.faults.take(method, path)
  const kind = fault ? uploadFault(fault.kind) : undefined
  if (kind === 'reset') return void req.socket.destroy()
  if (kind === 'status' && fault?.kind === 'status') {
    return writeReply(res, { status: fault.status, body: { detail: 'Upload refused (fault).' } })
  }
  if (kind === 'redirect' && fault?.kind === 'redirect') {
    return writeReply(res, { status: fault.status, headers: { location: fault.location } })
  }
  if (kind === 'delay' && fault?.kind === 'delay') {
    // Nothing stored; the answer comes after `ms` (real time) unless the client gave up first.
    const later = setTimeout(() => serveUpload(rt, req, res, path, url, raw), fault.ms).unref()
    return void res.on('close', () => clearTimeout(later))
  }
  const reply = handleUpload(rt.store, method, path, url, raw, req.headers)
  if (kind === 'lost-response') return void req.socket.destroy()
  writeReply(res, reply)
}

/** The node:http request listener of one emulator. */
export function requestListener(rt: Runtime, control: EmulatorControl, options: PipelineOptions) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      const misdirected = refuseHost(req.headers.host, options.allowedHosts)
      if (misdirected) {
        req.resume()
        return writeReply(res, misdirected)
      }
      const url = new URL(req.url ?? '/', 'http://emulator.invalid')
      if (url.pathname.startsWith(AGENTS_PREFIX)) return serveAgent(rt, req, res, url)
      const path = stripBasePath(url.pathname, options.basePath)
      if (path === null) {
        req.resume()
        return writeReply(res, { status: 404, body: { detail: 'Not Found' } })
      }
      const upload = path.startsWith(UPLOADS_PREFIX)
      const raw = await readBody(req, upload ? MAX_UPLOAD_BYTES : options.maxBodyBytes)
      if (raw === 'too-large') {
        res.setHeader('connection', 'close')
        return writeReply(res, { status: 413, body: { detail: 'Request body too large.' } })
      }
      if (path === '/_emulator' || path.startsWith('/_emulator/')) {
        const method = req.method ?? 'GET'
        const crossSite = refuseCrossSite(method, req.headers)
        if (crossSite) return writeReply(res, crossSite)
        const agents = handleAgentsAdmin(rt.agents, method, path, raw)
        const langsmith = agents ?? handleLangsmithAdmin(rt.langsmith, method, path, raw)
        return writeReply(res, langsmith ?? handleAdmin(control, method, path, raw))
      }
      if (path === LANGSMITH_PREFIX || path.startsWith(`${LANGSMITH_PREFIX}/`)) {
        const call = { method: req.method ?? 'GET', query: url.searchParams, headers: req.headers }
        const below = path.slice(LANGSMITH_PREFIX.length) || '/'
        return writeReply(res, serveLangsmith(rt, { ...call, path: below, raw }))
      }
      if (upload) return serveUpload(rt, req, res, path, url, raw)
      await handleApi(rt, req, res, path, url, raw, options.basePath)
    })().catch(error => {
      if (res.headersSent) return void res.destroy()
      writeReply(res, {
        status: 500,
        body: {
          detail: `Emulator error: ${error instanceof Error ? error.message : String(error)}`
        }
      })
    })
  }
}
