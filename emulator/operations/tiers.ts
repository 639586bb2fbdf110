// Deployment types and sizes as the service has them today (docs/emulator.md, "Deployment types
// and sizes"): `PATCH /v2/deployments/{id}/resource-tiers` sets the compute tier (by the type:
// `SERVERLESS_*` or `DEDICATED_*`) and Dedicated's database tier, and rolls the size out as a new
// revision of the latest one's source. (Reads that answer a type in its legacy word: state/views.ts.)
import { ResourceTiersRequest } from '../../src/control-plane/schema.ts'
import { kindOf } from '../../src/control-plane/vocabulary.ts'
import type { Context } from '../state/context.ts'
import { detail, type Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'
import { addRevision, bodyPart, isReply, locate } from './requests.ts'
import type { DeploymentRecord, TenantRecord } from '../state/store.ts'
import { deploymentView } from '../state/views.ts'

/** Why this resize is refused (400), or null. */
function tierProblem(dep: DeploymentRecord, req: ResourceTiersRequest): string | null {
  const kind = kindOf(dep.deployment_type)
  if (!kind) return `Deployment ID ${dep.id} has no resource tiers (source '${dep.source}').`
  const compute = req.compute_tier
  if (compute && !compute.startsWith(`${kind.toUpperCase()}_`))
    return `compute_tier '${compute}' is not a tier of a ${kind} deployment: use ${kind.toUpperCase()}_S, ${kind.toUpperCase()}_M or ${kind.toUpperCase()}_L.`
  if (req.database_tier && kind === 'serverless')
    return 'database_tier applies only to dedicated deployments: a serverless deployment shares its database.'
  if (dep.revision_ids.length === 0) return `Deployment ID ${dep.id} has no revision to resize yet.`
  return null
}

/** `PATCH .../resource-tiers`: the new tiers, and a new revision of the latest one; 200 with the deployment. */
export function setResourceTiers(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  body: Body
): Reply {
  const part = bodyPart(body, ResourceTiersRequest)
  if (isReply(part)) return part
  const found = locate(ctx, tenant, { deployment: deploymentId }, [part])
  if (!found.ok) return found.reply
  const { dep } = found
  const req = found.values[0] as ResourceTiersRequest
  if (dep.deleted_v !== null) return detail(400, `Deployment ID ${dep.id} is being deleted.`)
  const problem = tierProblem(dep, req)
  if (problem) return detail(400, problem)
  if (req.compute_tier) dep.compute_tier = req.compute_tier
  if (req.database_tier) dep.database_tier = req.database_tier
  const latest = ctx.store.latestRevision(dep)!
  addRevision(ctx, dep, latest.source, { ...latest.source_revision_config })
  dep.updated_ms = ctx.clock.real()
  return { status: 200, body: deploymentView(ctx, dep) }
}
