// The inputs table: per input of action.yml (names, defaults, descriptions), its check and the
// facts of its row; a row missing or left over is a type error. Which commands take it is each
// command's list. To add an input: action.yml, `npm run readme`, a row, its commands', its use.
import {
  CLOUD_SOURCES,
  DEPLOYMENT_TYPES,
  REVISION_SOURCES,
  SOURCES
} from '../control-plane/vocabulary.ts'
import { SIZES } from '../interface/journal.ts'
import type { Source } from '../control-plane/schema.ts'
import { DIALECTS } from '../control-plane/dialect.ts'
import { formatDuration, parseAge } from '../duration.ts'
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
  parseLangsmithApiUrl,
  parseCustomUrl,
  parseEnum,
  parseEnvironment,
  parseEnvironmentUrl,
  parseGithubToken,
  parseGraphConfigPath,
  workspacePath,
  parseName,
  parseNamespace,
  parsePromoteFrom,
  parseRef,
  parseRepository,
  parseSourceDigest
} from './fields.ts'
import type { InputName } from '../interface/names.ts'
import type { Check, Fail } from './problems.ts'
import { parseHealthCheck, parseHealthCheckHosts, parseHealthCheckWindow } from './health.ts'
import { parseSecrets } from './secrets.ts'
import { parseSweepNames } from './sweep-names.ts'

export const DEFAULT_POLL_INTERVAL_MS = 15_000
export const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000
export const MIN_POLL_INTERVAL_MS = 1000

/** The commands, in the words of the `command` input (each is a module, src/commands/). */
export const COMMANDS = ['deploy', 'delete', 'sweep', 'check', 'plan'] as const
export type CommandName = (typeof COMMANDS)[number]

/** What an input's row says beyond its check and commands; every field may be left out. */
export interface RowFacts {
  /** The sources it belongs to: given with another `source`, it is an error. Unset: any source. */
  sources?: readonly Source[]
  /** `revision-source` values that take it too (with any cloud `source`). */
  revisionSources?: readonly Source[]
  /** The sources whose create needs it (a `name` target with `create: true`). */
  createNeeds?: readonly Source[]
  /** The sources (as `source` or `revision-source`) whose every deploy needs it, and why. */
  needs?: { sources: readonly Source[]; why: string }
  /** Shown in the README's short table (all inputs are in docs/inputs.md). */
  common?: boolean
  /** Used only inside GitHub Actions (the GitHub side); elsewhere the CLI does nothing with it. */
  githubActionsOnly?: boolean
}

export interface InputRow<T> extends RowFacts {
  /** Sees the value with action.yml's default applied when the input is empty. */
  check: Check<T>
}

const row = <T>(check: Check<T>, facts: RowFacts = {}): InputRow<T> => ({ check, ...facts })

// `internal_source` (an upload of the workspace) needs no integration, repository or ref: those
// rows name `codehost` alone, so with an upload they are refused, and no create needs them.
const CODEHOST = ['codehost'] as const satisfies readonly Source[]
const SELF_HOSTED = ['external_docker'] as const satisfies readonly Source[]
/** From the repository the integration builds: the deployment's source or its revision's. */
const FROM_REPOSITORY: RowFacts = {
  sources: CODEHOST,
  revisionSources: CODEHOST,
  createNeeds: CODEHOST
}
const SELF_HOSTED_CREATE: RowFacts = { sources: SELF_HOSTED, createNeeds: SELF_HOSTED }

