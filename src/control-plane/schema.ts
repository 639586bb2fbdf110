// The Deployment Control Plane interface, modelled once. The client validates every response with
// these schemas and the emulator validates every request with them, so the two cannot drift apart.
//
// Objects strip unknown fields instead of rejecting them: the production service adds fields
// (`display_name`, `url`, ...) and a client must not fail on them.
import { z } from 'zod'
import { sanitizeServerText } from './redact.ts'

/** A uuid as the service writes it. `guid` accepts any version: ids are opaque to us. */
export const Uuid = z.guid()

/**
 * Text the service chooses that reaches the job log, the outputs and the summary (a status it
 * may add, a name, a commit): made log-safe as it is read, so that no value can carry a workflow
 * command or a terminal escape code into the log. Ordinary values pass unchanged.
 */
const serverText = (max: number) => z.string().transform(s => sanitizeServerText(s, max))

/** An enum that also accepts values it does not know yet, typed as the known ones or a string. */
function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
  return serverText(100) as unknown as z.ZodType<T[number] | (string & {})>
}

// ---------------------------------------------------------------------------------------------
// Enums

export const SOURCES = [
  'codehost',
  'external_docker',
  'internal_docker',
  'internal_source',
  'internal_template'
] as const
export const Source = z.enum(SOURCES)
export type Source = z.infer<typeof Source>

/** Sources only available for cloud-hosted deployments; `external_docker` is self-hosted only. */
export const CLOUD_SOURCES: readonly Source[] = [
  'codehost',
  'internal_docker',
  'internal_source',
  'internal_template'
]

export const REVISION_SOURCES = ['codehost', 'internal_docker', 'internal_source'] as const
export const RevisionSource = z.enum(REVISION_SOURCES)
export type RevisionSource = z.infer<typeof RevisionSource>

export const DEPLOYMENT_STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN'
] as const
export type KnownDeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number]
export const DeploymentStatus = openEnum(DEPLOYMENT_STATUSES)

/** Revision statuses of the production service, in their usual order, then the terminal ones. */
export const REVISION_STATUSES = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
  'DEPLOYED',
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'SKIPPED',
  'INTERRUPTED',
  'UNKNOWN'
] as const
export type KnownRevisionStatus = (typeof REVISION_STATUSES)[number]
/** Any string parses: a status this model does not know yet is "still in progress". */
export const RevisionStatus = openEnum(REVISION_STATUSES)
export type RevisionStatus = z.infer<typeof RevisionStatus>

export const FAILED_REVISION_STATUSES = ['CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED'] as const

export type RevisionOutcome = 'deployed' | 'failed' | 'skipped' | 'in_progress'

/** What a revision status means for someone waiting on it. Unknown values are in progress. */
export function revisionOutcome(status: string): RevisionOutcome {
  if (status === 'DEPLOYED') return 'deployed'
  if ((FAILED_REVISION_STATUSES as readonly string[]).includes(status)) return 'failed'
  if (status === 'SKIPPED') return 'skipped'
  return 'in_progress'
}

export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const
export const DeploymentType = z.enum(DEPLOYMENT_TYPES)

// ---------------------------------------------------------------------------------------------
// ResourceSpec and its Kubernetes-shaped parts

const num = z.number().nullish()
const str = z.string().nullish()
const freeMap = z.record(z.string(), z.unknown()).nullish()
const freeObject = z.record(z.string(), z.unknown())

export const VolumeMount = z.object({
  name: str,
  mountPath: str,
  subPath: str,
  mountPropagation: str,
  subPathExpr: str,
  readOnly: z.boolean().nullish()
})

export const Volume = z.object({
  name: str,
  configMap: freeMap,
  secret: freeMap,
  emptyDir: freeMap,
  persistentVolumeClaim: freeMap,
  nfs: freeMap,
  projected: freeMap,
  downwardAPI: freeMap,
  csi: freeMap
})

export const EnvVar = z.object({
  name: str,
  value: str,
  valueFrom: freeMap
})

export const Container = z.object({
  name: str,
  image: str,
  imagePullPolicy: str,
  workingDir: str,
  restartPolicy: str,
  command: z.array(z.string()).nullish(),
  args: z.array(z.string()).nullish(),
  env: z.array(EnvVar).nullish(),
  envFrom: z.array(freeObject).nullish(),
  resources: z.object({ limits: freeMap, requests: freeMap }).nullish(),
  volumeMounts: z.array(VolumeMount).nullish(),
  securityContext: freeMap
})

