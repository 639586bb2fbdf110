// What a run does once its revision is DEPLOYED and `health-check` is set: the agent server's gate
// (gate.ts), the revision it serves, its graphs and smoke cases, made the run's ending here. Any
// failed check fails like an unhealthy server, and that like a failed revision (its log, and with
// `on-failure: rollback` the revision before this run back). A deployment deleted meanwhile is
// said as that, whatever the probes answered.
import { sanitizeServerText } from '../../../inert.ts'
import type { Deployment } from '../../../control-plane/schema.ts'
import { graphsSkippedBecause, type BuiltFrom } from '../../../health/built-workspace.ts'
import { checkRevision, verifiedOf } from '../../../health/revision-checks.ts'
import { servedCheck } from '../../../health/served-check.ts'
import { probeTarget, vouchedHosts } from '../../../health/target.ts'
import type { Expected, ServedVerdict } from '../../../health/verify/served-revision.ts'
import type { Verified, Journal, Learned } from '../../../interface/journal.ts'
import { agentProbe } from '../../../health/verify/agent-probe.ts'
import {
  DEFAULT_PROBE_INTERVAL_MS,
  type HealthCheckOptions,
  type HealthResult
} from '../../../health/window.ts'
import type { Say } from '../../../interface/naming.ts'
import { DEFAULT_HEALTH_PATH } from '../../../inputs/health.ts'
import type { DeployOptions } from '../options.ts'
import { afterFailure, describeRollback } from '../after-failure/after-failure.ts'
import type { FlowDeps } from '../deps.ts'
import { stop, stopped, type Ending, type Stop } from '../../../interface/ending.ts'
import type { Plan, Origin } from './plan.ts'
import { checkFailed, checksTimedOut, gateTimedOut, healthGate, unhealthy } from './gate.ts'
import { deletedState } from './gone.ts'

/** The revision this run waited for, and how long the wait took. */
export interface DeployedRevision {
  deploymentId: string
  revisionId: string
  waitedMs: number
}

/** What the steps after the write work with, and what they learn (for the flow to record). */
export interface Concluding {
  o: DeployOptions
  from: Origin
  plan: Plan
  /** The deployment's active revision before this run wrote: what a rollback restores. */
  previousActive: string | null
  journal: Journal
  deps: FlowDeps
  learned: Learned
}

/** The run's facts as the steps after the write know them: the journal and what they learned. */
export const known = (c: Concluding): Journal => ({ ...c.journal, ...c.learned })

export async function checkDeployedHealth(c: Concluding, r: DeployedRevision): Promise<Ending> {
  const { o, from, deps } = c
  // `evaluate` runs its own served-revision check: the gate on the default route, no window.
  const path = o.healthCheck || (deps.evaluation ? DEFAULT_HEALTH_PATH : undefined)
  if (!path) return { outcome: 'deployed' }
  const { say } = deps
  const state = known(c)
  const settings = healthSettings(o, path, state, deps, r)
  if (!o.healthCheck) settings.windowMs = 0
  const built = { source: state.source, repoCommitSha: state.repoCommitSha }
  const skipped = await graphsSkippedBecause(builtFrom(o, from), built, deps.workspace ?? '.')
  const x = await examineServer(o, deps, {
    settings,
    expected: r,
    ...(skipped === undefined ? {} : { graphsSkipped: skipped }),
    urlProblem: state.urlProblem,
    checksTitle: 'Checks of the new revision'
  })
  if (stopped(x)) return x
  const result = x.gate
  if (result.health === 'cancelled') {
    const message = `Cancelled during the health check; revision ${r.revisionId} is DEPLOYED and was not checked.`
    return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
  }
  const stale = x.served?.verdict === 'stale'
  const deleted =
    (result.health !== 'healthy' || stale) &&
    (await deletedNow(c, r, `after ${result.probes} probes`))
  if (deleted) return deleted
  if (result.health === 'timeout')
    return { outcome: 'timeout', failure: gateTimedOut(result, r.revisionId, o.timeoutMs, say) }
  if (result.health === 'not-vouched') return { outcome: 'deployed' }
  Object.assign(c.learned, { health: result.health, verified: x.verified })
  if (x.served?.verdict === 'unknown') deps.log.notice(x.served.notice, 'Served revision unknown')
  const cut = cutShort(x, r, o, say)
  if (cut) return cut
  if (result.health !== 'unhealthy' && !x.failure) return { outcome: 'deployed' }
  const rolled = await rollBack(c, r, `after ${result.probes} probes`)
  if (stopped(rolled)) return rolled
  return {
    outcome: 'unhealthy',
    failure: x.failure
      ? checkFailed(x.failure, r.revisionId, state.name, rolled)
      : unhealthy(result, r.revisionId, state.name, rolled)
  }
}

