// Operations the service's real clients use that its published description does not show
// (docs/emulator.md, "Real clients"): create a revision
// (the Terraform provider's update), the push token and the upload URL (the LangGraph CLI's local
// and remote builds), and the lists of integrations.
import { randomBytes, randomUUID } from 'node:crypto'
import { CreateRevisionRequest } from '../../src/control-plane/schema.ts'
import type { Context } from '../state/context.ts'
import { detail, type Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'
import { applyUpdate } from './interface.ts'
import { bodyPart, isReply, locate } from './requests.ts'
import type { TenantRecord } from '../state/store.ts'
import { revisionView } from '../state/views.ts'

/** Where the push token lets a client push: a registry on this machine (`registry:2` on 5000). */
export const LOOPBACK_REGISTRY = '127.0.0.1:5000'

/**
 * `POST /v2/deployments/{id}/revisions`: a new revision from the body, whatever it holds; secrets
 * and settings applied as a PATCH applies them. 201 with the revision.
 */
export function createRevision(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  body: Body
): Reply {
  const part = bodyPart(body, CreateRevisionRequest)
  if (isReply(part)) return part
  const found = locate(ctx, tenant, { deployment: deploymentId }, [part])
  if (!found.ok) return found.reply
  const req = found.values[0] as CreateRevisionRequest
  const applied = applyUpdate(ctx, tenant, found.dep, req, { alwaysRevision: true })
  if ('status' in applied) return applied
  return { status: 201, body: revisionView(ctx, applied.revision!) }
}

/** The push token and upload URL each serve one source; the CLI reads this detail. */
function onlyFor(source: string, what: string): Reply {
  return detail(400, `${what} is only available for '${source}' source deployments.`)
}

/** `POST /v2/deployments/{id}/push-token`: a registry login for an `internal_docker` image. */
export function pushToken(ctx: Context, tenant: TenantRecord, deploymentId: string): Reply {
  const found = locate(ctx, tenant, { deployment: deploymentId })
  if (!found.ok) return found.reply
  if (found.dep.source !== 'internal_docker') return onlyFor('internal_docker', 'A push token')
  return {
    status: 200,
    body: {
      token: `emulator-push-${randomBytes(16).toString('hex')}`,
      registry_url: `${LOOPBACK_REGISTRY}/${found.dep.tenant_id}`
    }
  }
}

/**
 * `POST /v2/deployments/{id}/upload-url`: a URL on this emulator that takes one PUT of a tarball
 * (builds/uploads.ts), and the object path a PATCH then names as `source_tarball_path`.
 */
export function uploadUrl(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  origin: string
): Reply {
  const found = locate(ctx, tenant, { deployment: deploymentId })
  if (!found.ok) return found.reply
  const { dep } = found
  if (dep.source !== 'internal_source') return onlyFor('internal_source', 'An upload URL')
  const token = randomBytes(16).toString('hex')
  const objectPath = `uploads/${dep.tenant_id}/${dep.id}/${randomUUID()}.tar.gz`
  ctx.store.addUpload({
    object_path: objectPath,
    token,
    deployment_id: dep.id,
    bytes: null,
    data: null
  })
  return {
    status: 200,
    body: {
      upload_url: `${origin}/_uploads/${objectPath}?signature=${token}`,
      object_path: objectPath
    }
  }
}

/** `GET /v1/integrations/{forge/,}codehost/install`: the tenant's integrations. */
export function listIntegrations(ctx: Context, tenant: TenantRecord): Reply {
  const mine = [...ctx.store.integrations.values()].filter(i => i.tenant_id === tenant.id)
  return {
    status: 200,
    body: mine.map((i, n) => ({
      id: i.id,
      installation_id: 50_000_000 + n,
      name: i.repositories[0]?.owner ?? tenant.name ?? 'emulator'
    }))
  }
}
