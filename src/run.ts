// The run, whichever door it came through: inputs in through the port, masks first, every input
// checked before any request, the command run to its ending, and its report out through the port.
// It never asks where it runs: no @actions/core, no environment, no signal handlers (the doors').
import { makeClock, type Clock } from './clock.ts'
import {
  EVERY_COMMAND,
  type Command,
  type CommandContext,
  type CommandEnding
} from './commands/command.ts'
import { checkCommand } from './commands/check/command.ts'
import { deleteCommand } from './commands/delete/command.ts'
import { deployCommand } from './commands/deploy/command.ts'
import { planCommand } from './commands/plan/command.ts'
import { sweepCommand } from './commands/sweep/command.ts'
import { ControlPlaneClient } from './control-plane/client.ts'
import { MIN_SECRET_LENGTH, Redactor } from './control-plane/redact.ts'
import { sanitizeServerText } from './inert.ts'
import { formatDuration } from './duration.ts'
import {
  commonWordSecretNames,
  parseInputs,
  readRawInputs,
  unmaskedSecretNames,
  type CommandRules,
  type ParseResult
} from './inputs/index.ts'
import { manifestInputs } from './manifest/entry.ts'
import type { Options } from './inputs/options.ts'
import { renderProblems, type InputProblem } from './inputs/problems.ts'
import { COMMANDS as INPUT_COMMANDS, type CommandName } from './inputs/table.ts'
import { failureText } from './interface/ending.ts'
import type { InputName } from './interface/names.ts'
import type { Say } from './interface/naming.ts'
import { OUTCOMES } from './interface/outcomes.ts'
import type { FlowLog } from './log.ts'
import type { ExitCode, RunPort, RunResult } from './port.ts'
import { allOutputs } from './report/outputs.ts'

/** The one place that chooses among the commands: a command is a folder and a row here. */
export const REGISTRY = {
  deploy: deployCommand,
  check: checkCommand,
  delete: deleteCommand,
  sweep: sweepCommand,
  plan: planCommand
} as const satisfies Record<CommandName, Command>

/** Who takes what, whose rules: what the inputs' checks know of the registry. */
export const COMMAND_RULES: CommandRules = {
  takers: input => takersOf(input),
  rulesOf: command => REGISTRY[command].rules
}

const TAKERS = new Map<InputName, CommandName[]>()
for (const [name, command] of Object.entries(REGISTRY) as [CommandName, Command][])
  for (const input of [...EVERY_COMMAND, ...command.inputs])
    TAKERS.set(input, [...(TAKERS.get(input) ?? []), name])

/** The commands that take `input`, in the registry's order. */
export function takersOf(input: InputName): readonly CommandName[] {
  return TAKERS.get(input) ?? []
}

/** Time allowed for everything but the wait: look-ups, writes and their retries. */
const SETUP_BUDGET_MS = 10 * 60_000
/** ...but never less than this: `timeout` bounds the wait, and a short one must not starve set-up. */
const SETUP_BUDGET_FLOOR_MS = 30_000

/** One run, on one clock made here (`time`: a test's virtual clock, shared with the emulator). */
export async function run(port: RunPort, time: Partial<Clock> = {}): Promise<RunResult> {
  const clock = makeClock(time)
  const started = clock.now()
  const given = readRawInputs(name => port.input(name))
  // With `manifest`: its entry's settings join the inputs, checked with them.
  const named = (INPUT_COMMANDS as readonly string[]).includes(given.command)
    ? (given.command as CommandName)
    : 'deploy'
  const takes = (input: InputName) => takersOf(input).includes(named)
  const entry = await manifestInputs(given, port.event.workspace, { say: port.say, takes })
  const raw = 'problems' in entry ? given : entry.raw
  const parsed = await parseInputs(raw, port.event, port.say, COMMAND_RULES)
  const redactor = new Redactor(parsed.masks)
  for (const value of redactor.values) port.mask(value)

  if ('problems' in entry || !parsed.ok) {
    const problems = 'problems' in entry ? entry.problems : located(parsed, entry.from)
    port.error(redactor.redact(renderProblems(problems, port.say)), 'Invalid inputs')
    return { exitCode: 2, outputs: allOutputs(undefined, {}) }
  }
  const o = parsed.options
  for (const line of parsed.notices) port.notice(redactor.redact(line))
  warnUnmasked(port, o)

  const client = controlPlane(port, o, { redactor, clock, started })
  port.info(dialectLine(o, port.say))
  const context = { port, client, log: flowLog(port, redactor), redactor, clock, started }
  const command = REGISTRY[o.command]
  const ending = await endingOf(command, o, context)
  if (ending.summary !== undefined) await writeSummary(port, ending.summary, redactor)
  if (ending.failure) port.error(redactor.redact(failureText(ending.failure)), ending.failure.title)
  else if (ending.done) port.info(ending.done)
  return { exitCode: exitCodeOf(ending, client), outputs: allOutputs(undefined, ending.outputs) }
}

