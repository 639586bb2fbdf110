// The Deployment Control Plane interface, modelled once: the client checks every answer with it,
// the emulator every request, so the two cannot drift apart. Objects strip unknown fields rather
// than refuse them: the production service adds fields, and a client must not fail on them.
import { z } from 'zod'
import { sanitizeServerText } from '../inert.ts'
import { ResourceSpec, ResourceSpecInResponse } from './resource-spec.ts'

/** The document parser checks a resource-spec input against the model it is handed. */
export { ResourceSpec }
import {
  COMPUTE_TIERS,
  DATABASE_TIERS,
  DEPLOYMENT_STATUSES,
  DEPLOYMENT_TYPES,
  MAX_PAGE_SIZE,
  REVISION_SOURCES,
  REVISION_STATUSES,
  SOURCES
} from './vocabulary.ts'

/** A uuid of any version (ids are opaque to us); UUID_PATTERN is its pattern without zod. */
export const Uuid = z.guid()

/** The service's text that reaches the log and outputs, made log-safe (no command, no escape). */
const serverText = (max: number) => z.string().transform(s => sanitizeServerText(s, max))

/** An enum that also accepts values it does not know yet, typed as the known ones or a string. */
function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
  return serverText(100) as unknown as z.ZodType<T[number] | (string & {})>
}

// ---------------------------------------------------------------------------------------------
// Enums

export const Source = z.enum(SOURCES)
export type Source = z.infer<typeof Source>

export const RevisionSource = z.enum(REVISION_SOURCES)
export type RevisionSource = z.infer<typeof RevisionSource>

export const DeploymentStatus = openEnum(DEPLOYMENT_STATUSES)

/** Any string parses: a status this model does not know yet is "still in progress". */
export const RevisionStatus = openEnum(REVISION_STATUSES)
export type RevisionStatus = z.infer<typeof RevisionStatus>

export const DeploymentType = z.enum(DEPLOYMENT_TYPES)
export type DeploymentType = z.infer<typeof DeploymentType>

const str = z.string().nullish()

// ---------------------------------------------------------------------------------------------
// Source settings

export const SourceConfig = z.object({
  integration_id: Uuid.nullish(),
  repo_url: str,
  deployment_type: DeploymentType.nullish(),
  build_on_push: z.boolean().nullish(),
  custom_url: str,
  resource_spec: ResourceSpec.nullish(),
  listener_id: Uuid.nullish(),
  listener_config: z.object({ k8s_namespace: str }).nullish(),
  install_command: str,
  build_command: str,
  /** The template an `internal_template` deployment is made from; kept and read back. */
  template_id: str
})
export type SourceConfig = z.infer<typeof SourceConfig>

/** SourceConfig as answers carry it: any resource numbers, an unknown deployment type as text. */
export const SourceConfigInResponse = SourceConfig.extend({
  deployment_type: openEnum(DEPLOYMENT_TYPES).nullish(),
  resource_spec: ResourceSpecInResponse.nullish()
})
export type SourceConfigInResponse = z.infer<typeof SourceConfigInResponse>

/** The request form: `repo_commit_sha` is set by the service, never by a caller. */
export const SourceRevisionConfigRequest = z.object({
  repo_ref: str,
  graph_config_path: str,
  image_uri: str,
  source_tarball_path: str
})
export type SourceRevisionConfigRequest = z.infer<typeof SourceRevisionConfigRequest>

export const SourceRevisionConfig = SourceRevisionConfigRequest.extend({
  repo_commit_sha: serverText(100).nullish()
})
export type SourceRevisionConfig = z.infer<typeof SourceRevisionConfig>

export const Secret = z.object({ name: z.string(), value: z.string() })
export type Secret = z.infer<typeof Secret>

/** Responses may leave a secret's value out or null it; only the name is certain. */
export const SecretInResponse = z.object({ name: z.string(), value: z.string().nullish() })

