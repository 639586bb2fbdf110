// Changes made to a deployment outside this action, for tests and demos of drift and of the
// sweep: a redeploy "from the web app" (a new revision, optionally of another ref or commit), a
// setting or a secret changed by hand, and the time of its last change (for the age rule).
// Through the control API (`outOfBand`) and `POST /_emulator/deployments/{id}/out-of-band`.
import { z } from 'zod'
import {
  Secret,
  SourceConfig,
  SourceRevisionConfigRequest
} from '../../src/control-plane/schema.ts'
import type { Context } from '../state/context.ts'
import { addRevision } from './requests.ts'

export const OutOfBandSpec = z
  .object({
    /** A new revision of the latest one's configuration, these fields changed. */
    redeploy: SourceRevisionConfigRequest.partial().optional(),
    /** Settings changed by hand (no new revision), merged into the current ones. */
    source_config: SourceConfig.partial().optional(),
    /** Secrets replaced by hand (no new revision). */
    secrets: z.array(Secret).optional(),
    /** The deployment's `updated_at` from now on (an ISO date), applied after the rest. */
    updated_at: z.iso.datetime({ offset: true }).optional()
  })
  .strict()
export type OutOfBandSpec = z.input<typeof OutOfBandSpec>

/** Applies `spec` to the deployment; its view afterwards (the new revision's id, when one). */
export function outOfBand(
  ctx: Context,
  deploymentId: string,
  input: OutOfBandSpec
): { deployment_id: string; revision_id: string | null; updated_at: string } {
  const spec = OutOfBandSpec.parse(input)
  const dep = ctx.store.deployments.get(deploymentId.toLowerCase())
  if (!dep || dep.deleted_v !== null) throw new Error(`No deployment ${deploymentId}.`)
  let revisionId: string | null = null
  if (spec.source_config) dep.source_config = { ...dep.source_config, ...spec.source_config }
  if (spec.secrets) dep.secrets = spec.secrets
  if (spec.redeploy) {
    const latest = ctx.store.latestRevision(dep)
    const config = { ...(latest?.source_revision_config ?? {}), ...spec.redeploy }
    revisionId = addRevision(ctx, dep, latest?.source ?? dep.source, config).id
  }
  dep.updated_ms = spec.updated_at ? Date.parse(spec.updated_at) : ctx.clock.real()
  return {
    deployment_id: dep.id,
    revision_id: revisionId,
    updated_at: new Date(dep.updated_ms).toISOString()
  }
}
