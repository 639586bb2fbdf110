// The health gate: after DEPLOYED, ask the agent server itself. Until its first 2xx the probes go
// on until the deadline; from it on, every probe of the window must be 2xx. Only 404s: the health
// routes are off, `unavailable`, not a failure. The deadline bounds it all (a window cut short is
// `timeout`). An unvouched host is probed without the key; its 401/403 ends it (`not-vouched`).
// A check `alongside` (the revision served) has its own window: the gate ends when both passed.
import { Redactor } from '../control-plane/redact.ts'
import { sanitizeServerText } from '../inert.ts'
import type { Clock } from '../clock.ts'
import { formatDuration } from '../duration.ts'
import { ProbeTimeoutError, type ProbeResponse } from './probe.ts'
import { probeTarget } from './target.ts'
import { redirectHost, sendToAgent, type AgentServer } from './verify/agent-probe.ts'
import { jsonOf } from './verify/agent-call.ts'

import type { Health } from '../interface/journal.ts'

export interface ProbeAnswer {
  /** The HTTP status; null when no answer came (timeout, reset, refused). */
  status: number | null
  /** What came back, redacted and short: the body's start, a redirect's host, or the error. */
  excerpt: string
  /** The status came, but the body was still arriving when the probe's time ran out. */
  slowBody?: boolean
  /** A Serverless server waking up (isAsleep, within the wake-up's bound): never unhealthy. */
  warming?: boolean
  /** While it wakes (or once it went past the bound): how long so far, and the most it may take. */
  wake?: { waitedMs: number; maxMs: number }
  /** The server's own error in a 5xx's JSON body (`error`, or `ok: false`): it is awake. */
  serverError?: string
}

export interface HealthResult {
  /** `timeout`: the deadline came inside the window; `not-vouched`: 401/403 without the key. */
  health: Health | 'cancelled' | 'timeout' | 'not-vouched'
  probes: number
  /** The last few answers, oldest first. */
  answers: ProbeAnswer[]
  /** Why it is unhealthy, in words for the job log. */
  reason?: string
  elapsedMs: number
  /** The probed host, and what vouched for it (undefined: probed without the key). */
  host?: string
  vouchedBy?: string | undefined
  /** A probe that waited on a wake-up (`wakes`): its number and how long the server took. */
  wokeUp?: { probe: number; waitedMs: number }
}

/** The health settings: the gate's, and the checks' after it (their interval, deadline, clock). */
export interface HealthCheckOptions extends AgentServer {
  /** `/ok` or the path (with its query) given by health-check. */
  path: string
  /** Epoch ms: the check ends by then, the window and every probe included. */
  deadline: number
  windowMs: number
  /** Pause between probes, and between tries of a check (default about 5 s). */
  intervalMs?: number
  /** The longest one probe may take (default 10 s; less when the deadline is nearer). */
  probeTimeoutMs?: number
  redactor: Redactor
  signal?: AbortSignal
  /** The run's clock: the window, the deadline and the pauses between probes. */
  clock: Clock
  /** Told after every probe, with its number (from 1) and its answer. */
  onProbe?: (n: number, answer: ProbeAnswer) => void
  alongside?: WindowCheck
  /**
   * Maybe scaled to zero (Serverless): until a 2xx, a 503 or no answer is `warming`, never
   * unhealthy (one in the window starts the window again).
   */
  wakes?: boolean
}

/** A check alongside, of a 2xx probe: its window starts, not yet, no more needed, or failed. */
export type WindowStep = 'match' | 'wait' | 'settled' | 'fail'

export interface WindowCheck {
  ask(timeoutMs: number, signal?: AbortSignal): Promise<WindowStep>
}

export const DEFAULT_PROBE_INTERVAL_MS = 5000
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000
/** This many probes answered 404, and nothing else, is enough to call the routes turned off. */
export const UNAVAILABLE_AFTER = 3
/** Answers kept for the report. */
const KEPT = 3
const EXCERPT_CHARS = 120

/** The probe URL may not carry the key: no connection is made, and this says why. */
export class HealthTargetError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HealthTargetError'
  }
}

/** The probes sent so far, as a result reports them. */
interface Probed {
  start: number
  probes: number
  answers: ProbeAnswer[]
  host: string
  vouchedBy: string | undefined
  wokeUp?: HealthResult['wokeUp'] | undefined
}

