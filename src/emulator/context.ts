// What every operation works with: the state, the clock and the lifecycle settings.
import type { FailureRule, StageDurationsMs, VirtualClock } from './lifecycle.ts'
import type { Store } from './store.ts'

export interface Context {
  store: Store
  clock: VirtualClock
  durations: StageDurationsMs
  failureRules: FailureRule[]
}

/** An answer before it is written: `body` is sent as JSON unless `text` is given. */
export interface Reply {
  status: number
  body?: unknown
  text?: string
  headers?: Record<string, string>
}

export const detail = (status: number, text: string): Reply => ({ status, body: { detail: text } })
