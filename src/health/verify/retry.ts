// A request of the checks tried again as the gate's probes are: 5xx, 429 or no answer, while the
// deadline leaves room. A warming server's single 503 fails nothing; one that persists is named.
import { sanitizeServerText } from '../../inert.ts'
import type { Clock } from '../../clock.ts'
import { formatDuration } from '../../duration.ts'
import type { AgentAnswer } from './agent-call.ts'

export interface RetryOptions {
  clock: Clock
  /** Epoch ms on `clock`: no try starts after it (nor a pause that would end past it). */
  deadline: number
  /** The pause between tries (the probes' interval). */
  intervalMs: number
  signal: AbortSignal
}

export type Last = { kind: 'answer'; answer: AgentAnswer } | { kind: 'lost'; error: unknown }

export interface Tried {
  last: Last
  tries: number
  /** From the first try's start to the last one's end. */
  elapsedMs: number
}

/** An answer worth another try: the server (or a proxy before it) is busy or not ready. */
export const isTransient = (status: number): boolean => status >= 500 || status === 429

const worthRetry = (last: Last): boolean => last.kind === 'lost' || isTransient(last.answer.status)

/** Sends until an answer not transient, or no room left; `onTry` sees each (for a timer's race). */
export async function withRetries(
  send: () => Promise<AgentAnswer>,
  o: RetryOptions,
  onTry?: (t: Tried) => void
): Promise<Tried> {
  const start = o.clock.now()
  for (let tries = 1; ; tries++) {
    const last: Last = await send().then(
      answer => ({ kind: 'answer' as const, answer }),
      (error: unknown) => ({ kind: 'lost' as const, error })
    )
    const tried = { last, tries, elapsedMs: o.clock.now() - start }
    onTry?.(tried)
    if (!worthRetry(last) || o.signal.aborted) return tried
    if (o.clock.now() + o.intervalMs >= o.deadline) return tried
    try {
      await o.clock.sleep(o.intervalMs, o.signal)
    } catch {
      return tried
    }
  }
}

/** `/runs/wait answered 503 on 4 tries over 15 s: "…"`: what persisted, and what came back. */
export function describeAnswer(path: string, t: Tried & { last: { kind: 'answer' } }): string {
  const { status, body } = t.last.answer
  const over = t.tries > 1 ? ` on ${t.tries} tries over ${formatDuration(t.elapsedMs)}` : ''
  const shown = bodyExcerpt(body)
  return `${path} answered ${status}${over}${shown ? `: ${shown}` : ''}`
}

/** The start of an answer's body, on one line, inert in the log: what came back, in short. */
export function bodyExcerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim()
  if (flat === '') return ''
  return `"${sanitizeServerText(flat.length > 80 ? `${flat.slice(0, 79)}…` : flat, 120)}"`
}

/** `on 3 tries over 12 s` when it was tried more than once. */
export const triesText = (t: Tried): string =>
  t.tries > 1 ? ` (${t.tries} tries over ${formatDuration(t.elapsedMs)})` : ''