/** On a server that wakes: whether all was warming, the wake-up under way, the probe that woke. */
class WakeWatch {
  allWarming = true
  /** Some answer carried the server's own error: it is awake, whatever its status. */
  sawServerError = false
  private warmedSince: number | undefined
  private readonly o: HealthCheckOptions
  private readonly now: () => number
  constructor(o: HealthCheckOptions, now: () => number) {
    this.o = o
    this.now = now
  }

  /** When the wake-up that a probe sent at `sent` waits on may last until. */
  until(sent: number): number {
    return Math.min((this.warmedSince ?? sent) + WAKE_MAX_MS, this.o.deadline)
  }

  /** Marks `a` (sent at `sent`) warming while the wake-up's bound holds; else `wake` says by how much. */
  classify(a: ProbeAnswer, sent: number): void {
    if (a.serverError) this.sawServerError = true
    // A server that said what is wrong with it is awake: nothing after that is a wake-up.
    if (this.sawServerError || !isAsleep(this.o, a)) return
    const start = this.warmedSince ?? sent
    a.wake = { waitedMs: this.now() - start, maxMs: this.until(start) - start }
    if (a.wake.waitedMs < WAKE_MAX_MS) a.warming = true
  }

  /** The wake-up this answer ends, if any: a 2xx after warming answers, or a slow first 2xx. */
  see(n: number, a: ProbeAnswer, sent: number, ok: boolean): HealthResult['wokeUp'] {
    if (a.warming) this.warmedSince ??= sent
    else this.allWarming = false
    if (!ok) return undefined
    const warmed = this.warmedSince
    // Awake: a later sleep is a wake-up of its own, with a bound of its own.
    this.warmedSince = undefined
    const waitedMs = this.now() - (warmed ?? sent)
    return this.o.wakes && (warmed !== undefined || waitedMs >= WAKE_SLOW_MS)
      ? { probe: n, waitedMs }
      : undefined
  }
}

/** The result the probes so far add up to, with the last few answers. */
function resultOf(
  p: Probed,
  now: number,
  health: HealthResult['health'],
  reason?: string
): HealthResult {
  return {
    health,
    probes: p.probes,
    answers: p.answers.slice(-KEPT),
    ...(reason ? { reason } : {}),
    elapsedMs: now - p.start,
    host: p.host,
    vouchedBy: p.vouchedBy,
    ...(p.wokeUp ? { wokeUp: p.wokeUp } : {})
  }
}

/** A first answer slower than this, on a server that wakes, waited on a wake-up. */
export const WAKE_SLOW_MS = 3000
/** The longest a wake-up is waited on (no cold start is documented; minutes are an outage). */
export const WAKE_MAX_MS = 180_000

/** A sleeping server's answer: a 503 without an error of its own, or none in time. */
function isAsleep(o: HealthCheckOptions, a: ProbeAnswer): boolean {
  if (o.wakes !== true) return false
  return (a.status === 503 && !a.serverError) || a.status === null || a.slowBody === true
}

/** A wake-up that went on past its bound: the server is unhealthy, said with how long it took. */
function pastWakeUp(a: ProbeAnswer, probes: number): string | undefined {
  if (a.warming || !a.wake) return undefined
  const what = a.status === null ? 'gave no answer' : `answered ${a.status}`
  return `the Serverless agent server still ${what} (probe ${probes}) after ${formatDuration(a.wake.waitedMs)} of wake-up, past the ${formatDuration(WAKE_MAX_MS)} a wake-up may take: it is unhealthy, not waking up`
}

/** A window of 2xx that the deadline cut short: how far into it the timeout came. */
function windowCutShort(windowMs: number, windowEnd: number, now: number): string {
  return `the timeout came ${formatDuration(now - (windowEnd - windowMs))} into the ${formatDuration(windowMs)} window of 2xx`
}

