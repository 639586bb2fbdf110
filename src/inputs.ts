// The action's inputs -> one typed, validated `Options` object. Pure: no I/O, no `@actions/core`
// (the entry layer masks and logs).
//
// Every raw input goes into one record that one zod schema parses: each field's transform checks
// its own input, a final refinement checks how the inputs fit together, and every issue becomes
// an `InputProblem` naming its input. All problems are collected, never just the first, and no
// message ever repeats an input's value: a value may be the API key or a secret pasted into the
// wrong input. What may appear is the input's name, a secret's name, a line number or a key of a
// YAML/JSON document.
//
// The per-input checks live in `inputs/`: `fields.ts` (single-line inputs), `secrets.ts`,
// `documents.ts` (YAML/JSON inputs), on the helpers of `problems.ts`; `masking.ts` finds the
// values to mask.
import { z } from 'zod'
import {
  RESERVED_SECRET_NAMES,
  RESERVED_SECRET_NAMES_HOSTED,
  RevisionSource,
  SOURCES
} from './control-plane/schema.ts'
import type { Source } from './control-plane/schema.ts'
import { MIN_SECRET_LENGTH, Redactor } from './control-plane/redact.ts'
import { formatDuration } from './duration.ts'
import type { EventDefaults } from './event.ts'
import { parseResourceSpec, parseSecretReferences } from './inputs/documents.ts'
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
} from './inputs/fields.ts'
import { secretValuesToMask } from './inputs/masking.ts'
import { INPUT_NAMES } from './inputs/names.ts'
import type { InputName, RawInputs } from './inputs/names.ts'
import { field, INVALID } from './inputs/problems.ts'
import type { Invalid } from './inputs/problems.ts'
import { parseSecrets } from './inputs/secrets.ts'
import type { InputProblem, Options, Target } from './options.ts'

export { nestingMayExceed } from './inputs/documents.ts'
export { secretValuesToMask } from './inputs/masking.ts'
export { INPUT_NAMES } from './inputs/names.ts'
export type { InputName, RawInputs } from './inputs/names.ts'

export const DEFAULT_TIMEOUT = '30m'
export const DEFAULT_POLL_INTERVAL = '15s'
const DEFAULT_POLL_INTERVAL_MS = 15_000
export const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000
export const MIN_POLL_INTERVAL_MS = 1000

/** The runner's environment variable for an input: `INPUT_` + upper case, hyphens kept. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/**
 * Every input from the runner's environment, trimmed at both ends like `core.getInput` (inner
 * lines of multi-line values are left as they are); `''` for inputs that are not set.
 */
export function readRawInputs(env: NodeJS.ProcessEnv): RawInputs {
  const raw = {} as RawInputs
  for (const name of INPUT_NAMES) raw[name] = (env[inputEnvName(name)] ?? '').trim()
  return raw
}

// ---------------------------------------------------------------------------------------------
// The schema

/** Each input on its own. */
const fieldsSchema = z.object({
  'api-key': field('api-key', parseApiKey),
  'tenant-id': optionalUuid('tenant-id', 'a workspace id'),
  'base-url': field('base-url', (v, fail) => parseBaseUrl(v === '' ? DEFAULT_BASE_URL : v, fail)),
  name: field('name', parseName),
  'deployment-id': optionalUuid('deployment-id', 'a deployment id'),
  source: parseEnum('source', SOURCES, 'codehost'),
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
  'github-token': field('github-token', parseGithubToken),
  environment: field('environment', parseEnvironment),
  'environment-url': field('environment-url', parseEnvironmentUrl)
})
type Fields = z.output<typeof fieldsSchema>
type Valid<T> = { [K in keyof T]: Exclude<T[K], Invalid> }

/** All inputs: each on its own, then how they fit together, then the Options. */
function inputSchema(event: EventDefaults) {
  return fieldsSchema
    .superRefine(
      (f, ctx) => {
        for (const [input, message] of crossFieldProblems(f, event)) {
          ctx.addIssue({ code: 'custom', path: [input], message, input: undefined })
        }
      },
      // Run even when single inputs failed: every problem is reported at once.
      { when: () => true }
    )
    .transform(f => toOptions(f as Valid<Fields>, event))
}

/** `value` unless it failed its own check. */
const known = <T>(value: T | Invalid): value is T => value !== INVALID

