// The validated, typed form of the action's inputs: what `inputs.ts` produces and the deploy flow
// consumes. Nothing here is raw text from the runner any more.
import type { Dialect } from '../control-plane/dialect.ts'
import type {
  DeploymentType,
  ResourceSpec,
  RevisionSource,
  Secret,
  SecretReference,
  Source
} from '../control-plane/schema.ts'

/** Where the deployment comes from: by id (never created) or by exact name (created if missing). */
export type Target = { kind: 'id'; deploymentId: string } | { kind: 'name'; name: string }

export interface Options {
  apiKey: string
  tenantId: string | undefined
  /** Normalised: no trailing slash, may carry a path (`https://host/api-host`). */
  baseUrl: string
  target: Target
  /** Deployment name when known (always with a name target; optional with an id target). */
  name: string | undefined
  source: Source
  integrationId: string | undefined
  /** `owner/name` of the repository to resolve through the forge repos endpoint. */
  repository: string | undefined
  /** The `repository` input was set (not taken from the workflow): a mismatch is an error. */
  repositoryExplicit: boolean
  /** `repo_ref` to deploy: the input, or derived from the triggering event. */
  ref: string | undefined
  /** The commit the revision is expected to build, from the event; compared with `repo_commit_sha`. */
  expectedSha: string | undefined
  graphConfigPath: string
  imageUri: string | undefined
  /** undefined: keep the deployment's current secrets. */
  secrets: Secret[] | undefined
  secretReferences: SecretReference[] | undefined
  resourceSpec: ResourceSpec | undefined
  buildOnPush: boolean | undefined
  customUrl: string | undefined
  listenerId: string | undefined
  k8sNamespace: string | undefined
  installCommand: string | undefined
  buildCommand: string | undefined
  revisionSource: RevisionSource | undefined
  create: boolean
  wait: boolean
  timeoutMs: number
  pollIntervalMs: number
  dryRun: boolean
  /** The wire names to speak, resolved from `api-dialect` and the base URL. */
  apiDialect: Dialect
  /** Why `api-dialect: auto` chose `apiDialect`, for the log; undefined when the input chose it. */
  apiDialectReason: string | undefined
  /** `source_config.deployment_type` on create; checked against the deployment's on update. */
  deploymentType: DeploymentType | undefined
  command: 'deploy' | 'delete'
  deleteTracingProject: boolean
  /** One comment on the pull request per deployment name. */
  prComment: boolean
  /** Lines of a failed revision's log to show; 0 = none. */
  failureLogs: number
  /** `rollback`: redeploy the previously active revision when this run's revision failed. */
  onFailure: 'fail' | 'rollback'
  /** Token for the GitHub REST API (the deployment in `environment`); undefined when not set. */
  githubToken?: string | undefined
  /** GitHub environment to record a deployment in; undefined: no GitHub deployment. */
  environment?: string | undefined
  /** The URL GitHub shows for the environment; default: the deployment's `custom_url`. */
  environmentUrl?: string | undefined
}

/** One bad input: which one and what is expected of it. */
export interface InputProblem {
  input: string
  message: string
}
