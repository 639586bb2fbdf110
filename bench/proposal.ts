// The proposed cadence: the current one, plus a bound on the pause while the revision is waiting
// for or running its build, plus a later restart after a change of status. Simulated through
// the real `waitForRevision`: the cadence fields it has are passed as `cadence`, and the new
// bound is applied to the wait it asks for (`sleep`), which gives the same schedule as the bound
// inside `nextPause` (the bound grows by at most 1.2x per poll, the pause by 2x, so clamping the
// wait or the stored pause cannot differ).
import { DEFAULT_CADENCE, type Cadence } from '../src/deploy/wait.ts'
import { table } from './markdown.ts'
import {
  ACTION_POLL_INTERVAL_MS,
  actionPoller,
  isLong,
  pollingRows,
  type PauseBound
} from './polling.ts'
import { pct } from './stats.ts'

export const BUILD_SHARE = 0.2
export const BUILD_FLOOR_MS = 2000
export const PROPOSED_CADENCE: Cadence = { ...DEFAULT_CADENCE, restartShare: 0.03 }

const BUILD_STATUSES = new Set(['AWAITING_BUILD', 'BUILDING'])

export const buildBound: PauseBound = (status, elapsedMs) =>
  status !== undefined && BUILD_STATUSES.has(status)
    ? Math.max(BUILD_FLOOR_MS, BUILD_SHARE * elapsedMs)
    : Infinity

export const proposedPoller = actionPoller(
  PROPOSED_CADENCE,
  'proposed cadence',
  ACTION_POLL_INTERVAL_MS,
  buildBound
)

/** The change to src/deploy/wait.ts that the "proposed cadence" rows simulate. */
export const PROPOSED_DIFF = `\`\`\`diff
--- a/src/deploy/wait.ts
+++ b/src/deploy/wait.ts
@@ export interface Cadence {
   /** Past the build, no pause is longer than this share of the time waited so far. */
   nearDoneShare: number
+  /** While waiting for or running the build, no pause is longer than this share of the time
+   *  waited (or buildFloorMs): a short deploy after the build cannot hide in one long pause. */
+  buildShare: number
+  buildFloorMs: number
 }

 export const DEFAULT_CADENCE: Cadence = {
   initialMs: 1000,
   factor: 2,
-  restartShare: 0.01,
-  nearDoneShare: 0.03
+  restartShare: 0.03,
+  nearDoneShare: 0.03,
+  buildShare: 0.2,
+  buildFloorMs: 2000
 }
+
+const BUILD_STATUSES = new Set(['AWAITING_BUILD', 'BUILDING'])
@@ export function nextPause(
   let pause = changed ? Math.max(c.initialMs, c.restartShare * elapsedMs) : previousMs * c.factor
   if (status === undefined || !EARLY_STATUSES.has(status))
     pause = Math.min(pause, Math.max(c.initialMs, c.nearDoneShare * elapsedMs))
+  else if (BUILD_STATUSES.has(status))
+    pause = Math.min(pause, Math.max(c.buildFloorMs, c.buildShare * elapsedMs))
   return Math.round(Math.min(pause, pollIntervalMs))
 }
\`\`\``

export interface GridResult {
  cadence: Cadence
  delayMet: boolean
  requestsMet: boolean
  worstShareOfAllowed: number
  vsEvery5Worst15: number
}

/**
 * The current fields only (no new bound): initialMs x factor x restartShare, each over the named
 * timelines with the full sweep. Shows whether a change of settings alone could meet both goals.
 */
export async function cadenceGrid(): Promise<GridResult[]> {
  const out: GridResult[] = []
  for (const initialMs of [500, 1000, 2000])
    for (const factor of [1.1, 1.2, 1.3, 1.5, 2, 3])
      for (const restartShare of [0.01, 0.03]) {
        const cadence = { ...DEFAULT_CADENCE, initialMs, factor, restartShare }
        const rows = await pollingRows([actionPoller(cadence)])
        out.push({
          cadence,
          delayMet: rows.every(r => r.delayGoalMet),
          requestsMet: rows.filter(r => isLong(r.cls)).every(r => r.vsEvery5Worst <= 0.4),
          worstShareOfAllowed: Math.max(...rows.map(r => r.worstShareOfAllowed)),
          vsEvery5Worst15: rows.find(r => r.cls === '15 min')!.vsEvery5Worst
        })
      }
  return out
}

export function gridTable(grid: GridResult[]): string {
  const rows = grid
    .filter(g => g.delayMet || g.requestsMet)
    .map(g => [
      g.cadence.initialMs,
      g.cadence.factor,
      g.cadence.restartShare,
      g.worstShareOfAllowed.toFixed(2),
      g.delayMet ? 'yes' : 'no',
      pct(g.vsEvery5Worst15, 1),
      g.requestsMet ? 'yes' : 'no'
    ])
  return table(
    [
      'initialMs',
      'factor',
      'restartShare',
      'Worst delay / allowed',
      'Delay goal',
      '15 min requests / every-5-s',
      'Request goal'
    ],
    rows
  )
}
