// The inputs table: per input of action.yml, how it is parsed (its check, see problems.ts), which
// commands and sources it applies to, what a create needs, and whether the README shows it.
// action.yml (through the generated action-yml.ts) gives the names, defaults and descriptions;
// everything else about an input is its row here. The list of names, what only a deploy uses, the
// rules of which source takes what (rules.ts) and the keys of `Options` are derived from the two,
// and a row missing or left over is a type error. Adding an input: action.yml, `npm run readme`,
// one row, its use.
import {
  CLOUD_SOURCES,
  DEPLOYMENT_TYPES,
  REVISION_SOURCES,
  SIZES,
  SOURCES
} from '../control-plane/vocabulary.ts'
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

export const DEFAULT_POLL_INTERVAL = '15s'
export const DEFAULT_POLL_INTERVAL_MS = 15_000
export const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000
export const MIN_POLL_INTERVAL_MS = 1000

/** The commands, in the words of the `command` input. */
export const COMMANDS = ['deploy', 'delete', 'sweep', 'check'] as const
export type Command = (typeof COMMANDS)[number]

/**
 * Which commands an input is for: a deploy-only input given to `command: delete` is an error.
 * `deploy` counts for `check` too (which plans the deploy its inputs describe), `both` is deploy,
 * check and delete; a list names the commands.
 */
export type Applies = 'deploy' | 'delete' | 'both' | readonly Command[]

/** Whether an input with `applies` is used by `command`. */
export function appliesTo(applies: Applies, command: Command): boolean {
  if (typeof applies !== 'string') return applies.includes(command)
  if (command === 'sweep') return false
  if (command === 'check') return applies !== 'delete'
  return applies === 'both' || applies === command
}

/** Inputs every command takes: where and how to reach the control plane (and GitHub). */
const EVERY: readonly Command[] = COMMANDS

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
  applies: Applies
}

