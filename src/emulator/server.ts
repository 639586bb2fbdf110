// The emulator's HTTP server (node:http): base path, request log, rate limit, faults, the
// interface routes and the admin routes. `startEmulator` is the in-process entry point.
import { readFileSync } from 'node:fs'
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { handleAdmin } from './admin.ts'
import { ConfigInput, defaultConfig, type EmulatorConfig } from './config.ts'
import type { Context, Reply } from './context.ts'
import { FaultSet, RateLimiter, type Fault, type FaultSpec, type RateLimit } from './faults.ts'
import { VirtualClock, type FailureRule, type StageDurationsMs } from './lifecycle.ts'
import type { Body } from './operations.ts'
import { route } from './router.ts'
import { Fixture, Store, type ParsedFixture } from './store.ts'
import { deploymentView, revisionView } from './views.ts'

export type { Fixture } from './store.ts'
export type { FaultSpec, Fault, RateLimit } from './faults.ts'
export type { ConfigInput, EmulatorConfig } from './config.ts'
export type { FailureRule, StageDurationsMs } from './lifecycle.ts'

export interface EmulatorOptions {
  /** 0 (default) = a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Serve the API under this path, e.g. `/api-host` (as a self-hosted installation does). */
  basePath?: string
  /** Default: fixtures/demo.json. */
  fixture?: Fixture
  /** Lifecycle speed factor (default 1). */
  speed?: number
  stageDurationsMs?: Partial<StageDurationsMs>
  /** Replace the default failure rules (refs/images containing fail-create/-build/-deploy). */
  failureRules?: FailureRule[]
  rateLimit?: RateLimit | null
  /** Clock in ms since the epoch (default Date.now); inject one to drive the lifecycle in tests. */
  now?: () => number
  /** Largest accepted request body (default 10 MiB); larger ones get 413. */
  maxBodyBytes?: number
}

export interface RequestLogEntry {
  time: string
  method: string
  /** Relative to the base path. */
  path: string
  query: Record<string, string>
  /** Lowercase names; `x-api-key`, `authorization` and `cookie` values are `***`. */
  headers: Record<string, string>
  /** Parsed JSON; the raw text if it is not JSON; null without a body. */
  body: unknown
  /** Status answered; null when no answer was sent (reset, lost-response). */
  status: number | null
  /** Kind of the fault applied (`rate-limit` for the global limit), or null. */
  fault: string | null
}

export type DeploymentView = ReturnType<typeof deploymentView>
export type RevisionView = ReturnType<typeof revisionView>

export interface EmulatorState {
  tenants: Array<{
    id: string
    name: string | null
    self_hosted: boolean
    listeners_allowed: boolean
    integrations: string[]
    listeners: string[]
    deployments: Array<DeploymentView & { revisions: RevisionView[] }>
  }>
}

export interface Credentials {
  apiKey: string
  tenantId: string
  integrationId: string | null
}

export interface Emulator {
  /** Base URL, including the base path, without a trailing slash. */
  url: string
  port: number
  /** First tenant of the current fixture, its first API key and its first integration. */
  credentials(): Credentials
  close(): Promise<void>
  requests(): RequestLogEntry[]
  clearRequests(): void
  state(): EmulatorState
  /** Replace all faults. */
  setFaults(faults: FaultSpec | FaultSpec[]): Fault[]
  /** Add faults after the existing ones (first match wins). */
  addFaults(faults: FaultSpec | FaultSpec[]): Fault[]
  faults(): Fault[]
  clearFaults(): void
  configure(config: ConfigInput): EmulatorConfig
  config(): EmulatorConfig
  setSpeed(factor: number): void
  /** Replace the state with this fixture; it becomes what `reset()` returns to. */
  loadFixture(fixture: Fixture): void
  /** Back to the fixture and the start options; faults and request log cleared. */
  reset(): void
}

const DEMO_FIXTURE_URL = new URL('../../fixtures/demo.json', import.meta.url)

export function readFixtureFile(path: string | URL): Fixture {
  return JSON.parse(readFileSync(path, 'utf8')) as Fixture
}

export function demoFixture(): Fixture {
  return readFixtureFile(DEMO_FIXTURE_URL)
}