export const SecretReference = z.object({
  name: z.string(),
  secret_name: z.string(),
  secret_key: z.string()
})
export type SecretReference = z.infer<typeof SecretReference>

// ---------------------------------------------------------------------------------------------
// Resources

export const Deployment = z.object({
  name: serverText(200),
  source: openEnum(SOURCES),
  source_config: SourceConfigInResponse,
  source_revision_config: SourceRevisionConfig,
  secrets: z.array(SecretInResponse),
  id: Uuid,
  tenant_id: Uuid,
  created_at: z.string(),
  updated_at: z.string(),
  status: DeploymentStatus,
  latest_revision_id: Uuid.nullable(),
  active_revision_id: Uuid.nullable(),
  secret_references: z.array(SecretReference).nullish(),
  image_version: str,
  /** A human-readable name beside `name`; set by PATCH only, never cleared. */
  display_name: serverText(200).nullish(),
  /** Where the agent server answers (the service's newer field; `custom_url` where it is absent). */
  url: z.string().nullish(),
  /** The compute tier (`SERVERLESS_M`, `DEDICATED_L`...), where the service reports it. */
  deployment_tier: serverText(100).nullish(),
  /** The database tier of a Dedicated deployment, where the service reports it. */
  database_tier: serverText(100).nullish(),
  /**
   * The agent environment it is bound to (agent-based workspaces, beta). Never fails a read: a
   * block of another shape reads as none; only a create's 409 looks at it (who holds the environment).
   */
  agent: z
    .object({ agent_id: serverText(200).nullish(), environment: serverText(100).nullish() })
    .nullish()
    .catch(null)
})
export type Deployment = z.infer<typeof Deployment>

/** A list entry that did not parse: left out of the list, said in a debug line. */
export interface SkippedEntry {
  /** Its place on its page, from 0. */
  index: number
  id: string
  /** Its name as it came (made log-safe), when it is text. */
  name: string | undefined
  /** What did not fit, e.g. `name: invalid input: expected string, received null`. */
  problem: string
  /** It carries an agent block (agent-based workspaces: such entries may have no name). */
  bound: boolean
}

/**
 * A page's entries, as lenient as the service: one that does not parse is skipped. Each must have
 * its id: the paging counts by it, and a page without ids is no list (a proxy's).
 */
function lenientEntries<T extends z.ZodType>(entry: T) {
  return z.array(z.unknown()).transform((items, ctx) => {
    const resources: z.output<T>[] = []
    const skipped: SkippedEntry[] = []
    for (const [index, item] of items.entries()) {
      const raw = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
      const id = Uuid.safeParse(raw.id)
      if (!id.success) {
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'Expected a uuid' })
        return z.NEVER
      }
      const parsed = entry.safeParse(item)
      if (parsed.success) {
        resources.push(parsed.data)
        continue
      }
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
      skipped.push({
        index,
        id: id.data,
        name: typeof raw.name === 'string' ? sanitizeServerText(raw.name, 200) : undefined,
        problem: sanitizeServerText(
          `${where}${issue?.message.toLowerCase() ?? 'does not fit'}`,
          300
        ),
        bound: typeof raw.agent === 'object' && raw.agent !== null
      })
    }
    return { resources, skipped }
  })
}

export const Revision = z.object({
  id: Uuid,
  status: RevisionStatus,
  created_at: str,
  updated_at: str,
  source: str,
  source_revision_config: SourceRevisionConfig.nullish(),
  /** Why a revision failed, where the service says. */
  status_message: serverText(500).nullish()
})
export type Revision = z.infer<typeof Revision>

export const RepositoryEntry = z.object({
  host_integration_id: Uuid,
  id: z.number().int(),
  name: z.string(),
  owner: z.string(),
  url: z.string(),
  default_branch: z.string()
})
export type RepositoryEntry = z.infer<typeof RepositoryEntry>
export const RepositoryList = z.array(RepositoryEntry)