/** The inputs' problems, each of a setting the manifest made saying where it is. */
function located(parsed: ParseResult, from: ReadonlyMap<InputName, string>): InputProblem[] {
  if (parsed.ok) return []
  return parsed.problems.map(p => {
    const where = from.get(p.input as InputName)
    return where ? { ...p, message: `${p.message} (set in ${where})` } : p
  })
}

/** The command's run to its ending; what it throws that nobody expected is one readable line. */
async function endingOf(
  command: Command,
  o: Options,
  context: CommandContext
): Promise<CommandEnding> {
  try {
    return await command.run(o, context)
  } catch (err) {
    const text = `Unexpected error: ${sanitizeServerText(err instanceof Error ? err.message : String(err), 1000)}`
    const failure = { message: text, title: command.failedTitle }
    return {
      outcome: 'error',
      failure,
      outputs: {},
      summary: `### ${OUTCOMES.error.headline}\n\n${text}\n`
    }
  } finally {
    context.client.close()
  }
}

/** The outcome's exit code; a failure exits 1 at least, 2 when nothing was sent. */
function exitCodeOf(ending: CommandEnding, client: ControlPlaneClient): ExitCode {
  const code = OUTCOMES[ending.outcome].exitCode
  if (!ending.failure || code > 1) return code
  return ending.failure.nothingSent && client.requestCount === 0 ? 2 : 1
}

/** Which wire dialect the run speaks; when guessed, why, and how to choose the other. */
function dialectLine(o: Options, say: Say): string {
  const other =
    o.apiDialectReason && o.apiDialect === 'interface'
      ? `; set ${say.set('api-dialect', 'langsmith')} if it speaks the production names`
      : ''
  return `API dialect: ${o.apiDialect}${o.apiDialectReason ? ` (auto: ${o.apiDialectReason}${other})` : ''}.`
}

/** The client of the control plane for this run, on the run's clock and abort signal. */
function controlPlane(
  port: RunPort,
  o: Options,
  { redactor, clock, started }: { redactor: Redactor; clock: Clock; started: number }
): ControlPlaneClient {
  let rateLimitSaid = false
  return new ControlPlaneClient({
    baseUrl: o.baseUrl,
    apiKey: o.apiKey,
    tenantId: o.tenantId,
    // The wait has its own deadline; this one keeps a run within twice its timeout (30 s beyond a
    // shorter one: on a loaded runner set-up alone takes seconds), and ten minutes beyond it.
    deadline:
      started +
      o.timeoutMs +
      Math.min(Math.max(o.timeoutMs, SETUP_BUDGET_FLOOR_MS), SETUP_BUDGET_MS),
    signal: port.signal,
    // Secret values that answers carry join the run's redactor (and the door's masks) as read.
    redactor,
    mask: value => port.mask(value),
    dialect: o.apiDialect,
    say: port.say,
    onRateLimited: waitMs => {
      if (rateLimitSaid) return
      rateLimitSaid = true
      port.info(
        `The control plane is rate limiting this key: pausing ${formatDuration(waitMs)} as it asks (said once; later pauses are not logged).`
      )
    },
    debug: port.debug,
    clock
  })
}

/** Secrets left unmasked: too short to mask, or common words that masking would blot out. */
function warnUnmasked(port: RunPort, o: Options): void {
  const names = (list: string[]) =>
    `${list.length === 1 ? 'Secret' : 'Secrets'} ${list.join(', ')}: ${list.length === 1 ? 'its value is' : 'their values are'}`
  const short = unmaskedSecretNames(o)
  if (short.length) {
    port.warning(
      `${names(short)} shorter than ${MIN_SECRET_LENGTH} characters, too short to be masked ` +
        '(masking them would hide those characters everywhere in the log). This run never prints secret values.',
      'Secret too short to mask'
    )
  }
  const common = commonWordSecretNames(o.secrets ?? [])
  if (common.length) {
    port.warning(
      `${names(common)} a common word (a status, a boolean, a log level, a branch or environment name), ` +
        'not masked: masking it would hide that word everywhere in the log. ' +
        'This run never prints secret values; if the value is confidential, choose one that is not a common word.',
      'Secret not masked: a common word'
    )
  }
}

/** The flow's log: through the port, every line redacted. */
function flowLog(port: RunPort, redactor: Redactor): FlowLog {
  return {
    info: line => port.info(redactor.redact(line)),
    warning: (line, title) => port.warning(redactor.redact(line), title),
    notice: (line, title) => port.notice(redactor.redact(line), title),
    group: (name, fn) => port.group(name, fn)
  }
}

/** The job summary, where the door keeps one; a failure to write it is only a warning. */
async function writeSummary(port: RunPort, text: string, redactor: Redactor): Promise<void> {
  if (!port.summary) return
  try {
    await port.summary(text)
  } catch (err) {
    port.warning(`Could not write the job summary: ${redactor.redact(String(err))}`)
  }
}
