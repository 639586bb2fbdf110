// Waiting for a deployment being deleted to be gone: reads until a 404, within the run's timeout
// (a delete's, and a deploy's that finds its deployment on the way out).
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import { ApiError } from '../../../control-plane/errors.ts'
import { DELETING_STATUSES } from '../../../control-plane/vocabulary.ts'
import { formatDuration } from '../../../duration.ts'
import type { FlowDeps } from '../deps.ts'

const FIRST_PAUSE_MS = 1000
/** The read sent on the deadline may take this long: a timeout is then said as one, not as an error. */
const LAST_READ_GRACE_MS = 10_000

export type GoneResult =
  | { kind: 'gone'; elapsedMs: number }
  /** Still there at the deadline, with its last status. */
  | { kind: 'timeout'; status: string | undefined }

export interface GoneOptions {
  timeoutMs: number
  pollIntervalMs: number
  /** Each status seen, once per change, and the 404 that ends the wait. */
  onStatus?: (status: string, elapsedMs: number) => void
}

export async function waitUntilGone(
  client: ControlPlaneClient,
  id: string,
  opts: GoneOptions,
  deps: Pick<FlowDeps, 'clock' | 'signal'>
): Promise<GoneResult> {
  const { now, sleep } = deps.clock
  const start = now()
  let pause = FIRST_PAUSE_MS
  let last: string | undefined
  for (;;) {
    const status = await statusOf(client, id, start + opts.timeoutMs + LAST_READ_GRACE_MS)
    if (status === undefined) return { kind: 'gone', elapsedMs: now() - start }
    if (status !== last) opts.onStatus?.(status, now() - start)
    last = status
    if (now() - start >= opts.timeoutMs) return { kind: 'timeout', status: last }
    const left = Math.max(0, start + opts.timeoutMs - now())
    await sleep(Math.min(pause, opts.pollIntervalMs, left), deps.signal)
    pause *= 2
  }
}

/** The deployment's status, or undefined once reads answer 404. */
export async function statusOf(
  client: ControlPlaneClient,
  id: string,
  deadline?: number
): Promise<string | undefined> {
  try {
    return (await client.getDeployment(id, { deadline })).status
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined
    throw err
  }
}

/** The log line of the end of the wait. */
export function goneLine(elapsedMs: number): string {
  return `Gone after ${formatDuration(elapsedMs)}: reads answer 404.`
}

/** Whether it was deleted: `gone` (a 404), `AWAITING_DELETE` on its way out; else no claim. */
export async function deletedState(
  client: ControlPlaneClient,
  id: string
): Promise<'gone' | 'AWAITING_DELETE' | undefined> {
  try {
    const d = await client.getDeployment(id)
    return DELETING_STATUSES.includes(d.status) ? 'AWAITING_DELETE' : undefined
  } catch (err) {
    return err instanceof ApiError && err.status === 404 ? 'gone' : undefined
  }
}