// ---------------------------------------------------------------------------------------------
// Requests

export const CreateDeploymentRequest = z.object({
  name: z.string().min(1),
  source: Source,
  source_config: SourceConfig,
  source_revision_config: SourceRevisionConfigRequest,
  secrets: z.array(Secret),
  secret_references: z.array(SecretReference).nullish()
})
export type CreateDeploymentRequest = z.infer<typeof CreateDeploymentRequest>

export const PatchDeploymentRequest = z.object({
  revision_source: RevisionSource.nullish(),
  source_config: SourceConfig.nullish(),
  source_revision_config: SourceRevisionConfigRequest.nullish(),
  secrets: z.array(Secret).nullish(),
  secret_references: z.array(SecretReference).nullish(),
  /** Changes no revision; at least one character (the service has no way to clear it). */
  display_name: z.string().min(1).nullish()
})
export type PatchDeploymentRequest = z.infer<typeof PatchDeploymentRequest>

/**
 * The part of `source_config` that belongs to a revision: what `POST .../revisions` takes. The
 * deployment-level settings (`build_on_push`, `custom_url`, the create-only fields) are not part
 * of a revision and are dropped from such a request (docs/decisions.md).
 */
export const RevisionSourceConfig = SourceConfig.pick({
  install_command: true,
  build_command: true,
  resource_spec: true
})

/**
 * `POST /v2/deployments/{deployment_id}/revisions`: a new revision from this body, the secrets
 * and settings applied as a PATCH applies them (omitted or empty `secrets` keep the old ones).
 * Not in the published description; sent by the service's Terraform provider for every update.
 */
export const CreateRevisionRequest = z.object({
  source_revision_config: SourceRevisionConfigRequest,
  source_config: RevisionSourceConfig.nullish(),
  secrets: z.array(Secret).nullish(),
  secret_references: z.array(SecretReference).nullish()
})
export type CreateRevisionRequest = z.infer<typeof CreateRevisionRequest>

/**
 * `PATCH /v2/deployments/{deployment_id}/resource-tiers`: a new size, as a new revision. At least
 * one tier; a field left out keeps the deployment's. The database tier is Dedicated's only.
 */
export const ResourceTiersRequest = z
  .object({
    compute_tier: z.enum(COMPUTE_TIERS).nullish(),
    database_tier: z.enum(DATABASE_TIERS).nullish()
  })
  .refine(
    r => (r.compute_tier ?? r.database_tier) != null,
    'At least one of compute_tier or database_tier must be provided.'
  )
export type ResourceTiersRequest = z.infer<typeof ResourceTiersRequest>

/** `POST .../push-token`: a registry login for pushing an `internal_docker` image. */
export const PushToken = z.object({ token: z.string().min(1), registry_url: z.string().min(1) })
export type PushToken = z.infer<typeof PushToken>

/** `POST .../upload-url`: where to PUT a tarball, and the `object_path` a PATCH names. */
export const UploadUrl = z.object({
  // Any text: which URLs the source may be sent to is the upload's rule (upload/put.ts), refused
  // there once, not here as a malformed answer that a read would ask for again.
  upload_url: z.string().min(1),
  object_path: z.string().min(1)
})
export type UploadUrl = z.infer<typeof UploadUrl>

/** Query strings carry text; `true`/`false` are the only booleans FastAPI-style services take. */
const queryBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform(v => v === true || v === 'true' || v === '1')
const queryInt = z.coerce.number().int()

/** `GET /v2/deployments` query, with the parameter names of the production service. */
export const ListDeploymentsQuery = z.object({
  limit: queryInt.min(1).max(MAX_PAGE_SIZE).default(20),
  offset: queryInt.min(0).default(0),
  name_contains: z.string().optional(),
  status: z.string().optional(),
  remote_reconciled: queryBoolean.optional(),
  tag_value_ids: z.string().optional(),
  image_version: z.string().optional(),
  deployment_type: DeploymentType.optional(),
  deployment_ids: z.string().optional()
})
/** What a caller passes: every parameter optional, in its typed (not its wire) form. */
export type ListDeploymentsQuery = Partial<z.output<typeof ListDeploymentsQuery>>