/** What the revision is built from, for the graphs check: the material's origin, the inputs' commit. */
export const builtFrom = (o: DeployOptions, from: Origin): BuiltFrom => ({
  source: from.source,
  repositoryExplicit: from.repositoryExplicit,
  revisionSource: o.revisionSource,
  expectedSha: o.expectedSha
})

/** The checks after the window, cut short by a cancel or the run's timeout: the run's ending. */
function cutShort(
  x: Examined,
  r: DeployedRevision,
  o: DeployOptions,
  say: Say
): Ending | undefined {
  if (x.cut === 'cancelled') {
    const message = `Cancelled during the checks of revision ${r.revisionId}, which is DEPLOYED.`
    return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
  }
  if (x.cut === 'timeout')
    return { outcome: 'timeout', failure: checksTimedOut(r.revisionId, o.timeoutMs, say) }
  return undefined
}

/** The health settings of this run: the gate's probes, and the checks after it. */
export function healthSettings(
  o: DeployOptions,
  path: string,
  state: Pick<Journal, 'name' | 'url' | 'deploymentType'>,
  deps: FlowDeps,
  r: { waitedMs: number }
): HealthCheckOptions {
  return {
    url: state.url,
    path,
    apiKey: o.apiKey,
    vouched: vouchedHosts(o, { name: state.name, url: state.url }),
    transport: deps.probe,
    // The run's timeout bounds the health check as it bounds the wait for DEPLOYED.
    deadline: deps.clock.now() - r.waitedMs + o.timeoutMs,
    windowMs: o.healthCheckWindow,
    intervalMs: probeInterval(o),
    // A Serverless server scales to zero: its wake-up is warming, not unhealthy.
    wakes: state.deploymentType === 'serverless',
    redactor: deps.client.redactor,
    signal: deps.signal,
    clock: deps.clock
  }
}

export type CheckFailure = { title: string; what: string }

/** What to examine: an agent server, the revision it must serve, and how its checks are made. */
export interface Examine {
  settings: HealthCheckOptions
  expected: Expected
  /** Why the workspace's config does not describe what that revision built. */
  graphsSkipped?: string
  urlProblem: string | undefined
  checksTitle: string
}

/** What an agent server answered: the gate, the revision served, and the checks after it. */
export interface Examined {
  gate: HealthResult
  served: ServedVerdict | undefined
  /** What failed (the revision served, a graph, a smoke case); undefined when nothing did. */
  failure?: CheckFailure
  /** The checks after the window did not end: a cancel, or the run's timeout. */
  cut?: 'cancelled' | 'timeout'
  verified: Verified
}

