// The build and deploy logs of a revision. Like its status they are computed from the clock when
// read: every line has a (virtual) time within the stage that prints it, and only the lines whose
// time has come are shown, so the logs grow as the lifecycle advances. A failed build's log ends
// with the ERROR line that failed it, a failed deploy's deploy log with its error; scripted lines
// (admin `scripts`) take the place of the default error.
import type { Context } from '../state/context.ts'
import { revisionState, stageWindows, totalDuration } from '../state/lifecycle.ts'
import type {
  DeploymentRecord,
  LogLevel,
  RevisionRecord,
  ScriptedLine,
  Toolchain
} from '../state/store.ts'

export interface LogEntry {
  /**
   * `<revision id>:<build|deploy>:<n>`, n the line's place in its log: stable while the log grows
   * and unique across logs, so that a reader following a log can drop what it has seen.
   */
  id: string
  timestamp: string
  message: string
  level: LogLevel
}

/** Each log is null until its stage has started (and the deploy log of a failed build for ever). */
export interface RevisionLogs {
  build: LogEntry[] | null
  deploy: LogEntry[] | null
}

interface Timed extends ScriptedLine {
  v: number
}

interface LogPlan {
  /** Virtual time the log starts; null = this revision never gets this log. */
  start: number | null
  lines: Timed[]
}

const info = (message: string): ScriptedLine => ({ message, level: 'INFO' })
const warning = (message: string): ScriptedLine => ({ message, level: 'WARNING' })
const error = (message: string): ScriptedLine => ({ message, level: 'ERROR' })

/** Lines evenly over [start, end]; the last one exactly at `end`, when the stage ends. */
function spread(lines: ScriptedLine[], start: number, end: number): Timed[] {
  const n = lines.length
  return lines.map((l, i) => ({ ...l, v: n === 1 ? end : start + (i * (end - start)) / (n - 1) }))
}

/** A codehost build's: the emulator cannot read the repository, so Python with pip. */
const PYTHON: Toolchain = { runtime: 'python', version: null, install: 'pip install -e .' }
const DEFAULT_VERSION = { python: '3.11', node: '20' } as const

/** Which runtime the image gets: the config's version, or a warning that it takes the default. */
function runtimeLine(config: string, t: Toolchain): ScriptedLine {
  const key = `${t.runtime}_version`
  const name = t.runtime === 'node' ? 'Node.js' : 'Python'
  return t.version
    ? info(`Using ${name} ${t.version} (${key} in ${config})`)
    : warning(`${config}: ${key} not set, using ${DEFAULT_VERSION[t.runtime]}`)
}

/** Without a known commit (a ref the fixture does not list) the log names the ref alone. */
const checkedOut = (sha: string | null, ref: string) =>
  sha ? `Checked out commit ${sha.slice(0, 12)}` : `Checked out ${ref}`

/** The steps a build prints, and how many of them run before a failing step. */
function buildSteps(
  ctx: Context,
  rev: RevisionRecord,
  dep: DeploymentRecord | undefined,
  startV: number
) {
  const c = rev.source_revision_config
  const image = `registry.internal/${dep?.name ?? 'deployment'}:${rev.id.slice(0, 8)}`
  if (rev.source === 'codehost' || rev.source === 'internal_source') {
    const config = c.graph_config_path ?? 'langgraph.json'
    const tool = rev.toolchain ?? PYTHON
    const install = dep?.source_config.install_command ?? tool.install
    const fetch =
      rev.source === 'codehost'
        ? [
            info(`Cloning ${rev.repo_url ?? 'repository'} at ${c.repo_ref ?? 'HEAD'}`),
            info(
              checkedOut(
                ctx.store.commitAt(rev.repo_url ?? '', c.repo_ref ?? '', startV),
                c.repo_ref ?? 'HEAD'
              )
            )
          ]
        : [info(`Unpacking source tarball ${c.source_tarball_path ?? ''}`)]
    // An upload that cannot be built fails right after the step that found out why.
    const own = rev.build_error
    const graphs =
      rev.source === 'internal_source' ? [info(`Graphs: ${rev.graphs.join(', ')}`)] : []
    return {
      steps: [
        ...fetch,
        info(`Reading ${config}`),
        ...graphs,
        runtimeLine(config, tool),
        info(`Installing dependencies: ${install}`),
        info(`Building image: ${dep?.source_config.build_command ?? 'langgraph build'}`),
        info(`Pushing image ${image}`)
      ],
      failAfter: own
        ? fetch.length + (own.step === 'fetch' ? 0 : 1)
        : fetch.length + graphs.length + 3,
      failure: error(
        own?.message ??
          `ERROR: failed to build: process "/bin/sh -c ${install}" did not complete successfully: exit code: 1`
      ),
      done: info(`Build complete: ${image}`)
    }
  }
  const uri = c.image_uri ?? 'image'
  return {
    steps: [
      info(`Using pre-built image ${uri}`),
      info(`Pulling image ${uri}`),
      info('Verifying image manifest'),
      info(`Pushing image ${image}`)
    ],
    failAfter: 2,
    failure: error(`ERROR: failed to pull image ${uri}: manifest unknown`),
    done: info(`Build complete: ${image}`)
  }
}

