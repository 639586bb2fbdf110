// Writes that converge. A create or patch whose answer was lost may still have been applied, so
// the state is read back before anything is sent again: never two deployments, never a blind
// second patch.
import type { ControlPlaneClient } from '../control-plane/client.ts'
import { ApiError, OutcomeUnknownError } from '../control-plane/errors.ts'
import type {
  CreateDeploymentRequest,
  Deployment,
  PatchDeploymentRequest
} from '../control-plane/schema.ts'
import { DeployError } from './deploy-error.ts'
import { findDeploymentByName } from './find-deployment.ts'

const MAX_WRITE_ATTEMPTS = 3

export interface Notes {
  info(line: string): void
  warning(line: string): void
}

export type CreateResult =
  /** This run created it (possibly learnt by reading it back after a lost answer). */
  | { kind: 'created'; deployment: Deployment }
  /** Another run created it first (a race on the name): it is ours to update. */
  | { kind: 'taken'; deployment: Deployment }

export async function createOrAdopt(
  client: ControlPlaneClient,
  body: CreateDeploymentRequest,
  notes: Notes
): Promise<CreateResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { kind: 'created', deployment: await client.createDeployment(body) }
    } catch (err) {
      if (err instanceof ApiError && isNameTaken(err)) {
        const existing = await findDeploymentByName(client, body.name)
        if (existing) {
          notes.info(
            `Deployment "${body.name}" was created by another run at the same time: updating it.`
          )
          return { kind: 'taken', deployment: existing }
        }
        throw err
      }
      if (!(err instanceof OutcomeUnknownError)) throw err
      notes.warning(`${err.message}; looking the name up before trying again.`)
      const existing = await findDeploymentByName(client, body.name)
      if (existing) {
        notes.info(`Deployment "${body.name}" exists (${existing.id}): the create went through.`)
        return { kind: 'created', deployment: existing }
      }
      if (attempt >= MAX_WRITE_ATTEMPTS) throw err
      notes.info(
        `Deployment "${body.name}" does not exist: the create was not applied; sending it again.`
      )
    }
  }
}

function isNameTaken(err: ApiError): boolean {
  return err.status === 409 || (err.status === 400 && /already exists/i.test(err.detail))
}

/**
 * Patches, and when the answer is lost reads the deployment back: a new `latest_revision_id`
 * means the patch was applied and that revision is ours; none means it was not, and it is sent
 * again. A patch that makes no revision is idempotent, so sending it again is safe.
 */
export async function patchReconciled(
  client: ControlPlaneClient,
  current: Deployment,
  body: PatchDeploymentRequest,
  newRevision: boolean,
  notes: Notes
): Promise<Deployment> {
  const before = current.latest_revision_id
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.patchDeployment(current.id, body)
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError)) throw err
      notes.warning(`${err.message}; reading the deployment back before trying again.`)
      const now = await client.getDeployment(current.id)
      if (newRevision && now.latest_revision_id && now.latest_revision_id !== before) {
        notes.info(`The patch went through: revision ${now.latest_revision_id} appeared.`)
        return now
      }
      if (attempt >= MAX_WRITE_ATTEMPTS) throw err
      notes.info('No new revision appeared: the patch was not applied; sending it again.')
    }
  }
}

/** The revision a write made: the id the write answered with, read back once if it was null. */
export async function revisionOf(client: ControlPlaneClient, d: Deployment): Promise<string> {
  if (d.latest_revision_id) return d.latest_revision_id
  const again = await client.getDeployment(d.id)
  if (again.latest_revision_id) return again.latest_revision_id
  throw new DeployError(
    `The control plane accepted the change to deployment ${d.id} but reports no revision for it.`,
    'Look at the deployment on the control plane; re-run the job to try again.'
  )
}
