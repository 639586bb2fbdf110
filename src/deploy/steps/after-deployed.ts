// What a run does once its revision is DEPLOYED and `health-check` is set: ask the agent server
// (gate.ts), which revision answers on the same probes (health/served-check.ts), then its graphs
// and smoke cases (health/revision-checks.ts); their verdicts become the run's ending here. A
// stale revision, a missing graph or a failed case fail like an unhealthy server, and unhealthy
// fails like a failed revision: the deploy log is shown and, with `on-failure: rollback`, the
// revision active before this run is put back (with the rollback's rules on what this run may
// undo). Unavailable is the gate's one warning. A deployment deleted meanwhile is said as that,
// whatever the probes answered.
import { sanitizeServerText } from '../../control-plane/redact.ts'
import type { Deployment } from '../../control-plane/schema.ts'
import { graphsSkippedBecause } from '../../health/built-workspace.ts'
import { checkRevision, verifiedOf } from '../../health/revision-checks.ts'
import { servedCheck } from '../../health/served-check.ts'
import { probeTarget, vouchedHosts } from '../../health/target.ts'
import type { AgentCall } from '../../health/verify/agent-call.ts'
import { agentProbe } from '../../health/verify/agent-probe.ts'
import {
  DEFAULT_PROBE_INTERVAL_MS,
  type HealthCheckOptions,
  type HealthResult
} from '../../health/window.ts'
import type { Say } from '../../inputs/naming.ts'
import type { Options } from '../../inputs/options.ts'
import { afterFailure, describeRollback, notUndoneBy } from '../after-failure/after-failure.ts'
import type { FlowDeps } from '../deps.ts'
import { stop, stopped, type Ending, type Stop } from '../ending.ts'
import type { DeployState } from '../state.ts'
import { checkFailed, checksTimedOut, gateTimedOut, healthGate, unhealthy } from './gate.ts'
import { deletedState } from './gone.ts'

/** The revision this run waited for, and how long the wait took. */
export interface DeployedRevision {
  deploymentId: string
  revisionId: string
  waitedMs: number
}

export async function checkDeployedHealth(
  o: Options,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision
): Promise<Ending> {
  if (!o.healthCheck) return { outcome: 'deployed' }
  const { say } = deps
  const settings = healthSettings(o, o.healthCheck, state, deps, r)
  const call = agentProbe(settings)
  const served = servedCheck(call, r, deps.log)
  const result = await healthGate(
    { ...settings, alongside: served.check },
    { log: deps.log, say, urlProblem: state.urlProblem }
  )
  if (stopped(result)) return result
  if (result.health === 'cancelled') {
    const message = `Cancelled during the health check; revision ${r.revisionId} is DEPLOYED and was not checked.`
    return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
  }
  const servedVerdict = served.verdict(result.health === 'healthy')
  const stale = servedVerdict?.verdict === 'stale'
  const deleted =
    (result.health !== 'healthy' || stale) && (await deletedNow(state, deps, r, result))
  if (deleted) return deleted
  if (result.health === 'timeout')
    return { outcome: 'timeout', failure: gateTimedOut(result, r.revisionId, o.timeoutMs, say) }
  if (result.health === 'not-vouched') return { outcome: 'deployed' }
  state.health = result.health
  if (servedVerdict) state.verified = { servedRevision: servedVerdict.verdict }
  if (servedVerdict?.verdict === 'unknown')
    deps.log.notice(servedVerdict.notice, 'Served revision unknown')
  let failure: CheckFailure | Ending | undefined
  if (servedVerdict?.verdict === 'stale')
    failure = { title: 'New revision not served', what: sanitizeServerText(servedVerdict.reason) }
  else if (result.health === 'healthy')
    failure = await afterWindow(o, state, deps, r, { call, deadline: settings.deadline })
  if (failure && 'outcome' in failure) return failure
  if (result.health !== 'unhealthy' && !failure) return { outcome: 'deployed' }
  const rolled = await rollBack(o, state, deps, r, result)
  if (stopped(rolled)) return rolled
  return {
    outcome: 'unhealthy',
    failure: failure
      ? checkFailed(failure, r.revisionId, state.name, rolled)
      : unhealthy(result, r.revisionId, state.name, rolled)
  }
}

/** The health settings of this run: the gate's probes, and the checks after it. */
function healthSettings(
  o: Options,
  path: string,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision
): HealthCheckOptions {
  return {
    url: state.url,
    path,
    apiKey: o.apiKey,
    vouched: vouchedHosts(o),
    transport: deps.probe,
    deadline: deadlineOf(o, deps, r),
    windowMs: o.healthCheckWindow,
    intervalMs: probeInterval(o),
    // A Serverless server scales to zero: its wake-up is warming, not unhealthy.
    wakes: state.deploymentType === 'serverless',
    redactor: deps.client.redactor,
    signal: deps.signal,
    clock: deps.clock
  }
}

