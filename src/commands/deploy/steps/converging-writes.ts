// Writes that converge. A create or patch whose answer was lost may still have been applied, so
// the state is read back before anything is sent again: never two deployments, never a blind
// second patch.
import type { Say } from '../../../interface/naming.ts'
import type { FlowLog } from '../../../log.ts'
import type { Clock } from '../../../clock.ts'
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import {
  ApiError,
  OtherResourceError,
  OutcomeUnknownError,
  UnexpectedResponseError
} from '../../../control-plane/errors.ts'
import type {
  CreateDeploymentRequest,
  Deployment,
  PatchDeploymentRequest
} from '../../../control-plane/schema.ts'
import { stop, stopped, type Stop } from '../../../interface/ending.ts'
import { isAgentEnvironmentHeld } from './agent-environment.ts'
import { findDeploymentByName } from './find-deployment.ts'

/** Sends of one write in all, the first included (as many as the transport's attempts). */
const MAX_WRITE_ATTEMPTS = 5

/** The run's clock's `now` (reading back after a lost answer is bounded in time). */
export type Now = Clock['now']

export type Notes = Pick<FlowLog, 'info' | 'warning'>

export type CreateResult =
  /** This run created it (possibly learnt by reading it back after a lost answer). */
  | { kind: 'created'; deployment: Deployment }
  /** Another run created it first (a race on the name): it is ours to update. */
  | { kind: 'taken'; deployment: Deployment }

/** Another deployment holds the name's agent environment: `free` to send the create again. */
export type OnHeld = (detail: string) => Promise<'free' | Stop>

export async function createOrAdopt(
  client: ControlPlaneClient,
  body: CreateDeploymentRequest,
  notes: Notes,
  now: Now,
  say: Say,
  onHeld?: OnHeld
): Promise<CreateResult | Stop> {
  let maybeApplied = false
  for (let attempt = 1; ; attempt++) {
    try {
      return { kind: 'created', deployment: await client.createDeployment(body) }
    } catch (err) {
      if (err instanceof ApiError && isNameTaken(err)) {
        const existing = await findDeploymentByName(client, body.name, say)
        if (stopped(existing)) return existing
        if (existing && maybeApplied && isWhatWasAsked(existing, body)) {
          // Our earlier send landed late (or another run asked for the very same): nothing to do.
          notes.info(
            `Deployment "${body.name}" exists (${existing.id}) as this run asked: an earlier try of the create went through.`
          )
          return { kind: 'created', deployment: existing }
        }
        if (existing) {
          notes.info(
            `Deployment "${body.name}" was created by another run at the same time: updating it.`
          )
          return { kind: 'taken', deployment: existing }
        }
        if (!isAgentEnvironmentHeld(err)) return nameHeldError(body.name, err, say)
        const held = await (onHeld ?? heldElsewhere(body.name))(err.detail)
        if (stopped(held)) return held
        notes.info(`Sending the create of "${body.name}" again: its agent environment is free.`)
        continue
      }
      const unknown = outcomeUnknown(err)
      if (!unknown) throw err
      maybeApplied = true
      notes.warning(`${unknown.message}; looking the name up before trying again.`)
      const existing = await lookBack(client, unknown, now, () =>
        findDeploymentByName(client, body.name, say)
      )
      if (stopped(existing)) return existing
      if (existing) {
        notes.info(`Deployment "${body.name}" exists (${existing.id}): the create went through.`)
        return { kind: 'created', deployment: existing }
      }
      if (attempt >= MAX_WRITE_ATTEMPTS || !(await client.pause(attempt))) throw unknown
      notes.info(
        `Deployment "${body.name}" does not exist: the create was not applied; sending it again.`
      )
    }
  }
}

/** The name is taken, yet no deployment has it: a delete's tracing project left behind. */
function nameHeldError(name: string, err: ApiError, say: Say): Stop {
  const said = /tracing project/i.test(err.detail)
  return stop(
    `Deployment "${name}" cannot be created: the control plane answered ${err.status} (${err.detail.split('\n')[0]}), and no deployment has that name. ` +
      `${said ? 'A' : 'Most likely a'} tracing project named "${name}" remains from a deployment deleted without its tracing project, and holds the name.`,
    `Delete that tracing project in the web app (and delete deployments with ${say.set('delete-tracing-project', true)} so that their names can be used again), or choose another name.`,
    'Name held by a tracing project'
  )
}

/** Without a way to wait: the hold, said. */
function heldElsewhere(name: string): OnHeld {
  return async detail =>
    stop(
      `Deployment "${name}" cannot be created: the control plane answered 409 (${detail}): another deployment holds its agent environment.`,
      undefined,
      'Agent environment held'
    )
}

function isNameTaken(err: ApiError): boolean {
  return err.status === 409 || (err.status === 400 && /already exists/i.test(err.detail))
}

