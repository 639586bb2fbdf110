// The inputs table: per input of action.yml, how it is parsed (its check, see problems.ts) and
// which commands it applies to. action.yml (through the generated action-yml.ts) gives the names,
// defaults and descriptions; everything else about an input is its row here. The list of names,
// what only a deploy uses and the keys of `Options` are derived from the two, and a row missing
// or left over is a type error. Adding an input: action.yml, `npm run readme`, one row, its use.
import { DEPLOYMENT_TYPES, REVISION_SOURCES, SOURCES } from '../control-plane/vocabulary.ts'
import type { Source } from '../control-plane/schema.ts'
import { DIALECTS } from '../control-plane/dialect.ts'
import { formatDuration } from '../duration.ts'
import { parseResourceSpec, parseSecretReferences } from './documents.ts'
import {
  booleanInput,
  integerInput,
  durationInput,
  optionalText,
  optionalToken,
  optionalUuid,
  parseApiKey,
  parseBaseUrl,
  parseCustomUrl,
  parseEnum,
  parseEnvironment,
  parseEnvironmentUrl,
  parseGithubToken,
  parseGraphConfigPath,
  parseName,
  parseNamespace,
  parseRef,
  parseRepository
} from './fields.ts'
import type { InputName } from './names.ts'
import type { Check, Fail } from './problems.ts'
import { parseHealthCheck, parseHealthCheckHosts, parseHealthCheckWindow } from './health.ts'
import { parseSecrets } from './secrets.ts'

export const DEFAULT_POLL_INTERVAL = '15s'
export const DEFAULT_POLL_INTERVAL_MS = 15_000
export const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000
export const MIN_POLL_INTERVAL_MS = 1000

/** Which commands an input is for: a deploy-only input given to `command: delete` is an error. */
export type Applies = 'deploy' | 'delete' | 'both'

export interface InputRow<T> {
  /** Sees the value with action.yml's default applied when the input is empty. */
  check: Check<T>
  applies: Applies
}

const row = <T>(check: Check<T>, applies: Applies): InputRow<T> => ({ check, applies })

/** Each input's row. A check sees action.yml's default when the input is not set. */
export const INPUTS = {
  'api-key': row(parseApiKey, 'both'),
  'tenant-id': row(optionalUuid('tenant-id', 'a workspace id'), 'both'),
  'base-url': row(parseBaseUrl, 'both'),
  name: row(parseName, 'both'),
  'deployment-id': row(optionalUuid('deployment-id', 'a deployment id'), 'both'),
  // `github` is the production service's word for `codehost`: both are accepted.
  source: row((v, fail) => (v === 'github' ? 'codehost' : parseSource(v, fail)), 'deploy'),
  'integration-id': row(optionalUuid('integration-id', 'a forge integration id'), 'deploy'),
  repository: row(parseRepository, 'deploy'),
  ref: row(parseRef, 'deploy'),
  'graph-config-path': row(parseGraphConfigPath, 'deploy'),
  'image-uri': row(
    optionalToken('image-uri', 'an image reference like registry.example.com/agent@sha256:...'),
    'deploy'
  ),
  secrets: row(parseSecrets, 'deploy'),
  'secret-references': row(parseSecretReferences, 'deploy'),
  'resource-spec': row(parseResourceSpec, 'deploy'),
  'build-on-push': row(booleanInput('build-on-push'), 'deploy'),
  'custom-url': row(parseCustomUrl, 'deploy'),
  'listener-id': row(optionalUuid('listener-id', 'a listener id'), 'deploy'),
  'k8s-namespace': row(parseNamespace, 'deploy'),
  'install-command': row(optionalText('install-command', 'a command'), 'deploy'),
  'build-command': row(optionalText('build-command', 'a command'), 'deploy'),
  'revision-source': row(parseEnum('revision-source', REVISION_SOURCES), 'deploy'),
  create: row(booleanInput('create'), 'deploy'),
  wait: row(booleanInput('wait'), 'both'),
  timeout: row(
    durationInput('timeout', ms =>
      ms <= 0
        ? 'must be longer than zero'
        : ms > MAX_TIMEOUT_MS
          ? `must be at most ${formatDuration(MAX_TIMEOUT_MS)} (the longest a job step should wait)`
          : undefined
    ),
    'both'
  ),
  // Not set: the default follows the timeout (a pause is never longer than the whole wait).
  'poll-interval': row(
    durationInput('poll-interval', ms =>
      ms < MIN_POLL_INTERVAL_MS ? 'must be at least 1s' : undefined
    ),
    'both'
  ),
  'dry-run': row(booleanInput('dry-run'), 'both'),
  'github-token': row(parseGithubToken, 'both'),
  environment: row(parseEnvironment, 'deploy'),
  'environment-url': row(parseEnvironmentUrl, 'deploy'),
  'api-dialect': row(parseEnum('api-dialect', ['auto', ...DIALECTS] as const), 'both'),
  'deployment-type': row(parseEnum('deployment-type', DEPLOYMENT_TYPES), 'deploy'),
  command: row(parseEnum('command', ['deploy', 'delete'] as const), 'both'),
  'delete-tracing-project': row(booleanInput('delete-tracing-project'), 'delete'),
  'on-failure': row(parseEnum('on-failure', ['fail', 'rollback'] as const), 'deploy'),
  'failure-logs': row(integerInput('failure-logs', 0, 1000), 'deploy'),
  'pr-comment': row(booleanInput('pr-comment'), 'both'),
  'health-check': row(parseHealthCheck, 'deploy'),
  'health-check-window': row(parseHealthCheckWindow, 'deploy'),
  'health-check-hosts': row(parseHealthCheckHosts, 'deploy')
} satisfies { [K in InputName]: InputRow<unknown> }

type Row<K extends InputName> = (typeof INPUTS)[K]
/** Each input's value after its check; `undefined` when not set or when its check failed. */
export type Fields = { [K in InputName]: Row<K> extends InputRow<infer T> ? T | undefined : never }

function parseSource(v: string, fail: Fail): Source | undefined {
  if ((SOURCES as readonly string[]).includes(v)) return v as Source
  return fail(
    `\`source\` must be one of ${[...SOURCES, 'github'].map(s => `\`${s}\``).join(', ')} (\`github\` is another word for \`codehost\`)`
  )
}
