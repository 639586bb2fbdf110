// The GitHub Action's door: the runner's protocol through @actions/core (inputs, masks, log
// lines and annotations, groups, outputs, the job summary), the workflow run's context (read once,
// src/runner/context.ts) with the event's defaults, and the runner's cancel (SIGINT, then SIGTERM)
// as the run's abort signal. The run itself is src/run.ts, the same for every door.
import * as core from '@actions/core'
import { eventDefaults } from '../runner/event.ts'
import { githubContext, type GitHubContext } from '../runner/context.ts'
import { logSafe } from '../inert.ts'
import { actionSay } from '../interface/naming.ts'
import type { RunPort } from '../port.ts'
import { run as runFlow } from '../run.ts'

/** After a cancel signal, the step exits by then whatever is still pending. */
const CANCEL_EXIT_MS = 1500

/**
 * The files @actions/core writes this step's outputs and summary to (the runner's protocol, known
 * here alone): an upload never archives them, even where they lie in the workspace.
 */
export function coreFiles(env: NodeJS.ProcessEnv): string[] {
  return [env.GITHUB_OUTPUT, env.GITHUB_STEP_SUMMARY]
    .map(file => file?.trim())
    .filter((file): file is string => !!file)
}

/** An annotation's properties: a title when there is one. */
const titled = (title: string | undefined): core.AnnotationProperties =>
  title ? { title: logSafe(title) } : {}

/**
 * Groups that the runner shows: its log folds do not nest (a group opened inside another ends the
 * outer fold, which is left empty), so one opened inside another is a plain heading line instead.
 */
export function foldOnce(
  open: <T>(name: string, fn: () => Promise<T>) => Promise<T>,
  line: (text: string) => void
): RunPort['group'] {
  let depth = 0
  return async (name, fn) => {
    if (depth > 0) {
      line(name)
      return fn()
    }
    depth++
    try {
      return await open(name, fn)
    } finally {
      depth--
    }
  }
}

/**
 * The port onto the runner, for one run. Every line, annotation and group name passes `logSafe`
 * here, whatever the run interpolated into it (a graph id, a file name, a server's answer): the
 * runner obeys a workflow command on any line of the log, so this is the one place that holds.
 */
function actionPort(signal: AbortSignal, github: GitHubContext): RunPort {
  return {
    input: name => core.getInput(name),
    // Messages name an input as the workflow's `with:` does.
    say: actionSay(),
    // The workspace an upload archives: the runner's checkout.
    event: {
      ...eventDefaults(github),
      workspace: github.workspace ?? process.cwd(),
      ownFiles: coreFiles(process.env)
    },
    mask: value => core.setSecret(value),
    info: line => core.info(logSafe(line)),
    debug: core.isDebug() ? line => core.debug(logSafe(line)) : undefined,
    warning: (line, title) => core.warning(logSafe(line), titled(title)),
    notice: (line, title) => core.notice(logSafe(line), titled(title)),
    error: (line, title) => core.error(logSafe(line), titled(title)),
    group: foldOnce(
      (name, fn) => core.group(logSafe(name), fn),
      line => core.info(logSafe(line))
    ),
    // Every runner keeps a summary; where none is set up, core says so and the run warns once.
    summary: async markdown => {
      await core.summary.addRaw(markdown).write()
    },
    github,
    signal
  }
}

/**
 * One run of the action: what GitHub's runner (through src/index.ts) and `npx @github/local-action`
 * (through src/main.ts) call. Any failure sets the exit code 1; nothing throws.
 */
export async function run(): Promise<void> {
  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return
    core.info(logSafe(`Received ${signal}: stopping.`))
    controller.abort()
    setTimeout(() => process.exit(1), CANCEL_EXIT_MS).unref()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const result = await runFlow(actionPort(controller.signal, githubContext(process.env)))
    // Every output, as it is (structured values are not redacted).
    for (const [name, value] of Object.entries(result.outputs)) core.setOutput(name, value)
    // GitHub knows success and failure only: invalid inputs and a cancel fail the step too.
    if (result.exitCode !== 0) process.exitCode = 1
  } catch (err) {
    // run() reports every failure it expects itself; this is the last guard against a stack trace.
    core.setFailed(logSafe(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`))
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}