/** A write whose answer did not come or did not fit (a 2xx may have been applied): unknown. */
function outcomeUnknown(err: unknown): OutcomeUnknownError | undefined {
  if (err instanceof OutcomeUnknownError) return err
  // An answer about another deployment is a lie to stop at, not an answer that got lost.
  if (err instanceof UnexpectedResponseError && !(err instanceof OtherResourceError)) {
    return new OutcomeUnknownError(err, `HTTP ${err.status}, ${err.problem}`, { cause: err })
  }
  return undefined
}

/** Whether a deployment found under the name is the one `body` asks for (same source settings). */
function isWhatWasAsked(d: Deployment, body: CreateDeploymentRequest): boolean {
  const same = (asked: object, got: object) =>
    Object.entries(asked).every(
      ([k, v]) =>
        v === undefined ||
        v === null ||
        JSON.stringify(v) === JSON.stringify((got as Record<string, unknown>)[k])
    )
  return (
    d.source === body.source &&
    same(body.source_config, d.source_config) &&
    same(body.source_revision_config, d.source_revision_config)
  )
}

/**
 * Looks for a write that may have been applied: once, or when no answer came in time, for about
 * as long again as the request had (the server may still be at it). A write that lands later
 * still makes a second one: the interface has no idempotency key.
 */
async function lookBack<T>(
  client: ControlPlaneClient,
  unknown: OutcomeUnknownError,
  now: Now,
  look: () => Promise<T | undefined>
): Promise<T | undefined> {
  const found = await look()
  if (found !== undefined || !unknown.pending) return found
  const until = now() + client.requestTimeoutMs
  for (let i = 0; now() < until; i++) {
    const pause = Math.min(1000 * 2 ** i, until - now())
    if (pause <= 0 || !(await client.pause(i + 1, pause))) return undefined
    const again = await look()
    if (again !== undefined) return again
  }
  return undefined
}

/** A patch, reconciled; one that makes no revision is idempotent, so sent again safely. */
export function patchReconciled(
  client: ControlPlaneClient,
  current: Deployment,
  body: PatchDeploymentRequest,
  newRevision: boolean,
  notes: Notes,
  now: Now
): Promise<Deployment> {
  const patch = () => client.patchDeployment(current.id, body)
  return writeReconciled(client, current, patch, newRevision, 'patch', notes, now)
}

/** Sent until known to have landed: a new `latest_revision_id` after a lost answer, never twice. */
export async function writeReconciled(
  client: ControlPlaneClient,
  current: Deployment,
  write: () => Promise<Deployment>,
  newRevision: boolean,
  what: string,
  notes: Notes,
  now: Now
): Promise<Deployment> {
  const before = current.latest_revision_id
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (err) {
      const unknown = outcomeUnknown(err)
      if (!unknown) throw err
      notes.warning(`${unknown.message}; reading the deployment back before trying again.`)
      if (newRevision) {
        const landed = await lookBack(client, unknown, now, async () => {
          const d = await client.getDeployment(current.id)
          return d.latest_revision_id && d.latest_revision_id !== before ? d : undefined
        })
        if (landed) {
          notes.info(`The ${what} went through: revision ${landed.latest_revision_id} appeared.`)
          return landed
        }
      }
      if (attempt >= MAX_WRITE_ATTEMPTS || !(await client.pause(attempt))) throw unknown
      notes.info(`No new revision appeared: the ${what} was not applied; sending it again.`)
    }
  }
}

/** Pauses of the look for a revision that the write's answer did not name yet. */
export const LATE_REVISION_PAUSES_MS = [1000, 2000, 4000]

/** A write answered with the revision from before: read again for about 7 s for a new one. */
export async function awaitNewRevision(
  client: ControlPlaneClient,
  deploymentId: string,
  before: string | null,
  notes: Notes,
  what: 'update' | 'redeploy' | 'resize' = 'update'
): Promise<Deployment | undefined> {
  notes.info(
    `The ${what}'s answer names no new revision (still ${before ?? 'none'}): reading the deployment again.`
  )
  for (let i = 0; i < LATE_REVISION_PAUSES_MS.length; i++) {
    if (!(await client.pause(i + 1, LATE_REVISION_PAUSES_MS[i]))) return undefined
    const now = await client.getDeployment(deploymentId)
    if (now.latest_revision_id && now.latest_revision_id !== before) {
      notes.info(`Revision ${now.latest_revision_id} appeared for this ${what}.`)
      return now
    }
  }
  return undefined
}

/** The revision a write made: the id the write answered with, read back once if it was null. */
export async function revisionOf(
  client: ControlPlaneClient,
  d: Deployment
): Promise<string | Stop> {
  if (d.latest_revision_id) return d.latest_revision_id
  const again = await client.getDeployment(d.id)
  if (again.latest_revision_id) return again.latest_revision_id
  return stop(
    `The control plane accepted the change to deployment ${d.id} but reports no revision for it.`,
    'Look at the deployment on the control plane; re-run the job to try again.'
  )
}
