// What every operation works with: the state, the clock and the lifecycle settings.
import type { Dialect } from '../../src/control-plane/dialect.ts'
import type { FailureRule, StageDurationsMs, VirtualClock } from './lifecycle.ts'
import type { DeploymentRecord, Store } from './store.ts'

/** Which revision-log paths the emulator serves: `v1` is an older installation (no v2 path). */
export type LogsApi = 'v2' | 'v1' | 'both'

export interface Context {
  store: Store
  clock: VirtualClock
  durations: StageDurationsMs
  failureRules: FailureRule[]
  /** The wire dialect (only routes/pipeline.ts and routes/wire.ts look at it). */
  dialect: Dialect
  logsApi: LogsApi
  /** Reads answer a type in its legacy word (config `legacyTypeReads`). */
  legacyTypeReads?: boolean
  /**
   * The deployment that holds the agent environment of every create (config
   * `agentEnvironmentHeldBy`): while it exists, being deleted too, a create answers 409.
   */
  agentEnvironmentHeldBy?: string | null
  /** A deployment's custom_url as answered: a codehost one's agent server is the emulator's. */
  customUrl?: (dep: DeploymentRecord) => string | null
  /** What a revision's running server printed (agents/servers.ts): the end of its deploy log. */
  serverLog?: (revisionId: string) => ReadonlyArray<{ v: number; level: 'ERROR'; message: string }>
}
