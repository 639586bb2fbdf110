// The action's inputs -> one typed, validated `Options` object. Pure: no I/O, no `@actions/core`
// (the entry layer masks and logs).
//
// One problem collector (problems.ts) takes every problem, so that a user fixes all their inputs
// in one round, never just the first: each input's own check runs, then the checks of how the
// inputs fit together, and `Options` are built only when nothing was found. No message ever
// repeats an input's value: a value may be the API key or a secret pasted into the wrong input.
// What may appear is the input's name, a secret's name, a line number or a key of a YAML/JSON
// document.
//
// `checks.ts` maps each input to its check, which lives in `fields.ts` (single-line inputs),
// `secrets.ts` or `documents.ts` (YAML/JSON inputs); `cross-field.ts` checks how they fit
// together; `masking.ts` finds the values to mask.
import type { Source } from '../control-plane/schema.ts'
import { autoDialect, type Dialect } from '../control-plane/dialect.ts'
import { MIN_SECRET_LENGTH, Redactor } from '../control-plane/redact.ts'
import type { EventDefaults } from '../event.ts'
import { secretValuesToMask } from './masking.ts'
import { INPUT_NAMES } from './names.ts'
import type { InputName, RawInputs } from './names.ts'
import { crossFieldProblems } from './cross-field.ts'
import type { InputProblem, Options, Target } from './options.ts'
import { InputProblems, type Check } from './problems.ts'
import { CHECKS, DEFAULT_POLL_INTERVAL_MS, type Fields } from './checks.ts'

export { nestingMayExceed } from './documents.ts'
export { secretValuesToMask } from './masking.ts'
export { INPUT_NAMES } from './names.ts'
export type { InputName, RawInputs } from './names.ts'
export {
  DEFAULT_POLL_INTERVAL,
  DEFAULT_TIMEOUT,
  MAX_TIMEOUT_MS,
  MIN_POLL_INTERVAL_MS,
  type Fields
} from './checks.ts'

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
// Checks and Options

/** Each input through its own check; a failed input's value is `undefined`. */
function checkEach(raw: RawInputs, problems: InputProblems): Fields {
  const fields = {} as Record<InputName, unknown>
  for (const name of INPUT_NAMES) {
    const check: Check<unknown> = CHECKS[name]
    fields[name] = problems.check(name, raw[name], check)
  }
  return fields as Fields
}

/**
 * The Options of inputs that passed every check, so the inputs with a default (`api-key`,
 * `source`, `timeout`, ...) have their value.
 */
function toOptions(f: Fields, event: EventDefaults): Options {
  const byId = f['deployment-id'] !== undefined
  const target: Target = byId
    ? { kind: 'id', deploymentId: f['deployment-id'] as string }
    : { kind: 'name', name: f.name as string }
  const usesCodehost = f.source === 'codehost' || f['revision-source'] === 'codehost'
  const ref = f.ref ?? (usesCodehost ? event.ref : undefined)
  // The event's commit is expected only when the event's ref is the one deployed.
  const expectedSha =
    usesCodehost && ref !== undefined && ref === event.ref ? event.expectedSha : undefined
  const auto = f['api-dialect'] === 'auto' ? autoDialect(f['base-url'] as string) : undefined
  return {
    apiKey: f['api-key'] as string,
    tenantId: f['tenant-id'],
    baseUrl: f['base-url'] as string,
    target,
    name: f.name,
    source: f.source as Source,
    integrationId: f['integration-id'],
    repository: f.repository ?? (usesCodehost ? event.repository : undefined),
    repositoryExplicit: f.repository !== undefined,
    ref,
    expectedSha,
    graphConfigPath: f['graph-config-path'] as string,
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
    failureLogs: f['failure-logs'] as number,
    apiDialect: auto?.dialect ?? (f['api-dialect'] as Dialect),
    apiDialectReason: auto?.reason,
    deploymentType: f['deployment-type'],
    command: f.command ?? 'deploy',
    deleteTracingProject: f['delete-tracing-project'] as boolean,
    prComment: f['pr-comment'] as boolean,
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
  const found = new InputProblems()
  const fields = checkEach(record, found)
  // After failed inputs too: every problem is reported at once.
  for (const [input, message] of crossFieldProblems(fields, found.failed(), event)) {
    found.add(input, message)
  }
  if (found.list.length === 0) return { ok: true, options: toOptions(fields, event) }

  // Messages never quote values; redacting what might be sensitive anyway is the second lock.
  const redactor = new Redactor(secretValuesToMask(record))
  const problems = found.list.map(p => ({ input: p.input, message: redactor.redact(p.message) }))
  return { ok: false, problems }
}

/** Names of the secrets whose values are too short to be masked (MIN_SECRET_LENGTH). */
export function unmaskedSecretNames(o: Options): string[] {
  return (o.secrets ?? []).filter(s => s.value.trim().length < MIN_SECRET_LENGTH).map(s => s.name)
}