const row = <T>(check: Check<T>, applies: Applies, facts: RowFacts = {}): InputRow<T> => ({
  check,
  applies,
  ...facts
})

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
  'api-key': row(parseApiKey, EVERY, { common: true }),
  'tenant-id': row(optionalUuid('tenant-id', 'a workspace id'), EVERY, { common: true }),
  'base-url': row(parseBaseUrl, EVERY),
  name: row(parseName, 'both', { common: true }),
  'deployment-id': row(optionalUuid('deployment-id', 'a deployment id'), 'both', { common: true }),
  // `github` is the production service's word for `codehost`: both are accepted.
  source: row((v, fail) => (v === 'github' ? 'codehost' : parseSource(v, fail)), 'deploy', {
    common: true
  }),
  'integration-id': row(optionalUuid('integration-id', 'a forge integration id'), 'deploy', {
    sources: CODEHOST,
    createNeeds: CODEHOST,
    common: true
  }),
  // The sweep reads pull requests from it.
  repository: row(parseRepository, ['deploy', 'check', 'sweep'], FROM_REPOSITORY),
  ref: row(parseRef, 'deploy', { ...FROM_REPOSITORY, common: true }),
  'graph-config-path': row(parseGraphConfigPath, 'deploy'),
  'image-uri': row(
    optionalToken('image-uri', 'an image reference like registry.example.com/agent@sha256:...'),
    'deploy',
    {
      sources: ['external_docker', 'internal_docker'],
      revisionSources: ['internal_docker'],
      createNeeds: SELF_HOSTED,
      needs: { sources: ['internal_docker'], why: 'the image to deploy' }
    }
  ),
  secrets: row(parseSecrets, 'deploy', { common: true }),
  'secret-references': row(parseSecretReferences, 'deploy', { sources: SELF_HOSTED }),
  'resource-spec': row(parseResourceSpec, 'deploy'),
  'build-on-push': row(booleanInput('build-on-push'), 'deploy', { sources: CODEHOST }),
  'custom-url': row(parseCustomUrl, 'deploy'),
  'listener-id': row(optionalUuid('listener-id', 'a listener id'), 'deploy', SELF_HOSTED_CREATE),
  'k8s-namespace': row(parseNamespace, 'deploy', SELF_HOSTED_CREATE),
  'install-command': row(optionalText('install-command', 'a command'), 'deploy'),
  'build-command': row(optionalText('build-command', 'a command'), 'deploy'),
  'revision-source': row(parseEnum('revision-source', REVISION_SOURCES), 'deploy', {
    sources: CLOUD_SOURCES
  }),
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
    'both',
    { common: true }
  ),
  // Not set: the default follows the timeout (a pause is never longer than the whole wait).
  'poll-interval': row(
    durationInput('poll-interval', ms =>
      ms < MIN_POLL_INTERVAL_MS ? 'must be at least 1s' : undefined
    ),
    'both'
  ),
  'dry-run': row(booleanInput('dry-run'), EVERY),
  'github-token': row(parseGithubToken, EVERY, { common: true, githubActionsOnly: true }),
  environment: row(parseEnvironment, 'deploy', { common: true, githubActionsOnly: true }),
  'environment-url': row(parseEnvironmentUrl, 'deploy', { githubActionsOnly: true }),
  'api-dialect': row(parseEnum('api-dialect', ['auto', ...DIALECTS] as const), EVERY),
  'deployment-type': row(parseEnum('deployment-type', DEPLOYMENT_TYPES), 'deploy', {
    sources: ['codehost', 'internal_source'],
    common: true
  }),
  // A resize through `resource-tiers`; the cloud sources only (rules.ts: database-size and the type).
  size: row(parseEnum('size', SIZES), 'deploy', { sources: CLOUD_SOURCES }),
  'database-size': row(parseEnum('database-size', SIZES), 'deploy', { sources: CLOUD_SOURCES }),
  command: row(parseEnum('command', COMMANDS), EVERY, { common: true }),
  'delete-tracing-project': row(booleanInput('delete-tracing-project'), ['delete', 'sweep']),
  'on-failure': row(parseEnum('on-failure', ['fail', 'rollback'] as const), 'deploy', {
    common: true
  }),
  'failure-logs': row(integerInput('failure-logs', 0, 1000), 'deploy'),
  'pr-comment': row(booleanInput('pr-comment'), 'both', { common: true, githubActionsOnly: true }),
  'health-check': row(parseHealthCheck, 'deploy', { common: true }),
  'health-check-window': row(parseHealthCheckWindow, 'deploy'),
  'health-check-hosts': row(parseHealthCheckHosts, 'deploy'),
  // The file is read (a regular file inside the workspace) before any request, in run.ts.
  'smoke-test': row(workspacePath('smoke-test', 'smoke.yaml', '.github/smoke.yaml'), 'deploy'),
  'sweep-names': row(parseSweepNames, ['sweep']),
  'sweep-closed': row(booleanInput('sweep-closed'), ['sweep']),
  'sweep-max-age': row(parseSweepMaxAge, ['sweep']),
  'sweep-max-count': row(integerInput('sweep-max-count', 0, 100_000), ['sweep']),
  'fail-on-drift': row(booleanInput('fail-on-drift'), ['check']),
  'promote-from': row(parsePromoteFrom, 'deploy'),
  'expected-source-digest': row(parseSourceDigest, 'deploy'),
  'promote-revision-id': row(optionalUuid('promote-revision-id', 'a revision id'), 'deploy'),
  'verify-source': row(booleanInput('verify-source'), 'deploy')
} satisfies { [K in InputName]: InputRow<unknown> }

type Row<K extends InputName> = (typeof INPUTS)[K]
/** Each input's value after its check; `undefined` when not set or when its check failed. */
export type Fields = { [K in InputName]: Row<K> extends InputRow<infer T> ? T | undefined : never }

const HOUR_MS = 3_600_000

/**
 * An age with its unit, at least an hour: a bare number is refused, not read as seconds (`7`
 * would delete every matching preview, those of open pull requests too).
 */
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

function parseSource(v: string, fail: Fail): Source | undefined {
  if ((SOURCES as readonly string[]).includes(v)) return v as Source
  return fail(
    `\`source\` must be one of ${[...SOURCES, 'github'].map(s => `\`${s}\``).join(', ')} (\`github\` is another word for \`codehost\`)`
  )
}
