// The one real-time pause of the action, shared by the transport and the deploy layer (which
// therefore need not import each other for it); tests inject their own.
import { setTimeout as delay } from 'node:timers/promises'

/** Resolves after `ms`; rejects (an AbortError) as soon as `signal` aborts, or at once if it has. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal })
}
