// The build's own log while the wait polls: the new lines, one read per poll at most, each made one
// inert line (the build's text is untrusted). A log that cannot be read stops being followed, said
// once, never the verdict.
import { ApiError } from '../../../control-plane/errors.ts'
import { sanitizeServerText } from '../../../inert.ts'
import type { CallOptions, RevisionLogsOptions } from '../../../control-plane/client-options.ts'
import type { RevisionLogPage } from '../../../control-plane/schema.ts'

export interface BuildLogReader {
  getRevisionLogs(
    deploymentId: string,
    revisionId: string,
    opts: RevisionLogsOptions,
    call?: CallOptions
  ): Promise<RevisionLogPage>
}

/** Lines read at most per poll: a build that prints more is caught up over the next polls. */
export const PAGE_LINES = 200
/** One read may take this long: the poll after it must not wait on a slow log service. */
export const READ_BUDGET_MS = 5000
/** Longer lines are cut: a minified bundle says nothing in a job log. */
export const MAX_LINE_CHARS = 400
/** Failed reads in a row (a 404: no log while it builds) before the log is no longer followed. */
export const MAX_MISSES = 3
/** Lines remembered to drop those a read from the last timestamp (inclusive) shows again. */
const SEEN_CAP = 5000

/** Where the log is read while the build runs, and once more for its tail after it. */
const BUILDING = 'BUILDING'

export interface BuildLogRead {
  /** New lines, oldest first, each one inert line. */
  lines: string[]
  /** Once, when the log stops being followed: why. */
  stopped?: string
}

export class BuildLogFollower {
  readonly #reader: BuildLogReader
  readonly #ids: { deploymentId: string; revisionId: string }
  readonly #now: () => number
  #startTime: string | undefined
  #cursor: string | undefined
  readonly #seen = new Set<string>()
  #misses = 0
  #building = false
  #done = false
  /** Log reads sent, for the bench and the tests. */
  reads = 0

  constructor(
    reader: BuildLogReader,
    ids: { deploymentId: string; revisionId: string },
    now: () => number
  ) {
    this.#reader = reader
    this.#ids = ids
    this.#now = now
  }

  /** Whether a read at this status can show anything: while it builds, and once after. */
  #wants(status: string): boolean {
    if (this.#done) return false
    if (status === BUILDING) return (this.#building = true)
    // The build's last lines come after the poll that saw it building.
    if (this.#building) this.#done = true
    return this.#building
  }

  /** The lines the build printed since the last read; nothing at a status with no build log. */
  async read(status: string, deadline: number): Promise<BuildLogRead> {
    if (!this.#wants(status)) return { lines: [] }
    this.reads++
    let page: RevisionLogPage
    try {
      page = await this.#reader.getRevisionLogs(
        this.#ids.deploymentId,
        this.#ids.revisionId,
        this.#query(),
        { deadline: Math.min(this.#now() + READ_BUDGET_MS, deadline) }
      )
    } catch (err) {
      return this.#missed(err)
    }
    this.#misses = 0
    this.#cursor = page.next_offset ?? undefined
    return { lines: this.#fresh(page) }
  }

  #query(): RevisionLogsOptions {
    const q: RevisionLogsOptions = { type: 'build', order: 'asc', limit: PAGE_LINES }
    if (this.#startTime !== undefined) q.start_time = this.#startTime
    if (this.#cursor !== undefined) q.offset = this.#cursor
    return q
  }

  /** The page's lines not shown before; the next read starts at the newest one's time. */
  #fresh(page: RevisionLogPage): string[] {
    const lines: string[] = []
    for (const entry of page.logs) {
      const key = entry.id ?? `${entry.timestamp ?? ''}\u0000${entry.message}`
      if (this.#seen.has(key)) continue
      if (this.#seen.size >= SEEN_CAP) this.#seen.clear()
      this.#seen.add(key)
      lines.push(shown(entry.level, entry.message))
    }
    // At the log's end, read on from the newest line's time (inclusive); within it, by the cursor.
    const last = page.logs.at(-1)?.timestamp
    if (this.#cursor === undefined && last) this.#startTime = last
    return lines
  }

  #missed(err: unknown): BuildLogRead {
    const status = err instanceof ApiError ? err.status : undefined
    this.#misses++
    const final = status === 401 || status === 403 || this.#misses >= MAX_MISSES
    if (!final) return { lines: [] }
    this.#done = true
    const why =
      status === 404
        ? 'the control plane gives no build log for this revision'
        : sanitizeServerText(err instanceof Error ? (err.message.split('\n')[0] ?? '') : '', 200)
    return { lines: [], stopped: `The build log is not followed any more: ${why}.` }
  }
}

/** One log line as the job log shows it: its level when it is not INFO, one inert line. */
function shown(level: string | null, message: string): string {
  const lvl = level ? sanitizeServerText(level, 10).toUpperCase() : ''
  const text = sanitizeServerText(message, MAX_LINE_CHARS)
  return `build | ${lvl && lvl !== 'INFO' ? `${lvl} ` : ''}${text}`
}
