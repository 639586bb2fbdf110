// The run, whichever door it came through: raw inputs in through the port, masks first, every
// input checked before any request, then the deploy or the delete, the GitHub side when the door
// has one, the summary and the verdict out through the port, and the outputs in the result (each
// door writes them). It never asks where it runs: no @actions/core, no environment variables, no
// signal handlers (the doors own those).
import { makeClock, type Clock } from './clock.ts'
import { ControlPlaneClient } from './control-plane/client.ts'
import { MIN_SECRET_LENGTH, Redactor, sanitizeServerText } from './control-plane/redact.ts'
import { deleteDeployment } from './commands/delete/delete.ts'
import { failureText } from './interface/ending.ts'
import { OUTCOMES } from './interface/outcomes.ts'
import {
  deploy,
  newState,
  type DeployState,
  type Ending,
  type FlowDeps,
  type FlowLog
} from './commands/deploy/flow.ts'
import type { GitHubDeployment, GitHubDeploymentDeps } from './github/deployment.ts'
import { statusUrlOf } from './commands/deploy/status-url.ts'
import {
  commonWordSecretNames,
  parseInputs,
  readRawInputs,
  unmaskedSecretNames
} from './inputs/index.ts'
import type { Options } from './inputs/options.ts'
import type { Say } from './interface/naming.ts'
import { renderProblems } from './inputs/problems.ts'
import { formatDuration } from './duration.ts'
import type { ExitCode, RunPort, RunResult } from './port.ts'
import { allOutputs, summaryText, typeAndSize } from './report.ts'
import type { SmokeCase } from './inputs/smoke-cases.ts'
import type { UpkeepEnd } from './upkeep.ts'

/** Time allowed for everything but the wait: look-ups, writes and their retries. */
const SETUP_BUDGET_MS = 10 * 60_000
/** ...but never less than this: `timeout` bounds the wait, and a short one must not starve set-up. */
const SETUP_BUDGET_FLOOR_MS = 30_000

/**
 * One run. `time`: for tests, a virtual clock (or part of one) shared with the emulator; real
 * time by default. The run's one clock is made here and handed to everything that keeps time.
 */
export async function run(port: RunPort, time: Partial<Clock> = {}): Promise<RunResult> {
  const clock = makeClock(time)
  const started = clock.now()
  const raw = readRawInputs(name => port.input(name))
  const parsed = await parseInputs(raw, port.event, port.say)
  const redactor = new Redactor(parsed.masks)
  for (const value of redactor.values) port.mask(value)

  if (!parsed.ok) {
    port.error(redactor.redact(renderProblems(parsed.problems, port.say)), 'Invalid inputs')
    return { exitCode: 2, outputs: allOutputs(undefined, {}) }
  }
  const o = parsed.options
  const smoke = await readSmokeTest(port, o, redactor)
  if (smoke === 'invalid') return { exitCode: 2, outputs: allOutputs(undefined, {}) }
  for (const line of parsed.notices) port.notice(redactor.redact(line))
  warnUnmasked(port, o)

  const client = controlPlane(port, o, { redactor, clock, started })
  const { say } = port
  port.info(dialectLine(o, say))
  if (o.command === 'sweep' || o.command === 'check')
    return upkeep(port, o, client, { redactor, say, clock })
  const state = newState(o)
  const log = flowLog(port, redactor)
  // With `environment`: a GitHub deployment mirrors the outcome; best effort, never the verdict.
  const github = await gitHubDeployment(port, o, { redactor, log, clock })
  const deps = { client, log, signal: port.signal, say, clock, ...uploadPlace(port.event) }
  const withCases = smoke ? { ...deps, smokeCases: smoke } : deps
  const ending = await flowEnding(o, state, withCases)
  const error = ending.failure ? redactor.redact(failureText(ending.failure)) : undefined
  // The deployment's page in the web app; none for one this run deleted.
  state.statusUrl =
    state.deleted === true
      ? undefined
      : statusUrlOf({
          baseUrl: o.baseUrl,
          dialect: o.apiDialect,
          tenantId: state.tenantId ?? o.tenantId,
          deploymentId: state.deploymentId
        })
  await githubSide(port, o, state, { github, error, redactor, log, now: clock.now })

  const outputs = allOutputs(state, {
    'github-deployment-id': github ? String(github.id) : undefined
  })
  const facts = { durationMs: clock.now() - started, requests: client.requestCount, error }
  await writeSummary(port, summaryText(state, facts, redactor), redactor)
  if (error !== undefined) port.error(error, ending.failure?.title)
  else if (state.outcome === 'deployed') {
    const healthy = state.health === 'healthy' ? ', and its agent server answers healthy' : ''
    port.info(`Done: revision ${state.revisionId} is DEPLOYED${healthy}.`)
  }
  return { exitCode: exitCodeOf(ending, client), outputs }
}

