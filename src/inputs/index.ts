// The action's inputs -> one typed, validated `Options` object. Pure: the door masks and logs.
// Every problem is collected (problems.ts), so a user fixes all their inputs in one round: each
// input's check (table.ts), then how they fit (resolved.ts, rules.ts). No message repeats a value,
// which may be the key or a secret pasted into the wrong input: only names, lines and keys.
import { autoDialect } from '../control-plane/dialect.ts'
import { MIN_SECRET_LENGTH, Redactor } from '../control-plane/redact.ts'
import type { EventDefaults } from '../runner/event.ts'
import { loadDocumentParser } from './documents.ts'
import { loadPublicSuffixes } from '../control-plane/public-suffixes.ts'
import { secretValuesToMask } from './masking.ts'
import { defaultOf, INPUT_NAMES, isUnevaluatedDefault } from '../interface/names.ts'
import type { InputName, RawInputs } from '../interface/names.ts'
import type { Say } from '../interface/naming.ts'
import { resolve, type Resolved } from './resolved.ts'
import { target, type Rule } from './rules.ts'
import { DERIVED_INPUTS, optionKey, type Options } from './options.ts'
import { type InputProblem, InputProblems, type Check } from './problems.ts'
import { DEFAULT_POLL_INTERVAL_MS, INPUTS, type CommandName, type Fields } from './table.ts'

export { loadDocumentParser } from './documents.ts'
export { nestingMayExceed } from './nesting.ts'
export { loadPublicSuffixes } from '../control-plane/public-suffixes.ts'
export { commonWordSecretNames, secretValuesToMask } from './masking.ts'
export { INPUT_NAMES } from '../interface/names.ts'
export type { InputName, RawInputs } from '../interface/names.ts'
export { INPUTS } from './table.ts'

/** The runner's environment variable for an input: `INPUT_` + upper case, hyphens kept. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/** Every input through the door's reader, trimmed at both ends as `core.getInput` does. */
export function readRawInputs(input: (name: InputName) => string): RawInputs {
  const raw = {} as RawInputs
  for (const name of INPUT_NAMES) raw[name] = input(name).trim()
  return raw
}

// ---------------------------------------------------------------------------------------------
// Checks and Options

/** Each input through its own check; a failed input's value is `undefined`. */
function checkEach(raw: RawInputs, problems: InputProblems): Fields {
  const fields = {} as Record<InputName, unknown>
  for (const name of INPUT_NAMES) {
    const check: Check<unknown> = INPUTS[name].check
    fields[name] = problems.check(name, raw[name], check)
  }
  return fields as Fields
}

/** The Options of inputs that passed every check: each under its key, then what is derived. */
function toOptions(f: Fields, r: Resolved): Options {
  const plain: Record<string, unknown> = {}
  for (const name of INPUT_NAMES) {
    if (!(DERIVED_INPUTS as readonly string[]).includes(name)) plain[optionKey(name)] = f[name]
  }
  const timeoutMs = f.timeout!
  const auto = f['api-dialect'] === 'auto' ? autoDialect(f['base-url']!) : undefined
  const derived = {
    target: r.byId
      ? { kind: 'id', deploymentId: f['deployment-id']! }
      : { kind: 'name', name: f.name! },
    repository: r.repository,
    repositoryExplicit: f.repository !== undefined,
    ref: r.ref,
    expectedSha: r.expectedSha,
    codeHost: r.codeHost,
    timeoutMs,
    pollIntervalMs: f['poll-interval'] ?? Math.min(DEFAULT_POLL_INTERVAL_MS, timeoutMs),
    apiDialect: auto?.dialect ?? (f['api-dialect'] as Options['apiDialect']),
    apiDialectReason: auto?.reason
  } satisfies Partial<Options>
  return { ...plain, ...derived } as Options
}

// ---------------------------------------------------------------------------------------------
// Entry

export type ParseResult = (
  | {
      ok: true
      options: Options
      /** What was read otherwise than written, for the log (`refs/heads/main` is `main`). */
      notices: string[]
    }
  | { ok: false; problems: InputProblem[] }
) & {
  /** Values to mask before anything is logged: the key, the token, every secret value. */
  masks: string[]
}

/**
 * The validated Options, or every problem found, and the values to mask; `raw` misses no input it
 * needs (a missing one is not set). Loads the YAML/JSON inputs' parser when one of them is set.
 */
export async function parseInputs(
  raw: Partial<RawInputs>,
  event: EventDefaults,
  say: Say,
  commands: CommandRules
): Promise<ParseResult> {
  await loadDocumentParser(raw)
  // The public suffix list (about 140 KB) only when a *.domain pattern may need it.
  if ((raw['health-check-hosts'] ?? '').includes('*')) await loadPublicSuffixes()
  return checkInputs(raw, event, say, commands)
}

/** What the inputs know of the commands (src/run.ts's registry): who takes what, whose rules. */
export interface CommandRules {
  /** The commands that take an input, in the registry's order. */
  takers(input: InputName): readonly CommandName[]
  rulesOf(command: CommandName): readonly Rule[]
}

/** parseInputs once the YAML/JSON parser is loaded (tests that check many inputs in a row). */
export function checkInputs(
  raw: Partial<RawInputs>,
  event: EventDefaults,
  say: Say,
  commands: CommandRules
): ParseResult {
  const record = {} as RawInputs
  const userSet = new Set<InputName>()
  for (const name of INPUT_NAMES) {
    const value: unknown = raw[name]
    const text = typeof value === 'string' && !isUnevaluatedDefault(name, value) ? value : ''
    if (text.trim() !== '') userSet.add(name)
    record[name] = text.trim() === '' ? defaultOf(name) : text
  }
  const masks = secretValuesToMask(record)
  const found = new InputProblems(say)
  const f = checkEach(record, found)
  const failed = found.failed()
  const r = resolve(f, failed, event)
  // After failed inputs too: every problem is reported at once.
  const command = f.command
  const rules = {
    command: command ?? 'deploy',
    takers: commands.takers,
    f,
    r,
    event,
    say,
    given: (input: InputName) => f[input] !== undefined,
    set: (input: InputName) => userSet.has(input) && f[input] !== undefined,
    absent: (input: InputName) => f[input] === undefined && !failed.has(input),
    add: (input: InputName, message: string) => void found.add(input, message)
  }
  // A mistyped command: which rules apply is unknown, so its own problem is the one to fix.
  const rulesOfCommand = command === undefined ? [target] : commands.rulesOf(command)
  for (const rule of rulesOfCommand) rule(rules)
  if (found.list.length === 0) {
    return { ok: true, options: toOptions(f, r), notices: notices(record, f, say), masks }
  }

  // Messages never quote values; redacting what might be sensitive anyway is the second lock.
  const redactor = new Redactor(masks)
  const problems = found.list.map(p => ({ input: p.input, message: redactor.redact(p.message) }))
  return { ok: false, problems, masks }
}

function notices(raw: RawInputs, f: Fields, say: Say): string[] {
  const out: string[] = []
  if (f.ref !== undefined && raw.ref.trim() !== f.ref) {
    out.push(
      `${say('ref')}: ${raw.ref.trim()} is deployed as the branch name ${f.ref}, the form the control plane takes.`
    )
  }
  return out
}

/** Names of the secrets whose values are too short to be masked (MIN_SECRET_LENGTH). */
export function unmaskedSecretNames(o: Options): string[] {
  return (o.secrets ?? []).filter(s => s.value.trim().length < MIN_SECRET_LENGTH).map(s => s.name)
}