/** One gate for any agent server (new revision, promotion's source); the caller makes the end. */
export async function examineServer(
  o: DeployOptions,
  deps: FlowDeps,
  x: Examine
): Promise<Examined | Stop> {
  const call = agentProbe(x.settings)
  const served = servedCheck(call, x.expected, deps.log)
  const gate = await healthGate(
    { ...x.settings, alongside: served.check },
    { log: deps.log, say: deps.say, urlProblem: x.urlProblem }
  )
  if (stopped(gate)) return gate
  if (gate.health === 'cancelled') return { gate, served: undefined, verified: {} }
  const verdict = served.verdict(gate.health === 'healthy')
  const verified: Verified = verdict ? { servedRevision: verdict.verdict } : {}
  const out: Examined = { gate, served: verdict, verified }
  if (verdict?.verdict === 'stale')
    return {
      ...out,
      failure: { title: 'New revision not served', what: sanitizeServerText(verdict.reason) }
    }
  if (gate.health !== 'healthy') return out
  const checks = await deps.log.group(x.checksTitle, () =>
    checkRevision({
      ...(x.graphsSkipped === undefined ? {} : { graphsSkipped: x.graphsSkipped }),
      intervalMs: probeInterval(o),
      call,
      graphConfigPath: o.graphConfigPath,
      workspace: deps.workspace,
      cases: deps.smokeCases,
      clock: deps.clock,
      deadline: x.settings.deadline,
      signal: deps.signal,
      log: deps.log,
      mask: text => deps.client.redactor.redact(text)
    })
  )
  out.verified = { ...verified, ...verifiedOf(checks) }
  if (deps.signal?.aborted) return { ...out, cut: 'cancelled' }
  if (checks.timedOut) return { ...out, cut: 'timeout' }
  return checks.failure ? { ...out, failure: checks.failure } : out
}

/** The revision active before this run is put back (with `on-failure: rollback`); said how. */
export async function rollBack(
  c: Concluding,
  r: DeployedRevision,
  when: string
): Promise<string | undefined | Stop> {
  const { o, deps } = c
  let after
  try {
    const ids = { deploymentId: r.deploymentId, revisionId: r.revisionId, status: 'DEPLOYED' }
    after = await afterFailure(o, ids, c, deps)
  } catch (err) {
    // Deleted between the verdict and the rollback's read: that, not the read, is the news.
    const deleted = await deletedNow(c, r, when)
    if (deleted) return deleted
    throw err
  }
  Object.assign(c.learned, { failureLog: after.log, rollback: after.rollback })
  return describeRollback(after.rollback)
}

/** The deployment was deleted during the check: say so, instead of what its probes answered. */
async function deletedNow(
  c: Concluding,
  r: DeployedRevision,
  when: string
): Promise<Stop | undefined> {
  const deleted = await deletedState(c.deps.client, r.deploymentId)
  if (!deleted) return undefined
  const status = deleted === 'gone' ? undefined : deleted
  Object.assign(c.learned, { health: undefined, deploymentStatus: status, url: undefined })
  return stop(
    `Deployment "${known(c).name ?? ''}" (${r.deploymentId}) was deleted during the health check of revision ${r.revisionId} (${deleted === 'gone' ? 'reads answer 404' : deleted}), ${when}; nothing is deployed and nothing was rolled back.`,
    'Another run or a person deleted it: deploy again to create it anew, once that was intended.',
    'Deployment deleted'
  )
}

/** The pause between probes, and between tries of a check: poll-interval caps every pause. */
const probeInterval = (o: DeployOptions) => Math.min(DEFAULT_PROBE_INTERVAL_MS, o.pollIntervalMs)

/** Before any write: a health check whose known address may not carry the key stops the run. */
export function refuseHealthTarget(
  o: DeployOptions,
  current: Deployment | undefined,
  say: Say
): Stop | undefined {
  if (!o.healthCheck) return undefined
  const url = o.customUrl ?? current?.source_config.custom_url
  if (!url) return undefined
  const target = probeTarget(url, o.healthCheck, vouchedHosts(o, { name: current?.name, url }))
  if (!('problem' in target)) return undefined
  return stop(
    `${say('health-check')} cannot ask the agent server: ${target.problem}. Nothing was written and no probe was sent.`,
    `Set ${say('custom-url')} to the https address of the agent server, or turn ${say('health-check')} off.`,
    'Health check refused'
  )
}
