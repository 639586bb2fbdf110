// Everything a running emulator holds (fixture, settings, state, faults, rate limit, request log,
// timers) and the control operations on it, independent of HTTP.
import { AgentServers } from './agents/servers.ts'
import { ConfigInput, defaultConfig, type EmulatorConfig } from './state/config.ts'
import type { Context } from './state/context.ts'
import { FaultSet } from './faults/index.ts'
import { VirtualClock } from './state/lifecycle.ts'
import { RateLimiter } from './http/rate-limit.ts'
import { revisionLogs, type RevisionLogs } from './builds/logs.ts'
import { RequestLog } from './http/request-log.ts'
import {
  applyScript,
  describeScript,
  type ScriptedOutcome,
  type ScriptSpec
} from './state/outcome-scripts.ts'
import { Fixture, Store, type ParsedFixture } from './state/store.ts'
import { LangsmithRecords } from './langsmith/records.ts'
import type { Credentials, EmulatorOptions, EmulatorState } from './types.ts'
import { deploymentView, revisionView } from './state/views.ts'

export class Runtime {
  readonly realNow: () => number
  readonly store = new Store()
  readonly ctx: Context
  readonly faults = new FaultSet()
  readonly limiter = new RateLimiter()
  readonly log = new RequestLog()
  readonly agents = new AgentServers()
  /** The LangSmith API's records (routes/langsmith.ts), on the virtual clock. */
  readonly langsmith = new LangsmithRecords(
    () => this.ctx.clock.now(),
    () => this.credentials().tenantId
  )
  config: EmulatorConfig
  private fixture: ParsedFixture
  private readonly options: EmulatorOptions
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private closing = false

  constructor(options: EmulatorOptions, demoFixture: () => Fixture) {
    this.options = options
    this.realNow = options.now ?? Date.now
    this.fixture = Fixture.parse(options.fixture ?? demoFixture())
    this.config = this.startConfig()
    this.ctx = {
      store: this.store,
      clock: new VirtualClock(this.realNow, this.config.speed),
      durations: this.config.stageDurationsMs,
      failureRules: this.config.failureRules,
      dialect: options.dialect ?? 'interface',
      logsApi: options.logsApi ?? 'both',
      customUrl: dep => this.agents.urlOf(dep),
      serverLog: id => this.agents.printedBy(id)
    }
    this.store.repoDir = options.repoDir
    this.loadState()
  }

  /** The settings given at start, before any `configure`. */
  private startConfig(): EmulatorConfig {
    const c = defaultConfig()
    const o = this.options
    if (o.speed !== undefined) c.speed = o.speed
    Object.assign(c.stageDurationsMs, o.stageDurationsMs)
    if (o.failureRules) c.failureRules = o.failureRules.map(r => ({ ...r }))
    if (o.rateLimit !== undefined) c.rateLimit = o.rateLimit
    return c
  }

  private loadState(): void {
    this.ctx.clock = new VirtualClock(this.realNow, this.config.speed)
    this.ctx.durations = this.config.stageDurationsMs
    this.ctx.failureRules = this.config.failureRules
    this.ctx.legacyTypeReads = this.config.legacyTypeReads
    this.ctx.agentEnvironmentHeldBy = this.config.agentEnvironmentHeldBy
    this.store.load(this.fixture, this.realNow(), this.ctx.clock.now())
  }

  credentials(): Credentials {
    const tenant = this.fixture.tenants[0]!
    const integration = this.fixture.integrations.find(
      i => i.tenant_id.toLowerCase() === tenant.id.toLowerCase()
    )
    return {
      apiKey: tenant.api_keys[0]!,
      tenantId: tenant.id.toLowerCase(),
      integrationId: integration?.id.toLowerCase() ?? null
    }
  }

  state(): EmulatorState {
    const { store, ctx } = this
    return {
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
          revisions: d.revision_ids.map(id => {
            const rev = store.revisions.get(id)!
            const files = rev.source_files ? { source_files: [...rev.source_files] } : {}
            return { ...revisionView(ctx, rev), graphs: [...rev.graphs], ...files }
          })
        }))
      })),
      uploads: [...store.uploads.values()].map(u => ({
        object_path: u.object_path,
        deployment_id: u.deployment_id,
        bytes: u.bytes,
        signature: u.token,
        put_headers: (u.put_headers ?? []).map(h => ({ ...h }))
      }))
    }
  }

  configure(input: ConfigInput): EmulatorConfig {
    const c = ConfigInput.parse(input)
    if (c.speed !== undefined) {
      this.ctx.clock.setSpeed(c.speed)
      this.config.speed = c.speed
    }
    if (c.stageDurationsMs) Object.assign(this.config.stageDurationsMs, c.stageDurationsMs)
    if (c.failureRules) {
      this.config.failureRules = c.failureRules
      this.ctx.failureRules = c.failureRules
    }
    if (c.rateLimit !== undefined) this.config.rateLimit = c.rateLimit
    if (c.legacyTypeReads !== undefined)
      this.config.legacyTypeReads = this.ctx.legacyTypeReads = c.legacyTypeReads
    if (c.agentEnvironmentHeldBy !== undefined) {
      const id = c.agentEnvironmentHeldBy?.toLowerCase() ?? null
      this.config.agentEnvironmentHeldBy = this.ctx.agentEnvironmentHeldBy = id
    }
    for (const [key, sha] of Object.entries(c.repoCommits ?? {})) {
      this.store.setCommit(key, sha, this.ctx.clock.now())
    }
    return structuredClone(this.config)
  }

  loadFixture(fixture: Fixture): void {
    this.fixture = Fixture.parse(fixture)
    this.loadState()
  }

  reset(): void {
    this.config = this.startConfig()
    this.faults.clear()
    this.limiter.clear()
    this.log.clear()
    this.agents.clear()
    this.langsmith.clear()
    this.loadState()
  }

  script(spec: ScriptSpec): ScriptedOutcome {
    return applyScript(this.ctx, spec)
  }

  scripts(): ScriptedOutcome[] {
    return this.store.pendingScripts.map(p => describeScript(p, null))
  }

  clearScripts(): void {
    this.store.pendingScripts = []
  }

  revisionLogs(revisionId: string): RevisionLogs | null {
    const rev = this.store.revisions.get(revisionId.toLowerCase())
    return rev ? revisionLogs(this.ctx, rev) : null
  }

  /** A timer cleared on close, so pending streams and delays end with the emulator. */
  later(ms: number, fn: () => void): void {
    // Past 2^31 - 1 ms Node fires at once: every caller's schema caps its waits below that.
    if (!(ms >= 0 && ms <= 2 ** 31 - 1)) throw new Error(`a wait of ${ms} ms cannot be kept`)
    const t = setTimeout(() => {
      this.timers.delete(t)
      fn()
    }, ms)
    this.timers.add(t)
  }

  get closed(): boolean {
    return this.closing
  }

  close(): void {
    this.closing = true
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
  }
}
