// The words and rules of the control-plane interface that need no zod (enums, reserved names,
// patterns, what a status means): the model is built from them, and the inputs and the flow take
// them from here, so the action reaches its first request without loading zod.

export const SOURCES = [
  'codehost',
  'external_docker',
  'internal_docker',
  'internal_source',
  'internal_template'
] as const

/** Sources only available for cloud-hosted deployments; `external_docker` is self-hosted only. */
export const CLOUD_SOURCES: readonly Source[] = [
  'codehost',
  'internal_docker',
  'internal_source',
  'internal_template'
]

export const REVISION_SOURCES = ['codehost', 'internal_docker', 'internal_source'] as const

export const DEPLOYMENT_STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  /** The service's newer deleting status: handled like AWAITING_DELETE. */
  'AWAITING_FINAL_DELETE',
  'UNKNOWN'
] as const

/** The statuses of a deployment on its way to being deleted. */
export const DELETING_STATUSES: readonly string[] = ['AWAITING_DELETE', 'AWAITING_FINAL_DELETE']
export type KnownDeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number]

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

export const FAILED_REVISION_STATUSES = ['CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED'] as const

export type RevisionOutcome = 'deployed' | 'failed' | 'skipped' | 'in_progress'

/** What a revision status means for someone waiting on it. Unknown values are in progress. */
export function revisionOutcome(status: string): RevisionOutcome {
  if (status === 'DEPLOYED') return 'deployed'
  if ((FAILED_REVISION_STATUSES as readonly string[]).includes(status)) return 'failed'
  if (status === 'SKIPPED') return 'skipped'
  return 'in_progress'
}

/**
 * The published description lists `dev_free`, `dev` and `prod`; the service's own Terraform
 * provider also sends `dev_zero` and `dev_free_zero` (the types that may scale to zero), so they
 * are accepted too (docs/decisions.md).
 */
export const DEPLOYMENT_TYPES = [
  'serverless',
  'dedicated',
  'dev_free',
  'dev',
  'prod',
  'dev_zero',
  'dev_free_zero'
] as const

/**
 * What a create sends without `deployment-type`, and what the emulator makes of a create without
 * one: the vendor CLI's default. The service's own default is not documented (docs/decisions.md).
 */
export const DEFAULT_DEPLOYMENT_TYPE = 'serverless'

/**
 * Today's two types (docs/emulator.md, "Deployment types and sizes"): Serverless scales to zero
 * and shares a database, Dedicated is always on with its own. The older words are read as the
 * type the service's docs map them to ("a Development deployment is a Serverless deployment, and
 * a Production deployment is a Dedicated deployment").
 */
import { SIZES, type Kind, type Size } from '../interface/journal.ts'

/** A `deployment_type` (today's word or a legacy one) as today's type; undefined when unknown. */
export function kindOf(type: string | null | undefined): Kind | undefined {
  if (type === 'serverless' || type === 'dedicated') return type
  if (type === 'prod') return 'dedicated'
  if (type === 'dev' || type === 'dev_free' || type === 'dev_zero' || type === 'dev_free_zero')
    return 'serverless'
  return undefined
}

// The three sizes of each type: SIZES.

const SIZE_LETTER: Record<Size, string> = { small: 'S', medium: 'M', large: 'L' }

/** `compute_tier` of `PATCH .../resource-tiers`: by the type, `SERVERLESS_S` ... `DEDICATED_L`. */
export const COMPUTE_TIERS = [
  'SERVERLESS_S',
  'SERVERLESS_M',
  'SERVERLESS_L',
  'DEDICATED_S',
  'DEDICATED_M',
  'DEDICATED_L'
] as const
/** `database_tier`: Dedicated deployments only (a Serverless one shares its database). */
export const DATABASE_TIERS = ['DEDICATED_S', 'DEDICATED_M', 'DEDICATED_L'] as const

/** The tier of a size for a type: `SERVERLESS_M`. */
export function tierOf(kind: Kind, size: Size): string {
  return `${kind.toUpperCase()}_${SIZE_LETTER[size]}`
}

/** A tier as the size it is (`SERVERLESS_M` -> medium); undefined for a word not known. */
export function sizeOfTier(tier: string | null | undefined): Size | undefined {
  const letter = /^(?:SERVERLESS|DEDICATED)_([SML])$/.exec(tier?.toUpperCase() ?? '')?.[1]
  return SIZES.find(s => SIZE_LETTER[s] === letter)
}

/**
 * Fields that the production service sets on create and never changes after: a PATCH that names
 * them with another value is refused (a deployment cannot be moved to another repository, plan,
 * or listener), so the action refuses such an update before any request.
 */
export const CREATE_ONLY_SOURCE_CONFIG_FIELDS = [
  'integration_id',
  'repo_url',
  'deployment_type',
  'listener_id'
] as const

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

/** A uuid of any version: the pattern of zod's `z.guid()` (a test holds the two together). */
export const UUID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/

export type Source = (typeof SOURCES)[number]

/** The most entries one page of a list may hold (`limit`). */
export const MAX_PAGE_SIZE = 100

/** The text parameters of `GET /v2/deployments`; `remote_reconciled` and `deployment_type` aside. */
const DEPLOYMENTS_QUERY_TEXT = [
  'name_contains',
  'status',
  'tag_value_ids',
  'image_version',
  'deployment_ids'
] as const

/**
 * Why a page query of `GET /v2/deployments` does not fit: the model's `ListDeploymentsQuery`
 * without zod (a test holds the two together); unknown parameters ignored, as the model strips.
 */
export function deploymentsQueryProblem(query: Record<string, unknown>): string | undefined {
  const { limit, offset, remote_reconciled: reconciled, deployment_type: type } = query
  const int = (v: unknown, min: number, max = Infinity) =>
    v === undefined || (Number.isInteger(v) && (v as number) >= min && (v as number) <= max)
  if (!int(limit, 1, MAX_PAGE_SIZE)) return `limit: an integer from 1 to ${MAX_PAGE_SIZE}`
  if (!int(offset, 0)) return 'offset: an integer of 0 or more'
  for (const key of DEPLOYMENTS_QUERY_TEXT) {
    if (query[key] !== undefined && typeof query[key] !== 'string') return `${key}: text`
  }
  if (reconciled !== undefined && typeof reconciled !== 'boolean')
    return 'remote_reconciled: true or false'
  if (type !== undefined && !(DEPLOYMENT_TYPES as readonly unknown[]).includes(type))
    return `deployment_type: one of ${DEPLOYMENT_TYPES.join(', ')}`
  return undefined
}