/** The request log keeps the newest entries only, so a long session does not grow without bound. */
const MAX_LOG_ENTRIES = 10_000

const REDACTED_HEADERS = new Set(['x-api-key', 'authorization', 'cookie'])

function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > max) {
        resolve('too-large')
        req.pause()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function parseBody(raw: Buffer): Body {
  if (raw.length === 0) return { kind: 'none' }
  const text = raw.toString('utf8')
  try {
    return { kind: 'json', value: JSON.parse(text) }
  } catch (error) {
    return { kind: 'invalid', error, text }
  }
}

function serialize(reply: Reply): { headers: OutgoingHttpHeaders; payload: Buffer | null } {
  const headers: OutgoingHttpHeaders = { ...reply.headers }
  if (reply.status === 204 || (reply.body === undefined && reply.text === undefined)) {
    return { headers, payload: null }
  }
  const isText = reply.text !== undefined
  const payload = Buffer.from(isText ? reply.text! : JSON.stringify(reply.body), 'utf8')
  headers['content-type'] ??= isText ? 'text/plain; charset=utf-8' : 'application/json'
  headers['content-length'] = payload.length
  return { headers, payload }
}

function statusFaultReply(f: Extract<Fault, { kind: 'status' }>): Reply {
  const reason = STATUS_CODES[f.status] ?? 'Error'
  const headers: Record<string, string> = {}
  if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter)
  if (f.body === 'text') {
    const text =
      f.status >= 500
        ? `<html>\r\n<head><title>${f.status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${f.status} ${reason}</h1></center>\r\n</body>\r\n</html>\r\n`
        : `${reason}`
    headers['content-type'] = f.status >= 500 ? 'text/html' : 'text/plain; charset=utf-8'
    return { status: f.status, text, headers }
  }
  return { status: f.status, body: { detail: reason }, headers }
}

function badSchemaBody(method: string, path: string): unknown {
  if (path === '/v2/deployments' && method === 'GET') {
    return { resources: [{ name: 'broken', status: 'READY' }], offset: 'next' }
  }
  if (path.endsWith('/repos')) return [{ name: 'agent-server', url: 42 }]
  if (path.includes('/revisions/')) return { status: 'DEPLOYED' }
  return { name: 'broken', status: 'READY', latest_revision_id: 'not-a-uuid' }
}

function echoInput422(body: Body): Reply {
  const input = body.kind === 'json' ? body.value : body.kind === 'invalid' ? body.text : null
  const entries: unknown[] = [
    { loc: ['body'], msg: 'Value error, the request is invalid', type: 'value_error', input }
  ]
  const secrets = (input as { secrets?: unknown } | null)?.secrets
  if (Array.isArray(secrets)) {
    secrets.forEach((s: { value?: unknown } | null, i) =>
      entries.push({
        loc: ['body', 'secrets', i, 'value'],
        msg: 'Value error, invalid secret value',
        type: 'value_error',
        input: s?.value ?? null
      })
    )
  }
  return { status: 422, body: { detail: entries } }
}

