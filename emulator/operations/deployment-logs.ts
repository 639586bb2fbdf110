// The deploy log of a deployment as a whole (`POST /v1/projects/{id}/deploy_logs`, the default of
// `langgraph deploy logs`): every revision's deploy log, then what the running server prints. Like
// the revision logs it is computed from the clock when read, so it keeps growing while a revision
// is live, which is what a reader that follows the log waits for.
import type { Context } from '../state/context.ts'
import { revisionState } from '../state/lifecycle.ts'
import { revisionLogs, type LogEntry } from '../builds/logs.ts'
import type { DeploymentRecord } from '../state/store.ts'

/** Virtual ms between two health checks of a live revision (5 s at speed 1). */
export const HEALTH_CHECK_EVERY_MS = 5000
/** The newest health-check lines kept per revision: a long-lived emulator stays small. */
const MAX_HEALTH_LINES = 5000

/** The health checks a revision answered while it was the live one, as log lines. */
function healthLines(ctx: Context, revId: string, from: number, until: number): LogEntry[] {
  const count = Math.max(0, Math.floor((until - from) / HEALTH_CHECK_EVERY_MS))
  const first = Math.max(1, count - MAX_HEALTH_LINES + 1)
  const out: LogEntry[] = []
  for (let k = first; k <= count; k++) {
    out.push({
      id: `${revId}:runtime:${k}`,
      timestamp: new Date(ctx.clock.toReal(from + k * HEALTH_CHECK_EVERY_MS)).toISOString(),
      message: '"GET /ok HTTP/1.1" 200',
      level: 'INFO'
    })
  }
  return out
}

/** The deployment's deploy log as of now, oldest first. */
export function deploymentDeployLog(ctx: Context, dep: DeploymentRecord): LogEntry[] {
  const now = ctx.clock.now()
  const revisions = dep.revision_ids.map(id => ctx.store.revisions.get(id)!)
  const deployedAt = revisions.map(r => revisionState(ctx.store, r, ctx.durations, now).deployed_v)
  const lines: LogEntry[] = []
  revisions.forEach((rev, i) => {
    lines.push(...(revisionLogs(ctx, rev).deploy ?? []))
    const from = deployedAt[i]
    if (from === null || from === undefined) return
    // Live until a later revision is deployed.
    const replaced = deployedAt.slice(i + 1).find(v => v !== null && v !== undefined && v > from)
    lines.push(...healthLines(ctx, rev.id, from, Math.min(now, replaced ?? now)))
  })
  // Stable: lines of the same instant keep their order.
  return lines
    .map((line, i) => ({ line, i, t: Date.parse(line.timestamp) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map(x => x.line)
}
