// The plan's run: the manifest read again (run() checked it), the checkout, the plan (plan.ts),
// then its log, summary, outputs (`matrix`, `agents`) and ending: exit 0 whatever it decides.
import { ApiError } from '../../control-plane/errors.ts'
import { readManifest } from '../../manifest/entry.ts'
import { readCheckout } from '../../manifest/git.ts'
import { stepDeps, type CommandContext, type CommandEnding } from '../command.ts'
import { plan, type PlanOptions, type PlanRow } from './plan.ts'
import { renderPlanSummary } from './summary.ts'

/** The outputs of a plan: the matrix of the agents to deploy, and their keys. */
export function planOutputs(rows: readonly PlanRow[]): { matrix: string; agents: string } {
  const chosen = rows.filter(r => r.deploy)
  const include = chosen.map(r => ({ agent: r.agent, environment: r.environment, name: r.name }))
  return { matrix: JSON.stringify({ include }), agents: JSON.stringify(chosen.map(r => r.agent)) }
}

export async function runPlan(o: PlanOptions, context: CommandContext): Promise<CommandEnding> {
  const { port, log } = context
  const deps = stepDeps(context)
  const workspace = deps.workspace ?? process.cwd()
  const read = await readManifest(workspace, o.manifest!)
  if ('problems' in read) {
    const failure = {
      message: read.problems.join('\n'),
      title: 'Invalid manifest',
      nothingSent: true
    }
    return { outcome: 'error', failure, outputs: {} }
  }
  const compared = { checkout: await readCheckout(workspace), workspace, manifest: read.manifest }
  if (compared.checkout?.shallow)
    log.notice(
      'The checkout is shallow: a deployed commit it lacks cannot be compared, and plans a deploy (check out with fetch-depth: 0).',
      'Shallow checkout'
    )
  let rows: PlanRow[]
  try {
    rows = await plan(o, compared, { client: deps.client, say: port.say })
  } catch (err) {
    // A read that failed (an API error, a cancel) is no verdict: the plan fails, deploying nothing.
    if (!(err instanceof ApiError) && !port.signal.aborted) throw err
    const outcome = port.signal.aborted ? 'cancelled' : 'error'
    const failure = { message: (err as Error).message, title: 'Plan failed' }
    return { outcome, failure, outputs: {} }
  }
  for (const r of rows)
    log.info(`${r.agent} (${r.name}): ${r.deploy ? 'deploy' : 'skip'}: ${r.why}.`)
  const outputs = planOutputs(rows)
  const count = rows.filter(r => r.deploy).length
  const summary = renderPlanSummary(rows, o.environment!, context.client.requestCount)
  const done = `Done: ${count} of ${rows.length} agents to deploy to ${o.environment}.`
  return { outcome: 'planned', outputs, summary, done }
}
