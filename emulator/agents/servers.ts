// The agent servers that the emulated deployments run, under `/_agents/<deployment-id>`: `/ok` (the
// health route, `{"ok": true}`; `?check_db=1` also asks the database), `/info` (the version and the
// revision served), `POST /assistants/search` and `POST /runs/wait` (app.ts). They check
// X-Api-Key against the deployment's tenant as the API does. Health is scripted per deployment
// through the admin API (`/_emulator/agents/<id>/health`): healthy, failing with a status,
// flapping, slow, unavailable (404: the routes turned off), a redirect or a reset connection, each
// optionally after some first failing probes; the revision served, the graphs and the runs through
// `/_emulator/agents/<id>/app`. Probes are logged apart from the API's request log.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import {
  AgentAppSpec,
  infoBody,
  runWait,
  searchAssistants,
  servedRevision,
  type AgentApp
} from './app.ts'
import type { Context } from '../state/context.ts'
import type { Reply } from '../http/io.ts'
import { parseBody, readBody, writeReply } from '../http/io.ts'
import type { DeploymentRecord } from '../state/store.ts'
import { kindOf } from '../../src/control-plane/vocabulary.ts'

export const AGENTS_PREFIX = '/_agents/'
const ADMIN_PREFIX = '/_emulator/agents'

const Mode = z.enum(['healthy', 'failing', 'flapping', 'slow', 'unavailable', 'redirect', 'reset'])
type Mode = z.output<typeof Mode>

export const AgentHealthSpec = z
  .object({
    health: Mode.default('healthy'),
    /** Probe n of `/ok` behaves as `sequence[n - 1]`; past its end, as `health`. */
    sequence: z.array(Mode).default([]),
    /** What a failing probe answers (`failing`, `flapping`, `failFirst`, a down database). */
    status: z.number().int().min(400).max(599).default(503),
    body: z.string().optional(),
    /** `flapping`: every n-th probe fails, the others answer 200. */
    every: z.number().int().min(2).default(2),
    /** `slow`: each answer comes this late (real ms). */
    delayMs: z.number().int().min(0).max(600_000).default(15_000),
    /** `redirect`: where the 307 points. */
    location: z.string().default('https://login.example.net/sso'),
    /** The first n probes fail with `status` before `health` applies. */
    failFirst: z.number().int().min(0).default(0),
    /** `down`: `/ok?check_db=1` fails with `status` while plain `/ok` answers 200. */
    database: z.enum(['up', 'down']).default('up'),
    /**
     * A Serverless deployment's server scales to zero after this long without a request (real
     * ms), and starts asleep once scripted; null: always on. Dedicated ones are always on.
     */
    sleepAfterMs: z.number().int().min(0).nullable().default(null),
    /** How long it takes to wake (real ms). */
    wakeMs: z.number().int().min(0).max(86_400_000).default(20_000),
    /** While it wakes: a request waits for it (`slow`), or is answered 503 at once. */
    whileWaking: z.enum(['slow', '503']).default('slow')
  })
  .strict()
export type AgentHealthSpec = z.input<typeof AgentHealthSpec>
export type AgentHealth = z.output<typeof AgentHealthSpec>

/** A line of a server's own log, at a virtual time (its revision's deploy log shows it). */
export interface ServerLine {
  v: number
  level: 'ERROR'
  message: string
}

/** The newest lines kept per revision: a long-lived emulator stays small. */
const MAX_PRINTED = 1000

export interface AgentProbe {
  time: string
  deployment_id: string
  /** `/ok`, `/info`, `/assistants/search` or `/runs/wait`, with the query as sent. */
  path: string
  /** Whether X-Api-Key was the deployment's tenant's (never the key itself). */
  key: 'valid' | 'wrong' | 'missing'
  /** Status answered; null for a reset connection. */
  status: number | null
}

/** The scripted health of every deployment's agent server, and the probes they were sent. */
export class AgentServers {
  private readonly scripted = new Map<string, AgentHealth>()
  private readonly apps = new Map<string, AgentApp>()
  /** Requests per deployment and route (`<id> <route>`), from 1. */
  private readonly counts = new Map<string, number>()
  private log: AgentProbe[] = []
  /** What each revision's server printed when it answered a probe with an error, by revision id. */
  private printed = new Map<string, ServerLine[]>()
  /** `http://127.0.0.1:<port>`, once the emulator listens. */
  origin: string | undefined
  /** Per sleeping-capable server: its last request (real ms), and until when it is waking. */
  private readonly lastActive = new Map<string, number>()
  private readonly wakingUntil = new Map<string, number>()