/**
 * The outcome's exit code (outcomes.ts); a failure exits 1 at least, or 2 when nothing was sent
 * (the workspace could not be archived).
 */
function exitCodeOf(ending: Ending, client: ControlPlaneClient): ExitCode {
  const code = OUTCOMES[ending.outcome].exitCode
  if (!ending.failure || code > 1) return code
  return ending.failure.nothingSent && client.requestCount === 0 ? 2 : 1
}

/** What an upload needs of the door's event: the folder it archives, the files it never does. */
function uploadPlace(event: RunPort['event']) {
  return { workspace: event.workspace, ownFiles: event.ownFiles }
}

/**
 * `command: sweep` or `check` (upkeep.ts, a chunk of its own): its summary, error and outputs
 * written as a deploy's are; what it throws that nobody expected is one readable line.
 */
async function upkeep(
  port: RunPort,
  o: Options,
  client: ControlPlaneClient,
  { redactor, say, clock }: { redactor: Redactor; say: Say; clock: Clock }
): Promise<RunResult> {
  const log = flowLog(port, redactor)
  let end: UpkeepEnd
  try {
    const { runUpkeep } = await import('./upkeep.ts')
    // A check of an upload promotion archives the workspace, as the deploy would.
    const deps = { client, log, signal: port.signal, say, clock, redactor }
    end = await runUpkeep(port, o, { ...deps, ...uploadPlace(port.event) })
  } catch (err) {
    const text = `Unexpected error: ${sanitizeServerText(err instanceof Error ? err.message : String(err), 1000)}`
    end = {
      exitCode: 1,
      outputs: {},
      summary: `### ❌ Failed\n\n${text}\n`,
      error: { text, title: 'Failed' }
    }
  } finally {
    client.close()
  }
  await writeSummary(port, redactor.redact(end.summary), redactor)
  if (end.error) port.error(redactor.redact(end.error.text), end.error.title)
  const exitCode = port.signal.aborted ? 130 : end.exitCode
  return { exitCode, outputs: allOutputs(undefined, end.outputs) }
}

/** Which wire dialect the run speaks; when guessed, why, and how to choose the other. */
function dialectLine(o: Options, say: Say): string {
  const other =
    o.apiDialectReason && o.apiDialect === 'interface'
      ? `; set ${say.set('api-dialect', 'langsmith')} if it speaks the production names`
      : ''
  return `API dialect: ${o.apiDialect}${o.apiDialectReason ? ` (auto: ${o.apiDialectReason}${other})` : ''}.`
}

/**
 * The smoke-test file's cases, read from the workspace and checked before any request (its parser
 * loaded only then); 'invalid' after its one error.
 */
async function readSmokeTest(
  port: RunPort,
  o: Options,
  redactor: Redactor
): Promise<SmokeCase[] | undefined | 'invalid'> {
  if (o.smokeTest === undefined) return undefined
  const { loadSmokeTest } = await import('./inputs/smoke-cases.ts')
  const read = await loadSmokeTest(o.smokeTest, port.event.workspace, port.say)
  if (!('problem' in read)) return read.cases
  port.error(redactor.redact(renderProblems([read.problem], port.say)), 'Invalid inputs')
  return 'invalid'
}

