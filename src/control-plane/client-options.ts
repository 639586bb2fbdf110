// The options and result types of the control-plane client (client.ts), apart so that the client
// itself stays one readable file.
import type { Clock } from '../clock.ts'
import type { Say } from '../interface/naming.ts'
import type { Dialect } from './dialect.ts'
import type { Redactor } from './redact.ts'
import type { LogOrder, LogType } from './schema.ts'

export interface ClientOptions {
  baseUrl: string
  apiKey: string
  tenantId?: string | undefined
  /** Per request; default 30 s. */
  requestTimeoutMs?: number
  /** Epoch ms: no request starts after it, and retries stop short of it. */
  deadline?: number
  signal?: AbortSignal
  retry?: Partial<RetryPolicy>
  /** Answers larger than this are cut off; default 32 MiB. */
  maxBodyBytes?: number
  /** Values that must never appear in a message or log line; the API key is always one. */
  secrets?: Iterable<string>
  /** The run's, shared: secret values that answers carry are added as read, for the run's log. */
  redactor?: Redactor
  /** Told each secret value an answer carries, the moment it is read: the door's mask. */
  mask?: (value: string) => void
  debug?: (line: string) => void
  /** Wire names to speak (dialect.ts); default `interface`. */
  dialect?: Dialect
  /** Told the pause of each 429 waited out, for the caller to log: the client itself never logs. */
  onRateLimited?: (waitMs: number) => void
  /** How error hints name an input: as the run's door does. */
  say: Say
  /** The run's clock: deadlines, backoff and Retry-After pauses. */
  clock: Clock
  /** For tests: a fixed jitter draw. */
  random?: () => number
}

export interface RetryPolicy {
  /** Attempts in all for a retryable request, the first included. */
  maxAttempts: number
  /** Attempts while answered 429: a server pacing is not failing; the deadline ends them first. */
  maxRateLimitedAttempts: number
  baseDelayMs: number
  maxDelayMs: number
  /** A longer Retry-After is cut to this. */
  maxRetryAfterMs: number
}

export interface CallOptions {
  /** Epoch ms: this call and its retries end by then (the wait's deadline, say). */
  deadline?: number
}

export interface RevisionLogsOptions {
  type: LogType
  /** `asc` (the service's default): oldest first. */
  order?: LogOrder
  /** Lines per page, 1..1000; default 50. */
  limit?: number
  /** The `next_offset` of the previous page. */
  offset?: string
  /** Lines from this time on (inclusive, ISO 8601): where a reader following the log left off. */
  start_time?: string
}

/** What a DELETE found; `deleted` also when a retry finds gone what a lost attempt deleted. */
export type DeleteOutcome = 'deleted' | 'not-found'

/** One log line's message is cut to this many characters (after redaction). */
export const MAX_LOG_MESSAGE_CHARS = 4000

/** Checks an answer beyond its shape: a problem to report, or undefined. */
export type Verify<T> = (value: T) => string | undefined