export const DeploymentList = z
  .object({ resources: lenientEntries(Deployment), offset: z.number().int() })
  .transform(({ resources: page, offset }) => ({ ...page, offset }))
export type DeploymentList = z.output<typeof DeploymentList>

// ---------------------------------------------------------------------------------------------
// Operations beyond the interface (docs/control-plane.md): revisions, redeploy, delete, logs

/** `GET /v2/deployments/{deployment_id}/revisions` query; `status` is comma-separated. */
export const ListRevisionsQuery = z.object({
  limit: queryInt.min(1).max(MAX_PAGE_SIZE).default(20),
  offset: queryInt.min(0).default(0),
  status: z.string().optional(),
  remote_reconciled: queryBoolean.optional()
})
/** What a caller passes; several statuses may be given as a list. */
export interface ListRevisionsQuery {
  limit?: number
  offset?: number
  status?: string | readonly string[]
}

/** Revisions, newest first; `offset` is the next page's. */
export const RevisionList = z.object({
  resources: z.array(Revision),
  offset: z.number().int()
})
export type RevisionList = z.infer<typeof RevisionList>

/** `DELETE /v2/deployments/{deployment_id}` query. */
export const DeleteDeploymentQuery = z.object({
  delete_tracing_project: queryBoolean.default(false)
})

// ---------------------------------------------------------------------------------------------
// Error bodies

export const ErrorDetail = z.object({ detail: z.string() })
export type ErrorDetail = z.infer<typeof ErrorDetail>

export const ValidationErrorEntry = z.object({
  loc: z.array(z.union([z.string(), z.number().int()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional()
})
export type ValidationErrorEntry = z.infer<typeof ValidationErrorEntry>

export const HTTPValidationError = z.object({ detail: z.array(ValidationErrorEntry) })
export type HTTPValidationError = z.infer<typeof HTTPValidationError>

// The revision and deployment logs, beyond the interface (docs/control-plane.md, "Operations"):
// the query of a page and the page.

export const LOG_TYPES = ['build', 'deploy'] as const
export type LogType = (typeof LOG_TYPES)[number]
export const LOG_ORDERS = ['asc', 'desc'] as const
export type LogOrder = (typeof LOG_ORDERS)[number]

/** `GET /v2/deployments/{deployment_id}/revisions/{revision_id}/logs` query. */
export const RevisionLogsQuery = z.object({
  type: z.enum(LOG_TYPES),
  order: z.enum(LOG_ORDERS).default('asc'),
  limit: queryInt.min(1).max(1000).default(50),
  offset: z.string().optional(),
  level: z.string().optional(),
  query: z.string().optional(),
  start_time: z.string().optional(),
  end_time: z.string().optional()
})

/** Lines kept from one answer: the most that a request may ask for. */
export const MAX_LOG_LINES = 1000

const textOrNumber = z
  .union([z.string(), z.number()])
  .nullish()
  .transform(v => (v === null || v === undefined ? null : String(v)))

/** One log line; `message` is what the build printed, untrusted, kept as it came. */
export const RevisionLogEntry = z.object({
  /** Stable and unique per line where the service gives it: readers that follow a log dedupe on it. */
  id: textOrNumber.optional(),
  timestamp: textOrNumber,
  message: z.string(),
  level: textOrNumber
})
export type RevisionLogEntry = z.infer<typeof RevisionLogEntry>

export const RevisionLogPage = z.object({
  logs: z.array(RevisionLogEntry).transform(lines => lines.slice(0, MAX_LOG_LINES)),
  /** The cursor of the next page; null at the end. */
  next_offset: textOrNumber
})
export type RevisionLogPage = z.infer<typeof RevisionLogPage>
