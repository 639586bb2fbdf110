// Polls one revision until it is DEPLOYED, failed, superseded, or the deadline: fast at the start
// and after each change, backing off while nothing changes, tight past the build (when a slow poll
// costs the pipeline time), and during a build a share of the time waited, so that a short build
// cannot hide a short deploy stage in one long pause (bench/RESULTS.md measures it).
import { ApiError, AbortedError } from '../../../control-plane/errors.ts'
import type { Clock } from '../../../clock.ts'
import { formatDuration } from '../../../duration.ts'
import type { Revision } from '../../../control-plane/schema.ts'
import { REVISION_STATUSES, revisionOutcome } from '../../../control-plane/vocabulary.ts'
import type { CallOptions } from '../../../control-plane/client-options.ts'

export interface RevisionReader {
  getRevision(deploymentId: string, revisionId: string, call?: CallOptions): Promise<Revision>
}

export interface Cadence {
  /** First pause, and the shortest pause after a change of status. */
  initialMs: number
  /** Each unchanged poll multiplies the pause by this, up to the poll interval. */
  factor: number
  /** After a change, the pause restarts at this share of the time waited so far (if longer). */
  restartShare: number
  /** Past the build, no pause is longer than this share of the time waited so far. */
  nearDoneShare: number
  /** During the build, no pause is longer than this share of the time waited (or the floor). */
  buildShare: number
  buildFloorMs: number
}

export const DEFAULT_CADENCE: Cadence = {
  initialMs: 1000,
  factor: 2,
  restartShare: 0.03,
  nearDoneShare: 0.03,
  buildShare: 0.2,
  buildFloorMs: 2000
}

/** Stages from which the revision cannot become DEPLOYED at the next poll. */
const EARLY_STATUSES = new Set(['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING'])
const BUILD_STATUSES = new Set(['AWAITING_BUILD', 'BUILDING'])

export interface WaitOptions {
  client: RevisionReader
  deploymentId: string
  revisionId: string
  timeoutMs: number
  pollIntervalMs: number
  cadence?: Cadence
  /** Consecutive failed polls (each already retried by the client) before giving up. */
  maxConsecutiveErrors?: number
  signal?: AbortSignal
  /** The run's clock: the polls' pauses and the timeout. */
  clock: Clock
  /** How long a 404 is taken for a read not caught up with the write (NOT_FOUND_GRACE_MS). */
  notFoundGraceMs?: number
  onStatus?: (status: string, elapsedMs: number) => void
  /** While nothing changes, at least every `progressEveryMs`: the status and the time waited. */
  onProgress?: (status: string | undefined, elapsedMs: number) => void
  /** Default PROGRESS_EVERY_MS. */
  progressEveryMs?: number
  /** After each read that does not end the wait: where the build's log is followed. */
  afterPoll?: (status: string, deadline: number) => Promise<void>
  /** Once, for the first status that is not one the service documents. */
  onUnknownStatus?: (status: string) => void
  onPollError?: (error: unknown, consecutive: number) => void
}

import type { TimelineEntry } from '../../../interface/journal.ts'

export type WaitOutcome = 'deployed' | 'failed' | 'skipped' | 'timeout' | 'cancelled' | 'error'

export interface WaitResult {
  outcome: WaitOutcome
  status: string | undefined
  revision: Revision | undefined
  timeline: TimelineEntry[]
  polls: number
  elapsedMs: number
  /** The last poll error, for a run that ends in `error` or with errors before the timeout. */
  lastError: unknown
  /** The last error status the control plane answered (a 429 says more than the deadline after it). */
  lastApiError: ApiError | undefined
}

/** The poll sent at the deadline may take this long to answer. */
const FINAL_POLL_GRACE_MS = 2000

/**
 * Until a status is read, a poll may take this long from the start, however short the timeout: a
 * timeout with no status says nothing. Short: a stalling server keeps the run past it by this much.
 */
export const FIRST_READ_MS = 10_000

