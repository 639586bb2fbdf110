// The CLI from its command line to its exit code: flags and environment -> the port -> the same
// run as the action's -> outputs on stdout (and a dotenv file). Everything it touches outside
// (streams, clock, signals, files) comes in `CliIo`, so tests run it in-process.
import { writeFileSync } from 'node:fs'
import { Redactor } from '../control-plane/redact.ts'
import type { ExitCode, RunPort, RunResult } from '../port.ts'
import { githubContext } from '../github/context.ts'
import { VERSION } from '../version.ts'
import { detectDefaults, forkRefusal, forkUploadRefusal } from './ci.ts'
import { parseCommandLine, type OutputFormat } from './flags.ts'
import { readGit } from './git.ts'
import { helpText } from './help.ts'
import { cliNaming } from './naming.ts'
import { refOrigin } from './ref-origin.ts'
import { CliLog, type LogStream } from './log.ts'
import { dotenv, formatOutputs } from './outputs.ts'
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

/**
 * The outputs on stdout, and in the dotenv file when asked: the run's exit code, or 1 when the
 * file that a run that worked was to leave cannot be written.
 */
function writeOutputs(
  result: RunResult,
  line: { output: OutputFormat; outputFile?: string },
  io: CliIo,
  log: CliLog
): ExitCode {
  io.stdout.write(formatOutputs(result.outputs, line.output))
  if (line.outputFile === undefined) return result.exitCode
  try {
    const file = dotenv(result.outputs)
    writeFileSync(line.outputFile, file.text)
    if (file.left.length) {
      log.warning(
        `Not in --output-file: ${file.left.join(', ')}, whose value holds a single quote or a control character that no dotenv reader takes safely; stdout has it.`
      )
    }
    return result.exitCode
  } catch (err) {
    log.error(`Could not write --output-file: ${err instanceof Error ? err.message : String(err)}`)
    return result.exitCode === 0 ? 1 : result.exitCode
  }
}

export async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  run: Run
): Promise<ExitCode> {
  // Known before anything is printed: the key (and the token) are never shown, whatever happens.
  const redactor = new Redactor([env.CONTROL_PLANE_API_KEY, env.GITHUB_TOKEN])
  const line = parseCommandLine(argv, env)
  if (line.kind === 'help') {
    io.stdout.write(helpText())
    return 0
  }
  if (line.kind === 'version') {
    io.stdout.write(`${VERSION}\n`)
    return 0
  }
  if (line.kind === 'usage-error') {
    io.stderr.write(`control-plane-deploy: ${redactor.redact(line.message)}\n`)
    return 2
  }

  const log = new CliLog({ stream: io.stderr, redactor, now: io.now })
  for (const warning of line.warnings) log.warning(warning)
  for (const note of line.notes) log.info(note)
  // Inside GitHub Actions the workflow run's context, read once: the defaults and the GitHub side.
  const github = env.GITHUB_ACTIONS === 'true' ? githubContext(env) : undefined
  const detected = detectDefaults(env, () => readGit(io.cwd), github)
  log.info(detected.source)
  // A fork's change deploys only when both are given on purpose: refused before any request.
  const deliberate = Boolean(line.inputs.repository?.trim() && line.inputs.ref?.trim())
  // An upload archives the checkout, the fork's code: refused even when deliberate.
  const uploading = [line.inputs.source, line.inputs['revision-source']].some(
    v => v?.trim() === 'internal_source'
  )
  if (detected.fork && line.command === 'deploy' && (!deliberate || uploading)) {
    log.error(
      uploading ? forkUploadRefusal(detected.fork) : forkRefusal(detected.fork),
      'Change from a fork'
    )
    return 2
  }

  const controller = new AbortController()
  const stopListening = interrupts(io, log, controller)
  log.start()
  let result: RunResult
  try {
    result = await run(
      cliPort({
        inputs: line.inputs,
        naming: cliNaming(line.origins),
        event: {
          ...detected.defaults,
          refFrom: refOrigin(env, detected.defaults.ref),
          workspace: io.cwd
        },
        log,
        github,
        signal: controller.signal,
        debug: line.debug
      })
    )
  } catch (err) {
    // run() reports every failure it expects; this is the last guard against a stack trace.
    log.error(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`)
    result = { exitCode: 1, outputs: {} }
  } finally {
    stopListening()
    log.stop()
  }

  let exitCode = writeOutputs(result, line, io, log)
  if (exitCode === 2) log.info(HINT)
  // Interrupted and not done: the signal, not the failure it caused, is the answer.
  if (controller.signal.aborted && exitCode !== 0) exitCode = 130
  return exitCode
}