type CheckFailure = { title: string; what: string }

/**
 * The graphs and the smoke cases, once the probes (and the revision served) passed: what failed,
 * or the run's ending when it was cancelled or timed out meanwhile.
 */
async function afterWindow(
  o: Options,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision,
  // The gate's deadline: the checks share the run's timeout with the window before them.
  { call, deadline }: { call: AgentCall; deadline: number }
): Promise<CheckFailure | Ending | undefined> {
  const skipped = await graphsSkippedBecause(o, state, deps.workspace ?? '.')
  const checks = await deps.log.group('Checks of the new revision', () =>
    checkRevision({
      ...(skipped === undefined ? {} : { graphsSkipped: skipped }),
      intervalMs: probeInterval(o),
      call,
      graphConfigPath: o.graphConfigPath,
      workspace: deps.workspace,
      cases: deps.smokeCases,
      clock: deps.clock,
      deadline,
      signal: deps.signal,
      log: deps.log,
      mask: text => deps.client.redactor.redact(text)
    })
  )
  state.verified = { ...state.verified, ...verifiedOf(checks) }
  if (deps.signal?.aborted) {
    const message = `Cancelled during the checks of revision ${r.revisionId}, which is DEPLOYED.`
    return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
  }
  if (checks.timedOut)
    return { outcome: 'timeout', failure: checksTimedOut(r.revisionId, o.timeoutMs, deps.say) }
  return checks.failure
}

/** The revision active before this run is put back (with `on-failure: rollback`); said how. */
async function rollBack(
  o: Options,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision,
  result: HealthResult
): Promise<string | undefined | Stop> {
  let after
  try {
    after = await afterFailure(
      o,
      {
        deploymentId: r.deploymentId,
        revisionId: r.revisionId,
        status: 'DEPLOYED',
        previousActive: state.previousActive ?? null,
        notUndone: notUndoneBy(state.plan)
      },
      deps
    )
  } catch (err) {
    // Deleted between the verdict and the rollback's read: that, not the read, is the news.
    const deleted = await deletedNow(state, deps, r, result)
    if (deleted) return deleted
    throw err
  }
  state.failureLog = after.log
  state.rollback = after.rollback
  return describeRollback(after.rollback)
}

/** The deployment was deleted during the check: say so, instead of what its probes answered. */
async function deletedNow(
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision,
  result: HealthResult
): Promise<Stop | undefined> {
  const deleted = await deletedState(deps.client, r.deploymentId)
  if (!deleted) return undefined
  state.health = undefined
  state.deploymentStatus = deleted === 'gone' ? undefined : deleted
  state.url = undefined
  return stop(
    `Deployment "${state.name ?? ''}" (${r.deploymentId}) was deleted during the health check of revision ${r.revisionId} (${deleted === 'gone' ? 'reads answer 404' : deleted}), after ${result.probes} probes; nothing is deployed and nothing was rolled back.`,
    'Another run or a person deleted it: deploy again to create it anew, once that was intended.',
    'Deployment deleted'
  )
}

/** The run's timeout bounds the health check as it bounds the wait for DEPLOYED. */
function deadlineOf(o: Options, deps: FlowDeps, r: DeployedRevision): number {
  return deps.clock.now() - r.waitedMs + o.timeoutMs
}

/** The pause between probes, and between tries of a check: poll-interval caps every pause. */
const probeInterval = (o: Options) => Math.min(DEFAULT_PROBE_INTERVAL_MS, o.pollIntervalMs)

/**
 * Before anything is written: a health check whose address is already known (the custom-url
 * input, or the deployment's) and may not carry the key stops the run here.
 */
export function refuseHealthTarget(
  o: Options,
  current: Deployment | undefined,
  say: Say
): Stop | undefined {
  if (!o.healthCheck) return undefined
  const url = o.customUrl ?? current?.source_config.custom_url
  if (!url) return undefined
  const target = probeTarget(url, o.healthCheck, vouchedHosts(o))
  if (!('problem' in target)) return undefined
  return stop(
    `${say('health-check')} cannot ask the agent server: ${target.problem}. Nothing was written and no probe was sent.`,
    `Set ${say('custom-url')} to the https address of the agent server, or turn ${say('health-check')} off.`,
    'Health check refused'
  )
}
