// The command line and the environment -> the action's inputs by their action.yml names: a flag,
// else `CONTROL_PLANE_<INPUT>`, else the default. Only the line's shape is checked here: the values
// by the action's own input checks.
import { parseArgs } from 'node:util'
import { COMMANDS as ALL_COMMANDS } from '../inputs/table.ts'
import type { InputName } from '../interface/names.ts'
import { takersOf } from '../run.ts'
import { GITLAB_TOKEN_VARIABLE } from './ci.ts'
import { CLI_INPUTS, type CliInput } from './inputs.ts'

export type OutputFormat = 'lines' | 'json'
export const COMMANDS = ALL_COMMANDS
export type Command = (typeof COMMANDS)[number]

export type CommandLine =
  /** With a command (`deploy --help`): that command's flags, examples and outputs alone. */
  | { kind: 'help'; command?: Command }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string }
  | {
      kind: 'run'
      command: Command
      /** Every input by its action.yml name, '' when not given. */
      inputs: Record<string, string>
      /** Where each input given came from: a flag or its variable. */
      origins: Record<string, 'flag' | 'env'>
      output: OutputFormat
      outputFile?: string
      /** `plan`: where to write the GitLab child pipeline of its deploys. */
      childPipeline?: string
      /** Every request and answer in the log (redacted), as the action's step debug log. */
      debug: boolean
      /** Said on stderr before the run: nothing in them is a value. */
      warnings: string[]
      notes: string[]
    }

/** Inputs that never come from a flag, with what to do instead. */
const NOT_FLAGS: Record<string, string> = {
  'api-key':
    'the API key is read only from the environment variable CONTROL_PLANE_API_KEY: a key on the command line stays in the shell history and is visible to every user of the machine in `ps`',
  'github-token': 'the GitHub token is read only from the environment variable GITHUB_TOKEN',
  command:
    'the command is the first word: `control-plane-deploy deploy`, `... delete`, `... sweep` or `... check`'
}

/** Where each input's value comes from in the environment. */
export function envNameOf(input: string): string {
  if (input === 'github-token') return 'GITHUB_TOKEN'
  return `CONTROL_PLANE_${input.toUpperCase().replace(/-/g, '_')}`
}

/** The inputs that are flags (every input but those in NOT_FLAGS). */
export const FLAG_INPUTS: readonly CliInput[] = CLI_INPUTS.filter(i => !(i.name in NOT_FLAGS))

const OWN_FLAGS = ['output', 'output-file', 'child-pipeline', 'debug', 'help', 'version'] as const

type OptionSpec = { type: 'string' | 'boolean'; short?: string }

function optionSpecs(): Record<string, OptionSpec> {
  const specs: Record<string, OptionSpec> = {
    output: { type: 'string' },
    'output-file': { type: 'string' },
    'child-pipeline': { type: 'string' },
    debug: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' }
  }
  for (const input of FLAG_INPUTS) {
    if (input.boolean) {
      specs[input.name] = { type: 'boolean' }
      specs[`no-${input.name}`] = { type: 'boolean' }
    } else specs[input.name] = { type: 'string' }
  }
  return specs
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      )
    }
    prev = row
  }
  return prev[b.length]!
}

/** Why `--name` is not a flag, and what comes closest. */
function unknownFlag(raw: string, name: string, specs: Record<string, OptionSpec>): string {
  const bare = name.replace(/^no-/, '')
  if (bare in NOT_FLAGS) return `${raw} is not accepted: ${NOT_FLAGS[bare]}.`
  const near = Object.keys(specs)
    .map(k => ({ k, d: distance(name, k) }))
    .filter(x => x.d <= Math.max(2, Math.floor(name.length / 4)))
    .sort((a, b) => a.d - b.d)[0]
  return `${raw} is not a flag of control-plane-deploy${near ? ` (did you mean --${near.k}?)` : ''}. See control-plane-deploy --help.`
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number]

