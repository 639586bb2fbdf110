// Each input on its own: a plain record, input name -> check (see problems.ts for how a check
// reports). `Fields` is inferred from it, so a new input is one line here. Its own module so that
// index.ts (the entry) and cross-field.ts (how inputs fit together) share `Fields` without
// importing each other.
import { DEPLOYMENT_TYPES, RevisionSource, SOURCES } from '../control-plane/schema.ts'
import type { Source } from '../control-plane/schema.ts'
import { DIALECTS } from '../control-plane/dialect.ts'
import { formatDuration } from '../duration.ts'
import { parseResourceSpec, parseSecretReferences } from './documents.ts'
import {
  booleanInput,
  integerInput,
  DEFAULT_BASE_URL,
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
import { parseSecrets } from './secrets.ts'
import { parseHealthCheck, parseHealthCheckWindow } from './health.ts'

export const DEFAULT_TIMEOUT = '30m'
export const DEFAULT_POLL_INTERVAL = '15s'
export const DEFAULT_POLL_INTERVAL_MS = 15_000
export const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000
export const MIN_POLL_INTERVAL_MS = 1000

/** Each input's own check. */
export const CHECKS = {
  'api-key': parseApiKey,
  'tenant-id': optionalUuid('tenant-id', 'a workspace id'),
  'base-url': (v, fail) => parseBaseUrl(v === '' ? DEFAULT_BASE_URL : v, fail),
  name: parseName,
  'deployment-id': optionalUuid('deployment-id', 'a deployment id'),
  // `github` is the production service's word for `codehost`: both are accepted.
  source: (v, fail) => (v === 'github' ? 'codehost' : parseSource(v, fail)),
  'integration-id': optionalUuid('integration-id', 'a forge integration id'),
  repository: parseRepository,
  ref: parseRef,
  'graph-config-path': parseGraphConfigPath,
  'image-uri': optionalToken(
    'image-uri',
    'an image reference like registry.example.com/agent@sha256:...'
  ),
  secrets: parseSecrets,
  'secret-references': parseSecretReferences,
  'resource-spec': parseResourceSpec,
  'build-on-push': booleanInput('build-on-push', undefined),
  'custom-url': parseCustomUrl,
  'listener-id': optionalUuid('listener-id', 'a listener id'),
  'k8s-namespace': parseNamespace,
  'install-command': optionalText('install-command', 'a command'),
  'build-command': optionalText('build-command', 'a command'),
  'revision-source': parseEnum('revision-source', RevisionSource.options, undefined),
  create: booleanInput('create', true),
  wait: booleanInput('wait', true),
  timeout: durationInput('timeout', DEFAULT_TIMEOUT, ms =>
    ms <= 0
      ? 'must be longer than zero'
      : ms > MAX_TIMEOUT_MS
        ? `must be at most ${formatDuration(MAX_TIMEOUT_MS)} (the longest a job step should wait)`
        : undefined
  ),
  // Not set: the default follows the timeout (a pause is never longer than the whole wait).
  'poll-interval': durationInput('poll-interval', undefined, ms =>
    ms < MIN_POLL_INTERVAL_MS ? 'must be at least 1s' : undefined
  ),
  'dry-run': booleanInput('dry-run', false),
  'failure-logs': integerInput('failure-logs', 50, 0, 1000),
  'on-failure': parseEnum('on-failure', ['fail', 'rollback'] as const, 'fail'),
  'api-dialect': parseEnum('api-dialect', ['auto', ...DIALECTS] as const, 'auto'),
  'deployment-type': parseEnum('deployment-type', DEPLOYMENT_TYPES, undefined),
  command: parseEnum('command', ['deploy', 'delete'] as const, 'deploy'),
  'delete-tracing-project': booleanInput('delete-tracing-project', false),
  'pr-comment': booleanInput('pr-comment', false),
  'github-token': parseGithubToken,
  environment: parseEnvironment,
  'environment-url': parseEnvironmentUrl,
  'health-check': parseHealthCheck,
  'health-check-window': parseHealthCheckWindow
} satisfies Record<InputName, Check<unknown>>

/** Each input's value after its check; `undefined` when not set or when its check failed. */
export type Fields = { [K in InputName]: ReturnType<(typeof CHECKS)[K]> }

function parseSource(v: string, fail: Fail): Source | undefined {
  if (v === '') return 'codehost'
  if ((SOURCES as readonly string[]).includes(v)) return v as Source
  return fail(
    `\`source\` must be one of ${[...SOURCES, 'github'].map(s => `\`${s}\``).join(', ')} (\`github\` is another word for \`codehost\`)`
  )
}
