// What this run will write: the exact create or patch body, and the fields that change (old ->
// new), which a dry run prints instead of sending. Secret values never enter a Change.
import type {
  CreateDeploymentRequest,
  Deployment,
  PatchDeploymentRequest,
  RepositoryEntry,
  Source,
  SourceConfig,
  SourceRevisionConfigRequest
} from '../../../control-plane/schema.ts'
import { isOtherDialectsWord } from '../../../control-plane/dialect.ts'
import { sanitizeServerText } from '../../../inert.ts'
import type { InputName } from '../../../interface/names.ts'
import type { Journal } from '../../../interface/journal.ts'
import type { Say } from '../../../interface/naming.ts'
import type { DeployOptions } from '../options.ts'
import { stop, stopped, type Stop } from '../../../interface/ending.ts'
import { createdType, refuseTypeChange, tierChanges, type Change } from './tiers.ts'

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
      /** Secrets the deployment has that the `secrets` input leaves out: the update deletes them. */
      removedSecrets: string[]
      /** The workflow's repository when not the deployment's: this run's commit says nothing. */
      otherRepository: { deployment: string; workflow: string } | undefined
    }

/** Where a revision's material comes from (material.ts): read here, never from the options. */
export interface Origin {
  source: Source
  integrationId: string | undefined
  /** `owner/name`. */
  repository: string | undefined
  repositoryExplicit: boolean
}

/** What the plan needs of the material: a ref or image, or an upload's config path. */
export type PlannedMaterial = Origin &
  (
    | {
        kind: 'named'
        ref: string | undefined
        imageUri: string | undefined
        graphConfigPath: string
      }
    | { kind: 'upload'; configPath: string }
  )

const HIDDEN = '***'
/** How a change shows a secret that the update deletes. */
export const REMOVED = '(removed)'

/** `source_config` fields the inputs set; unset inputs are left out so the service keeps them. */
function sourceConfigFromInputs(o: DeployOptions): SourceConfig {
  const c: SourceConfig = {}
  if (o.buildOnPush !== undefined) c.build_on_push = o.buildOnPush
  if (o.customUrl !== undefined) c.custom_url = o.customUrl
  if (o.resourceSpec !== undefined) c.resource_spec = o.resourceSpec
  if (o.k8sNamespace !== undefined) c.listener_config = { k8s_namespace: o.k8sNamespace }
  if (o.installCommand !== undefined) c.install_command = o.installCommand
  if (o.buildCommand !== undefined) c.build_command = o.buildCommand
  return c
}

/** The revision of named material: the ref a codehost deployment builds, or the image. */
function namedRevision(
  m: Extract<PlannedMaterial, { kind: 'named' }>,
  ref = m.ref
): SourceRevisionConfigRequest {
  const r: SourceRevisionConfigRequest = {}
  if (m.source === 'codehost') {
    if (ref !== undefined) r.repo_ref = ref
    r.graph_config_path = m.graphConfigPath
  }
  if (m.imageUri !== undefined) r.image_uri = m.imageUri
  return r
}

/** A create of `name`; an upload's names no revision (the PATCH naming the object makes it). */
export function planCreate(
  o: DeployOptions,
  name: string,
  repo: Pick<RepositoryEntry, 'url' | 'default_branch'> | undefined,
  material: PlannedMaterial,
  say: Say
): Plan | Stop {
  const sourceConfig = sourceConfigFromInputs(o)
  const named = material.kind === 'named' ? material : undefined
  const source = material.source
  let ref = named?.ref
  if (source === 'codehost') {
    if (!repo || !material.integrationId) {
      return stop(
        `Creating codehost deployment "${name}" needs the repository of a forge integration.`,
        `Set ${say('integration-id')} (and ${say('repository')}, when it is not the repository this run started from).`,
        'Missing input'
      )
    }
    sourceConfig.integration_id = material.integrationId
    sourceConfig.repo_url = repo.url
    ref ??= repo.default_branch
  }
  // Always sent, `serverless` unless asked: the service's own default is not documented.
  if (source !== 'external_docker') sourceConfig.deployment_type = createdType(o)
  // Fields that only a create may set.
  if (o.listenerId !== undefined) sourceConfig.listener_id = o.listenerId
  const body: CreateDeploymentRequest = {
    name,
    source,
    source_config: sourceConfig,
    source_revision_config: named ? namedRevision(named, ref) : {},
    secrets: o.secrets ?? []
  }
  if (o.secretReferences !== undefined) body.secret_references = o.secretReferences
  const changes = [...diff(body, undefined), ...tierChanges(o, undefined)]
  return { kind: 'create', name, body, changes }
}

