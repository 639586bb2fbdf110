// The validated, typed form of the action's inputs, what the flow consumes: most keys are the
// inputs' names in camel case, typed by their check; the rest is derived below.
import type { Dialect } from '../control-plane/dialect.ts'
import type { ACTION_INPUTS } from '../interface/action-yml.ts'
import type { InputName } from '../interface/names.ts'
import type { Fields } from './table.ts'

/** Where the deployment comes from: by id (never created) or by exact name (created if missing). */
export type Target = { kind: 'id'; deploymentId: string } | { kind: 'name'; name: string }

/** `integration-id` -> `integrationId`. */
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S

type Meta = typeof ACTION_INPUTS
/** Inputs that always have a value: required, or with a default that is not an expression. */
type Always<K extends InputName> = Meta[K] extends { required: true }
  ? true
  : Meta[K] extends { default: `${string}\${{${string}` }
    ? false
    : Meta[K] extends { default: string }
      ? true
      : false

/** Inputs whose Options are derived (see the interface) rather than taken as they are. */
export const DERIVED_INPUTS = ['deployment-id', 'timeout', 'poll-interval', 'api-dialect'] as const
type Derived = (typeof DERIVED_INPUTS)[number]

/** The key in Options of an input taken as it is. */
export function optionKey<K extends InputName>(name: K): Camel<K> {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()) as Camel<K>
}

type Plain = {
  [K in Exclude<InputName, Derived> as Camel<K>]: Always<K> extends true
    ? NonNullable<Fields[K]>
    : Fields[K]
}

export interface Options extends Plain {
  target: Target
  /** Deployment name when known (always with a name target; optional with an id target). */
  name: string | undefined
  /** `owner/name` to resolve through the forge repos endpoint: the input, or the workflow's. */
  repository: string | undefined
  /** The `repository` input was set (not taken from the workflow): a mismatch is an error. */
  repositoryExplicit: boolean
  /** `repo_ref` to deploy: the input, or derived from the triggering event. */
  ref: string | undefined
  /** The commit the revision is expected to build, from the event; compared with `repo_commit_sha`. */
  expectedSha: string | undefined
  /** Where the repository is, when the door knows it is not GitHub: `GitLab`, `Bitbucket`, a host. */
  codeHost: string | undefined
  timeoutMs: number
  pollIntervalMs: number
  /** The wire names to speak, resolved from `api-dialect` and the base URL. */
  apiDialect: Dialect
  /** Why `api-dialect: auto` chose `apiDialect`, for the log; undefined when the input chose it. */
  apiDialectReason: string | undefined
}
