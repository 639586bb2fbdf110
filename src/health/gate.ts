// The health gate: after DEPLOYED, ask the agent server itself. Until its first 2xx the probes go
// on (about every interval) until the deadline; from the first 2xx on, every probe for the window
// must be 2xx. Every probe answering 404 means the server's health routes are turned off:
// `unavailable`, which is not a failure. Each answer is redacted and cut short before it is kept.
import { Redactor, sanitizeServerText } from '../control-plane/redact.ts'
import type { Clock } from '../clock.ts'
import { httpProbe, ProbeTimeoutError, type ProbeResponse, type ProbeTransport } from './probe.ts'
import { probeTarget } from './target.ts'

export type Health = 'healthy' | 'unhealthy' | 'unavailable'

export interface ProbeAnswer {
  /** The HTTP status; null when no answer came (timeout, reset, refused). */
  status: number | null
  /** What came back, redacted and short: the body's start, a redirect's host, or the error. */
  excerpt: string
}

export interface HealthResult {
  /** `cancelled` when the signal aborted the check. */
  health: Health | 'cancelled'
  probes: number
  /** The last few answers, oldest first. */
  answers: ProbeAnswer[]
  /** Why it is unhealthy, in words for the job log. */
  reason?: string
  elapsedMs: number
}

export interface HealthCheckOptions {
  /** The deployment's custom_url. */
  url: string | null | undefined
  /** `/ok` or the path (with its query) given by health-check. */
  path: string
  apiKey: string
  /** Epoch ms: no probe starts after it while no 2xx has come. */
  deadline: number
  windowMs: number
  intervalMs?: number
  /** The longest one probe may take (default 10 s). */
  probeTimeoutMs?: number
  redactor: Redactor
  signal?: AbortSignal
  /** The run's clock: the window, the deadline and the pauses between probes. */
  clock: Clock
  transport?: ProbeTransport
  /** Told after every probe, with its number (from 1) and its answer. */
  onProbe?: (n: number, answer: ProbeAnswer) => void
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

export async function checkHealth(o: HealthCheckOptions): Promise<HealthResult> {
  const target = probeTarget(o.url, o.path)
  if ('problem' in target) throw new HealthTargetError(o.redactor.redact(target.problem))
  const url = target.url
  const { now, sleep } = o.clock
  const interval = o.intervalMs ?? DEFAULT_PROBE_INTERVAL_MS
  const start = now()
  const answers: ProbeAnswer[] = []
  let probes = 0
  let only404 = true
  let windowEnd: number | undefined

  const result = (health: HealthResult['health'], reason?: string): HealthResult => ({
    health,
    probes,
    answers: answers.slice(-KEPT),
    ...(reason ? { reason } : {}),
    elapsedMs: now() - start
  })

  for (;;) {
    if (o.signal?.aborted) return result('cancelled')
    const answer = await probeOnce(o, url)
    if (o.signal?.aborted) return result('cancelled')
    probes++
    answers.push(answer)
    o.onProbe?.(probes, answer)
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300
    if (answer.status !== 404) only404 = false

    if (windowEnd !== undefined && !ok)
      return result('unhealthy', `probe ${probes} failed after the agent server had answered 2xx`)
    if (windowEnd === undefined && ok) windowEnd = now() + o.windowMs
    if (windowEnd === undefined && only404 && probes >= UNAVAILABLE_AFTER)
      return result('unavailable')

    const end = windowEnd ?? o.deadline
    if (now() >= end) {
      if (windowEnd !== undefined) return result('healthy')
      if (only404) return result('unavailable')
      return result('unhealthy', `no probe answered 2xx before the timeout (${probes} probes)`)
    }
    try {
      await sleep(Math.min(interval, end - now()), o.signal)
    } catch {
      return result('cancelled')
    }
  }
}

/**
 * One probe, bounded by the probe timeout even at the deadline: the check ends at most that long
 * after the deadline (or the window), and a slow last answer is still read whole.
 */
async function probeOnce(o: HealthCheckOptions, url: URL): Promise<ProbeAnswer> {
  const transport = o.transport ?? httpProbe
  const timeoutMs = o.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS
  let res: ProbeResponse
  try {
    res = await transport({
      url,
      headers: { 'x-api-key': o.apiKey, accept: 'application/json' },
      timeoutMs,
      ...(o.signal ? { signal: o.signal } : {})
    })
  } catch (err) {
    return { status: null, excerpt: describeError(err, o.redactor) }
  }
  return { status: res.status, excerpt: excerptOf(res, url, o.redactor) }
}

function excerptOf(res: ProbeResponse, url: URL, redactor: Redactor): string {
  if (res.status >= 300 && res.status < 400) {
    let where = 'nowhere (no Location)'
    if (res.location) {
      try {
        where = new URL(res.location, url).host
      } catch {
        where = 'an invalid Location'
      }
    }
    return sanitizeServerText(redactor.redact(`redirect to ${where}, not followed`), EXCERPT_CHARS)
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