  /**
   * Replaces the health of one deployment's server (`*`: of every server without its own script,
   * deployments yet to be created included); its probe count (with `*`, every one) starts again.
   */
  script(deploymentId: string, spec: AgentHealthSpec): AgentHealth {
    const parsed = AgentHealthSpec.parse(spec)
    const id = deploymentId.toLowerCase()
    this.scripted.set(id, parsed)
    this.resetCounts(id)
    return { ...parsed }
  }

  /** Replaces what one server (or `*`) serves: revision, graphs, runs; its counts start again. */
  scriptApp(deploymentId: string, spec: AgentAppSpec): AgentApp {
    const parsed = AgentAppSpec.parse(spec)
    const id = deploymentId.toLowerCase()
    this.apps.set(id, parsed)
    this.resetCounts(id)
    return structuredClone(parsed)
  }

  app(deploymentId: string): AgentApp {
    const own = this.apps.get(deploymentId.toLowerCase()) ?? this.apps.get('*')
    return structuredClone(own ?? AgentAppSpec.parse({}))
  }

  private resetCounts(id: string): void {
    for (const key of [...this.counts.keys()]) {
      if (id === '*' || key.startsWith(`${id} `)) this.counts.delete(key)
    }
    for (const map of [this.lastActive, this.wakingUntil]) {
      if (id === '*') map.clear()
      else map.delete(id)
    }
  }

  /**
   * Whether a request at `now` finds a Serverless server that sleeps (`sleepAfterMs`) awake, or
   * waking until some time: a request to a sleeping server starts its wake-up.
   */
  wake(dep: DeploymentRecord, h: AgentHealth, now: number): { until: number } | undefined {
    if (h.sleepAfterMs === null || kindOf(dep.deployment_type) !== 'serverless') return undefined
    const until = this.wakingUntil.get(dep.id)
    if (until !== undefined && now < until) return { until }
    if (until !== undefined) {
      this.wakingUntil.delete(dep.id)
      this.lastActive.set(dep.id, until)
    }
    const last = this.lastActive.get(dep.id)
    if ((last === undefined || now - last >= h.sleepAfterMs) && h.wakeMs > 0) {
      this.wakingUntil.set(dep.id, now + h.wakeMs)
      return { until: now + h.wakeMs }
    }
    this.lastActive.set(dep.id, now)
    return undefined
  }

  health(deploymentId: string): AgentHealth {
    const own = this.scripted.get(deploymentId.toLowerCase()) ?? this.scripted.get('*')
    return { ...(own ?? AgentHealthSpec.parse({})) }
  }

  /** Probes received, oldest first (of one deployment, or of all). */
  probes(deploymentId?: string): AgentProbe[] {
    const id = deploymentId?.toLowerCase()
    return this.log.filter(p => id === undefined || p.deployment_id === id).map(p => ({ ...p }))
  }

  /** Every server healthy again, the probe log empty. */
  clear(): void {
    this.scripted.clear()
    this.apps.clear()
    this.counts.clear()
    this.lastActive.clear()
    this.wakingUntil.clear()
    this.log = []
    this.printed.clear()
  }

  /** A line the server of revision `revisionId` printed at virtual time `v`. */
  print(revisionId: string, line: ServerLine): void {
    const lines = this.printed.get(revisionId) ?? []
    lines.push(line)
    if (lines.length > MAX_PRINTED) lines.splice(0, lines.length - MAX_PRINTED)
    this.printed.set(revisionId, lines)
  }

  /** What the server of revision `revisionId` printed, oldest first. */
  printedBy(revisionId: string): ServerLine[] {
    return (this.printed.get(revisionId) ?? []).map(l => ({ ...l }))
  }

  /** The custom_url of a deployment the service hosts (every source but external_docker). */
  urlOf(dep: DeploymentRecord): string | null {
    if (dep.source_config.custom_url) return dep.source_config.custom_url
    if (dep.source === 'external_docker' || this.origin === undefined) return null
    return `${this.origin}${AGENTS_PREFIX}${dep.id}`
  }

  /** Counts a request to `route` and returns its number, from 1. */
  count(deploymentId: string, route: string): number {
    const key = `${deploymentId} ${route}`
    const n = (this.counts.get(key) ?? 0) + 1
    this.counts.set(key, n)
    return n
  }

