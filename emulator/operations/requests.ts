// What every operation does first: validate its parts (path, query, body) into one FastAPI-style
// 422, find the tenant's deployment (and revision), and add a revision (scripted outcome or
// failure rules).
import type { z } from 'zod'
import { Uuid, type SourceRevisionConfigRequest } from '../../src/control-plane/schema.ts'
import type { Context } from '../state/context.ts'
import { detail, type Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'
import { failureFor, isGone } from '../state/lifecycle.ts'
import { buildFromUpload } from '../builds/source-build.ts'
import type { DeploymentRecord, RevisionRecord, TenantRecord } from '../state/store.ts'
import { bodyMissing, jsonInvalid, toValidationErrors, type Location } from './validation.ts'

export interface Part {
  location: Location
  schema: z.ZodType
  input: unknown
  prefix?: (string | number)[]
}

/** Validates all parts; one 422 lists the issues of every part, as FastAPI does. */
export function validate(
  parts: Part[]
): { ok: true; values: unknown[] } | { ok: false; reply: Reply } {
  const values: unknown[] = []
  const errors = []
  for (const part of parts) {
    const result = part.schema.safeParse(part.input)
    if (result.success) values.push(result.data)
    else
      errors.push(
        ...toValidationErrors(result.error.issues, part.location, part.input, part.prefix)
      )
  }
  if (errors.length > 0) return { ok: false, reply: { status: 422, body: { detail: errors } } }
  return { ok: true, values }
}

export function bodyPart(body: Body, schema: z.ZodType): Part | Reply {
  if (body.kind === 'none') return { status: 422, body: { detail: [bodyMissing()] } }
  if (body.kind === 'invalid') {
    return { status: 422, body: { detail: [jsonInvalid(body.error, body.text)] } }
  }
  return { location: 'body', schema, input: body.value }
}

export const pathPart = (name: string, value: string): Part => ({
  location: 'path',
  schema: Uuid,
  input: value,
  prefix: [name]
})

export const isReply = (x: Part | Reply): x is Reply => 'status' in x

/** The tenant's deployment, unless it is unknown or its deletion has finished. */
function findDeployment(ctx: Context, tenant: TenantRecord, id: string) {
  const dep = ctx.store.deployments.get(id.toLowerCase())
  if (!dep || dep.tenant_id !== tenant.id) return undefined
  return isGone(dep, ctx.durations, ctx.clock.now()) ? undefined : dep
}

const notFound = (id: string) => detail(404, `Deployment ID ${id} not found.`)
const revisionNotFound = (id: string) => detail(404, `Revision ID ${id} not found.`)

/** The deployment (and revision) a request names; `values` are those of its other parts. */
type Located<Rev> =
  { ok: true; dep: DeploymentRecord; rev: Rev; values: unknown[] } | { ok: false; reply: Reply }

/**
 * Validates the deployment id, the revision id when one is named, and the other parts, in one 422;
 * then finds the tenant's deployment and that revision of it, or answers 404.
 */
export function locate(
  ctx: Context,
  tenant: TenantRecord,
  ids: { deployment: string; revision: string },
  parts?: Part[]
): Located<RevisionRecord>
export function locate(
  ctx: Context,
  tenant: TenantRecord,
  ids: { deployment: string },
  parts?: Part[]
): Located<undefined>
export function locate(
  ctx: Context,
  tenant: TenantRecord,
  ids: { deployment: string; revision?: string },
  parts: Part[] = []
): Located<RevisionRecord | undefined> {
  const named = [pathPart('deployment_id', ids.deployment)]
  if (ids.revision !== undefined) named.push(pathPart('revision_id', ids.revision))
  const v = validate([...named, ...parts])
  if (!v.ok) return v
  const values = v.values.slice(named.length)
  const dep = findDeployment(ctx, tenant, ids.deployment)
  if (!dep) return { ok: false, reply: notFound(ids.deployment) }
  if (ids.revision === undefined) return { ok: true, dep, rev: undefined, values }
  const rev = ctx.store.revisions.get(ids.revision.toLowerCase())
  if (!rev || rev.deployment_id !== dep.id) {
    return { ok: false, reply: revisionNotFound(ids.revision) }
  }
  return { ok: true, dep, rev, values }
}

/**
 * What a revision has nothing to build or run from: an `internal_docker` revision without an
 * image, an `internal_source` one without a tarball (the first revision of a deployment that the
 * LangGraph CLI creates before it uploads). The service accepts the request; the revision ends
 * CREATE_FAILED, the stage that prepares the source (docs/decisions.md).
 */
function nothingToBuild(source: string, config: SourceRevisionConfigRequest): string | null {
  if (source === 'internal_docker' && !config.image_uri)
    return 'Revision could not be created: source_revision_config.image_uri is not set, there is no image to deploy'
  if (source === 'internal_source' && !config.source_tarball_path)
    return 'Revision could not be created: source_revision_config.source_tarball_path is not set, there is no source to build'
  return null
}

/** What a revision serves, and why its build fails: an upload is unpacked and its config read. */
function whatItBuilds(
  ctx: Context,
  dep: DeploymentRecord,
  source: string,
  config: SourceRevisionConfigRequest
): Pick<RevisionRecord, 'graphs' | 'build_error' | 'source_files' | 'toolchain'> {
  if (source !== 'internal_source' || !config.source_tarball_path) {
    return { graphs: [...dep.graphs], build_error: null }
  }
  const build = buildFromUpload(ctx.store, config.source_tarball_path, config.graph_config_path)
  return build.ok
    ? {
        graphs: build.graphs,
        build_error: null,
        source_files: build.files,
        toolchain: build.toolchain
      }
    : { graphs: [], build_error: { step: build.step, message: build.message } }
}

export function addRevision(
  ctx: Context,
  dep: DeploymentRecord,
  source: string,
  config: SourceRevisionConfigRequest
) {
  // A scripted outcome (admin `scripts`) comes before the failure rules and the source's own.
  const scripted = ctx.store.takeScript(dep.id)
  const missing = scripted ? null : nothingToBuild(source, config)
  const built = whatItBuilds(ctx, dep, source, config)
  const buildError = scripted ? null : built.build_error
  return ctx.store.addRevision(dep, {
    source,
    source_revision_config: config,
    created_ms: ctx.clock.real(),
    created_v: ctx.clock.now(),
    fails_with: scripted
      ? scripted.outcome === 'DEPLOYED'
        ? null
        : scripted.outcome
      : missing
        ? 'CREATE_FAILED'
        : buildError
          ? 'BUILD_FAILED'
          : failureFor(ctx.failureRules, config.repo_ref, config.image_uri),
    seeded: false,
    status_message: scripted?.status_message ?? null,
    script:
      scripted?.script ??
      (missing ? { log: 'build', lines: [{ message: missing, level: 'ERROR' }] } : null),
    graphs: missing ? [] : built.graphs,
    build_error: buildError,
    ...(built.source_files ? { source_files: built.source_files } : {}),
    ...(built.toolchain ? { toolchain: built.toolchain } : {})
  })
}
