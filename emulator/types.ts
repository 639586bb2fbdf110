// The emulator's public shapes: start options, the in-process control API, the state snapshot.
import type { AgentServers } from './agents/servers.ts'
import type { LangsmithRecords } from './langsmith/records.ts'
import type { Dialect } from '../src/control-plane/dialect.ts'
import type { ConfigInput, EmulatorConfig } from './state/config.ts'
import type { LogsApi } from './state/context.ts'
import type { Fault, FaultSpec } from './faults/index.ts'
import type { FailureRule, StageDurationsMs } from './state/lifecycle.ts'
import type { RevisionLogs } from './builds/logs.ts'
import type { RateLimit } from './http/rate-limit.ts'
import type { RequestLogEntry } from './http/request-log.ts'
import type { ScriptedOutcome, ScriptSpec } from './state/outcome-scripts.ts'
import type { Fixture } from './state/store.ts'
import type { OutOfBandSpec } from './operations/out-of-band.ts'
import type { deploymentView, revisionView } from './state/views.ts'

export interface EmulatorOptions {
  /** 0 (default) = a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /**
   * Host header names answered besides loopback ones (localhost, 127.0.0.0/8, [::1]) and `host`
   * itself; any other Host gets 421 (DNS rebinding).
   */
  allowedHosts?: string[]
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
  /** Wire names: `interface` (default) or `langsmith` (the production service's). */
  dialect?: Dialect
  /** Log paths: `both` (default), `v2` (the v1 POSTs are 404), `v1` (an older installation: the v2 path is 404). */
  logsApi?: LogsApi
  /**
   * A local clone of the repository: a codehost build reports the commit its ref names there
   * (resolved once per build), where no pin names one. Default: a stable commit per repository and ref.
   */
  repoDir?: string
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
    /** Each revision with the graphs it serves (an upload's: its config's `graphs` keys). */
    deployments: Array<
      DeploymentView & {
        revisions: Array<RevisionView & { graphs: string[]; source_files?: string[] }>
      }
    >
  }>
  /** The upload slots handed out, with the headers of each PUT that reached them. */
  uploads: Array<{
    object_path: string
    deployment_id: string
    bytes: number | null
    /** The upload URL's `signature` (tests check that no run prints it). */
    signature: string
    put_headers: Record<string, string>[]
  }>
}

export interface Credentials {
  apiKey: string
  tenantId: string
  integrationId: string | null
}

/** What tests and the admin routes can do with a running emulator (besides serving HTTP). */
export interface EmulatorControl {
  /** First tenant of the current fixture, its first API key and its first integration. */
  credentials(): Credentials
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
  /** Back to the fixture and the start options; faults, scripts and request log cleared. */
  reset(): void
  /**
   * Scripts the outcome and log lines of the next revision (of `deploymentId`, or of any), or of
   * `revisionId` if it is still in progress. Throws (ZodError or Error) on a bad spec.
   */
  script(spec: ScriptSpec): ScriptedOutcome
  /** Scripts still waiting for their revision, oldest first. */
  scripts(): ScriptedOutcome[]
  clearScripts(): void
  /** The revision's build and deploy logs as of now; null when there is no such revision. */
  revisionLogs(revisionId: string): RevisionLogs | null
  /**
   * A change made outside the API's clients (operations/out-of-band.ts): a redeploy from the web app, a
   * setting or secret changed by hand, the time of the last change. Throws on a bad spec.
   */
  outOfBand(
    deploymentId: string,
    spec: OutOfBandSpec
  ): { deployment_id: string; revision_id: string | null; updated_at: string }
}

export interface Emulator extends EmulatorControl {
  /** Base URL, including the base path, without a trailing slash. */
  url: string
  port: number
  /** The agent servers of its deployments: scripted health, probes received. */
  agents: AgentServers
  /** The LangSmith API's records (served under `<url>/_langsmith`): seed, read, clear. */
  langsmith: LangsmithRecords
  close(): Promise<void>
}