/** How the inputs fit together; only inputs that passed their own checks take part. */
function crossFieldProblems(f: Fields, event: EventDefaults): Array<[InputName, string]> {
  const problems: Array<[InputName, string]> = []
  const add = (input: InputName, message: string) => problems.push([input, message])
  const given = (input: InputName) => f[input] !== undefined && f[input] !== INVALID

  // Target.
  const byId = f['deployment-id'] !== undefined
  if (!byId && f.name === undefined) {
    add(
      'name',
      '`name` is required: the deployment name to find or create (or set `deployment-id` to update a deployment by id)'
    )
  }

  // GitHub deployments: `environment` turns them on and needs a token to write them.
  if (given('environment') && f['github-token'] === undefined) {
    add(
      'github-token',
      '`github-token` is required with `environment` to create a GitHub deployment: pass `${{ github.token }}` and grant the job `deployments: write`'
    )
  }
  if (given('environment-url') && f.environment === undefined) {
    add(
      'environment-url',
      '`environment-url` applies only with `environment` (the GitHub environment whose deployment shows that URL)'
    )
  }

  const source = known(f.source) ? f.source : undefined
  const revisionSource = known(f['revision-source']) ? f['revision-source'] : undefined
  if (source === undefined) return problems
  // Creating is only decided at run time; a name target with `create: true` may create.
  const mayCreate = !byId && typeof f.name === 'string' && f.create === true
  const usesCodehost =
    source === 'codehost' || (revisionSource === 'codehost' && source !== 'external_docker')

  // Inputs that belong to one kind of source.
  const onlyFor = (input: InputName, allowed: boolean, where: string) => {
    if (given(input) && !allowed)
      add(input, `\`${input}\` applies only to ${where}, not to source \`${source}\``)
  }
  onlyFor('integration-id', source === 'codehost', 'source `codehost`')
  onlyFor('build-on-push', source === 'codehost', 'source `codehost`')
  onlyFor('repository', usesCodehost, 'source `codehost` (or `revision-source: codehost`)')
  onlyFor('ref', usesCodehost, 'source `codehost` (or `revision-source: codehost`)')
  onlyFor('listener-id', source === 'external_docker', 'source `external_docker` (self-hosted)')
  onlyFor('k8s-namespace', source === 'external_docker', 'source `external_docker` (self-hosted)')
  onlyFor(
    'secret-references',
    source === 'external_docker',
    'source `external_docker` (self-hosted)'
  )
  onlyFor(
    'image-uri',
    source === 'external_docker' ||
      source === 'internal_docker' ||
      revisionSource === 'internal_docker',
    'sources `external_docker` and `internal_docker` (or `revision-source: internal_docker`)'
  )
  onlyFor('revision-source', source !== 'external_docker', 'cloud sources')

  // What each source needs.
  const missing = (input: InputName, why: string) => {
    if (f[input] === undefined) add(input, `\`${input}\` is required ${why}`)
  }
  if (source === 'codehost' && mayCreate) {
    const why = 'to create a `codehost` deployment (or set `create: false` to only update)'
    missing('integration-id', why)
    if (f.repository === undefined && event.repository === undefined) {
      add('repository', `\`repository\` is required ${why}: no workflow repository is known`)
    }
    if (f.ref === undefined && event.ref === undefined) {
      add('ref', `\`ref\` is required ${why}: the triggering event gives no branch or tag`)
    }
  }
  if (source === 'external_docker' && mayCreate) {
    const why = 'to create an `external_docker` deployment (or set `create: false` to only update)'
    missing('image-uri', why)
    missing('listener-id', why)
    missing('k8s-namespace', why)
  }
  if (source === 'internal_docker')
    missing('image-uri', 'with source `internal_docker`: the image to deploy')
  else if (revisionSource === 'internal_docker') {
    missing('image-uri', 'with `revision-source: internal_docker`: the image to deploy')
  }

  // build_on_push must be false when repo_ref is a tag.
  const ref = f.ref !== undefined ? f.ref : usesCodehost ? event.ref : undefined
  if (f['build-on-push'] === true && known(ref) && ref?.startsWith('refs/tags/')) {
    add(
      'build-on-push',
      '`build-on-push` cannot be `true` when the ref is a tag (`refs/tags/...`): a tag does not move on pushes'
    )
  }

  // Reserved secret names: hosted deployments reserve a few more.
  const reserved: readonly string[] =
    source === 'external_docker'
      ? RESERVED_SECRET_NAMES
      : [...RESERVED_SECRET_NAMES, ...RESERVED_SECRET_NAMES_HOSTED]
  if (known(f.secrets) && f.secrets !== undefined) {
    for (const { name } of f.secrets) {
      if (reserved.includes(name)) {
        add(
          'secrets',
          `\`secrets\`: ${name} is reserved by the platform${(RESERVED_SECRET_NAMES_HOSTED as readonly string[]).includes(name) ? ' on hosted deployments' : ''}; use another name`
        )
      }
    }
    if (known(f['secret-references']) && f['secret-references'] !== undefined) {
      const names = new Set(f.secrets.map(s => s.name))
      for (const { name } of f['secret-references']) {
        if (names.has(name)) {
          add('secret-references', `\`secret-references\`: ${name} is also set in \`secrets\``)
        }
      }
    }
  }

  const pollInterval = f['poll-interval']
  const timeout = f.timeout
  if (
    known(timeout) &&
    known(pollInterval) &&
    pollInterval !== undefined &&
    timeout !== undefined &&
    pollInterval > timeout
  ) {
    add(
      'poll-interval',
      `\`poll-interval\` (${formatDuration(pollInterval)}) must not be longer than \`timeout\` (${formatDuration(timeout)})`
    )
  }
  return problems
}

