// The entry layer: the runner's inputs in, outputs, summary and exit status out. It masks every
// secret before anything is logged, validates every input before any request, and is the only
// place that decides the job's result.
import { ControlPlaneClient } from './control-plane/client.ts'
import { ControlPlaneError } from './control-plane/errors.ts'
import { MIN_SECRET_LENGTH, Redactor, sanitizeServerText } from './control-plane/redact.ts'
import { DeployError } from './deploy/deploy-error.ts'
import { deleteDeployment } from './deploy/delete.ts'
import { deploy, newState, type DeployState, type FlowLog } from './deploy/flow.ts'
import { eventDefaults, readEventPayload } from './event.ts'
import { startGitHubDeployment } from './github/deployment.ts'
import { postPrComment, type PrCommentOutcome } from './github/pr-comment.ts'
import {
  parseInputs,
  readRawInputs,
  secretValuesToMask,
  unmaskedSecretNames
} from './inputs/index.ts'
import { renderProblems } from './inputs/problems.ts'
import { formatDuration } from './duration.ts'
import { runOutputs, summaryText } from './report.ts'
import * as runner from './runner.ts'

/** Time allowed for everything but the wait: look-ups, writes and their retries. */
const SETUP_BUDGET_MS = 10 * 60_000

/** After a cancel signal, the step exits by then whatever is still pending. */
const CANCEL_EXIT_MS = 1500

export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const started = Date.now()
  const raw = readRawInputs(env)
  const redactor = new Redactor(secretValuesToMask(raw))
  for (const value of redactor.values) runner.setSecret(value)

  const event = eventDefaults(env, readEventPayload(env))
  const parsed = parseInputs(raw, event)
  if (!parsed.ok) {
    runner.error(redactor.redact(renderProblems(parsed.problems)), { title: 'Invalid inputs' })
    process.exitCode = 1
    return
  }
  const o = parsed.options
  const short = unmaskedSecretNames(o)
  if (short.length) {
    runner.warning(
      `${short.length === 1 ? 'Secret' : 'Secrets'} ${short.join(', ')}: ${short.length === 1 ? 'its value is' : 'their values are'} shorter than ${MIN_SECRET_LENGTH} characters, too short to be masked ` +
        '(masking them would hide those characters everywhere in the job log). The action never prints secret values.',
      { title: 'Secret too short to mask' }
    )
  }

  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return
    runner.info(`Received ${signal}: stopping.`)
    controller.abort()
    setTimeout(() => process.exit(1), CANCEL_EXIT_MS).unref()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)

  const client = new ControlPlaneClient({
    baseUrl: o.baseUrl,
    apiKey: o.apiKey,
    tenantId: o.tenantId,
    // The wait has its own deadline; this bounds the look-ups and writes around it too, so that a
    // run never takes more than twice its timeout, nor more than ten minutes beyond it.
    deadline: started + o.timeoutMs + Math.min(o.timeoutMs, SETUP_BUDGET_MS),
    signal: controller.signal,
    secrets: redactor.values,
    dialect: o.apiDialect,
    onRateLimited: once(waitMs =>
      runner.info(
        `The control plane is rate limiting this key: pausing ${formatDuration(waitMs)} as it asks (said once; later pauses are not logged).`
      )
    ),
    debug: runner.isDebug(env) ? line => runner.debug(line) : undefined
  })
  runner.info(
    `API dialect: ${o.apiDialect}${o.apiDialectReason ? ` (auto: ${o.apiDialectReason})` : ''}.`
  )
  const state = newState(o)
  const log = flowLog(redactor)
  // With `environment`: a GitHub deployment mirrors the outcome; best effort, never the verdict.
  const github = await startGitHubDeployment(o, env, { redactor, log })
  let error: string | undefined
  let title = o.command === 'delete' ? 'Delete failed' : 'Deploy failed'
  try {
    const deps = { client, log, signal: controller.signal }
    if (o.command === 'delete') await deleteDeployment(o, state, deps)
    else await deploy(o, state, deps)
  } catch (err) {
    if (controller.signal.aborted && !(err instanceof DeployError)) {
      state.outcome = 'cancelled'
      error = cancelledMessage(state)
      title = 'Deploy cancelled'
    } else {
      error = describeError(err)
      if (err instanceof DeployError) title = err.title
      else if (err instanceof ControlPlaneError) title = `Control plane: ${err.operation} failed`
      state.outcome ??= 'error'
    }
    error = redactor.redact(error)
  } finally {
    client.close()
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
  const cancelling = controller.signal.aborted
  // Both are bounded and best effort; together, so that a cancel's short exit covers both.
  await Promise.all([
    github?.finish(state, error, cancelling),
    o.prComment
      ? postPrComment(
          {
            name: state.name ?? o.name ?? state.deploymentId ?? 'deployment',
            command: o.command,
            outcome: commentOutcome(state),
            deploymentId: state.deploymentId,
            revisionId: state.revisionId,
            revisionStatus: state.revisionStatus,
            url: state.url,
            commitSha: state.repoCommitSha ?? state.expectedSha,
            error,
            logExcerpt: state.failureLog?.lines.join('\n'),
            deleted: state.deleted,
            tracingProjectDeleted: state.deleted === true && o.deleteTracingProject
          },
          {
            token: o.githubToken,
            env,
            pullRequestNumber: event.pullRequestNumber,
            redactor,
            log,
            cancelling
          }
        )
      : undefined
  ])

  // Every output in one place: the state's and the GitHub deployment's.
  const outputs = runOutputs(state, {
    'github-deployment-id': github ? String(github.id) : undefined
  })
  for (const [name, value] of outputs) runner.setOutput(name, value, env)
  await writeSummary(
    summaryText(
      state,
      { durationMs: Date.now() - started, requests: client.requestCount, error },
      redactor
    ),
    redactor,
    env
  )
  if (error !== undefined) {
    runner.error(error, { title })
    process.exitCode = 1
  }
  logOutcome(state)
}

