// What a run does once its revision is DEPLOYED and `health-check` is set: ask the agent server
// (gate-step.ts), which revision answers on the same probes (served-check.ts), then its graphs
// and smoke cases (revision-checks.ts). A stale revision, a missing graph or a failed case fail
// like an unhealthy server. Unhealthy is a failure like a failed revision: the deploy log is shown and,
// with `on-failure: rollback`, the revision active before this run is put back (with the
// rollback's rules on what this run may undo). Unavailable is the gate's one warning. A
// deployment deleted meanwhile is said as that, whatever the probes answered.
import { sanitizeServerText } from '../control-plane/redact.ts'
import type { Say } from '../inputs/naming.ts'
import type { Deployment } from '../control-plane/schema.ts'
import { isLoopbackUrl } from '../control-plane/base-url.ts'
import {
  exactHost,
  LANGGRAPH_APP,
  LOOPBACK,
  type HostPattern
} from '../control-plane/vouched-hosts.ts'
import { probeTarget } from './target.ts'
import { DEFAULT_PROBE_INTERVAL_MS, type HealthResult, type WindowCheck } from './window.ts'
import type { Options } from '../inputs/options.ts'
import {
  afterFailure,
  describeRollback,
  notUndoneBy
} from '../deploy/after-failure/after-failure.ts'
import { DeployError } from '../deploy/deploy-error.ts'
import type { FlowDeps } from '../deploy/deps.ts'
import { endingOf, type Ending } from '../deploy/ending.ts'
import { deletedState } from '../deploy/steps/gone.ts'
import {
  checkFailedError,
  checksTimedOutError,
  gateTimedOutError,
  healthGate,
  unhealthyError
} from './gate-step.ts'
import { graphsSkippedBecause, type BuiltFrom } from './built-workspace.ts'
import { checkRevision, verifiedOf } from './revision-checks.ts'
import { servedCheck } from './served-check.ts'
import { agentProbe } from './verify/agent-probe.ts'
import type { AgentCall } from './verify/agent-call.ts'
import type { DeployState } from '../deploy/state.ts'

type HealthOptions = Pick<
  Options,
  | 'healthCheck'
  | 'healthCheckWindow'
  | 'apiKey'
  | 'timeoutMs'
  | 'pollIntervalMs'
  | 'failureLogs'
  | 'onFailure'
  | 'customUrl'
  | 'healthCheckHosts'
  | 'apiDialect'
  | 'graphConfigPath'
  | 'baseUrl'
  | keyof BuiltFrom
>

/**
 * The hosts the probes may send the key to: the host (and port) of the custom-url input,
 * health-check-hosts, in the langsmith dialect the service's own, and loopback only when base-url
 * is loopback (the control plane on this machine, as the emulator).
 */
function vouchedHosts(o: HealthOptions): HostPattern[] {
  const own = o.customUrl ? exactHost(o.customUrl) : undefined
  return [
    ...(isLoopbackUrl(o.baseUrl) ? [LOOPBACK] : []),
    ...(own ? [own] : []),
    ...(o.healthCheckHosts ?? []),
    ...(o.apiDialect === 'langsmith' ? [LANGGRAPH_APP] : [])
  ]
}

/** The revision this run waited for, and how long the wait took. */
export interface DeployedRevision {
  deploymentId: string
  revisionId: string
  waitedMs: number
}

export async function checkDeployedHealth(
  o: HealthOptions,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision
): Promise<Ending> {
  if (!o.healthCheck) return { outcome: 'deployed' }
  const call = agentProbe({
    url: state.url ?? '',
    apiKey: o.apiKey,
    vouched: vouchedHosts(o),
    ...(deps.probe ? { transport: deps.probe } : {})
  })
  const served = servedCheck(call, r, deps.log)
  const result = await runGate(o, o.healthCheck, state, deps, r, served.check)
  if (result.health === 'cancelled') {
    const message = `Cancelled during the health check; revision ${r.revisionId} is DEPLOYED and was not checked.`
    return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
  }
  const servedVerdict = served.verdict(result.health === 'healthy')
  const stale = servedVerdict?.verdict === 'stale'
  if (result.health !== 'healthy' || stale) await refuseIfDeleted(state, deps, r, result)
  if (result.health === 'timeout') {
    const timedOut = gateTimedOutError(result, r.revisionId, o.timeoutMs, deps)
    return { outcome: 'timeout', failure: endingOf(timedOut).failure }
  }
  if (result.health === 'not-vouched') return { outcome: 'deployed' }
  state.health = result.health
  if (servedVerdict) state.verified = { servedRevision: servedVerdict.verdict }
  if (servedVerdict?.verdict === 'unknown')
    deps.log.notice(servedVerdict.notice, 'Served revision unknown')
  let failure: CheckFailure | Ending | undefined
  if (servedVerdict?.verdict === 'stale')
    failure = { title: 'New revision not served', what: sanitizeServerText(servedVerdict.reason) }
  else if (result.health === 'healthy') failure = await afterWindow(o, state, deps, r, call)
  if (failure && 'outcome' in failure) return failure
  if (result.health !== 'unhealthy' && !failure) return { outcome: 'deployed' }
  const rolled = await rollBack(o, state, deps, r, result)
  const error = failure
    ? checkFailedError(failure, r.revisionId, state.name, rolled)
    : unhealthyError(result, r.revisionId, state.name, rolled)
  return { outcome: 'unhealthy', failure: endingOf(error).failure }
}