/** The Options of inputs that passed every check. */
function toOptions(f: Valid<Fields>, event: EventDefaults): Options {
  const byId = f['deployment-id'] !== undefined
  const target: Target = byId
    ? { kind: 'id', deploymentId: f['deployment-id'] as string }
    : { kind: 'name', name: f.name as string }
  const usesCodehost = f.source === 'codehost' || f['revision-source'] === 'codehost'
  const ref = f.ref ?? (usesCodehost ? event.ref : undefined)
  // The event's commit is expected only when the event's ref is the one deployed.
  const expectedSha =
    usesCodehost && ref !== undefined && ref === event.ref ? event.expectedSha : undefined
  return {
    apiKey: f['api-key'],
    tenantId: f['tenant-id'],
    baseUrl: f['base-url'],
    target,
    name: f.name,
    source: f.source as Source,
    integrationId: f['integration-id'],
    repository: f.repository ?? (usesCodehost ? event.repository : undefined),
    repositoryExplicit: f.repository !== undefined,
    ref,
    expectedSha,
    graphConfigPath: f['graph-config-path'],
    imageUri: f['image-uri'],
    secrets: f.secrets,
    secretReferences: f['secret-references'],
    resourceSpec: f['resource-spec'],
    buildOnPush: f['build-on-push'],
    customUrl: f['custom-url'],
    listenerId: f['listener-id'],
    k8sNamespace: f['k8s-namespace'],
    installCommand: f['install-command'],
    buildCommand: f['build-command'],
    revisionSource: f['revision-source'],
    create: f.create as boolean,
    wait: f.wait as boolean,
    timeoutMs: f.timeout as number,
    pollIntervalMs: f['poll-interval'] ?? Math.min(DEFAULT_POLL_INTERVAL_MS, f.timeout as number),
    dryRun: f['dry-run'] as boolean,
    failureLogs: f['failure-logs'],
    onFailure: f['on-failure'] as Options['onFailure'],
    githubToken: f['github-token'],
    environment: f.environment,
    environmentUrl: f['environment-url']
  }
}

// ---------------------------------------------------------------------------------------------
// Entry

export type ParseResult = { ok: true; options: Options } | { ok: false; problems: InputProblem[] }

/**
 * The validated Options, or every problem found. `raw` misses no input it does not need (missing
 * ones count as not set); `event` gives the defaults of `ref`, the expected commit and
 * `repository`. No problem message contains the API key or a secret value.
 */
export function parseInputs(raw: Partial<RawInputs>, event: EventDefaults): ParseResult {
  const record = {} as RawInputs
  for (const name of INPUT_NAMES) {
    const value: unknown = raw[name]
    record[name] = typeof value === 'string' ? value : ''
  }
  const result = inputSchema(event).safeParse(record)
  if (result.success) return { ok: true, options: result.data }

  // Messages never quote values; redacting what might be sensitive anyway is the second lock.
  const redactor = new Redactor(secretValuesToMask(record))
  const problems = result.error.issues.map(issue => ({
    input: typeof issue.path[0] === 'string' ? issue.path[0] : 'inputs',
    message: redactor.redact(issue.message)
  }))
  return { ok: false, problems }
}

/** Names of the secrets whose values are too short to be masked (MIN_SECRET_LENGTH). */
export function unmaskedSecretNames(o: Options): string[] {
  return (o.secrets ?? []).filter(s => s.value.trim().length < MIN_SECRET_LENGTH).map(s => s.name)
}
