// The seven operations of the interface. Each validates its request with the client's zod model
// (schema.ts), applies the service's rules (docs/control-plane.md) and returns a Reply. Everything
// between validation and the state change is synchronous, so concurrent requests cannot interleave.
import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import {
  CreateDeploymentRequest,
  ListDeploymentsQuery,
  PatchDeploymentRequest,
  type Secret,
  type SecretReference,
  type Source,
  type SourceConfig,
  type SourceRevisionConfigRequest
} from '../../src/control-plane/schema.ts'
import {
  CLOUD_SOURCES,
  CREATE_ONLY_SOURCE_CONFIG_FIELDS,
  DEPLOYMENT_NAME_PATTERN,
  RESERVED_SECRET_NAMES,
  RESERVED_SECRET_NAMES_HOSTED,
  DEFAULT_DEPLOYMENT_TYPE,
  kindOf
} from '../../src/control-plane/vocabulary.ts'
import type { Context } from '../state/context.ts'
import { detail, type Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'
import { deploymentStatus, isGone } from '../state/lifecycle.ts'
import { addRevision, bodyPart, isReply, locate, pathPart, validate } from './requests.ts'
import {
  defaultTiers,
  DEFAULT_GRAPHS,
  normalizeRepoUrl,
  type DeploymentRecord,
  type RevisionRecord,
  type TenantRecord
} from '../state/store.ts'
import { deploymentView, revisionView } from '../state/views.ts'

function sourcesOf(tenant: TenantRecord): readonly Source[] {
  return tenant.self_hosted ? ['external_docker'] : CLOUD_SOURCES
}

function unavailable(source: string): string {
  return source === 'external_docker'
    ? `Source 'external_docker' is only available for self-hosted deployments.`
    : `Source '${source}' is only available for cloud-hosted deployments.`
}

/** The source rules of docs/control-plane.md; a 400 detail naming the problem, or null. */
function checkSource(
  ctx: Context,
  tenant: TenantRecord,
  source: string,
  config: SourceConfig,
  rev: SourceRevisionConfigRequest,
  secretReferences: SecretReference[] | null | undefined,
  what = 'source'
): string | null {
  const required = (field: string) => `${field} is required for ${what} '${source}'.`
  if (source === 'codehost') {
    if (!config.integration_id) return required('source_config.integration_id')
    const integration = ctx.store.integrations.get(config.integration_id)
    if (!integration || integration.tenant_id !== tenant.id) {
      return `Integration ${config.integration_id} not found.`
    }
    if (!config.repo_url) return required('source_config.repo_url')
    const url = normalizeRepoUrl(config.repo_url)
    if (!integration.repositories.some(r => normalizeRepoUrl(r.url) === url)) {
      return `Repository '${config.repo_url}' is not accessible through integration ${integration.id}.`
    }
    if (!rev.repo_ref) return required('source_revision_config.repo_ref')
    if (!rev.graph_config_path) return required('source_revision_config.graph_config_path')
    if (config.build_on_push && rev.repo_ref.startsWith('refs/tags/')) {
      return 'source_config.build_on_push must be false when source_revision_config.repo_ref is a tag.'
    }
  }
  if (source === 'external_docker') {
    if (!config.listener_id) return required('source_config.listener_id')
    const listener = ctx.store.listeners.get(config.listener_id)
    if (!listener || listener.tenant_id !== tenant.id) {
      return `Listener ${config.listener_id} not found.`
    }
    if (!config.listener_config?.k8s_namespace) {
      return required('source_config.listener_config.k8s_namespace')
    }
    if (!rev.image_uri) return required('source_revision_config.image_uri')
  }
  if (source !== 'external_docker' && secretReferences && secretReferences.length > 0) {
    return `secret_references are only supported for source 'external_docker'.`
  }
  return null
}

/** What a revision of another source than the deployment's needs (`revision_source`). */
function checkRevisionSource(
  ctx: Context,
  tenant: TenantRecord,
  source: string,
  config: SourceConfig,
  rev: SourceRevisionConfigRequest
): string | null {
  const required = (field: string) => `${field} is required for revision_source '${source}'.`
  if (source === 'codehost')
    return checkSource(ctx, tenant, source, config, rev, null, 'revision_source')
  if (source === 'internal_docker' && !rev.image_uri)
    return required('source_revision_config.image_uri')
  if (source === 'internal_source' && !rev.source_tarball_path) {
    return required('source_revision_config.source_tarball_path')
  }
  return null
}

/**
 * A tarball path must be one that `upload-url` handed out for this deployment: the service
 * refuses arbitrary paths (its SourceRevisionConfig says so; on create there is no deployment to
 * ask for one yet, so any path is refused there). A path handed out but never uploaded to is
 * accepted, and its build fails (builds/source-build.ts).
 */
function checkTarball(
  ctx: Context,
  dep: DeploymentRecord | null,
  rev: SourceRevisionConfigRequest
): string | null {
  const path = rev.source_tarball_path
  if (path === null || path === undefined) return null
  const upload = ctx.store.uploads.get(path)
  if (!dep || !upload || upload.deployment_id !== dep.id) {
    return `source_revision_config.source_tarball_path '${path}' is not an object path returned by POST /v2/deployments/{deployment_id}/upload-url for this deployment.`
  }
  return null
}

function checkSecrets(tenant: TenantRecord, secrets: Secret[]): string | null {
  const reserved = new Set<string>(RESERVED_SECRET_NAMES)
  if (!tenant.self_hosted) for (const n of RESERVED_SECRET_NAMES_HOSTED) reserved.add(n)
  const seen = new Set<string>()
  for (const s of secrets) {
    if (reserved.has(s.name)) return `Secret name '${s.name}' is reserved and cannot be used.`
    if (seen.has(s.name)) return `Duplicate secret name '${s.name}'.`
    seen.add(s.name)
  }
  return null
}

// ---------------------------------------------------------------------------------------------

export function deleteListener(ctx: Context, tenant: TenantRecord, listenerId: string): Reply {
  const v = validate([pathPart('listener_id', listenerId)])
  if (!v.ok) return v.reply
  if (!tenant.listeners_allowed) {
    return detail(
      403,
      `Listeners cannot be created for LangSmith workspace ID '${tenant.id}'. Creating listeners is only allowed for LangSmith organizations with self-hosted enterprise plans.`
    )
  }
  const listener = ctx.store.listeners.get(listenerId.toLowerCase())
  if (!listener || listener.tenant_id !== tenant.id) {
    return detail(404, `Listener ${listenerId} not found.`)
  }
  ctx.store.listeners.delete(listener.id)
  return { status: 204 }
}

export function listRepositories(ctx: Context, tenant: TenantRecord, integrationId: string): Reply {
  const v = validate([pathPart('integration_id', integrationId)])
  if (!v.ok) return v.reply
  const integration = ctx.store.integrations.get(integrationId.toLowerCase())
  if (!integration || integration.tenant_id !== tenant.id) {
    return detail(404, `Integration ${integrationId} not found.`)
  }
  return {
    status: 200,
    body: integration.repositories.map(r => ({
      host_integration_id: integration.id,
      id: r.id,
      name: r.name,
      owner: r.owner,
      url: r.url,
      default_branch: r.default_branch
    }))
  }
}

export function listDeployments(
  ctx: Context,
  tenant: TenantRecord,
  query: Record<string, string>
): Reply {
  const v = validate([{ location: 'query', schema: ListDeploymentsQuery, input: query }])
  if (!v.ok) return v.reply
  const q = v.values[0] as z.output<typeof ListDeploymentsQuery>
  const list = (s: string | undefined) =>
    s === undefined
      ? undefined
      : s
          .split(',')
          .map(x => x.trim().toLowerCase())
          .filter(Boolean)
  const tags = list(q.tag_value_ids)
  const ids = list(q.deployment_ids)
  const now = ctx.clock.now()
  const matching = ctx.store
    .deploymentsOf(tenant.id)
    .filter(d => !isGone(d, ctx.durations, now))
    .filter(
      d =>
        (q.name_contains === undefined ||
          d.name.toLowerCase().includes(q.name_contains.toLowerCase())) &&
        (q.status === undefined || deploymentStatus(d, ctx.durations, now) === q.status) &&
        (q.remote_reconciled === undefined || d.remote_reconciled === q.remote_reconciled) &&
        (tags === undefined || d.tag_value_ids.some(t => tags.includes(t.toLowerCase()))) &&
        (q.image_version === undefined || d.image_version === q.image_version) &&
        (q.deployment_type === undefined || d.deployment_type === q.deployment_type) &&
        (ids === undefined || ids.includes(d.id))
    )
  const page = matching.slice(q.offset, q.offset + q.limit)
  return {
    status: 200,
    body: { resources: page.map(d => deploymentView(ctx, d)), offset: q.offset + page.length }
  }
}

export function createDeployment(ctx: Context, tenant: TenantRecord, body: Body): Reply {
  const part = bodyPart(body, CreateDeploymentRequest)
  if (isReply(part)) return part
  const v = validate([part])
  if (!v.ok) return v.reply
  const req = v.values[0] as CreateDeploymentRequest
  if (!DEPLOYMENT_NAME_PATTERN.test(req.name)) {
    return detail(
      400,
      `Invalid deployment name '${req.name}': use lowercase letters, digits and hyphens, starting with a letter.`
    )
  }
  if (!sourcesOf(tenant).includes(req.source)) return detail(400, unavailable(req.source))
  const problem =
    checkSource(
      ctx,
      tenant,
      req.source,
      req.source_config,
      req.source_revision_config,
      req.secret_references
    ) ??
    checkTarball(ctx, null, req.source_revision_config) ??
    checkSecrets(tenant, req.secrets)
  if (problem) return detail(400, problem)
  const now = ctx.clock.now()
  const holder = ctx.agentEnvironmentHeldBy && ctx.store.deployments.get(ctx.agentEnvironmentHeldBy)
  // As one third party saw production (unconfirmed): also while the holder is being deleted.
  if (holder && holder.tenant_id === tenant.id && !isGone(holder, ctx.durations, now))
    return detail(409, 'A deployment already exists for this agent environment')
  const sameName = ctx.store.deploymentsOf(tenant.id).filter(d => d.name === req.name)
  if (sameName.some(d => !isGone(d, ctx.durations, now))) {
    return detail(409, `Deployment with name '${req.name}' already exists.`)
  }
  if (sameName.some(d => d.keeps_tracing_project)) {
    return detail(
      409,
      `A tracing project with name '${req.name}' already exists: delete it, or delete the deployment with delete_tracing_project=true.`
    )
  }
  const nowMs = ctx.clock.real()
  // `serverless` unless asked, for the cloud sources; self-hosted ones have none (docs/decisions.md).
  const type =
    req.source_config.deployment_type ??
    (req.source === 'external_docker' ? null : DEFAULT_DEPLOYMENT_TYPE)
  const dep: DeploymentRecord = {
    id: randomUUID(),
    tenant_id: tenant.id,
    name: req.name,
    source: req.source,
    source_config: req.source_config,
    secrets: req.secrets,
    secret_references: req.secret_references ?? null,
    image_version: null,
    remote_reconciled: req.source === 'external_docker',
    tag_value_ids: [],
    deployment_type: type,
    ...defaultTiers(type, req.source),
    display_name: null,
    created_ms: nowMs,
    updated_ms: nowMs,
    created_v: ctx.clock.now(),
    seeded: false,
    revision_ids: [],
    deleted_v: null,
    keeps_tracing_project: false,
    graphs: [...DEFAULT_GRAPHS]
  }
  ctx.store.deployments.set(dep.id, dep)
  addRevision(ctx, dep, req.source, req.source_revision_config)
  return { status: 201, body: deploymentView(ctx, dep) }
}

export function getDeployment(ctx: Context, tenant: TenantRecord, id: string): Reply {
  const found = locate(ctx, tenant, { deployment: id })
  return found.ok ? { status: 200, body: deploymentView(ctx, found.dep) } : found.reply
}

/** A PATCH may not change what production sets on create only; a detail naming it, or null. */
function createOnlyChange(
  dep: DeploymentRecord,
  patch: SourceConfig | null | undefined
): string | null {
  for (const field of CREATE_ONLY_SOURCE_CONFIG_FIELDS) {
    const wanted = patch?.[field]
    if (wanted === null || wanted === undefined) continue
    const current = field === 'deployment_type' ? dep.deployment_type : dep.source_config[field]
    const same =
      field === 'repo_url'
        ? normalizeRepoUrl(String(wanted)) === normalizeRepoUrl(String(current ?? ''))
        : field === 'deployment_type' && kindOf(String(wanted))
          ? kindOf(String(wanted)) === kindOf(current)
          : String(wanted).toLowerCase() === String(current ?? '').toLowerCase()
    if (!same) {
      return `source_config.${field} cannot be changed after the deployment is created: it is '${current ?? ''}', the request asks for '${wanted}'.`
    }
  }
  return null
}

/** `a` with the non-null fields of `b` on top: a null or omitted field keeps the old value. */
function merge<T extends object>(a: T, b: Partial<T> | null | undefined): T {
  const out = { ...a }
  for (const [k, value] of Object.entries(b ?? {})) {
    if (value !== null && value !== undefined) (out as Record<string, unknown>)[k] = value
  }
  return out
}

/** The fields of a PATCH or a new revision that one update applies. */
export type Update = Omit<PatchDeploymentRequest, 'display_name'>

/**
 * Applies an update as a PATCH does: `source_config` and `source_revision_config` merged into the
 * current ones, omitted or empty `secrets` keep the old ones, a new revision when revision-level
 * fields are present (or always, for `POST .../revisions`). A 400 Reply when a rule refuses it;
 * nothing is changed then.
 */
export function applyUpdate(
  ctx: Context,
  tenant: TenantRecord,
  dep: DeploymentRecord,
  req: Update,
  opts: { alwaysRevision: boolean }
): { revision: RevisionRecord | null } | Reply {
  if (dep.deleted_v !== null) return detail(400, `Deployment ID ${dep.id} is being deleted.`)
  const frozen = createOnlyChange(dep, req.source_config)
  if (frozen) return detail(400, frozen)

  // resource_spec is replaced whole by merge() (it is one field); other fields merge one by one.
  const sourceConfig = merge(dep.source_config, req.source_config)
  const latest = ctx.store.latestRevision(dep)
  const revConfig = merge(latest?.source_revision_config ?? {}, req.source_revision_config)
  const newRevision =
    opts.alwaysRevision || req.source_revision_config != null || req.secrets != null
  const revisionSource = req.revision_source ?? dep.source
  const secrets = req.secrets && req.secrets.length > 0 ? req.secrets : dep.secrets
  const secretReferences = req.secret_references ?? dep.secret_references

  if (req.revision_source != null && !sourcesOf(tenant).includes(req.revision_source)) {
    return detail(400, unavailable(req.revision_source))
  }
  const problem =
    checkSource(ctx, tenant, dep.source, sourceConfig, revConfig, secretReferences) ??
    (revisionSource === dep.source
      ? null
      : checkRevisionSource(ctx, tenant, revisionSource, sourceConfig, revConfig)) ??
    (newRevision ? checkTarball(ctx, dep, revConfig) : null) ??
    checkSecrets(tenant, secrets)
  if (problem) return detail(400, problem)

  dep.source_config = sourceConfig
  dep.secrets = secrets
  dep.secret_references = secretReferences
  dep.updated_ms = ctx.clock.real()
  return { revision: newRevision ? addRevision(ctx, dep, revisionSource, revConfig) : null }
}

export function patchDeployment(ctx: Context, tenant: TenantRecord, id: string, body: Body): Reply {
  const part = bodyPart(body, PatchDeploymentRequest)
  if (isReply(part)) return part
  const found = locate(ctx, tenant, { deployment: id }, [part])
  if (!found.ok) return found.reply
  const { dep } = found
  const { display_name, ...update } = found.values[0] as PatchDeploymentRequest
  const applied = applyUpdate(ctx, tenant, dep, update, { alwaysRevision: false })
  if ('status' in applied) return applied
  if (display_name != null) dep.display_name = display_name
  return { status: 200, body: deploymentView(ctx, dep) }
}

export function getRevision(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  revisionId: string
): Reply {
  const found = locate(ctx, tenant, { deployment: deploymentId, revision: revisionId })
  return found.ok ? { status: 200, body: revisionView(ctx, found.rev) } : found.reply
}