  record(probe: AgentProbe): void {
    this.log.push(probe)
    if (this.log.length > 10_000) this.log.splice(0, this.log.length - 10_000)
  }
}

export interface AgentHost {
  agents: AgentServers
  ctx: Context
  realNow: () => number
  later: (ms: number, fn: () => void) => void
}

const json = (status: number, body: unknown): Reply => ({ status, body })
/** As the agent server's framework answers an unknown route or method: plain text. */
const NOT_FOUND: Reply = { status: 404, text: '404 Not Found' }
const ROUTES = new Map<string, string[]>([
  ['ok', ['GET', 'HEAD']],
  ['info', ['GET', 'HEAD']],
  ['assistants/search', ['POST']],
  ['runs/wait', ['POST']]
])

/** Serves a request under `/_agents/`. */
export function serveAgent(
  host: AgentHost,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL
): void {
  const [id = '', ...rest] = url.pathname.slice(AGENTS_PREFIX.length).split('/')
  const route = rest.join('/')
  const method = (req.method ?? 'GET').toUpperCase()
  const dep = host.ctx.store.deployments.get(id.toLowerCase())
  if (!dep || dep.deleted_v !== null || !ROUTES.get(route)?.includes(method)) {
    req.resume()
    return writeReply(res, NOT_FOUND)
  }
  const probe: AgentProbe = {
    time: new Date(host.realNow()).toISOString(),
    deployment_id: dep.id,
    path: `/${route}${url.search}`,
    key: keyOf(host, dep, req),
    status: null
  }
  host.agents.record(probe)
  const send = (reply: Reply | 'reset') => {
    if (res.destroyed) return
    if (reply === 'reset') return void req.socket.destroy()
    probe.status = reply.status
    writeReply(res, reply)
  }
  if (probe.key !== 'valid') {
    req.resume()
    return send(
      probe.key === 'missing'
        ? json(401, { detail: 'Missing API key: send it in the X-Api-Key header.' })
        : json(403, { detail: 'This API key has no access to this deployment.' })
    )
  }
  const waking = host.agents.wake(dep, host.agents.health(dep.id), host.realNow())
  if (waking && host.agents.health(dep.id).whileWaking === '503') {
    req.resume()
    return send(json(503, { detail: 'The agent server is waking up (scaled to zero).' }))
  }
  const serve = () => serveRoute(host, req, dep, route, url, send)
  if (waking) return host.later(waking.until - host.realNow(), serve)
  serve()
}

type Send = (reply: Reply | 'reset') => void

/** A route of an awake server. */
function serveRoute(
  host: AgentHost,
  req: IncomingMessage,
  dep: DeploymentRecord,
  route: string,
  url: URL,
  send: Send
): void {
  if (route === 'ok' || route === 'info') {
    req.resume()
    return serveMeta(host, dep, route, url, send)
  }
  void readBody(req, 1024 * 1024).then(
    raw => {
      const body = raw === 'too-large' ? 'too-large' : parseBody(raw)
      if (body === 'too-large') return send(json(413, { detail: 'Request body too large.' }))
      if (body.kind === 'invalid') return send(json(422, { detail: 'The body is not JSON.' }))
      serveApp(host, dep, route, body.kind === 'json' ? body.value : undefined, send)
    },
    () => send('reset')
  )
}

/** `/ok` and `/info`, as scripted health (and for `/info`, the revision served) make them. */
function serveMeta(host: AgentHost, dep: DeploymentRecord, route: string, url: URL, send: Send) {
  const health = host.agents.health(dep.id)
  const n = host.agents.count(dep.id, route)
  const mode = (route === 'ok' ? health.sequence[n - 1] : undefined) ?? health.health
  const reply = answer(host, dep, { ...health, health: mode }, route, url, n)
  if (route === 'ok') printFailure(host, dep, url, reply)
  if (mode === 'slow' && reply !== 'reset') return host.later(health.delayMs, () => send(reply))
  send(reply)
}

/**
 * A health route that fails is in the server's own log, as a real server prints it: its revision's
 * deploy log then says what the probes saw, not only the control plane's check at rollout.
 */