/** The client of the control plane for this run, on the run's clock and abort signal. */
function controlPlane(
  port: RunPort,
  o: Options,
  { redactor, clock, started }: { redactor: Redactor; clock: Clock; started: number }
): ControlPlaneClient {
  return new ControlPlaneClient({
    baseUrl: o.baseUrl,
    apiKey: o.apiKey,
    tenantId: o.tenantId,
    // The wait has its own deadline; this bounds the look-ups and writes around it too, so that a
    // run never takes more than twice its timeout (or 30 s beyond a shorter one: on a loaded
    // runner set-up alone can take seconds), nor more than ten minutes beyond it.
    deadline:
      started +
      o.timeoutMs +
      Math.min(Math.max(o.timeoutMs, SETUP_BUDGET_FLOOR_MS), SETUP_BUDGET_MS),
    signal: port.signal,
    // One redactor for the run: the secret values that answers carry join it (and the door's
    // masks) as they are read, so that no log line, error or summary shows them.
    redactor,
    mask: value => port.mask(value),
    dialect: o.apiDialect,
    say: port.say,
    onRateLimited: once(waitMs =>
      port.info(
        `The control plane is rate limiting this key: pausing ${formatDuration(waitMs)} as it asks (said once; later pauses are not logged).`
      )
    ),
    debug: port.debug,
    clock
  })
}

/**
 * The deploy or the delete, to its ending. The flows return every ending they expect; what is
 * left is what nobody expected (our bug): one readable line, never a stack trace.
 */
async function flowEnding(o: Options, state: DeployState, deps: FlowDeps): Promise<Ending> {
  try {
    return o.command === 'delete'
      ? await deleteDeployment(o, state, deps)
      : await deploy(o, state, deps)
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err)
    const title = o.command === 'delete' ? 'Delete failed' : 'Deploy failed'
    const message = `Unexpected error: ${sanitizeServerText(text, 1000)}`
    return { outcome: 'error', failure: { message, title } }
  } finally {
    deps.client.close()
  }
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

interface GitHubSideFacts {
  github: GitHubDeployment | undefined
  error: string | undefined
  redactor: Redactor
  log: FlowLog
  now: Clock['now']
}

/** The GitHub deployment's final status and the pull request comment: bounded, best effort. */
async function githubSide(
  port: RunPort,
  o: Options,
  state: DeployState,
  { github, error, redactor, log, now }: GitHubSideFacts
): Promise<void> {
  const cancelling = port.signal.aborted
  if (o.prComment && !port.github) {
    port.info(
      `${port.say('pr-comment')}: not running on GitHub Actions; no pull request comment is posted.`
    )
  }
  // Loaded only for a run that posts one (a chunk of its own in the bundle).
  const comment = o.prComment && port.github ? await import('./github/pr-comment.ts') : undefined
  // Together, so that a cancel's short exit covers both.
  await Promise.all([
    github?.finish(state, error, cancelling),
    comment && port.github
      ? comment.postPrComment(
          {
            name: state.name ?? o.name ?? state.deploymentId ?? 'deployment',
            command: o.command === 'delete' ? 'delete' : 'deploy',
            outcome: state.outcome,
            deploymentId: state.deploymentId,
            revisionId: state.revisionId,
            revisionStatus: state.revisionStatus,
            url: state.url,
            statusUrl: state.statusUrl,
            commitSha: state.repoCommitSha ?? state.expectedSha,
            promotedFrom:
              state.promotion &&
              `${state.promotion.fromName} revision ${state.promotion.revisionId} (${state.promotion.what})`,
            tier: typeAndSize(state)?.replace(/`/g, ''),
            error,
            logExcerpt: state.failureLog?.lines.join('\n'),
            tracingProjectDeleted: state.deleted === true && o.deleteTracingProject
          },
          {
            token: o.githubToken,
            context: port.github,
            pullRequestNumber: port.event.pullRequestNumber,
            redactor,
            log,
            cancelling,
            now,
            dryRun: o.dryRun
          }
        )
      : undefined
  ])
}

/**
 * The GitHub deployment of a run with `environment` on a door that has a GitHub side; its module
 * is loaded only then (a chunk of its own in the bundle).
 */
async function gitHubDeployment(
  port: RunPort,
  o: Options,
  deps: GitHubDeploymentDeps
): Promise<GitHubDeployment | undefined> {
  if (!port.github || o.environment === undefined) return undefined
  const { startGitHubDeployment } = await import('./github/deployment.ts')
  return startGitHubDeployment(o, port.github, deps)
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
