// The CLI's log, on stderr. Every line goes through the Redactor (no runner masks after the fact),
// then `logSafe` (in a CI job stderr is the job's log). On a terminal a status line stays under the
// log, redrawn in place; anywhere else each change is a line of its own.
import { Redactor } from '../control-plane/redact.ts'
import { logSafe } from '../inert.ts'
import { formatDuration } from '../duration.ts'

/** Where the log goes: stderr, or a fake in tests. */
export interface LogStream {
  write(text: string): unknown
  isTTY?: boolean
  columns?: number
}

export interface LogOptions {
  stream: LogStream
  redactor: Redactor
  /** The clock of the elapsed time (ms). */
  now: () => number
}

const CLEAR_LINE = '\r\u001b[2K'
/** How often the status line's elapsed time is redrawn on a terminal. */
export const REDRAW_MS = 1000

export class CliLog {
  readonly #stream: LogStream
  readonly #redactor: Redactor
  readonly #now: () => number
  readonly #started: number
  readonly #tty: boolean
  #stage: string | undefined
  #statusShown = false
  #timer: ReturnType<typeof setInterval> | undefined

  constructor(options: LogOptions) {
    this.#stream = options.stream
    this.#redactor = options.redactor
    this.#now = options.now
    this.#started = options.now()
    this.#tty = options.stream.isTTY === true
  }

  /** Hides a value from every later line. */
  mask(value: string): void {
    this.#redactor.add(value)
  }

  info(line: string): void {
    this.#line(line)
  }

  warning(line: string, title?: string): void {
    this.#line(`warning: ${titled(line, title)}`)
  }

  notice(line: string, title?: string): void {
    this.#line(`notice: ${titled(line, title)}`)
  }

  error(line: string, title?: string): void {
    this.#line(`error: ${titled(line, title)}`)
  }

  /** A stage: its name as a line, and on a terminal the status line while it lasts. */
  async group<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const outer = this.#stage
    this.#stage = name
    this.#line(`▸ ${name}`)
    try {
      return await fn()
    } finally {
      this.#stage = outer
      this.#drawStatus()
    }
  }

  /** The status line as drawn now (for a terminal), redacted. */
  statusLine(): string {
    // Whole seconds: the line is redrawn once a second.
    const elapsed = formatDuration(Math.floor((this.#now() - this.#started) / 1000) * 1000)
    const stage = logSafe(this.#stage ?? 'Working').replace(/\n/g, ' ')
    const text = this.#redactor.redact(`… ${stage} · ${elapsed}`)
    // A terminal that does not say its width (or says 0) is taken as 80 columns.
    const width = (this.#stream.columns || 80) - 1
    // Wider than the terminal, it would wrap, and `\r` would redraw only its last part.
    return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text
  }

  /** Starts redrawing the status line every second (only on a terminal). */
  start(): void {
    if (!this.#tty || this.#timer) return
    this.#timer = setInterval(() => this.#drawStatus(), REDRAW_MS)
    this.#timer.unref()
    this.#drawStatus()
  }

  /** Removes the status line and stops redrawing it: the log ends as plain lines. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
    this.#clearStatus()
  }

  #line(line: string): void {
    this.#clearStatus()
    this.#stream.write(`${logSafe(this.#redactor.redact(line))}\n`)
    if (this.#timer) this.#drawStatus()
  }

  #drawStatus(): void {
    if (!this.#timer) return
    this.#stream.write(`${CLEAR_LINE}${this.statusLine()}`)
    this.#statusShown = true
  }

  #clearStatus(): void {
    if (!this.#statusShown) return
    this.#stream.write(CLEAR_LINE)
    this.#statusShown = false
  }
}

/** An annotation's title before its line, unless the line already starts with it. */
function titled(line: string, title: string | undefined): string {
  if (!title || line.toLowerCase().startsWith(`${title.toLowerCase()}:`)) return line
  return `${title}: ${line}`
}