type CheckFailure = { title: string; what: string }

/**
 * The graphs and the smoke cases, once the probes (and the revision served) passed: what failed,
 * or the run's ending when it was cancelled or timed out meanwhile.
 */
async function afterWindow(
  o: HealthOptions,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision,
  call: AgentCall
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
      deadline: deadlineOf(o, deps, r),
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
  if (checks.timedOut) {
    const timedOut = checksTimedOutError(r.revisionId, o.timeoutMs, deps)
    return { outcome: 'timeout', failure: endingOf(timedOut).failure }
  }
  return checks.failure
}

/** The revision active before this run is put back (with `on-failure: rollback`); said how. */
async function rollBack(
  o: HealthOptions,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision,
  result: HealthResult
): Promise<string | undefined> {
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
    await refuseIfDeleted(state, deps, r, result)
    throw err
  }
  state.failureLog = after.log
  state.rollback = after.rollback
  return describeRollback(after.rollback)
}

/** The deployment was deleted during the check: say so, instead of what its probes answered. */
async function refuseIfDeleted(
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision,
  result: HealthResult
): Promise<void> {
  const deleted = await deletedState(deps.client, r.deploymentId)
  if (!deleted) return
  state.health = undefined
  state.deploymentStatus = deleted === 'gone' ? undefined : deleted
  state.url = undefined
  throw new DeployError(
    `Deployment "${state.name ?? ''}" (${r.deploymentId}) was deleted during the health check of revision ${r.revisionId} (${deleted === 'gone' ? 'reads answer 404' : deleted}), after ${result.probes} probes; nothing is deployed and nothing was rolled back.`,
    'Another run or a person deleted it: deploy again to create it anew, once that was intended.',
    'Deployment deleted'
  )
}

/** The run's timeout bounds the health check as it bounds the wait for DEPLOYED. */
function deadlineOf(o: HealthOptions, deps: FlowDeps, r: DeployedRevision): number {
  return deps.clock.now() - r.waitedMs + o.timeoutMs
}

/** The pause between probes, and between tries of a check: poll-interval caps every pause. */
const probeInterval = (o: HealthOptions) => Math.min(DEFAULT_PROBE_INTERVAL_MS, o.pollIntervalMs)

function runGate(
  o: HealthOptions,
  path: string,
  state: DeployState,
  deps: FlowDeps,
  r: DeployedRevision,
  alongside: WindowCheck
): Promise<HealthResult> {
  return healthGate(
    {
      path,
      windowMs: o.healthCheckWindow,
      intervalMs: probeInterval(o),
      apiKey: o.apiKey,
      vouched: vouchedHosts(o),
      deadline: deadlineOf(o, deps, r),
      alongside,
      // A Serverless server scales to zero: its wake-up is warming, not unhealthy.
      wakes: state.deploymentType === 'serverless'
    },
    state.url,
    {
      ...(state.urlProblem ? { urlProblem: state.urlProblem } : {}),
      say: deps.say,
      log: deps.log,
      redactor: deps.client.redactor,
      ...(deps.signal ? { signal: deps.signal } : {}),
      clock: deps.clock,
      ...(deps.probe ? { probe: deps.probe } : {})
    }
  )
}

/**
 * Before anything is written: a health check whose address is already known (the custom-url
 * input, or the deployment's) and may not carry the key stops the run here.
 */
export function refuseHealthTarget(
  o: HealthOptions,
  current: Deployment | undefined,
  say: Say
): void {
  if (!o.healthCheck) return
  const url = o.customUrl ?? current?.source_config.custom_url
  if (!url) return
  const target = probeTarget(url, o.healthCheck, vouchedHosts(o))
  if ('problem' in target)
    throw new DeployError(
      `${say('health-check')} cannot ask the agent server: ${target.problem}. Nothing was written and no probe was sent.`,
      `Set ${say('custom-url')} to the https address of the agent server, or turn ${say('health-check')} off.`,
      'Health check refused'
    )
}
