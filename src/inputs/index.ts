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
// `table.ts` gives each input its check, which lives in `fields.ts` (single-line inputs),
// `secrets.ts` or `documents.ts` (YAML/JSON inputs), and the facts of its row; `resolved.ts`
// derives what they mean together once, `rules.ts` checks how they fit; `masking.ts` finds the
// values to mask. A check sees action.yml's default when the input is empty, as on the runner, so
// every caller (the action, the CLI, tests) gets the same.
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
import { DERIVED_INPUTS, optionKey, type InputProblem, type Options } from './options.ts'
import { InputProblems, type Check } from './problems.ts'
import { DEFAULT_POLL_INTERVAL_MS, INPUTS, type CommandName, type Fields } from './table.ts'

export { loadDocumentParser, nestingMayExceed } from './documents.ts'
export { loadPublicSuffixes } from '../control-plane/public-suffixes.ts'
export { commonWordSecretNames, secretValuesToMask } from './masking.ts'
export { INPUT_NAMES } from '../interface/names.ts'
export type { InputName, RawInputs } from '../interface/names.ts'
export { INPUTS } from './table.ts'

/** The runner's environment variable for an input: `INPUT_` + upper case, hyphens kept. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/**
 * Every input through `input` (the door's reader: `core.getInput`, the command line), trimmed
 * at both ends like `core.getInput` (inner lines of multi-line values are left as they are).
 */
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

/**
 * The Options of inputs that passed every check: each input under its camel-case key, then what
 * is derived (the target, the event's defaults, durations in ms, the dialect).
 */
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
 * The validated Options, or every problem found, and the values to mask. `raw` misses no input it
 * does not need (missing ones count as not set); `event` gives the defaults of `ref`, the expected
 * commit and `repository`; `say` how messages name an input, as the run's door does. Loads the
 * YAML/JSON inputs' parser when one of them is set. No problem message contains the API key or a
 * secret value.
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

/**
 * parseInputs once the YAML/JSON parser is loaded (for tests that check many inputs in a row;
 * a document input read before it is loaded throws).
 */
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
