// The request log: what the emulator was asked (credentials masked), newest entries only.
import type { IncomingHttpHeaders } from 'node:http'

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

/** A long session must not grow without bound. */
const MAX_LOG_ENTRIES = 10_000

const REDACTED_HEADERS = new Set(['x-api-key', 'authorization', 'cookie'])

export class RequestLog {
  private entries: RequestLogEntry[] = []

  /** Appends an entry (status and fault still unknown) and returns it to be filled in. */
  record(
    fields: Omit<RequestLogEntry, 'headers' | 'status' | 'fault'>,
    headers: IncomingHttpHeaders
  ): RequestLogEntry {
    const shown: Record<string, string> = {}
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue
      shown[k] = REDACTED_HEADERS.has(k) ? '***' : Array.isArray(v) ? v.join(', ') : v
    }
    const entry: RequestLogEntry = { ...fields, headers: shown, status: null, fault: null }
    this.entries.push(entry)
    if (this.entries.length > MAX_LOG_ENTRIES) {
      this.entries.splice(0, this.entries.length - MAX_LOG_ENTRIES)
    }
    return entry
  }

  list(): RequestLogEntry[] {
    return this.entries.map(e => structuredClone(e))
  }

  clear(): void {
    this.entries = []
  }
}
