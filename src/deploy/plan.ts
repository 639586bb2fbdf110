// What this run will write: the exact create or patch body, and the fields that change (old ->
// new), which a dry run prints instead of sending. Secret values never enter a Change.
import type {
  CreateDeploymentRequest,
  Deployment,
  PatchDeploymentRequest,
  RepositoryEntry,
  SourceConfig,
  SourceRevisionConfigRequest
} from '../control-plane/schema.ts'
import { sanitizeServerText } from '../control-plane/redact.ts'
import type { Options } from '../options.ts'
import { DeployError } from './deploy-error.ts'

export interface Change {
  field: string
  /** undefined when the field is new (always so for a create). */
  from: string | undefined
  to: string
}

export type Plan =
  | { kind: 'create'; name: string; body: CreateDeploymentRequest; changes: Change[] }
  | {
      kind: 'update'
      deploymentId: string
      name: string
      body: PatchDeploymentRequest
      changes: Change[]
      /** Revision-level fields are sent, so the service makes a new revision. */
      newRevision: boolean
    }

const HIDDEN = '***'

/** `source_config` fields the inputs set; unset inputs are left out so the service keeps them. */
function sourceConfigFromInputs(o: Options): SourceConfig {
  const c: SourceConfig = {}
  if (o.buildOnPush !== undefined) c.build_on_push = o.buildOnPush
  if (o.customUrl !== undefined) c.custom_url = o.customUrl
  if (o.resourceSpec !== undefined) c.resource_spec = o.resourceSpec
  if (o.listenerId !== undefined) c.listener_id = o.listenerId
  if (o.k8sNamespace !== undefined) c.listener_config = { k8s_namespace: o.k8sNamespace }
  if (o.installCommand !== undefined) c.install_command = o.installCommand
  if (o.buildCommand !== undefined) c.build_command = o.buildCommand
  return c
}

function revisionConfigFromInputs(
  o: Options,
  ref: string | undefined
): SourceRevisionConfigRequest {
  const r: SourceRevisionConfigRequest = {}
  if (o.source === 'codehost') {
    if (ref !== undefined) r.repo_ref = ref
    r.graph_config_path = o.graphConfigPath
  }
  if (o.imageUri !== undefined) r.image_uri = o.imageUri
  return r
}

export function planCreate(o: Options, name: string, repo: RepositoryEntry | undefined): Plan {
  const sourceConfig = sourceConfigFromInputs(o)
  let ref = o.ref
  if (o.source === 'codehost') {
    if (!repo || !o.integrationId) {
      throw new DeployError(
        `Creating codehost deployment "${name}" needs the repository of a forge integration.`,
        'Set integration-id (and repository, when it is not this workflow’s repository).',
        'Missing input'
      )
    }
    sourceConfig.integration_id = o.integrationId
    sourceConfig.repo_url = repo.url
    ref ??= repo.default_branch
  }
  const body: CreateDeploymentRequest = {
    name,
    source: o.source,
    source_config: sourceConfig,
    source_revision_config: revisionConfigFromInputs(o, ref),
    secrets: o.secrets ?? []
  }
  if (o.secretReferences !== undefined) body.secret_references = o.secretReferences
  return { kind: 'create', name, body, changes: diff(body, undefined) }
}

export function planUpdate(o: Options, current: Deployment): Plan {
  if (current.source !== o.source) {
    throw new DeployError(
      `Deployment "${current.name}" (${current.id}) has source ${current.source}, but the source input is ${o.source}.`,
      `A deployment's source cannot change: set source: ${current.source}, or deploy under another name.`,
      'Source mismatch'
    )
  }
  const body: PatchDeploymentRequest = {}
  const sourceConfig = sourceConfigFromInputs(o)
  if (Object.keys(sourceConfig).length) body.source_config = sourceConfig
  const revisionConfig = revisionConfigFromInputs(o, o.ref)
  if (Object.keys(revisionConfig).length) body.source_revision_config = revisionConfig
  if (o.secrets !== undefined) body.secrets = o.secrets
  if (o.secretReferences !== undefined) body.secret_references = o.secretReferences
  if (o.revisionSource !== undefined) body.revision_source = o.revisionSource
  const newRevision = body.source_revision_config !== undefined || body.secrets !== undefined
  return {
    kind: 'update',
    deploymentId: current.id,
    name: current.name,
    body,
    changes: diff(body, current),
    newRevision
  }
}

/** Each leaf the body sets, with the current value where it differs; secrets by name only. */
function diff(
  body: CreateDeploymentRequest | PatchDeploymentRequest,
  current: Deployment | undefined
) {
  const changes: Change[] = []
  const leaf = (field: string, to: unknown, from: unknown) => {
    const t = show(to)
    // The current value is the service's text: log-safe before it is shown.
    const f = from === undefined || from === null ? undefined : sanitizeServerText(show(from), 300)
    if (t !== f) changes.push({ field, from: f, to: t })
  }
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue
    if (key === 'secrets') {
      const old = new Map((current?.secrets ?? []).map(s => [s.name, s.value]))
      for (const s of value as { name: string; value: string }[]) {
        const before = old.get(s.name)
        if (!old.has(s.name))
          changes.push({ field: `secrets.${s.name}`, from: undefined, to: HIDDEN })
        // A service that hides values cannot be compared: show it as set again.
        else if (before !== s.value)
          changes.push({ field: `secrets.${s.name}`, from: HIDDEN, to: HIDDEN })
      }
      continue
    }
    if (key === 'source_config' || key === 'source_revision_config') {
      const was = (current?.[key] ?? {}) as Record<string, unknown>
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v !== undefined && v !== null) leaf(`${key}.${k}`, v, was[k])
      }
      continue
    }
    leaf(key, value, current ? (current as Record<string, unknown>)[key] : undefined)
  }
  return changes
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  return s.length > 200 ? `${s.slice(0, 200)}…` : s
}

/** The plan as lines for the log and the dry-run summary. */
export function describePlan(plan: Plan): string[] {
  const head =
    plan.kind === 'create'
      ? `Create deployment "${plan.name}" (source ${plan.body.source})`
      : `Update deployment "${plan.name}" (${plan.deploymentId})` +
        (plan.newRevision ? ', making a new revision' : ', without a new revision')
  const lines = [head]
  if (!plan.changes.length) lines.push('  no field changes')
  for (const c of plan.changes) {
    lines.push(
      c.from === undefined ? `  ${c.field}: ${c.to}` : `  ${c.field}: ${c.from} -> ${c.to}`
    )
  }
  return lines
}