export async function checkHealth(o: HealthCheckOptions): Promise<HealthResult> {
  const target = probeTarget(o.url, o.path, o.vouched)
  if ('problem' in target) throw new HealthTargetError(o.redactor.redact(target.problem))
  const { url, vouchedBy } = target
  const { now, sleep } = o.clock
  const interval = o.intervalMs ?? DEFAULT_PROBE_INTERVAL_MS
  const seen: Probed = { start: now(), probes: 0, answers: [], host: url.host, vouchedBy }
  let only404 = true
  let windowEnd: number | undefined
  const result = (health: HealthResult['health'], reason?: string) =>
    resultOf(seen, now(), health, reason)
  const windowCut = (windowEnd: number) => windowCutShort(o.windowMs, windowEnd, now())
  const side = new Side(o.alongside, o.windowMs)
  const wake = new WakeWatch(o, now)
  /** The probes are over after the first 2xx: healthy, or a window the deadline cut short. */
  const windowOver = (okEnd: number): HealthResult => {
    const cut = now() < okEnd ? okEnd : side.cutAt(now())
    return cut === undefined ? result('healthy') : result('timeout', windowCut(cut))
  }
  for (;;) {
    if (o.signal?.aborted) return result('cancelled')
    const answer = await nextProbe(o, url, seen, wake, windowEnd === undefined)
    if (!answer) return result('cancelled')
    const ok = isOk(answer)
    if (answer.status !== 404) only404 = false
    if (!vouchedBy && (answer.status === 401 || answer.status === 403)) return result('not-vouched')
    const past = pastWakeUp(answer, seen.probes)
    if (past) return result('unhealthy', past)
    // A probe the deadline cut short inside the window is the timeout's, not the server's.
    const cut = (answer.status === null || answer.slowBody) && now() >= o.deadline
    if (windowEnd !== undefined && !ok && cut) return result('timeout', windowCut(windowEnd))
    // The server went back to sleep: it is waking again, and the window starts at its next 2xx.
    if (windowEnd !== undefined && answer.warming) windowEnd = undefined
    else if (windowEnd !== undefined && !ok)
      return result(
        'unhealthy',
        `probe ${seen.probes} failed after the agent server had answered 2xx`
      )
    if (windowEnd === undefined && ok) windowEnd = now() + o.windowMs
    if (windowEnd === undefined && only404 && seen.probes >= UNAVAILABLE_AFTER)
      return result('unavailable')
    // A failure of the check alongside is its own to say: the probes themselves were healthy.
    if (ok && !(await side.ask(probeTimeout(o, now), now, o.signal)))
      return result(o.signal?.aborted ? 'cancelled' : 'healthy')
    const until = windowEnd === undefined ? o.deadline : Math.max(windowEnd, side.until(o.deadline))
    const end = Math.min(until, o.deadline)
    if (now() >= end) {
      if (windowEnd !== undefined) return windowOver(windowEnd)
      if (only404) return result('unavailable')
      return result('unhealthy', no2xx(seen.probes, wake, seen.answers.at(-1)))
    }
    try {
      await sleep(Math.min(interval, end - now()), o.signal)
    } catch {
      return result('cancelled')
    }
    // Slept to the deadline while the check alongside waited: no probe is left to send.
    if (windowEnd !== undefined && now() >= o.deadline) return windowOver(windowEnd)
  }
}

/** One probe, counted, classified (warming) and told; undefined when the run was cancelled. */
async function nextProbe(
  o: HealthCheckOptions,
  url: URL,
  seen: Probed,
  wake: WakeWatch,
  waking: boolean
): Promise<ProbeAnswer | undefined> {
  const sent = o.clock.now()
  const until = waking ? wake.until(sent) : undefined
  const answer = await probeOnce(o, { url, vouchedBy: seen.vouchedBy }, o.clock.now, until)
  if (o.signal?.aborted) return undefined
  seen.probes++
  wake.classify(answer, sent)
  const woke = wake.see(seen.probes, answer, sent, isOk(answer))
  seen.wokeUp ??= woke
  seen.answers.push(answer)
  o.onProbe?.(seen.probes, answer)
  return answer
}

/** Why the gate is unhealthy when no probe answered 2xx by the deadline. */
function no2xx(probes: number, wake: WakeWatch, last: ProbeAnswer | undefined): string {
  if (wake.allWarming) {
    const waited = last?.wake
      ? `; waited ${formatDuration(last.wake.waitedMs)} of at most ${formatDuration(last.wake.maxMs)}`
      : ''
    return `the Serverless agent server did not wake up before the timeout (${probes} probes, each a 503 or no answer${waited})`
  }
  const own = wake.sawServerError ? '; it answered with an error of its own, so it is awake' : ''
  return `no probe answered 2xx before the timeout (${probes} probes${own})`
}