/** The flags given, in order; a message for the first that is wrong. */
function readFlags(
  tokens: Token[],
  specs: Record<string, OptionSpec>
): { given: Map<string, string | boolean>; positionals: string[] } | string {
  const given = new Map<string, string | boolean>()
  const positionals: string[] = []
  // The switch just read (`--wait`), when it took no value.
  let switched: { flag: string; input: string } | undefined
  for (const t of tokens) {
    // `--wait false`: a switch's value is never the next word, which would be left over.
    if (t.kind === 'positional' && switched && ['true', 'false'].includes(t.value)) {
      const { flag, input } = switched
      return `${flag} ${t.value}: a switch takes its value after = (${flag}=${t.value}); or write --${input} or --no-${input}.`
    }
    switched = undefined
    if (t.kind === 'positional') positionals.push(t.value)
    if (t.kind !== 'option') continue
    const spec = specs[t.name]
    if (!spec) return unknownFlag(t.rawName, t.name, specs)
    const flag = t.rawName.startsWith('--') ? t.rawName : `--${t.name}`
    if (spec.type === 'boolean') {
      const input = t.name.replace(/^no-/, '')
      const own = OWN_FLAGS.includes(t.name as never)
      // `--wait=false` reads as `--no-wait`, as in the action's `wait: false`.
      if (t.value !== undefined && (own || !['true', 'false'].includes(t.value))) {
        return own
          ? `${flag} takes no value.`
          : `${flag} takes no value, or true or false: write --${input} or --no-${input}.`
      }
      given.set(input, t.name.startsWith('no-') !== (t.value !== 'false'))
      if (t.value === undefined && !own) switched = { flag, input }
      continue
    }
    // Without `--x=value`, parseArgs takes the next word whatever it is: a flag there means the
    // value was left out.
    if (t.value === undefined || (!t.inlineValue && t.value.startsWith('-'))) {
      return `${flag} needs a value (write ${flag}=VALUE for a value that starts with -).`
    }
    given.set(t.name, t.value)
  }
  return { given, positionals }
}

/** The CLI's own flags of a run: where its outputs go; a message for one that is wrong. */
function ownFlags(given: Map<string, string | boolean>, command: string) {
  const output = (given.get('output') as string | undefined) ?? 'lines'
  if (output !== 'lines' && output !== 'json') return '--output must be lines or json.'
  const outputFile = given.get('output-file') as string | undefined
  const childPipeline = given.get('child-pipeline') as string | undefined
  if (childPipeline !== undefined && command !== 'plan')
    return `--child-pipeline is a flag of plan (the GitLab pipeline of its deploys), not of ${command}.`
  return { output: output as OutputFormat, outputFile, childPipeline }
}

/** The environment's `CONTROL_PLANE_*` variables that name no input: likely typos. */
function strayVariables(env: NodeJS.ProcessEnv): string[] {
  const known = new Set(FLAG_INPUTS.map(i => envNameOf(i.name)))
  known.add(envNameOf('api-key'))
  // The sweep's token for GitLab's merge requests (ci.ts reads it): no input of the action.
  known.add(GITLAB_TOKEN_VARIABLE)
  const warnings: string[] = []
  for (const key of Object.keys(env).sort()) {
    if (!key.startsWith('CONTROL_PLANE_') || known.has(key)) continue
    if (key === 'CONTROL_PLANE_GITHUB_TOKEN') {
      warnings.push(
        'CONTROL_PLANE_GITHUB_TOKEN is ignored: the GitHub token is read from GITHUB_TOKEN.'
      )
    } else if (key === 'CONTROL_PLANE_COMMAND') {
      warnings.push(
        'CONTROL_PLANE_COMMAND is ignored: the command is the first word (deploy, delete, sweep or check).'
      )
    } else warnings.push(`${key} is set but names no input of control-plane-deploy: it is ignored.`)
  }
  return warnings
}

/**
 * Every input's raw value. A variable is ambient (set for every command of a pipeline): one the
 * command does not use is left out and said so, where the same flag is the run's error.
 */
