// The CLI from its command line to its exit code: flags and environment -> the port -> the same
// run as the action's -> outputs on stdout (and a dotenv file). Everything it touches outside
// (streams, clock, signals, files) comes in `CliIo`, so tests run it in-process.
import { closeSync, openSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Redactor } from '../control-plane/redact.ts'
import { logSafe } from '../inert.ts'
import type { ExitCode, RunPort, RunResult } from '../port.ts'
import { githubContext } from '../runner/context.ts'
import { VERSION } from '../version.ts'
import {
  detectDefaults,
  forkRefusalText,
  gitlabContext,
  GITLAB_TOKEN_VARIABLE,
  type DetectedDefaults
} from './ci.ts'
import { fork, forkRefusalOfGiven } from '../inputs/rules.ts'
import { REGISTRY } from '../run.ts'
import { parseCommandLine, type CommandLine } from './flags.ts'
import { childPipeline } from './child-pipeline.ts'
import { readGit } from './git.ts'
import { helpText } from './help.ts'
import { cliSay } from './naming.ts'
import { CliLog, type LogStream } from './log.ts'
import { commandOutputs, dotenv, formatOutputs } from './outputs.ts'
import { cliPort } from './port.ts'

export interface CliIo {
  stdout: { write(text: string): unknown }
  stderr: LogStream
  now: () => number
  cwd: string
  /** Calls `handler` on each of STOP_SIGNALS until the returned function is called. */
  onSignal(handler: (signal: NodeJS.Signals) => void): () => void
  /** Ends the process at once (a second Ctrl-C, or a run that does not stop in time). */
  exit(code: ExitCode): void
}

export type Run = (port: RunPort) => Promise<RunResult>

/** The signals that stop a run (it reports and writes its outputs), a second one at once. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/** After the first SIGINT the run has this long to stop and report; then the process exits. */
export const STOP_GRACE_MS = 5000

/** After invalid inputs, next to the error it explains (before the outputs on stdout). */
const HINT =
  'Each input is a flag of the same name (--name my-agent, --no-wait) or its CONTROL_PLANE_* variable; ' +
  'the API key comes from CONTROL_PLANE_API_KEY. See control-plane-deploy --help.'

/** What to do on SIGINT, SIGTERM and SIGHUP: stop the run, and exit at once on a second signal. */
function interrupts(io: CliIo, log: CliLog, controller: AbortController): () => void {
  let deadline: ReturnType<typeof setTimeout> | undefined
  const stopListening = io.onSignal(signal => {
    if (controller.signal.aborted) {
      log.stop()
      io.exit(130)
      return
    }
    log.info(`Received ${signal}: stopping (again to quit at once).`)
    controller.abort()
    deadline = setTimeout(() => io.exit(130), STOP_GRACE_MS)
    deadline.unref()
  })
  return () => {
    stopListening()
    clearTimeout(deadline)
  }
}

/** The outputs on stdout and the dotenv file: the run's exit code, or 1 when the file fails. */
function writeOutputs(result: RunResult, line: RunLine, io: CliIo, log: CliLog): ExitCode {
  // The command's own outputs only: none that another command sets, as if it had said so.
  const outputs = commandOutputs(line.command, result.outputs)
  io.stdout.write(formatOutputs(outputs, line.output))
  if (line.outputFile === undefined) return result.exitCode
  try {
    const file = dotenv(outputs)
    writeFileSync(line.outputFile, file.text)
    if (file.left.length) {
      log.warning(
        `Not in --output-file: ${file.left.join(', ')}, whose value holds a character that not every dotenv reader (sh, bash, GitLab, python-dotenv) reads back as written; stdout has it.`
      )
    }
    return result.exitCode
  } catch (err) {
    log.error(`Could not write --output-file: ${err instanceof Error ? err.message : String(err)}`)
    return result.exitCode === 0 ? 1 : result.exitCode
  }
}

/** The outputs, then (a plan's) the child pipeline. */
function writeFiles(result: RunResult, line: RunLine, io: CliIo, log: CliLog): ExitCode {
  const code = writeOutputs(result, line, io, log)
  return code === 0 && line.childPipeline ? writeChildPipeline(result, line, log) : code
}

/** `plan --child-pipeline`: the plan's deploys as a GitLab child pipeline; 1 when it cannot be written. */
function writeChildPipeline(result: RunResult, line: RunLine, log: CliLog): ExitCode {
  try {
    const text = childPipeline(
      result.outputs.matrix ?? '',
      line.inputs.manifest ?? '',
      line.inputs.environment ?? ''
    )
    writeFileSync(line.childPipeline!, text)
    log.info(`Wrote the child pipeline of the deploys to ${line.childPipeline}.`)
    return 0
  } catch (err) {
    log.error(
      `Could not write --child-pipeline: ${err instanceof Error ? err.message : String(err)}`
    )
    return 1
  }
}