function deploySteps(rev: RevisionRecord, dep: DeploymentRecord | undefined) {
  const replicas = dep?.source_config.resource_spec?.min_scale ?? 1
  return {
    steps: [
      info(`Deploying revision ${rev.id} of ${dep?.name ?? 'the deployment'}`),
      info(`Starting ${replicas} replica${replicas === 1 ? '' : 's'}`),
      info('Waiting for the health check on /ok'),
      info('Health check passed')
    ],
    failAfter: 3,
    failure: error('Container exited with code 1 before the health check on /ok passed'),
    done: info(`Revision ${rev.id} is live`)
  }
}

/** The lines of one log: its steps, the scripted lines, and the error or the closing line. */
function planned(
  s: { steps: ScriptedLine[]; failAfter: number; failure: ScriptedLine; done: ScriptedLine },
  fails: boolean,
  scripted: ScriptedLine[] | null
): ScriptedLine[] {
  if (fails) return [...s.steps.slice(0, s.failAfter), ...(scripted ?? [s.failure])]
  return [...s.steps, ...(scripted ?? []), s.done]
}

/** Both logs in full, as they will be once the revision has finished (superseding ignored). */
function plan(ctx: Context, rev: RevisionRecord): { build: LogPlan; deploy: LogPlan } {
  const d = ctx.durations
  const dep = ctx.store.deployments.get(rev.deployment_id)
  const w = stageWindows(d, rev.seeded ? rev.created_v - totalDuration(d) : rev.created_v)
  const script = rev.script
  const linesFor = (log: 'build' | 'deploy') => (script?.log === log ? script.lines : null)
  const none: LogPlan = { start: null, lines: [] }
  if (rev.fails_with === 'CREATE_FAILED') {
    const lines = linesFor('build') ?? [
      error('Revision could not be created: the source could not be prepared')
    ]
    return {
      build: { start: w.CREATING.end, lines: spread(lines, w.CREATING.end, w.CREATING.end) },
      deploy: none
    }
  }
  const b = w.BUILDING
  const build = buildSteps(ctx, rev, dep, b.start)
  const buildLines = planned(build, rev.fails_with === 'BUILD_FAILED', linesFor('build'))
  const buildPlan = { start: b.start, lines: spread(buildLines, b.start, b.end) }
  if (rev.fails_with === 'BUILD_FAILED') return { build: buildPlan, deploy: none }
  const dw = w.DEPLOYING
  const deployLines = planned(
    deploySteps(rev, dep),
    rev.fails_with === 'DEPLOY_FAILED',
    linesFor('deploy')
  )
  return {
    build: buildPlan,
    deploy: { start: dw.start, lines: spread(deployLines, dw.start, dw.end) }
  }
}

/** The revision's logs as of now. */
export function revisionLogs(ctx: Context, rev: RevisionRecord): RevisionLogs {
  const now = ctx.clock.now()
  const p = plan(ctx, rev)
  const state = revisionState(ctx.store, rev, ctx.durations, now)
  // A superseded revision stops where it was, with a warning in the log it was writing.
  const until = state.status === 'SKIPPED' ? state.changed_v : now
  const show = (type: 'build' | 'deploy', log: LogPlan, skipNote: boolean): LogEntry[] | null => {
    if (log.start === null || log.start > until) return null
    const lines: Timed[] = log.lines.filter(l =>
      state.status === 'SKIPPED' ? l.v < until : l.v <= now
    )
    if (skipNote) {
      lines.push({
        ...warning('Superseded by a newer revision: this revision was skipped'),
        v: until
      })
    }
    return lines.map((l, i) => ({
      id: `${rev.id}:${type}:${i}`,
      timestamp: new Date(ctx.clock.toReal(l.v)).toISOString(),
      message: l.message,
      level: l.level
    }))
  }
  // Once live, what its server printed follows the deploy steps.
  if (p.deploy.start !== null) p.deploy.lines.push(...(ctx.serverLog?.(rev.id) ?? []))
  const skipped = state.status === 'SKIPPED'
  const deployStarted = p.deploy.start !== null && p.deploy.start <= until
  return {
    build: show('build', p.build, skipped && !deployStarted),
    deploy: show('deploy', p.deploy, skipped && deployStarted)
  }
}
