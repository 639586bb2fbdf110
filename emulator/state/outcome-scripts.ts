// Scripted outcomes: make the next revision (or a given one still in progress) fail its build or
// its deploy, or succeed, with given log lines, so failure diagnostics can be tested end to end.
import { z } from 'zod'
import { Uuid } from '../../src/control-plane/schema.ts'
import type { Context } from './context.ts'
import { FAILS_AFTER, revisionState, STAGES, TERMINAL } from './lifecycle.ts'
import type { PendingScript, RevisionRecord, ScriptedLine } from './store.ts'

const Level = z.enum(['INFO', 'WARNING', 'ERROR'])

export const ScriptSpec = z
  .object({
    outcome: z.enum(['BUILD_FAILED', 'DEPLOY_FAILED', 'CREATE_FAILED', 'DEPLOYED']),
    /** A string is an INFO line, except the last line of a failure, which is its ERROR. */
    logLines: z
      .array(z.union([z.string(), z.object({ message: z.string(), level: Level.default('INFO') })]))
      .default([]),
    /** Which log the lines go into: the failing stage's (default `deploy` for DEPLOY_FAILED). */
    log: z.enum(['build', 'deploy']).optional(),
    /** A revision still in progress; omitted = the next revision created. */
    revisionId: Uuid.optional(),
    /** With no `revisionId`: the next revision of this deployment only (default: of any). */
    deploymentId: Uuid.optional(),
    /** A failure's `status_message` (default: one of the failure's own). */
    statusMessage: z.string().min(1).max(2000).optional()
  })
  .strict()
export type ScriptSpec = z.input<typeof ScriptSpec>

export interface ScriptedOutcome {
  outcome: PendingScript['outcome']
  log: 'build' | 'deploy'
  logLines: ScriptedLine[]
  /** The revision scripted, or null for the next revision (still pending). */
  revisionId: string | null
  deploymentId: string | null
}

const defaultLog = (outcome: string) => (outcome === 'DEPLOY_FAILED' ? 'deploy' : 'build')

function normalize(spec: z.output<typeof ScriptSpec>): PendingScript {
  const log = spec.log ?? defaultLog(spec.outcome)
  if (spec.outcome !== 'DEPLOYED' && log !== defaultLog(spec.outcome)) {
    throw new Error(`The lines of a ${spec.outcome} go into the ${defaultLog(spec.outcome)} log.`)
  }
  const failed = spec.outcome !== 'DEPLOYED'
  const last = spec.logLines.length - 1
  const lines = spec.logLines.map((l, i): ScriptedLine =>
    typeof l === 'string' ? { message: l, level: failed && i === last ? 'ERROR' : 'INFO' } : l
  )
  return {
    deployment_id: spec.deploymentId?.toLowerCase() ?? null,
    outcome: spec.outcome,
    script: lines.length > 0 ? { log, lines } : null,
    status_message: spec.statusMessage ?? null
  }
}

export function describeScript(p: PendingScript, revisionId: string | null): ScriptedOutcome {
  return {
    outcome: p.outcome,
    log: p.script?.log ?? defaultLog(p.outcome),
    logLines: p.script?.lines.map(l => ({ ...l })) ?? [],
    revisionId,
    deploymentId: p.deployment_id
  }
}

/** Why this revision cannot take this outcome any more, or null. */
function tooLate(
  ctx: Context,
  rev: RevisionRecord,
  outcome: PendingScript['outcome']
): string | null {
  const { status } = revisionState(ctx.store, rev, ctx.durations, ctx.clock.now())
  if (TERMINAL.has(status)) {
    return `Revision ${rev.id} has already finished (${status}): script a revision still in progress, or the next one.`
  }
  if (outcome === 'DEPLOYED') return null
  const failStage = FAILS_AFTER[outcome]
  if (STAGES.indexOf(status as never) > STAGES.indexOf(failStage)) {
    return `Revision ${rev.id} is already past ${failStage} (${status}): it cannot end ${outcome}.`
  }
  return null
}

/** Scripts a revision now, or queues the script for the next one; throws with a readable message. */
export function applyScript(ctx: Context, input: ScriptSpec): ScriptedOutcome {
  const spec = ScriptSpec.parse(input)
  const pending = normalize(spec)
  if (spec.revisionId === undefined) {
    if (pending.deployment_id !== null && !ctx.store.deployments.has(pending.deployment_id)) {
      throw new Error(`Deployment ID ${spec.deploymentId} not found.`)
    }
    ctx.store.pendingScripts.push(pending)
    return describeScript(pending, null)
  }
  const rev = ctx.store.revisions.get(spec.revisionId.toLowerCase())
  if (!rev || (pending.deployment_id !== null && rev.deployment_id !== pending.deployment_id)) {
    throw new Error(`Revision ID ${spec.revisionId} not found.`)
  }
  const problem = tooLate(ctx, rev, spec.outcome)
  if (problem) throw new Error(problem)
  rev.fails_with = spec.outcome === 'DEPLOYED' ? null : spec.outcome
  rev.script = pending.script
  rev.status_message = pending.status_message
  return describeScript({ ...pending, deployment_id: rev.deployment_id }, rev.id)
}