/** A long wait says where it is at least this often: a silent log looks like a hung job. */
export const PROGRESS_EVERY_MS = 30_000

/** Statuses after which polling again cannot help: wrong key, tenant, ids or request. */
const FINAL_HTTP = new Set([400, 401, 403, 404, 422])

/** A replica may lag the write by seconds; a wrong id or tenant still fails soon after. */
export const NOT_FOUND_GRACE_MS = 10_000

const KNOWN_STATUSES: ReadonlySet<string> = new Set(REVISION_STATUSES)

/** The pause after a poll; past the build a share of the time waited, so DEPLOYED is seen soon. */
export function nextPause(
  previousMs: number,
  changed: boolean,
  status: string | undefined,
  elapsedMs: number,
  pollIntervalMs: number,
  c: Cadence
): number {
  let pause = changed ? Math.max(c.initialMs, c.restartShare * elapsedMs) : previousMs * c.factor
  if (status === undefined || !EARLY_STATUSES.has(status))
    pause = Math.min(pause, Math.max(c.initialMs, c.nearDoneShare * elapsedMs))
  else if (BUILD_STATUSES.has(status))
    pause = Math.min(pause, Math.max(c.buildFloorMs, c.buildShare * elapsedMs))
  return Math.round(Math.min(pause, pollIntervalMs))
}

/** What one wait knows as it polls. */
interface Polling extends Omit<WaitResult, 'outcome' | 'elapsedMs'> {
  now: () => number
  cadence: Cadence
  start: number
  deadline: number
  errors: number
  unknownSeen: boolean
  pause: number
  /** When the last status or progress line was said. */
  saidAt: number
}

/** How one poll went: the end of the wait, or whether the status changed (and a Retry-After). */
type Step = { end: WaitOutcome } | { end?: undefined; changed: boolean; retryAfterMs?: number }

export async function waitForRevision(o: WaitOptions): Promise<WaitResult> {
  const { now, sleep } = o.clock
  const cadence = o.cadence ?? DEFAULT_CADENCE
  const start = now()
  const p: Polling = {
    now,
    cadence,
    start,
    deadline: start + o.timeoutMs,
    timeline: [],
    status: undefined,
    revision: undefined,
    polls: 0,
    errors: 0,
    lastError: undefined,
    lastApiError: undefined,
    unknownSeen: false,
    pause: Math.min(cadence.initialMs, o.pollIntervalMs) / cadence.factor,
    saidAt: start
  }
  for (;;) {
    if (o.signal?.aborted) return resultOf(p, 'cancelled')
    p.polls++
    const step = await pollOnce(o, p)
    if (step.end) return resultOf(p, step.end)
    if (now() >= p.deadline) return resultOf(p, 'timeout')
    const wait = nextWait(o, p, step.changed, step.retryAfterMs)
    if (wait === undefined) return resultOf(p, 'error')
    try {
      await pauseSaying(o, p, wait, sleep)
    } catch {
      return resultOf(p, 'cancelled')
    }
  }
}

/** Says the progress when it is due. */
function progressIfDue(o: WaitOptions, p: Polling): void {
  if (!o.onProgress) return
  const now = p.now()
  if (now - p.saidAt < (o.progressEveryMs ?? PROGRESS_EVERY_MS)) return
  p.saidAt = now
  o.onProgress(p.status, now - p.start)
}

/** The pause, cut where a progress line is due (a long pause must not leave the log silent). */
async function pauseSaying(
  o: WaitOptions,
  p: Polling,
  ms: number,
  sleep: WaitOptions['clock']['sleep']
): Promise<void> {
  const end = p.now() + ms
  const every = o.progressEveryMs ?? PROGRESS_EVERY_MS
  while (o.onProgress && p.saidAt + every < end) {
    const due = p.saidAt + every
    await sleep(Math.max(0, due - p.now()), o.signal)
    // A clock that did not move (a test's) must not spin here.
    if (p.now() < due) break
    progressIfDue(o, p)
  }
  await sleep(Math.max(0, end - p.now()), o.signal)
}

