// The check's run: the check, then its log, summary, outputs and ending: in sync, or drift
// (failing the step unless `fail-on-drift: false`).
import { failureText } from '../../interface/ending.ts'
import type { FlowLog } from '../../log.ts'
import { stepDeps, type CommandContext, type CommandEnding } from '../command.ts'
import { check, type CheckOptions, type CheckResult } from './check.ts'
import type { Difference } from './own-state.ts'
import type { DriftKind } from './own-state.ts'
import { renderCheckSummary } from './summary.ts'

export async function runCheck(o: CheckOptions, context: CommandContext): Promise<CommandEnding> {
  const { port, log, redactor } = context
  const r = await check(o, stepDeps(context))
  const drift = r.failure ? undefined : r.differences.length > 0
  const outputs = {
    drift: drift === undefined ? '' : String(drift),
    'deployment-id': r.deploymentId ?? ''
  }
  if (r.failure) {
    const outcome = port.signal.aborted ? 'cancelled' : 'error'
    const summary = renderCheckSummary(r, outcome, redactor.redact(failureText(r.failure)))
    return { outcome, failure: r.failure, outputs, summary }
  }
  report(log, r)
  if (!drift) return { outcome: 'in-sync', outputs, summary: renderCheckSummary(r, 'in-sync') }
  const text = `"${r.name ?? o.name}" differs from these inputs: ${r.differences.map(driftWords).join('; ')} (each listed above).`
  if (!o.failOnDrift) {
    log.warning(`${text} ${port.say.set('fail-on-drift', false)}: the step passes.`, 'Drift')
    return { outcome: 'drift-passed', outputs, summary: renderCheckSummary(r, 'drift-passed') }
  }
  const failure = { message: text, title: 'Drift' }
  return { outcome: 'drift', failure, outputs, summary: renderCheckSummary(r, 'drift') }
}

/** Each difference in a few words, for the one error line. */
const DRIFT_WORDS: Record<Exclude<DriftKind, 'planned'>, string> = {
  absent: 'it does not exist',
  'not-latest': 'its active revision is not the latest',
  commit: 'its active revision built another commit than the ref names',
  deleting: 'it is being deleted',
  status: 'it is not READY',
  type: 'it is of another type',
  'no-revision': 'it has no revision',
  'not-deployed': 'its active revision is not DEPLOYED',
  material: "it does not run the promotion's source's material"
}

function driftWords(d: Difference): string {
  if (d.kind !== 'planned') return DRIFT_WORDS[d.kind]
  return `a deploy would change ${d.details.length === 1 ? 'one setting' : `${d.details.length} settings`}`
}

/** Each difference and what was not compared, in the log. */
function report(log: FlowLog, r: CheckResult): void {
  for (const s of r.skipped) log.notice(`Not compared: ${s}.`)
  if (!r.differences.length) {
    const runs = r.promoted ? `, and runs ${r.promoted}` : ''
    log.info(`In sync: "${r.name}" is what these inputs describe${runs}.`)
    return
  }
  for (const d of r.differences) {
    log.info(`Drift: ${d.text}`)
    for (const line of d.details) log.info(line)
  }
}
