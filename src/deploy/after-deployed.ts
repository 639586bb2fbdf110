// What a run does once its revision is DEPLOYED and `health-check` is set: ask the agent server
// (health-gate.ts). Unhealthy is a failure like a failed revision: the deploy log is shown and,
// with `on-failure: rollback`, the revision active before this run is put back (with the
// rollback's rules on what this run may undo). Unavailable is the gate's one warning.
import type { Deployment } from '../control-plane/schema.ts'
import { probeTarget } from '../health/target.ts'
import { DEFAULT_PROBE_INTERVAL_MS } from '../health/gate.ts'
import type { Options } from '../inputs/options.ts'
import { afterFailure, describeRollback, notUndoneBy } from './after-failure.ts'
import { DeployError } from './deploy-error.ts'
import type { FlowDeps } from './deps.ts'
import { endingOf, type Ending } from './ending.ts'
import { healthGate, unhealthyError } from './health-gate.ts'
import type { DeployState } from './state.ts'

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
>

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
  const { now } = deps.clock
  const result = await healthGate(
    {
      path: o.healthCheck,
      windowMs: o.healthCheckWindow,
      // poll-interval caps every pause of the run, the probes' too.
      intervalMs: Math.min(DEFAULT_PROBE_INTERVAL_MS, o.pollIntervalMs),
      apiKey: o.apiKey,
      // The timeout bounds the wait for the first 2xx as it bounds the wait for DEPLOYED.
      deadline: now() - r.waitedMs + o.timeoutMs
    },
    state.url,
    {
      log: deps.log,
      redactor: deps.client.redactor,
      ...(deps.signal ? { signal: deps.signal } : {}),
      clock: deps.clock,
      ...(deps.probe ? { probe: deps.probe } : {})
    }
  )
  if (result.health === 'cancelled') {
    const message = `Cancelled during the health check; revision ${r.revisionId} is DEPLOYED and was not checked.`
    return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
  }
  state.health = result.health
  if (result.health !== 'unhealthy') return { outcome: 'deployed' }
  const after = await afterFailure(
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
  state.failureLog = after.log
  state.rollback = after.rollback
  const failure = unhealthyError(result, r.revisionId, state.name, describeRollback(after.rollback))
  return { outcome: 'unhealthy', failure: endingOf(failure).failure }
}

/**
 * Before anything is written: a health check whose address is already known (the custom-url
 * input, or the deployment's) and may not carry the key stops the run here.
 */
export function refuseHealthTarget(o: HealthOptions, current: Deployment | undefined): void {
  if (!o.healthCheck) return
  const url = o.customUrl ?? current?.source_config.custom_url
  if (!url) return
  const target = probeTarget(url, o.healthCheck)
  if ('problem' in target)
    throw new DeployError(
      `health-check cannot ask the agent server: ${target.problem}. Nothing was written and no probe was sent.`,
      'Set custom-url to the https address of the agent server, or turn health-check off.',
      'Health check refused'
    )
}