function resultOf(p: Polling, outcome: WaitOutcome): WaitResult {
  const { status, revision, timeline, polls, lastError, lastApiError } = p
  const elapsedMs = p.now() - p.start
  return { outcome, status, revision, timeline, polls, elapsedMs, lastError, lastApiError }
}

async function pollOnce(o: WaitOptions, p: Polling): Promise<Step> {
  let revision: Revision
  try {
    const end = p.status === undefined ? Math.max(p.deadline, p.start + FIRST_READ_MS) : p.deadline
    revision = await o.client.getRevision(o.deploymentId, o.revisionId, {
      deadline: end + FINAL_POLL_GRACE_MS
    })
  } catch (err) {
    return pollFailed(o, p, err)
  }
  p.revision = revision
  p.errors = 0
  const changed = revision.status !== p.status
  if (changed) {
    p.status = revision.status
    const elapsedMs = p.now() - p.start
    p.timeline.push({ status: p.status, elapsedMs })
    p.saidAt = p.now()
    o.onStatus?.(p.status, elapsedMs)
    if (!KNOWN_STATUSES.has(p.status) && !p.unknownSeen) {
      p.unknownSeen = true
      o.onUnknownStatus?.(p.status)
    }
  }
  const outcome = revisionOutcome(revision.status)
  if (outcome !== 'in_progress') return { end: outcome }
  progressIfDue(o, p)
  await o.afterPoll?.(revision.status, p.deadline)
  return { changed }
}

function pollFailed(o: WaitOptions, p: Polling, err: unknown): Step {
  if (o.signal?.aborted) return { end: 'cancelled' }
  if (err instanceof AbortedError) return { end: p.now() >= p.deadline ? 'timeout' : 'cancelled' }
  p.lastError = err
  if (err instanceof ApiError) p.lastApiError = err
  const early404 =
    err instanceof ApiError &&
    err.status === 404 &&
    p.status === undefined &&
    p.now() - p.start < (o.notFoundGraceMs ?? NOT_FOUND_GRACE_MS)
  if (err instanceof ApiError && FINAL_HTTP.has(err.status) && !early404) return { end: 'error' }
  // A 404 in the grace period is not a failing service: it does not use up the error budget.
  if (!early404) p.errors++
  o.onPollError?.(err, Math.max(p.errors, 1))
  if (p.errors >= (o.maxConsecutiveErrors ?? 6)) return { end: 'error' }
  return { changed: false, retryAfterMs: err instanceof ApiError ? err.retryAfterMs : undefined }
}

/** The pause before the next poll; undefined when the server asks to wait past the deadline. */
function nextWait(
  o: WaitOptions,
  p: Polling,
  changed: boolean,
  retryAfterMs: number | undefined
): number | undefined {
  const elapsed = p.now() - p.start
  p.pause = nextPause(p.pause, changed, p.status, elapsed, o.pollIntervalMs, p.cadence)
  if (retryAfterMs !== undefined) {
    // Before the server's Retry-After a poll is refused again; past the deadline none can help.
    if (p.now() + retryAfterMs >= p.deadline) {
      p.lastError = new RetryPastDeadlineError(p.lastError, retryAfterMs)
      return undefined
    }
    p.pause = Math.max(p.pause, retryAfterMs)
  }
  // The last poll lands on the deadline rather than a whole pause after it.
  return Math.max(0, Math.min(p.pause, p.deadline - p.now()))
}

/** The control plane asked to wait past the deadline: no further poll could help. */
export class RetryPastDeadlineError extends Error {
  constructor(cause: unknown, retryAfterMs: number) {
    const text = cause instanceof Error ? cause.message.split('\n')[0] : String(cause)
    super(
      `${text} (the control plane asks to wait ${formatDuration(retryAfterMs)}, past the deadline)`,
      { cause }
    )
    this.name = 'RetryPastDeadlineError'
  }
}
