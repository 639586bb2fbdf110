// The sweep's run: where it reads pull requests, the sweep (sweep.ts), then its log line,
// summary, output (`swept`) and ending.
import type { Redactor } from '../../control-plane/redact.ts'
import { githubPullStates } from '../../github/pull-state.ts'
import { failureText } from '../../interface/ending.ts'
import type { Outcome } from '../../interface/outcomes.ts'
import type { Say } from '../../interface/naming.ts'
import type { RunPort } from '../../port.ts'
import { stepDeps, type CommandContext, type CommandEnding } from '../command.ts'
import { gitlabPullStates } from './pull-requests.ts'
import { renderSweepSummary } from './summary.ts'
import { sweep, type PullSource, type SweepOptions } from './sweep.ts'

export async function runSweep(o: SweepOptions, context: CommandContext): Promise<CommandEnding> {
  const { port, log, redactor, clock } = context
  const say = port.say
  const source = pullSource(port, o, redactor, say)
  if (source && 'skipped' in source)
    log.notice(
      `${say('sweep-closed')}: ${source.skipped}; no deployment is deleted for a closed pull request.`,
      'Closed pull requests not checked'
    )
  const r = await sweep(o, stepDeps(context), source)
  const outputs = { swept: JSON.stringify(r.swept) }
  const summary = (outcome: Outcome, error?: string) =>
    renderSweepSummary(r, {
      outcome,
      pattern: o.sweepNames!.text,
      now: clock.now(),
      ...(error ? { error } : {})
    })
  if (r.failure) {
    const outcome = port.signal.aborted ? 'cancelled' : 'error'
    const error = redactor.redact(failureText(r.failure))
    return { outcome, failure: r.failure, outputs, summary: summary(outcome, error) }
  }
  const held = r.rows.filter(x => x.fate === 'held-back').length
  const done = o.dryRun
    ? `Done: dry run, ${r.rows.filter(x => x.fate === 'would-delete').length} would be deleted.`
    : `Done: ${r.swept.length} deleted, ${held} held back, ${r.rows.length} matching.`
  const outcome = o.dryRun ? 'dry-run' : 'swept'
  return { outcome, outputs, summary: summary(outcome), done }
}

/** Where the closed criterion reads pull requests; undefined when it is off. */
function pullSource(port: RunPort, o: SweepOptions, redactor: Redactor, say: Say): PullSource {
  if (!(o.sweepClosed ?? o.sweepNames!.hasPr)) return undefined
  const reader = pullReader(port, o, redactor, say)
  return typeof reader === 'string' ? { skipped: reader } : reader
}

/** The reader of the pull (merge) requests' states, or why there is none. */
function pullReader(port: RunPort, o: SweepOptions, redactor: Redactor, say: Say) {
  const gitlab = port.gitlab
  if (gitlab) {
    if (!gitlab.token)
      return 'CONTROL_PLANE_GITLAB_TOKEN is not set (a job token cannot read merge requests)'
    port.mask(gitlab.token)
    const project = o.repositoryExplicit ? o.repository : undefined
    return gitlabPullStates({ ...gitlab, token: gitlab.token }, project, port.signal)
  }
  if (!port.github)
    return 'not running on GitHub Actions or GitLab CI, no pull request state can be read'
  if (!o.githubToken) return `${say('github-token')} is empty`
  if (!o.repository) return `no repository is known (set ${say('repository')})`
  return githubPullStates(o.githubToken, port.github, o.repository, redactor)
}