/** Every numeric field of ResourceSpec, by group; units follow the suffix of the name. */
export const RESOURCE_SPEC_NUMBERS = {
  application: ['min_scale', 'max_scale', 'cpu', 'cpu_limit', 'memory_mb', 'memory_limit_mb'],
  queue: [
    'queue_min_scale',
    'queue_max_scale',
    'queue_cpu',
    'queue_cpu_limit',
    'queue_memory_mb',
    'queue_memory_limit_mb'
  ],
  orchestrator: [
    'orchestrator_cpu',
    'orchestrator_cpu_limit',
    'orchestrator_memory_mb',
    'orchestrator_memory_limit_mb',
    'orchestrator_min_scale',
    'orchestrator_max_scale'
  ],
  executor: [
    'executor_cpu',
    'executor_cpu_limit',
    'executor_memory_mb',
    'executor_memory_limit_mb'
  ],
  redis: ['redis_cpu', 'redis_cpu_limit', 'redis_memory_mb', 'redis_memory_limit_mb'],
  database: [
    'db_cpu',
    'db_cpu_limit',
    'db_memory_mb',
    'db_memory_limit_mb',
    'db_storage_gi',
    'db_max_connections'
  ]
} as const

export const ResourceSpec = z.object({
  min_scale: num,
  max_scale: num,
  cpu: num,
  cpu_limit: num,
  memory_mb: num,
  memory_limit_mb: num,
  queue_min_scale: num,
  queue_max_scale: num,
  queue_cpu: num,
  queue_cpu_limit: num,
  queue_memory_mb: num,
  queue_memory_limit_mb: num,
  orchestrator_cpu: num,
  orchestrator_cpu_limit: num,
  orchestrator_memory_mb: num,
  orchestrator_memory_limit_mb: num,
  orchestrator_min_scale: num,
  orchestrator_max_scale: num,
  executor_cpu: num,
  executor_cpu_limit: num,
  executor_memory_mb: num,
  executor_memory_limit_mb: num,
  redis_cpu: num,
  redis_cpu_limit: num,
  redis_memory_mb: num,
  redis_memory_limit_mb: num,
  db_cpu: num,
  db_cpu_limit: num,
  db_memory_mb: num,
  db_memory_limit_mb: num,
  db_storage_gi: num,
  db_max_connections: num,
  labels: freeMap,
  annotations: freeMap,
  service_account_name: str,
  image_pull_secrets: z.array(z.object({ name: str })).nullish(),
  volumes: z.array(Volume).nullish(),
  volume_mounts: z.array(VolumeMount).nullish(),
  init_containers: z.array(Container).nullish(),
  sidecars: z.array(Container).nullish()
})
export type ResourceSpec = z.infer<typeof ResourceSpec>

// ---------------------------------------------------------------------------------------------
// Source settings

export const SourceConfig = z.object({
  integration_id: Uuid.nullish(),
  repo_url: str,
  build_on_push: z.boolean().nullish(),
  custom_url: str,
  resource_spec: ResourceSpec.nullish(),
  listener_id: Uuid.nullish(),
  listener_config: z.object({ k8s_namespace: str }).nullish(),
  install_command: str,
  build_command: str
})
export type SourceConfig = z.infer<typeof SourceConfig>

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
  source_config: SourceConfig,
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
  image_version: str
})
export type Deployment = z.infer<typeof Deployment>

export const Revision = z.object({
  id: Uuid,
  status: RevisionStatus,
  created_at: str,
  updated_at: str,
  source: str,
  source_revision_config: SourceRevisionConfig.nullish()
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
  secret_references: z.array(SecretReference).nullish()
})
export type PatchDeploymentRequest = z.infer<typeof PatchDeploymentRequest>

/** Query strings carry text; `true`/`false` are the only booleans FastAPI-style services take. */
const queryBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform(v => v === true || v === 'true' || v === '1')
const queryInt = z.coerce.number().int()

/** `GET /v2/deployments` query, with the parameter names of the production service. */
export const ListDeploymentsQuery = z.object({
  limit: queryInt.min(1).max(100).default(20),
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

export const DeploymentList = z.object({
  resources: z.array(Deployment),
  offset: z.number().int()
})
export type DeploymentList = z.infer<typeof DeploymentList>

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

/** Names the platform sets itself; a deployment secret may not use them. */
export const RESERVED_SECRET_NAMES = [
  'PORT',
  'PATH',
  'DATABASE_URI',
  'POSTGRES_URI',
  'REDIS_URI',
  'LANGSMITH_TENANT_ID',
  'LANGSMITH_DEPLOYMENT_NAME',
  'LANGCHAIN_TRACING_V2',
  'LANGSMITH_PROJECT',
  'LANGCHAIN_API_KEY'
] as const
/** Reserved on hosted (cloud) deployments in addition to the names above. */
export const RESERVED_SECRET_NAMES_HOSTED = ['LANGSMITH_API_KEY', 'LANGSMITH_ENDPOINT'] as const

/** Lowercase letters, digits and hyphens, starting with a letter. */
export const DEPLOYMENT_NAME_PATTERN = /^[a-z][a-z0-9-]*$/
