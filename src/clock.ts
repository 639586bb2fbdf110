// The run's one clock: what time it is and how to wait. `run()` makes it (real time unless a test
// gives its own) and hands it to everything that reads the time or pauses; nothing below takes
// `Date.now` or a timer of its own.
import { setTimeout as delay } from 'node:timers/promises'

export interface Clock {
  now(): number
  /** Resolves after `ms`; rejects (an AbortError) as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** The one real-time pause of the action: rejects (an AbortError) at once if `signal` has aborted. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal })
}

/** Real time, with parts replaced (tests pass a virtual `now` and `sleep`). */
export function makeClock(over: Partial<Clock> = {}): Clock {
  return { now: over.now ?? Date.now, sleep: over.sleep ?? sleep }
}