function inputValues(
  command: Command,
  given: Map<string, string | boolean>,
  env: NodeJS.ProcessEnv,
  notes: string[],
  origins: Record<string, 'flag' | 'env'>
): Record<string, string> {
  const inputs: Record<string, string> = {}
  const unused: string[] = []
  for (const input of CLI_INPUTS) {
    const flag = given.get(input.name)
    const fromEnv = env[envNameOf(input.name)]
    if (input.name === 'command') inputs[input.name] = command
    else if (flag !== undefined) {
      inputs[input.name] = String(flag)
      origins[input.name] = 'flag'
    } else if (fromEnv !== undefined && fromEnv !== '') {
      if (takersOf(input.name as InputName).includes(command)) {
        inputs[input.name] = fromEnv
        origins[input.name] = 'env'
      } else unused.push(envNameOf(input.name))
    }
    inputs[input.name] ??= input.default
  }
  if (unused.length) notes.push(`Not used by ${command}: ${unused.join(', ')}.`)
  return inputs
}

/** ` "word"` for a mistyped word; nothing for anything else, which may be a pasted key. */
function quoted(word: string): string {
  return /^[a-z][a-z-]{0,19}$/.test(word) ? ` "${word}"` : ''
}

/** Inputs that are on with `true` or a value: a bare `--health-check` means `true`. */
const SWITCH_OR_VALUE = new Set(FLAG_INPUTS.filter(i => i.trueOrValue).map(i => `--${i.name}`))

/** `--health-check` with no value after it (last, or before another flag) -> `=true`. */
function bareSwitches(argv: string[]): string[] {
  const end = argv.indexOf('--')
  return argv.map((arg, i) => {
    if ((end >= 0 && i > end) || !SWITCH_OR_VALUE.has(arg)) return arg
    const next = argv[i + 1]
    return next === undefined || next.startsWith('-') ? `${arg}=true` : arg
  })
}

/** The word a user tries for a promotion, which is a deploy with a source. */
const PROMOTE =
  ' A promotion is a deploy: control-plane-deploy deploy --name my-agent --promote-from my-agent-staging.'

/** `argv` without node and the script. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): CommandLine {
  const specs = optionSpecs()
  const { tokens } = parseArgs({
    args: bareSwitches(argv),
    options: specs,
    strict: false,
    tokens: true
  })
  const read = readFlags(tokens, specs)
  // --help and --version answer whatever else the line holds.
  const asks = (name: string) =>
    tokens.some(t => t.kind === 'option' && t.name === name && t.value === undefined)
  if (asks('help')) {
    const first = tokens.find(t => t.kind === 'positional')
    const command = COMMANDS.find(c => first?.kind === 'positional' && first.value === c)
    return command ? { kind: 'help', command } : { kind: 'help' }
  }
  if (asks('version')) return { kind: 'version' }
  if (typeof read === 'string') return { kind: 'usage-error', message: read }
  const { given, positionals } = read
  const [command, ...extra] = positionals
  if (command === undefined) {
    return {
      kind: 'usage-error',
      message:
        'Say what to do: control-plane-deploy deploy [flags] or control-plane-deploy delete [flags] (or sweep, check, plan). See control-plane-deploy --help for the flags and examples.'
    }
  }
  if (!COMMANDS.includes(command as Command)) {
    return {
      kind: 'usage-error',
      message: `Unknown command${quoted(command)}: the commands are ${COMMANDS.slice(0, -1).join(', ')} and ${COMMANDS.at(-1)}.${command === 'promote' ? PROMOTE : ''} See control-plane-deploy --help.`
    }
  }
  if (extra.length) {
    return {
      kind: 'usage-error',
      message: `Unexpected argument${quoted(extra[0]!)} after ${command}: every value goes with its flag (--name my-agent).`
    }
  }
  const own = ownFlags(given, command)
  if (typeof own === 'string') return { kind: 'usage-error', message: own }
  const { output, outputFile, childPipeline } = own
  const notes: string[] = []
  const origins: Record<string, 'flag' | 'env'> = {}
  const inputs = inputValues(command as Command, given, env, notes, origins)
  return {
    kind: 'run',
    command: command as Command,
    inputs,
    origins,
    output,
    ...(outputFile !== undefined ? { outputFile } : {}),
    ...(childPipeline !== undefined ? { childPipeline } : {}),
    debug: given.get('debug') === true,
    warnings: strayVariables(env),
    notes
  }
}