/** Each input's row. A check sees action.yml's default when the input is not set. */
export const INPUTS = {
  'api-key': row(parseApiKey, { common: true }),
  'tenant-id': row(optionalUuid('tenant-id', 'a workspace id'), { common: true }),
  'base-url': row(parseBaseUrl),
  name: row(parseName, { common: true }),
  'deployment-id': row(optionalUuid('deployment-id', 'a deployment id'), { common: true }),
  // `github` is the production service's word for `codehost`: both are accepted.
  source: row((v, fail) => (v === 'github' ? 'codehost' : parseSource(v, fail)), {
    common: true
  }),
  'integration-id': row(optionalUuid('integration-id', 'a forge integration id'), {
    sources: CODEHOST,
    createNeeds: CODEHOST,
    common: true
  }),
  // The sweep reads pull requests from it.
  repository: row(parseRepository, FROM_REPOSITORY),
  ref: row(parseRef, { ...FROM_REPOSITORY, common: true }),
  'graph-config-path': row(parseGraphConfigPath),
  'image-uri': row(
    optionalToken('image-uri', 'an image reference like registry.example.com/agent@sha256:...'),
    {
      sources: ['external_docker', 'internal_docker'],
      revisionSources: ['internal_docker'],
      createNeeds: SELF_HOSTED,
      needs: { sources: ['internal_docker'], why: 'the image to deploy' }
    }
  ),
  secrets: row(parseSecrets, { common: true }),
  'secret-references': row(parseSecretReferences, { sources: SELF_HOSTED }),
  'resource-spec': row(parseResourceSpec),
  'build-on-push': row(booleanInput('build-on-push'), { sources: CODEHOST }),
  'custom-url': row(parseCustomUrl),
  'listener-id': row(optionalUuid('listener-id', 'a listener id'), SELF_HOSTED_CREATE),
  'k8s-namespace': row(parseNamespace, SELF_HOSTED_CREATE),
  'install-command': row(optionalText('install-command', 'a command')),
  'build-command': row(optionalText('build-command', 'a command')),
  'revision-source': row(parseEnum('revision-source', REVISION_SOURCES), {
    sources: CLOUD_SOURCES
  }),
  create: row(booleanInput('create')),
  wait: row(booleanInput('wait')),
  timeout: row(
    durationInput('timeout', ms =>
      ms <= 0
        ? 'must be longer than zero'
        : ms > MAX_TIMEOUT_MS
          ? `must be at most ${formatDuration(MAX_TIMEOUT_MS)} (the longest a job step should wait)`
          : undefined
    ),
    { common: true }
  ),
  // Not set: the default follows the timeout (a pause is never longer than the whole wait).
  'poll-interval': row(
    durationInput('poll-interval', ms =>
      ms < MIN_POLL_INTERVAL_MS ? 'must be at least 1s' : undefined
    )
  ),
  'dry-run': row(booleanInput('dry-run')),
  'github-token': row(parseGithubToken, { common: true, githubActionsOnly: true }),
  environment: row(parseEnvironment, { common: true, githubActionsOnly: true }),
  'environment-url': row(parseEnvironmentUrl, { githubActionsOnly: true }),
  'api-dialect': row(parseEnum('api-dialect', ['auto', ...DIALECTS] as const)),
  'deployment-type': row(parseEnum('deployment-type', DEPLOYMENT_TYPES), {
    sources: ['codehost', 'internal_source'],
    common: true
  }),
  // A resize through `resource-tiers`; the cloud sources only (rules.ts: database-size and the type).
  size: row(parseEnum('size', SIZES), { sources: CLOUD_SOURCES }),
  'database-size': row(parseEnum('database-size', SIZES), { sources: CLOUD_SOURCES }),
  command: row(parseEnum('command', COMMANDS), { common: true }),
  'delete-tracing-project': row(booleanInput('delete-tracing-project')),
  'on-failure': row(parseEnum('on-failure', ['fail', 'rollback'] as const), {
    common: true
  }),
  'failure-logs': row(integerInput('failure-logs', 0, 1000)),
  'pr-comment': row(booleanInput('pr-comment'), { common: true, githubActionsOnly: true }),
  'health-check': row(parseHealthCheck, { common: true }),
  'health-check-window': row(parseHealthCheckWindow),
  'health-check-hosts': row(parseHealthCheckHosts),
  // The file is read (a regular file inside the workspace) before any request, in run.ts.
  'smoke-test': row(workspacePath('smoke-test', 'smoke.yaml', '.github/smoke.yaml')),
  // The file (and its examples) are read and checked before any request, by the deploy command.
  evaluate: row(workspacePath('evaluate', 'evaluate.yaml', '.github/evaluate.yaml')),
  'langsmith-api-url': row(parseLangsmithApiUrl),
  'sweep-names': row(parseSweepNames),
  'sweep-closed': row(booleanInput('sweep-closed')),
  'sweep-max-age': row(parseSweepMaxAge),
  'sweep-max-count': row(integerInput('sweep-max-count', 0, 100_000)),
  'fail-on-drift': row(booleanInput('fail-on-drift')),
  'promote-from': row(parsePromoteFrom),
  'expected-source-digest': row(parseSourceDigest),
  'promote-revision-id': row(optionalUuid('promote-revision-id', 'a revision id')),
  // The file is read and checked (src/manifest/) before the inputs are, in run.ts.
  manifest: row(workspacePath('manifest', 'agents.yaml', 'deploy/agents.yaml')),
  agent: row(parseAgentKey),
  'verify-source': row(booleanInput('verify-source'))
} satisfies { [K in InputName]: InputRow<unknown> }

type Row<K extends InputName> = (typeof INPUTS)[K]
/** Each input's value after its check; `undefined` when not set or when its check failed. */
export type Fields = { [K in InputName]: Row<K> extends InputRow<infer T> ? T | undefined : never }

const HOUR_MS = 3_600_000
/** The form of an agent's key (the manifest's schema says the same). */
export const AGENT_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/

/** An age with its unit, at least an hour: a bare `7` as seconds would delete every preview. */
function parseSweepMaxAge(v: string, fail: Fail): number | undefined {
  if (v === '') return undefined
  if (/^\d+$/.test(v))
    return fail(
      `\`sweep-max-age\` needs a unit: \`${v}\` would be ${v} seconds; write \`${v}d\` for days or \`${v}h\` for hours (at least \`1h\`)`
    )
  const ms = parseAge(v)
  if (ms === undefined)
    return fail('`sweep-max-age` must be a duration with its unit, like `7d`, `36h` or `90m`')
  if (ms < HOUR_MS) return fail(`\`sweep-max-age\` must be at least \`1h\`, not \`${v}\``)
  return ms
}

/** An agent's key in the manifest: a plain word, as the schema's keys are. */
function parseAgentKey(v: string, fail: Fail): string | undefined {
  if (v === '') return undefined
  if (!AGENT_KEY.test(v))
    return fail(
      '`agent` must be the key of an agent in `manifest`: letters, digits, `-` and `_` (like `support`)'
    )
  return v
}

function parseSource(v: string, fail: Fail): Source | undefined {
  if ((SOURCES as readonly string[]).includes(v)) return v as Source
  return fail(
    `\`source\` must be one of ${[...SOURCES, 'github'].map(s => `\`${s}\``).join(', ')} (\`github\` is another word for \`codehost\`)`
  )
}
