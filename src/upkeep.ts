// `command: sweep` and `command: check`, from run(): the flows (src/commands/sweep/,
// src/commands/check/) with where the sweep reads pull requests, then their log lines, summary,
// outputs (`swept`, `drift`) and exit. Loaded only for these two commands.
import type { Redactor } from './control-plane/redact.ts'
import type { FlowDeps } from './commands/deploy/deps.ts'
import { failureText } from './interface/ending.ts'
import { check, type CheckResult, type Difference } from './commands/check/check.ts'
import { renderCheckSummary } from './commands/check/summary.ts'
import { gitlabPullStates } from './commands/sweep/pull-requests.ts'
import { sweep, type PullSource } from './commands/sweep/sweep.ts'
import { renderSweepSummary } from './commands/sweep/summary.ts'
import { githubPullStates } from './github/pull-state.ts'
import type { Say } from './interface/naming.ts'
import type { Options } from './inputs/options.ts'
import type { ExitCode, RunPort } from './port.ts'

/** What run() writes for these commands: the summary, the error, the outputs and the exit. */
export interface UpkeepEnd {
  exitCode: ExitCode
  outputs: Record<string, string>
  summary: string
  error?: { text: string; title: string }
}

export function runUpkeep(
  port: RunPort,
  o: Options,
  deps: FlowDeps & { redactor: Redactor }
): Promise<UpkeepEnd> {
  return o.command === 'sweep' ? runSweep(port, o, deps) : runCheck(o, deps)
}

async function runSweep(
  port: RunPort,
  o: Options,
  deps: FlowDeps & { redactor: Redactor }
): Promise<UpkeepEnd> {
  const say = deps.say
  const source = pullSource(port, o, deps.redactor, say)
  if (source && 'skipped' in source)
    deps.log.notice(
      `${say('sweep-closed')}: ${source.skipped}; no deployment is deleted for a closed pull request.`,
      'Closed pull requests not checked'
    )
  const r = await sweep(o, deps, source)
  const error = r.failure ? deps.redactor.redact(failureText(r.failure)) : undefined
  const summary = renderSweepSummary(r, {
    pattern: o.sweepNames!.text,
    dryRun: o.dryRun,
    now: deps.clock.now(),
    ...(error ? { error } : {})
  })
  const held = r.rows.filter(x => x.fate === 'held-back').length
  if (!error)
    deps.log.info(
      o.dryRun
        ? `Done: dry run, ${r.rows.filter(x => x.fate === 'would-delete').length} would be deleted.`
        : `Done: ${r.swept.length} deleted, ${held} held back, ${r.rows.length} matching.`
    )
  return {
    exitCode: error ? 1 : 0,
    outputs: { swept: JSON.stringify(r.swept) },
    summary,
    ...(error ? { error: { text: error, title: r.failure!.title } } : {})
  }
}

/** Where the closed criterion reads pull requests; undefined when it is off. */
function pullSource(port: RunPort, o: Options, redactor: Redactor, say: Say): PullSource {
  if (!(o.sweepClosed ?? o.sweepNames!.hasPr)) return undefined
  const gitlab = port.gitlab
  if (gitlab) {
    if (!gitlab.token)
      return {
        skipped: 'CONTROL_PLANE_GITLAB_TOKEN is not set (a job token cannot read merge requests)'
      }
    port.mask(gitlab.token)
    const reader = gitlabPullStates(
      { ...gitlab, token: gitlab.token },
      o.repositoryExplicit ? o.repository : undefined,
      port.signal
    )
    return typeof reader === 'string' ? { skipped: reader } : reader
  }
  if (!port.github)
    return {
      skipped: 'not running on GitHub Actions or GitLab CI, no pull request state can be read'
    }
  if (!o.githubToken) return { skipped: `${say('github-token')} is empty` }
  if (!o.repository) return { skipped: `no repository is known (set ${say('repository')})` }
  const reader = githubPullStates(o.githubToken, port.github, o.repository, redactor)
  return typeof reader === 'string' ? { skipped: reader } : reader
}

async function runCheck(o: Options, deps: FlowDeps & { redactor: Redactor }): Promise<UpkeepEnd> {
  const r = await check(o, deps)
  const error = r.failure ? deps.redactor.redact(failureText(r.failure)) : undefined
  const drift = error ? undefined : r.differences.length > 0
  const summary = renderCheckSummary(r, error)
  const outputs = {
    drift: drift === undefined ? '' : String(drift),
    'deployment-id': r.deploymentId ?? ''
  }
  if (error)
    return { exitCode: 1, outputs, summary, error: { text: error, title: r.failure!.title } }
  report(deps, r)
  if (!drift) return { exitCode: 0, outputs, summary }
  const text = `"${r.name ?? o.name}" differs from these inputs: ${r.differences.map(driftWords).join('; ')} (each listed above).`
  if (!o.failOnDrift) {
    deps.log.warning(`${text} ${deps.say.set('fail-on-drift', false)}: the step passes.`, 'Drift')
    return { exitCode: 0, outputs, summary }
  }
  return { exitCode: 3, outputs, summary, error: { text, title: 'Drift' } }
}

/** A difference in a few words, for the one error line. */
function driftWords(d: Difference): string {
  switch (d.kind) {
    case 'absent':
      return 'it does not exist'
    case 'planned':
      return `a deploy would change ${d.details.length === 1 ? 'one setting' : `${d.details.length} settings`}`
    case 'not-latest':
      return 'its active revision is not the latest'
    case 'commit':
      return 'its active revision built another commit than the ref names'
    case 'deleting':
      return 'it is being deleted'
    case 'status':
      return 'it is not READY'
    case 'type':
      return 'it is of another type'
    case 'no-revision':
      return 'it has no revision'
    case 'not-deployed':
      return 'its active revision is not DEPLOYED'
    case 'material':
      return "it does not run the promotion's source's material"
  }
}

/** Each difference and what was not compared, in the log. */
function report(deps: FlowDeps, r: CheckResult): void {
  for (const s of r.skipped) deps.log.notice(`Not compared: ${s}.`)
  if (!r.differences.length) {
    const runs = r.promoted ? `, and runs ${r.promoted}` : ''
    deps.log.info(`In sync: "${r.name}" is what these inputs describe${runs}.`)
    return
  }
  for (const d of r.differences) {
    deps.log.info(`Drift: ${d.text}`)
    for (const line of d.details) deps.log.info(line)
  }
}