/** The check alongside the probes: asked on each 2xx probe until settled; its own window. */
class Side {
  settled: boolean
  /** When its window ends, from its first match on. */
  end: number | undefined
  private readonly check: WindowCheck | undefined
  private readonly windowMs: number
  constructor(check: WindowCheck | undefined, windowMs: number) {
    this.check = check
    this.windowMs = windowMs
    this.settled = !check
  }

  /** Asks it after a 2xx probe; false when it failed (or the run was cancelled meanwhile). */
  async ask(timeoutMs: number, now: () => number, signal?: AbortSignal): Promise<boolean> {
    if (this.settled || !this.check) return true
    const step = await this.check.ask(timeoutMs, signal)
    if (signal?.aborted || step === 'fail') return false
    if (step === 'settled') this.settled = true
    if (step === 'match') this.end ??= now() + this.windowMs
    return true
  }

  /** Until when the probes go on for it: its window's end, else the deadline; 0 when settled. */
  until(deadline: number): number {
    return this.settled ? 0 : (this.end ?? deadline)
  }

  /** Its window's end when the probes stop before it. */
  cutAt(now: number): number | undefined {
    return !this.settled && this.end !== undefined && now < this.end ? this.end : undefined
  }
}

/** The longest the next probe may take: its bound (a waking server's: `wakeUntil`), or less. */
function probeTimeout(o: HealthCheckOptions, now: () => number, wakeUntil?: number): number {
  const own =
    wakeUntil !== undefined && o.wakes
      ? wakeUntil - now()
      : (o.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS)
  return Math.max(1, Math.min(own, o.deadline - now()))
}

function isOk(a: ProbeAnswer): boolean {
  return a.status !== null && a.status >= 200 && a.status < 300 && !a.slowBody
}

/** One probe, within the probe timeout and the deadline; the key only to a vouched host. */
async function probeOnce(
  o: HealthCheckOptions,
  target: { url: URL; vouchedBy: string | undefined },
  now: () => number,
  wakeUntil: number | undefined
): Promise<ProbeAnswer> {
  const timeoutMs = probeTimeout(o, now, wakeUntil)
  let res: ProbeResponse
  try {
    res = await sendToAgent(o, target, { timeoutMs, signal: o.signal })
  } catch (err) {
    return { status: null, excerpt: describeError(err, o.redactor) }
  }
  const excerpt = excerptOf(res, target.url, o.redactor)
  const own = res.status >= 500 && !res.slowBody ? serverError(res.body) : undefined
  return {
    status: res.status,
    excerpt,
    ...(res.slowBody ? { slowBody: true } : {}),
    ...(own ? { serverError: sanitizeServerText(o.redactor.redact(own), EXCERPT_CHARS) } : {})
  }
}

/** The server's own error in a JSON body: a running server's word, never a platform's page. */
function serverError(body: string): string | undefined {
  const parsed = jsonOf(body)
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined
  const { error, ok } = parsed as { error?: unknown; ok?: unknown }
  if (typeof error === 'string' && error.trim()) return error
  if (error && typeof error === 'object') return JSON.stringify(error)
  return ok === false ? 'ok: false' : undefined
}

function excerptOf(res: ProbeResponse, url: URL, redactor: Redactor): string {
  if (res.status >= 300 && res.status < 400) {
    const where = `redirect to ${redirectHost(res.location, url)}, not followed`
    return sanitizeServerText(redactor.redact(where), EXCERPT_CHARS)
  }
  // Redacted before it is cut: a cut through a secret would hide it from the redactor.
  return sanitizeServerText(redactor.redact(res.body), EXCERPT_CHARS)
}

function describeError(err: unknown, redactor: Redactor): string {
  if (err instanceof ProbeTimeoutError) return err.message
  const e = err as NodeJS.ErrnoException
  const text =
    e.code === 'ECONNRESET'
      ? 'the connection was reset'
      : e.code === 'ECONNREFUSED'
        ? 'the connection was refused'
        : e.code
          ? `no answer (${e.code})`
          : `no answer (${e instanceof Error ? e.message : String(err)})`
  return sanitizeServerText(redactor.redact(text), EXCERPT_CHARS)
}
