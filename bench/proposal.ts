// The cadence before the change that src/deploy/wait.ts adopted (a bound on the pause while the
// revision waits for or runs its build, and a later restart after a change of status), kept so
// that the polling section can show the table before and after. It runs through the real
// `waitForRevision` and `nextPause`, passed as `cadence`: "no build bound" is a floor of Infinity
// (with `buildShare: Infinity` instead, the bound would be Infinity x 0 = NaN at 0 ms waited).
import type { Cadence } from '../src/deploy/wait.ts'
import { table } from './markdown.ts'
import { actionPoller, isLong, pollingRows } from './polling.ts'
import { pct } from './stats.ts'

export const BEFORE_CADENCE: Cadence = {
  initialMs: 1000,
  factor: 2,
  restartShare: 0.01,
  nearDoneShare: 0.03,
  buildShare: 0,
  buildFloorMs: Infinity
}

export const beforePoller = actionPoller(BEFORE_CADENCE, 'before the change')

/** A cadence as text, with "none" for a bound that never applies. */
export const cadenceText = (c: Cadence): string =>
  Object.entries(c)
    .map(([k, v]) => `${k}: ${Number.isFinite(v) ? v : 'none'}`)
    .join(', ')

/** The change to src/deploy/wait.ts between the "before the change" rows and the current ones. */
export const APPLIED_DIFF = `\`\`\`diff
--- a/src/deploy/wait.ts
+++ b/src/deploy/wait.ts
@@ export interface Cadence {
   /** Past the build, no pause is longer than this share of the time waited so far. */
   nearDoneShare: number
+  /**
+   * While the build is awaited or runs, no pause is longer than this share of the time waited
+   * (or \`buildFloorMs\`): a short deploy stage after a short build must not hide in one long pause.
+   */
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

 /** Stages from which the revision cannot become DEPLOYED at the next poll. */
 const EARLY_STATUSES = new Set(['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING'])
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
 * The fields of the cadence before the change (no build bound): initialMs x factor x
 * restartShare, each over the named timelines with the full sweep. Shows why the change added a
 * bound rather than other settings: settings alone could not meet both goals.
 */
export async function cadenceGrid(): Promise<GridResult[]> {
  const out: GridResult[] = []
  for (const initialMs of [500, 1000, 2000])
    for (const factor of [1.1, 1.2, 1.3, 1.5, 2, 3])
      for (const restartShare of [0.01, 0.03]) {
        const cadence = { ...BEFORE_CADENCE, initialMs, factor, restartShare }
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
