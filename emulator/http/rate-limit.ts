// The global per-API-key rate limit (a setting of the config, applied before faults).
import { z } from 'zod'

export const RateLimit = z.object({
  /** Requests allowed per API key in any 1 s window. */
  rps: z.number().positive(),
  /** `Retry-After` seconds on the 429; null/omitted = no header. */
  retryAfter: z.number().nonnegative().nullish()
})
export type RateLimit = z.infer<typeof RateLimit>

/** Sliding 1 s window per API key; only admitted requests count. */
export class RateLimiter {
  private windows = new Map<string, number[]>()

  admit(limit: RateLimit, key: string, nowMs: number): boolean {
    const recent = (this.windows.get(key) ?? []).filter(t => t > nowMs - 1000)
    if (recent.length >= limit.rps) {
      this.windows.set(key, recent)
      return false
    }
    recent.push(nowMs)
    this.windows.set(key, recent)
    return true
  }

  clear(): void {
    this.windows.clear()
  }
}

export const RATE_LIMITED_DETAIL = 'Rate limit exceeded. Please retry later.'