/** Where a plan names the uploaded archive's object, until the PUT has stored it (write-revision.ts). */
export const UPLOADED_OBJECT = '(the object path of this run’s upload)'

/** An update of `current`; an upload's PATCH names the object and its config path. */
export function planUpdate(
  o: DeployOptions,
  current: Deployment,
  material: PlannedMaterial,
  say: Say
): Plan | Stop {
  const source = material.source
  if (current.source !== source && isOtherDialectsWord(current.source, source)) {
    const other = o.apiDialect === 'interface' ? 'langsmith' : 'interface'
    return stop(
      `Deployment "${current.name}" (${current.id}) reads as source ${current.source}, the ${other} dialect's word for ${source}: this control plane speaks the ${other} names, not the ${o.apiDialect} names this run speaks.`,
      `Set ${say.set('api-dialect', other)}; changing the source would not help.`,
      'Wrong API dialect'
    )
  }
  if (current.source !== source) {
    return stop(
      `Deployment "${current.name}" (${current.id}) has source ${current.source}, but ${say('source')} is ${source}.`,
      `A deployment's source cannot change: set ${say.set('source', current.source)}, or deploy under another name.`,
      'Source mismatch'
    )
  }
  const refused = refuseCreateOnlyChanges(o, material, current, say)
  if (refused) return refused
  const otherRepository = repositoryMismatch(material, current, say)
  if (stopped(otherRepository)) return otherRepository
  const body: PatchDeploymentRequest = {}
  const sourceConfig = sourceConfigFromInputs(o)
  if (Object.keys(sourceConfig).length) body.source_config = sourceConfig
  // An upload's revision: the object (named once stored) and the config's path in it.
  const revisionConfig =
    material.kind === 'upload'
      ? { source_tarball_path: UPLOADED_OBJECT, graph_config_path: material.configPath }
      : namedRevision(material)
  if (Object.keys(revisionConfig).length) body.source_revision_config = revisionConfig
  if (o.secrets !== undefined) body.secrets = o.secrets
  if (o.secretReferences !== undefined) body.secret_references = o.secretReferences
  if (o.revisionSource !== undefined) body.revision_source = o.revisionSource
  const newRevision = body.source_revision_config !== undefined || body.secrets !== undefined
  const kept = new Set(body.secrets?.map(s => s.name))
  const removedSecrets = body.secrets
    ? current.secrets.filter(s => !kept.has(s.name)).map(s => shownName(s.name))
    : []
  return {
    kind: 'update',
    deploymentId: current.id,
    name: current.name,
    body,
    changes: [...diff(body, current), ...tierChanges(o, current)],
    newRevision,
    removedSecrets,
    otherRepository
  }
}

/** Create-only settings: asked for differently, the run would deploy what was not asked. */
function refuseCreateOnlyChanges(
  o: DeployOptions,
  m: Origin,
  current: Deployment,
  say: Say
): Stop | undefined {
  const refused = refuseTypeChange(o, current, say)
  if (refused) return refused
  const createOnly: [InputName, string | undefined, string | null | undefined][] = [
    ['integration-id', m.integrationId, current.source_config.integration_id],
    ['listener-id', o.listenerId, current.source_config.listener_id]
  ]
  for (const [input, asked, theirs] of createOnly) {
    if (asked !== undefined && theirs && asked !== theirs) {
      const what = input.replace(/-/g, ' ')
      return stop(
        `Deployment "${current.name}" (${current.id}) has ${what} ${sanitizeServerText(theirs, 100)}, but ${say(input)} is ${asked}.`,
        `The ${what} of a deployment cannot change after create: set ${say(input)} to the deployment’s, or deploy under another name.`,
        `The ${what} cannot change`
      )
    }
  }
  return undefined
}

