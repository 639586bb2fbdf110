// Each input on its own: one zod field per input, built by `field()` from that input's check (see
// problems.ts for the one idea: a check reports through `fail` and its field becomes INVALID).
// Its own module so that index.ts (the entry) and cross-field.ts (how inputs fit together) both
// use the `Fields` type without importing each other.
import { z } from 'zod'
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
import { field } from './problems.ts'
import type { Fail, Invalid } from './problems.ts'
import { parseSecrets } from './secrets.ts'

export const DEFAULT_TIMEOUT = '30m'
export const DEFAULT_POLL_INTERVAL = '15s'
export const DEFAULT_POLL_INTERVAL_MS = 15_000
export const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000
export const MIN_POLL_INTERVAL_MS = 1000

/** Each input on its own. */
export const fieldsSchema = z.object({
  'api-key': field('api-key', parseApiKey),
  'tenant-id': optionalUuid('tenant-id', 'a workspace id'),
  'base-url': field('base-url', (v, fail) => parseBaseUrl(v === '' ? DEFAULT_BASE_URL : v, fail)),
  name: field('name', parseName),
  'deployment-id': optionalUuid('deployment-id', 'a deployment id'),
  // `github` is the production service's word for `codehost`: both are accepted.
  source: field('source', (v, fail) => (v === 'github' ? 'codehost' : parseSource(v, fail))),
  'integration-id': optionalUuid('integration-id', 'a forge integration id'),
  repository: field('repository', parseRepository),
  ref: field('ref', parseRef),
  'graph-config-path': field('graph-config-path', parseGraphConfigPath),
  'image-uri': optionalToken(
    'image-uri',
    'an image reference like registry.example.com/agent@sha256:...'
  ),
  secrets: field('secrets', parseSecrets),
  'secret-references': field('secret-references', parseSecretReferences),
  'resource-spec': field('resource-spec', parseResourceSpec),
  'build-on-push': booleanInput('build-on-push', undefined),
  'custom-url': field('custom-url', parseCustomUrl),
  'listener-id': optionalUuid('listener-id', 'a listener id'),
  'k8s-namespace': field('k8s-namespace', parseNamespace),
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
  'github-token': field('github-token', parseGithubToken),
  environment: field('environment', parseEnvironment),
  'environment-url': field('environment-url', parseEnvironmentUrl)
})
export type Fields = z.output<typeof fieldsSchema>
/** The fields once every input passed its own check. */
export type Valid<T> = { [K in keyof T]: Exclude<T[K], Invalid> }

function parseSource(v: string, fail: Fail): Source | Invalid {
  if (v === '') return 'codehost'
  if ((SOURCES as readonly string[]).includes(v)) return v as Source
  return fail(
    `\`source\` must be one of ${[...SOURCES, 'github'].map(s => `\`${s}\``).join(', ')} (\`github\` is another word for \`codehost\`)`
  )
}