function printFailure(host: AgentHost, dep: DeploymentRecord, url: URL, reply: Reply | 'reset') {
  if (reply === 'reset' || reply.status < 500) return
  // The scripted health is the deployment's live revision's.
  const serving = servedRevision(host.ctx, dep, host.agents.app(dep.id), Number.POSITIVE_INFINITY)
  if (!serving) return
  const error = (reply.body as { error?: unknown } | undefined)?.error
  host.agents.print(serving.active.id, {
    v: host.ctx.clock.now(),
    level: 'ERROR',
    message: `"GET ${url.pathname.slice(url.pathname.lastIndexOf('/'))}${url.search} HTTP/1.1" ${reply.status}${typeof error === 'string' ? `: ${error}` : ''}`
  })
}

/** `/assistants/search` and `/runs/wait` of the revision that serves. */
function serveApp(
  host: AgentHost,
  dep: DeploymentRecord,
  route: string,
  body: unknown,
  send: Send
) {
  const app = host.agents.app(dep.id)
  const serving = servedRevision(host.ctx, dep, app, Number.POSITIVE_INFINITY)
  if (!serving) return send(json(503, { detail: 'No revision of this deployment is serving.' }))
  const n = host.agents.count(dep.id, route)
  if (route === 'assistants/search')
    return send(searchAssistants(dep, serving.active, app, body, n))
  const reply = runWait(dep, serving.active, app, body, n)
  if (app.runs.delayMs > 0) return host.later(app.runs.delayMs, () => send(reply))
  send(reply)
}

function keyOf(host: AgentHost, dep: DeploymentRecord, req: IncomingMessage): AgentProbe['key'] {
  const raw = req.headers['x-api-key']
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim()
  if (!key) return 'missing'
  return host.ctx.store.tenantsForKey(key).some(t => t.id === dep.tenant_id) ? 'valid' : 'wrong'
}

/** What probe `n` of `route` gets from a server scripted `h`, in mode `h.health`. */
function answer(
  host: AgentHost,
  dep: DeploymentRecord,
  h: AgentHealth & { health: Mode },
  route: string,
  url: URL,
  n: number
): Reply | 'reset' {
  const failed = json(h.status, { ok: false, error: h.body ?? 'the agent server is unhealthy' })
  if (h.health === 'unavailable') return NOT_FOUND
  if (h.health === 'reset') return 'reset'
  if (h.health === 'redirect') return { status: 307, headers: { location: h.location }, text: '' }
  const app = host.agents.app(dep.id)
  const serving = servedRevision(host.ctx, dep, app, route === 'info' ? n : 0)
  if (!serving) return json(503, { detail: 'No revision of this deployment is serving.' })
  if (route === 'info') return json(200, infoBody(dep, serving.served, app, n))
  if (n <= h.failFirst) return failed
  if (h.health === 'failing') return failed
  if (h.health === 'flapping' && (n - h.failFirst) % h.every === 0) return failed
  const checkDb = ['1', 'true'].includes(url.searchParams.get('check_db') ?? '')
  if (checkDb && h.database === 'down')
    return json(h.status, { ok: false, error: h.body ?? 'database unreachable' })
  return json(200, { ok: true })
}

/** Answers an admin request under `/_emulator/agents`, or null when the path is another. */
export function handleAgentsAdmin(
  agents: AgentServers,
  method: string,
  path: string,
  raw: Buffer
): Reply | null {
  if (path !== ADMIN_PREFIX && !path.startsWith(`${ADMIN_PREFIX}/`)) return null
  const rest = path.slice(ADMIN_PREFIX.length).replace(/\/$/, '')
  const m = method.toUpperCase()
  if (rest === '' && m === 'GET') return json(200, { probes: agents.probes() })
  if (rest === '' && m === 'DELETE') {
    agents.clear()
    return json(200, { probes: [] })
  }
  const found = /^\/([^/]+)\/(health|probes|app)$/.exec(rest)
  if (!found) return json(404, { detail: `No admin route ${m} ${path}.` })
  const [, id, what] = found as unknown as [string, string, string]
  if (what === 'probes' && m === 'GET') return json(200, { probes: agents.probes(id) })
  if (what === 'health' && m === 'GET') return json(200, agents.health(id))
  if (what === 'app' && m === 'GET') return json(200, agents.app(id))
  if (m === 'POST' && what !== 'probes') {
    try {
      const spec = raw.length ? JSON.parse(raw.toString('utf8')) : {}
      return json(200, what === 'app' ? agents.scriptApp(id, spec) : agents.script(id, spec))
    } catch (error) {
      const text = error instanceof z.ZodError ? z.prettifyError(error) : String(error)
      return json(400, { detail: text })
    }
  }
  return json(405, { detail: `${path} does not take ${m}.` })
}
