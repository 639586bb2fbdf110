// The GitHub Action's door: the runner's protocol through @actions/core (inputs, masks, log
// lines and annotations, groups, outputs, the job summary), the triggering event, the GitHub
// side, and the runner's cancel (SIGINT, then SIGTERM) as the run's abort signal. The run itself
// is src/run.ts, the same for every door.
import * as core from '@actions/core'
import { eventDefaults, readEventPayload } from '../event.ts'
import { inputEnvName } from '../inputs/index.ts'
import type { RunPort } from '../port.ts'
import { run as runFlow } from '../run.ts'

/** After a cancel signal, the step exits by then whatever is still pending. */
const CANCEL_EXIT_MS = 1500

/** An annotation's properties: a title when there is one. */
const titled = (title: string | undefined): core.AnnotationProperties => (title ? { title } : {})

/**
 * The port onto the runner, for one run. `env` other than process.env (in-process tests) gives
 * the inputs, the event and the GitHub settings; the runner's files stay process.env's.
 */
export function actionPort(signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): RunPort {
  return {
    input: name =>
      env === process.env ? core.getInput(name) : (env[inputEnvName(name)] ?? '').trim(),
    // The workspace an upload archives: the runner's checkout (house: a typed GitHub context).
    event: { ...eventDefaults(env, readEventPayload(env)), workspace: workspaceOf(env) },
    mask: value => core.setSecret(value),
    info: line => core.info(line),
    debug: core.isDebug() ? line => core.debug(line) : undefined,
    warning: (line, title) => core.warning(line, titled(title)),
    notice: (line, title) => core.notice(line, titled(title)),
    error: (line, title) => core.error(line, titled(title)),
    group: (name, fn) => core.group(name, fn),
    setOutput: (name, value) => core.setOutput(name, value),
    // Every runner keeps a summary; where none is set up, core says so and the run warns once.
    summary: async markdown => {
      await core.summary.addRaw(markdown).write()
    },
    github: { env },
    signal
  }
}

/** `GITHUB_WORKSPACE`, else the step's directory. */
function workspaceOf(env: NodeJS.ProcessEnv): string {
  return env.GITHUB_WORKSPACE?.trim() || process.cwd()
}

/**
 * One run of the action: what GitHub's runner (through src/index.ts) and `npx @github/local-action`
 * (through src/main.ts) call. Any failure sets the exit code 1; nothing throws.
 */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return
    core.info(`Received ${signal}: stopping.`)
    controller.abort()
    setTimeout(() => process.exit(1), CANCEL_EXIT_MS).unref()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const result = await runFlow(actionPort(controller.signal, env))
    // GitHub knows success and failure only: invalid inputs and a cancel fail the step too.
    if (result.exitCode !== 0) process.exitCode = 1
  } catch (err) {
    // run() reports every failure it expects itself; this is the last guard against a stack trace.
    core.setFailed(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`)
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}
