// The revision and deployment logs of the control plane, beyond the interface
// (docs/control-plane.md, "Operations"): the query of a page and the page. Part of the one model of the interface; schema.ts
// re-exports it, and this file imports nothing from there.
import { z } from 'zod'

const queryInt = z.coerce.number().int()

export const LOG_TYPES = ['build', 'deploy'] as const
export type LogType = (typeof LOG_TYPES)[number]
export const LOG_ORDERS = ['asc', 'desc'] as const
export type LogOrder = (typeof LOG_ORDERS)[number]

/** `GET /v2/deployments/{deployment_id}/revisions/{revision_id}/logs` query. */
export const RevisionLogsQuery = z.object({
  type: z.enum(LOG_TYPES),
  order: z.enum(LOG_ORDERS).default('asc'),
  limit: queryInt.min(1).max(1000).default(50),
  offset: z.string().optional(),
  level: z.string().optional(),
  query: z.string().optional(),
  start_time: z.string().optional(),
  end_time: z.string().optional()
})

/** Lines kept from one answer: the most that a request may ask for. */
export const MAX_LOG_LINES = 1000

const textOrNumber = z
  .union([z.string(), z.number()])
  .nullish()
  .transform(v => (v === null || v === undefined ? null : String(v)))

/**
 * One log line. `message` is what the build printed: untrusted, possibly holding secret values,
 * and kept as it came (the client caps its length after redacting; the caller redacts and
 * sanitizes before printing).
 */
export const RevisionLogEntry = z.object({
  /** Stable and unique per line where the service gives it: readers that follow a log dedupe on it. */
  id: textOrNumber.optional(),
  timestamp: textOrNumber,
  message: z.string(),
  level: textOrNumber
})
export type RevisionLogEntry = z.infer<typeof RevisionLogEntry>

export const RevisionLogPage = z.object({
  logs: z.array(RevisionLogEntry).transform(lines => lines.slice(0, MAX_LOG_LINES)),
  /** The cursor of the next page; null at the end. */
  next_offset: textOrNumber
})
export type RevisionLogPage = z.infer<typeof RevisionLogPage>