function normalizeBasePath(basePath: string | undefined): string {
  if (!basePath) return ''
  const p = `/${basePath}`.replace(/\/+/g, '/').replace(/\/$/, '')
  return p === '/' ? '' : p
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const realNow = options.now ?? Date.now
  const host = options.host ?? '127.0.0.1'
  const basePath = normalizeBasePath(options.basePath)
  const maxBody = options.maxBodyBytes ?? 10 * 1024 * 1024

  const startConfig = (): EmulatorConfig => {
    const c = defaultConfig()
    if (options.speed !== undefined) c.speed = options.speed
    Object.assign(c.stageDurationsMs, options.stageDurationsMs)
    if (options.failureRules) c.failureRules = options.failureRules.map(r => ({ ...r }))
    if (options.rateLimit !== undefined) c.rateLimit = options.rateLimit
    return c
  }

  let fixture: ParsedFixture = Fixture.parse(options.fixture ?? demoFixture())
  let config = startConfig()
  const store = new Store()
  const ctx: Context = {
    store,
    clock: new VirtualClock(realNow, config.speed),
    durations: config.stageDurationsMs,
    failureRules: config.failureRules
  }
  const faults = new FaultSet()
  const limiter = new RateLimiter()
  let log: RequestLogEntry[] = []
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let closed = false

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  const sleep = (ms: number) => new Promise<void>(resolve => later(ms, resolve))

  const loadState = () => {
    ctx.clock = new VirtualClock(realNow, config.speed)
    ctx.durations = config.stageDurationsMs
    ctx.failureRules = config.failureRules
    store.load(fixture, realNow(), ctx.clock.now())
  }
  loadState()

  const send = (res: ServerResponse, entry: RequestLogEntry | null, reply: Reply) => {
    const { headers, payload } = serialize(reply)
    if (entry) entry.status = reply.status
    res.writeHead(reply.status, headers)
    res.end(payload ?? undefined)
  }

  const trickle = (
    res: ServerResponse,
    entry: RequestLogEntry,
    reply: Reply,
    f: Extract<Fault, { kind: 'trickle' }>
  ) => {
    const { headers, payload } = serialize(reply)
    entry.status = reply.status
    res.writeHead(reply.status, headers)
    const data = payload ?? Buffer.alloc(0)
    let i = 0
    const step = () => {
      if (res.destroyed || closed) return
      if (i >= data.length) return void res.end()
      res.write(data.subarray(i, i + f.chunkBytes))
      i += f.chunkBytes
      later(f.intervalMs, step)
    }
    step()
  }

  const hugeBody = (
    res: ServerResponse,
    entry: RequestLogEntry,
    f: Extract<Fault, { kind: 'huge-body' }>
  ) => {
    const headers: OutgoingHttpHeaders = { 'content-type': 'application/json' }
    if (f.contentLength) headers['content-length'] = f.bytes
    entry.status = 200
    res.writeHead(200, headers)
    const head = Buffer.from('{"resources":[{"name":"')
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let sent = 0
    const pump = () => {
      while (sent < f.bytes && !res.destroyed && !closed) {
        const source = sent === 0 ? head : chunk
        const piece = source.subarray(0, Math.min(source.length, f.bytes - sent))
        sent += piece.length
        if (!res.write(piece)) return void res.once('drain', pump)
      }
      if (!res.destroyed) res.end()
    }
    pump()
  }

  const handleApi = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    url: URL,
    raw: Buffer
  ) => {
    const method = (req.method ?? 'GET').toUpperCase()
    const body = parseBody(raw)
    const query: Record<string, string> = {}
    for (const [k, v] of url.searchParams) query[k] = v
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue
      headers[k] = REDACTED_HEADERS.has(k) ? '***' : Array.isArray(v) ? v.join(', ') : v
    }
    const entry: RequestLogEntry = {
      time: new Date(realNow()).toISOString(),
      method,
      path,
      query,
      headers,
      body: body.kind === 'json' ? body.value : body.kind === 'invalid' ? body.text : null,
      status: null,
      fault: null
    }
    log.push(entry)
    if (log.length > MAX_LOG_ENTRIES) log.splice(0, log.length - MAX_LOG_ENTRIES)

    const apiKey = req.headers['x-api-key']
    if (config.rateLimit && !limiter.admit(config.rateLimit, String(apiKey ?? ''), realNow())) {
      entry.fault = 'rate-limit'
      const retry = config.rateLimit.retryAfter
      return send(res, entry, {
        status: 429,
        body: { detail: 'Rate limit exceeded. Please retry later.' },
        headers: retry == null ? {} : { 'retry-after': String(retry) }
      })
    }

    const segments = path
      .split('/')
      .slice(1)
      .map(s => {
        try {
          return decodeURIComponent(s)
        } catch {
          return s
        }
      })
    const normal = () => route(ctx, { method, segments, query, headers: req.headers, body })

    const fault = faults.take(method, path)
    if (!fault) return send(res, entry, normal())
    entry.fault = fault.kind
    switch (fault.kind) {
      case 'status':
        return send(res, entry, statusFaultReply(fault))
      case 'reset':
        return void req.socket.destroy()
      case 'lost-response':
        normal()
        return void req.socket.destroy()
      case 'delay':
        await sleep(fault.ms)
        if (!closed) send(res, entry, normal())
        return
      case 'non-json':
        return send(res, entry, {
          status: 200,
          text: fault.body,
          headers: { 'content-type': 'text/html' }
        })
      case 'bad-schema':
        return send(res, entry, { status: 200, body: fault.body ?? badSchemaBody(method, path) })
      case 'redirect':
        return send(res, entry, {
          status: fault.status,
          headers: { location: fault.location }
        })
      case 'huge-body':
        return hugeBody(res, entry, fault)
      case 'trickle':
        return trickle(res, entry, normal(), fault)
      case 'detail':
        return send(res, entry, { status: fault.status, body: { detail: fault.detail } })
      case 'echo-input-422':
        return send(res, entry, echoInput422(body))
    }
  }

  const emulator: Emulator = {
    url: '',
    port: 0,
    credentials() {
      const tenant = fixture.tenants[0]!
      const integration = fixture.integrations.find(
        i => i.tenant_id.toLowerCase() === tenant.id.toLowerCase()
      )
      return {
        apiKey: tenant.api_keys[0]!,
        tenantId: tenant.id.toLowerCase(),
        integrationId: integration?.id.toLowerCase() ?? null
      }
    },
    close: async () => {
      closed = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
      await new Promise<void>(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
    requests: () => log.map(e => structuredClone(e)),
    clearRequests: () => {
      log = []
    },
    state: () => ({
      tenants: [...store.tenants.values()].map(t => ({
        id: t.id,
        name: t.name ?? null,
        self_hosted: t.self_hosted,
        listeners_allowed: t.listeners_allowed,
        integrations: [...store.integrations.values()]
          .filter(i => i.tenant_id === t.id)
          .map(i => i.id),
        listeners: [...store.listeners.values()].filter(l => l.tenant_id === t.id).map(l => l.id),
        deployments: store.deploymentsOf(t.id).map(d => ({
          ...deploymentView(ctx, d),
          revisions: d.revision_ids.map(id => revisionView(ctx, store.revisions.get(id)!))
        }))
      }))
    }),
    setFaults: specs => faults.replace(specs),
    addFaults: specs => faults.add(specs),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    configure: input => {
      const c = ConfigInput.parse(input)
      if (c.speed !== undefined) {
        ctx.clock.setSpeed(c.speed)
        config.speed = c.speed
      }
      if (c.stageDurationsMs) Object.assign(config.stageDurationsMs, c.stageDurationsMs)
      if (c.failureRules) {
        config.failureRules = c.failureRules
        ctx.failureRules = c.failureRules
      }
      if (c.rateLimit !== undefined) config.rateLimit = c.rateLimit
      for (const [key, sha] of Object.entries(c.repoCommits ?? {})) {
        store.setCommit(key, sha, ctx.clock.now())
      }
      return emulator.config()
    },
    config: () => structuredClone(config),
    setSpeed: factor => void emulator.configure({ speed: factor }),
    loadFixture: f => {
      fixture = Fixture.parse(f)
      loadState()
    },
    reset: () => {
      config = startConfig()
      faults.clear()
      limiter.clear()
      log = []
      loadState()
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://emulator.invalid')
      let path = url.pathname
      if (basePath) {
        if (path !== basePath && !path.startsWith(`${basePath}/`)) {
          req.resume()
          return send(res, null, { status: 404, body: { detail: 'Not Found' } })
        }
        path = path.slice(basePath.length) || '/'
      }
      const raw = await readBody(req, maxBody)
      if (raw === 'too-large') {
        res.setHeader('connection', 'close')
        return send(res, null, { status: 413, body: { detail: 'Request body too large.' } })
      }
      if (path === '/_emulator' || path.startsWith('/_emulator/')) {
        return send(res, null, handleAdmin(emulator, req.method ?? 'GET', path, raw))
      }
      await handleApi(req, res, path, url, raw)
    })().catch(error => {
      if (res.headersSent) return void res.destroy()
      send(res, null, {
        status: 500,
        body: {
          detail: `Emulator error: ${error instanceof Error ? error.message : String(error)}`
        }
      })
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostInUrl = host.includes(':') ? `[${host}]` : host
  emulator.port = address.port
  emulator.url = `http://${hostInUrl}:${address.port}${basePath}`
  return emulator
}