/** The flow's outcome in the words of the pull-request comment. */
function commentOutcome(state: DeployState): PrCommentOutcome | undefined {
  switch (state.outcome) {
    case undefined:
    case 'deleted':
    case 'absent':
      return undefined
    case 'revision-missing':
      return 'no-revision'
    default:
      return state.outcome
  }
}

/** `fn` on its first call only. */
function once<T extends unknown[]>(fn: (...args: T) => void): (...args: T) => void {
  let done = false
  return (...args) => {
    if (done) return
    done = true
    fn(...args)
  }
}

/** What is known at a cancel, and what is not: a write in flight may have landed. */
function cancelledMessage(state: DeployState): string {
  const name = state.name ? `"${state.name}"` : 'the deployment'
  if (state.writing === 'create') {
    return (
      `Cancelled while the create of deployment ${name} was in flight: whether it was applied is unknown. ` +
      'A re-run finds the deployment by its name and updates it, or creates it.'
    )
  }
  if (state.writing === 'delete') {
    return `Cancelled while the delete of deployment ${name} was in flight: whether it was applied is unknown. A re-run deletes it, or finds it gone.`
  }
  if (state.writing === 'update') {
    return (
      `Cancelled while the update of deployment ${name} was in flight: whether it made a new revision is unknown. ` +
      'A re-run applies the update again.'
    )
  }
  const revision = state.revisionId
    ? `; revision ${state.revisionId} goes on on the control plane`
    : ''
  return `Cancelled${revision}.`
}

function describeError(err: unknown): string {
  if (err instanceof DeployError || err instanceof ControlPlaneError) return err.message
  // Our own bug: still one readable line, never a stack trace in the job's error.
  const text = err instanceof Error ? err.message : String(err)
  return `Unexpected error: ${sanitizeServerText(text, 1000)}`
}

function flowLog(redactor: Redactor): FlowLog {
  return {
    info: line => runner.info(redactor.redact(line)),
    warning: (line, title) => runner.warning(redactor.redact(line), title ? { title } : {}),
    notice: (line, title) => runner.notice(redactor.redact(line), title ? { title } : {}),
    group: (name, fn) => runner.group(name, fn)
  }
}

/** The job summary, when the runner keeps one; a failure to write it is only a warning. */
async function writeSummary(text: string, redactor: Redactor, env: NodeJS.ProcessEnv) {
  if (!env.GITHUB_STEP_SUMMARY) return
  try {
    await runner.appendSummary(text, env)
  } catch (err) {
    runner.warning(`Could not write the job summary: ${redactor.redact(String(err))}`)
  }
}

function logOutcome(state: DeployState): void {
  if (state.outcome === 'deployed') runner.info(`Done: revision ${state.revisionId} is DEPLOYED.`)
}