/** `owner/name` of a repository URL (`https://host/owner/name(.git)`), lower-cased. */
function ownerAndName(repoUrl: string): string | undefined {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/(.+)$/i.exec(repoUrl.trim())?.[1] ?? ''
  const parts = path
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .split('/')
  if (parts.length < 2) return undefined
  return parts.slice(-2).join('/').toLowerCase()
}

/**
 * A deployment keeps its repository: another by input is an error (the wrong code); the workflow's
 * differing only a warning (another repository's workflow may well feed it).
 */
function repositoryMismatch(
  m: Origin,
  current: Deployment,
  say: Say
): { deployment: string; workflow: string } | Stop | undefined {
  const repoUrl = current.source_config.repo_url
  if (m.source !== 'codehost' || !m.repository || !repoUrl) return undefined
  const theirs = ownerAndName(repoUrl)
  if (!theirs || theirs === m.repository.toLowerCase()) return undefined
  const shown = sanitizeServerText(repoUrl, 300)
  if (m.repositoryExplicit) {
    return stop(
      `Deployment "${current.name}" (${current.id}) builds ${shown}, but ${say('repository')} is ${m.repository}.`,
      `The repository of a deployment cannot change after create: set ${say('repository')} to the deployment’s, or deploy under another name.`,
      'Repository mismatch'
    )
  }
  return { deployment: shown, workflow: m.repository }
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
      const listed = value as { name: string; value: string }[]
      for (const s of listed) {
        const before = old.get(s.name)
        if (!old.has(s.name))
          changes.push({ field: `secrets.${s.name}`, from: undefined, to: HIDDEN })
        // A service that hides values cannot be compared: show it as set again.
        else if (before !== s.value)
          changes.push({ field: `secrets.${s.name}`, from: HIDDEN, to: HIDDEN })
      }
      // The list replaces the whole set: what it leaves out is deleted.
      const names = new Set(listed.map(s => s.name))
      for (const name of old.keys()) {
        if (!names.has(name))
          changes.push({ field: `secrets.${shownName(name)}`, from: HIDDEN, to: REMOVED })
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

/** A secret's name as the deployment has it: the service's text, made log-safe. */
function shownName(name: string): string {
  return sanitizeServerText(name, 100)
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  return s.length > 200 ? `${s.slice(0, 200)}…` : s
}

const TIER_FIELDS = ['size', 'database-size']

/** The plan as the journal keeps it for the summary: its lines, and whether it changes a field. */
export const planShown = (plan: Plan): Journal['plan'] => ({
  lines: describePlan(plan),
  changed: plan.changes.length > 0
})

/** The plan as lines for the log and the dry-run summary. */
export function describePlan(plan: Plan): string[] {
  const head =
    plan.kind === 'create'
      ? `Create deployment "${plan.name}" (source ${plan.body.source})`
      : `Update deployment "${plan.name}" (${plan.deploymentId})` +
        (plan.newRevision ? ', making a new revision' : ', without a new revision')
  const lines = [head]
  if (!plan.changes.length) lines.push('  no field changes')
  if (plan.kind === 'update' && plan.removedSecrets.length) {
    lines.push(
      `  removes ${plan.removedSecrets.length === 1 ? 'secret' : 'secrets'} ${plan.removedSecrets.join(', ')}: the secrets given replace the whole set`
    )
  }
  if (plan.changes.some(c => TIER_FIELDS.includes(c.field)))
    lines.push(
      `  then resize through resource-tiers${plan.kind === 'create' ? ', once the first revision exists' : ''}: a new revision, the one this run waits for`
    )
  for (const c of plan.changes) {
    lines.push(
      c.from === undefined ? `  ${c.field}: ${c.to}` : `  ${c.field}: ${c.from} -> ${c.to}`
    )
  }
  return lines
}