/** Why `--output-file` (or `--child-pipeline`) cannot be written, opened as it will be (created, not truncated). */
function outputFileProblem(file: string | undefined, child?: string): string | undefined {
  if (child !== undefined) return outputFileProblem(file) ?? fileProblem(child, '--child-pipeline')
  return file === undefined ? undefined : fileProblem(file, '--output-file')
}

function fileProblem(file: string, flag: string): string | undefined {
  try {
    closeSync(openSync(file, 'a'))
    return undefined
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'its folder does not exist'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'no permission to write it'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (code ?? String(err))
    return `${flag} ${file} cannot be written (${why}); nothing was sent. Name a file in a folder that exists and is writable.`
  }
}

type RunLine = Extract<CommandLine, { kind: 'run' }>

/** Help, the version or a usage error: answered at once, before any log or request. */
function answerAtOnce(
  line: Exclude<CommandLine, RunLine>,
  io: CliIo,
  redactor: Redactor
): ExitCode {
  if (line.kind === 'help') {
    io.stdout.write(helpText(line.command))
    return 0
  }
  if (line.kind === 'version') {
    io.stdout.write(`${VERSION}\n`)
    return 0
  }
  io.stderr.write(`control-plane-deploy: ${logSafe(redactor.redact(line.message))}\n`)
  return 2
}

/** Why a deploy of a fork's change is refused before any request (the inputs' fork rule). */
function forkRefusalOf(line: RunLine, detected: DetectedDefaults): string | undefined {
  // The commands whose rules hold the fork rule: a deploy, and the check that plans one.
  if (!detected.fork || !REGISTRY[line.command].rules.includes(fork)) return undefined
  const refusal = forkRefusalOfGiven(name => line.inputs[name] ?? '')
  return refusal && forkRefusalText(detected.fork, refusal)
}

/** The run, stopped by a signal (`stopped`), its progress shown; the unexpected is exit code 1. */
async function runUntilStopped(
  io: CliIo,
  log: CliLog,
  start: (signal: AbortSignal) => Promise<RunResult>
): Promise<{ result: RunResult; stopped: boolean }> {
  const controller = new AbortController()
  const stopListening = interrupts(io, log, controller)
  log.start()
  let result: RunResult
  try {
    result = await start(controller.signal)
  } catch (err) {
    // run() reports every failure it expects; this is the last guard against a stack trace.
    log.error(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`)
    result = { exitCode: 1, outputs: {} }
  } finally {
    stopListening()
    log.stop()
  }
  return { result, stopped: controller.signal.aborted }
}

export async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  run: Run
): Promise<ExitCode> {
  // Known before anything is printed: the key (and the token) are never shown, whatever happens.
  const redactor = new Redactor([
    env.CONTROL_PLANE_API_KEY,
    env.GITHUB_TOKEN,
    env[GITLAB_TOKEN_VARIABLE]
  ])
  const line = parseCommandLine(argv, env)
  if (line.kind !== 'run') return answerAtOnce(line, io, redactor)

  const log = new CliLog({ stream: io.stderr, redactor, now: io.now })
  for (const warning of line.warnings) log.warning(warning)
  for (const note of line.notes) log.info(note)
  // Inside GitHub Actions the workflow run's context, read once: the defaults and the GitHub side.
  const github = env.GITHUB_ACTIONS === 'true' ? githubContext(env) : undefined
  const detected = detectDefaults(env, () => readGit(io.cwd), github)
  log.info(detected.source)
  const fork = forkRefusalOf(line, detected)
  if (fork !== undefined) {
    log.error(fork, 'Change from a fork')
    return 2
  }
  // Found now, not after a deploy that a retry would repeat as another revision.
  const unwritable = outputFileProblem(line.outputFile, line.childPipeline)
  if (unwritable !== undefined) {
    log.error(unwritable, 'Invalid flags')
    return 2
  }

  const { result, stopped } = await runUntilStopped(io, log, signal =>
    run(
      cliPort({
        inputs: line.inputs,
        say: cliSay(line.origins),
        event: {
          ...detected.defaults,
          refFrom: detected.refFrom,
          workspace: io.cwd,
          // Written before the archive is built (created above): never archived.
          ...(line.outputFile === undefined ? {} : { ownFiles: [resolve(io.cwd, line.outputFile)] })
        },
        log,
        github,
        gitlab: gitlabContext(env),
        signal,
        debug: line.debug
      })
    )
  )
  if (result.exitCode === 2) log.info(HINT)
  let exitCode = writeFiles(result, line, io, log)
  // Interrupted and not done: the signal, not the failure it caused, is the answer.
  if (stopped && exitCode !== 0) exitCode = 130
  return exitCode
}
