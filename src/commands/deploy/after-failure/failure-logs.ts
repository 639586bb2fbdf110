// The last lines of a failed revision's log, best effort, made safe to print: untrusted text that
// may hold secrets, workflow commands and terminal codes. A log that cannot be read costs one
// warning and a bounded time, never the verdict.
import type { Redactor } from '../../../control-plane/redact.ts'
import { sanitizeServerText } from '../../../inert.ts'
import type { FailureLog, LogType } from '../../../interface/journal.ts'

export interface LogEntry {
  timestamp?: string | null | undefined
  message: string
  level?: string | null | undefined
}

/** What this needs of the client: one page of a revision's log. */
export interface LogReader {
  getRevisionLogs(
    deploymentId: string,
    revisionId: string,
    query: { type: LogType; order?: 'asc' | 'desc'; limit?: number },
    call?: { deadline?: number }
  ): Promise<{ logs: LogEntry[] }>
}

/** A stalled log service must not hold a failed job long; seconds are plenty for one page. */
export const LOG_BUDGET_MS = 10_000
/** Longer lines are cut: a minified bundle or a dumped payload says nothing in a job log. */
export const MAX_LINE_CHARS = 400
/** The excerpt as a whole, so that a summary stays readable (and under GitHub's 1 MiB cap). */
export const MAX_EXCERPT_CHARS = 24_000
/** The service pages at most this many lines. */
export const MAX_LINES = 1000

export type FailureLogResult =
  | { kind: 'log'; log: FailureLog }
  | { kind: 'none'; reason: string }
  | { kind: 'error'; reason: string }

/** Which log tells why a revision ended with this status, in the order to try. */
export function logTypesFor(status: string): LogType[] {
  if (status === 'BUILD_FAILED') return ['build']
  // A DEPLOYED revision whose server is unhealthy: the server's start-up is in the deploy log.
  if (status === 'DEPLOY_FAILED' || status === 'DEPLOYED') return ['deploy']
  return ['build', 'deploy']
}

/** The last `lines` lines of the log that explains `status`, oldest first. Never throws. */
export async function readFailureLog(
  reader: LogReader,
  ids: { deploymentId: string; revisionId: string },
  status: string,
  lines: number,
  redactor: Redactor,
  deadline: number
): Promise<FailureLogResult> {
  const limit = Math.min(Math.max(1, lines), MAX_LINES)
  for (const type of logTypesFor(status)) {
    try {
      const page = await reader.getRevisionLogs(
        ids.deploymentId,
        ids.revisionId,
        { type, order: 'desc', limit },
        { deadline }
      )
      if (!page.logs.length) continue
      const newestFirst = page.logs.slice(0, limit)
      return { kind: 'log', log: cleanLog(type, newestFirst.reverse(), redactor) }
    } catch (err) {
      if ((err as { status?: unknown } | null)?.status === 404) continue
      const text = err instanceof Error ? err.message.split('\n')[0] : String(err)
      return { kind: 'error', reason: redactor.redact(sanitizeServerText(text ?? '', 300)) }
    }
  }
  const which = logTypesFor(status).join(' or ')
  return { kind: 'none', reason: `the control plane has no ${which} log for it` }
}

/** Secrets out first (a cut could split one), then control characters and workflow commands. */
export function cleanLog(type: LogType, entries: LogEntry[], redactor: Redactor): FailureLog {
  const cleaned = entries.map(e => {
    const level = e.level ? sanitizeServerText(e.level, 10).toUpperCase() : ''
    const message = sanitizeServerText(redactor.redact(e.message), MAX_LINE_CHARS)
    return { level, line: level ? `${level.padEnd(7)} ${message}` : message, message }
  })
  // Oldest lines go first when the whole is too long: the end of a log says why it failed.
  let total = cleaned.reduce((n, c) => n + c.line.length + 1, 0)
  while (cleaned.length > 1 && total > MAX_EXCERPT_CHARS) total -= cleaned.shift()!.line.length + 1
  const errorLine = [...cleaned].reverse().find(c => /^(ERROR|CRITICAL|FATAL)$/.test(c.level))
  const saysError = [...cleaned].reverse().find(c => /\b(error|failed|fatal)\b/i.test(c.message))
  const telling = (errorLine ?? saysError)?.message
  return {
    type,
    lines: cleaned.map(c => c.line),
    telling: telling === undefined ? undefined : sanitizeServerText(telling, 200)
  }
}
