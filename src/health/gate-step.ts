// The health gate as a step of the deploy: after DEPLOYED, ask the agent server (src/health/) and
// say what it answered in the job log. `unhealthy` becomes an error the flow throws like a failed
// revision; `unavailable` (the health routes are turned off) is one warning; a host not vouched
// for that asks for the key, and a window the timeout cut short, are errors of their own.
import type { Clock } from '../clock.ts'
import type { Redactor } from '../control-plane/redact.ts'
import { sanitizeServerText } from '../control-plane/redact.ts'
import { formatDuration } from '../duration.ts'
import { probeTarget } from './target.ts'
import {
  checkHealth,
  HealthTargetError,
  type HealthCheckOptions,
  type HealthResult,
  type ProbeAnswer,
  type WindowCheck
} from './window.ts'
import type { HostPattern } from '../control-plane/vouched-hosts.ts'
import type { ProbeTransport } from './probe.ts'
import type { Say } from '../inputs/naming.ts'
import { DeployError } from '../deploy/deploy-error.ts'
import type { FlowLog } from '../deploy/deps.ts'

export interface HealthGateSettings {
  /** The path health-check asks for (`/ok`, or the one given). */
  path: string
  windowMs: number
  /** Pause between probes (default about 5 s). */
  intervalMs?: number
  apiKey: string
  /** Hosts the key may go to (custom-url's, health-check-hosts, the dialect's, LOOPBACK). */
  vouched?: readonly HostPattern[]
  /** Epoch ms (the run's timeout): the check ends by then. */
  deadline: number
  /** Asked on the probes of the window too (the revision served). */
  alongside?: WindowCheck
  /** A Serverless deployment: its server may be scaled to zero and wake on the first probe. */
  wakes?: boolean
}

export interface HealthGateDeps {
  log: FlowLog
  redactor: Redactor
  signal?: AbortSignal
  /** The run's clock. */
  clock: Clock
  /** For tests: how a probe is sent. */
  probe?: ProbeTransport
  /** How the user sets an input where the run came from (`--x` / `CONTROL_PLANE_X` in the CLI). */
  say: Say
  /** Why the deployment's custom_url was not taken (credentials in it, say): said, not probed. */
  urlProblem?: string
}

/**
 * Probes `url` + the path until the gate decides, logging each change of answer. Throws a
 * DeployError when the URL may not carry the key (nothing is sent then).
 */
export async function healthGate(
  s: HealthGateSettings,
  url: string | undefined,
  deps: HealthGateDeps
): Promise<HealthResult> {
  const { log } = deps
  const window = s.windowMs > 0 ? `, then 2xx for ${formatDuration(s.windowMs)}` : ''
  return log.group('Health check of the agent server', async () => {
    let last: string | undefined
    let result: HealthResult
    if (!url && deps.urlProblem) throw refused(deps.urlProblem, deps, ', without user:password@')
    try {
      result = await checkHealth({
        ...checkOptions(s, url, deps),
        onProbe: (n, answer) => {
          if (n === 1) {
            log.info(`GET ${shown(url, s.path, deps.redactor)}: until a 2xx${window}.`)
            if (!sentKey(url, s)) log.info(withoutKey(url, deps))
          }
          const text =
            describeAnswer(answer) +
            (answer.warming ? ' (warming: the Serverless agent server is waking up)' : '')
          // A long wait repeats one answer: it is said once, and again when it changes.
          if (text !== last) log.info(`Probe ${n}: ${text}`)
          last = text
        }
      })
    } catch (err) {
      if (!(err instanceof HealthTargetError)) throw err
      throw refused(err.message, deps)
    }
    if (result.health === 'not-vouched') throw notVouchedError(result, deps)
    if (result.wokeUp)
      log.info(
        `Probe ${result.wokeUp.probe} waited ${formatDuration(result.wokeUp.waitedMs)} on a wake-up: the Serverless agent server was scaled to zero and woke within the timeout.`
      )
    const took = formatDuration(result.elapsedMs)
    if (result.health === 'healthy')
      log.info(`Healthy: ${result.probes} probes in ${took}, each 2xx from the first 2xx on.`)
    if (result.health === 'unavailable')
      log.warning(
        `Every probe of ${shown(url, s.path, deps.redactor)} answered 404: the agent server's health routes are turned off, so this deploy was not checked. ` +
          `Point ${deps.say('health-check')} at a route the server serves, or turn it off.`,
        'Health check unavailable'
      )
    return result
  })
}

function checkOptions(
  s: HealthGateSettings,
  url: string | undefined,
  deps: HealthGateDeps
): HealthCheckOptions {
  return {
    url,
    path: s.path,
    apiKey: s.apiKey,
    ...(s.vouched ? { vouched: s.vouched } : {}),
    deadline: s.deadline,
    windowMs: s.windowMs,
    ...(s.intervalMs !== undefined ? { intervalMs: s.intervalMs } : {}),
    ...(s.alongside ? { alongside: s.alongside } : {}),
    ...(s.wakes ? { wakes: true } : {}),
    redactor: deps.redactor,
    ...(deps.signal ? { signal: deps.signal } : {}),
    clock: deps.clock,
    ...(deps.probe ? { transport: deps.probe } : {})
  }
}

/** The address may not be probed: nothing was sent. */
function refused(problem: string, deps: HealthGateDeps, without = ''): DeployError {
  return new DeployError(
    `${deps.say('health-check')} cannot ask the agent server: ${problem}. No probe was sent.`,
    `Set ${deps.say('custom-url')} to the https address of the agent server${without}, or turn ${deps.say('health-check')} off.`,
    'Health check refused'
  )
}

/** One answer as the job log shows it: `503 "database unreachable"`, `no answer (…)`. */
function describeAnswer(a: ProbeAnswer): string {
  if (a.status === null) return `no answer: ${a.excerpt}`
  if (a.slowBody)
    return `${a.status}, but its body was still arriving when the probe's time ran out (slow body)${a.excerpt ? `: "${a.excerpt}"` : ''}`
  return a.excerpt ? `${a.status} "${a.excerpt}"` : `${a.status}`
}

/** The error of an unhealthy server: it names the last answers, and whether it was rolled back. */
export function unhealthyError(
  result: HealthResult,
  revisionId: string,
  name: string | undefined,
  rolledBack?: string
): DeployError {
  const answers = result.answers.map(describeAnswer).join('; ')
  return new DeployError(
    `Revision ${revisionId} of "${name ?? ''}" is DEPLOYED, but its agent server is unhealthy: ${result.reason ?? 'a probe failed'}. ` +
      `Last answers: ${answers}.` +
      (rolledBack ? ` ${rolledBack}` : ''),
    'Read the revision’s deploy log and the server’s own log (a missing secret, a database it cannot reach, a graph that does not load); fix, and push again.',
    'Agent server unhealthy'
  )
}

/**
 * A check of the new revision failed (the revision served, a graph, a smoke case): the probes
 * answered, the new code does not. Names what failed, and whether it was rolled back.
 */
export function checkFailedError(
  f: { title: string; what: string },
  revisionId: string,
  name: string | undefined,
  rolledBack?: string
): DeployError {
  const hint =
    f.title === 'New revision not served'
      ? 'Another revision answers: the previous one still draining (raise timeout when its drain takes longer), or a newer one that another run deployed; check the deployment’s revisions on the control plane.'
      : f.title === 'Graph not served'
        ? 'The agent server did not load that graph: read the revision’s deploy log and the server’s log (an import error, a missing dependency or secret).'
        : f.title === 'Graphs not listed'
          ? 'The agent server answered that, not a list of assistants, until the timeout: read the server’s log (a database or a proxy before it that is down).'
          : 'Read the case’s output above and in the job summary, and the server’s log; fix, and push again.'
  return new DeployError(
    `Revision ${revisionId} of "${name ?? ''}" is DEPLOYED and its agent server answers, but ${f.what}.` +
      (rolledBack ? ` ${rolledBack}` : ''),
    hint,
    f.title
  )
}

/** The run's timeout came during the graphs or the smoke cases: nothing is rolled back. */
export function checksTimedOutError(
  revisionId: string,
  timeoutMs: number,
  deps: Pick<HealthGateDeps, 'say'>
): DeployError {
  return new DeployError(
    `Timed out during the checks of revision ${revisionId}: it is DEPLOYED and its agent server answered, but the timeout (${formatDuration(timeoutMs)}) came before its graphs and smoke cases were done.`,
    `Raise ${deps.say('timeout')}, or give the smoke cases shorter timeouts.`,
    'Health check timed out'
  )
}

function notVouchedBy(deps: HealthGateDeps): string {
  return `not the host of ${deps.say('custom-url')}, not in ${deps.say('health-check-hosts')}, not loopback with ${deps.say('base-url')} on loopback too`
}

/** Whether the probes carry the key (the gate decides the same way, in target.ts). */
function sentKey(url: string | undefined, s: HealthGateSettings): boolean {
  const t = probeTarget(url, s.path, s.vouched)
  return 'url' in t && t.vouchedBy !== undefined
}

function hostOfText(url: string | undefined): string {
  try {
    return new URL(url ?? '').host
  } catch {
    return 'its host'
  }
}

function withoutKey(url: string | undefined, deps: HealthGateDeps): string {
  return (
    `${sanitizeServerText(hostOfText(url), 300)} is not vouched for (${notVouchedBy(deps)}): ` +
    'the probes go without the API key.'
  )
}

function notVouchedError(result: HealthResult, deps: HealthGateDeps): DeployError {
  const host = sanitizeServerText(result.host ?? 'its host', 300)
  const answer = result.answers.at(-1)
  return new DeployError(
    `The agent server at ${host} answered ${answer ? describeAnswer(answer) : '401/403'} to a probe sent without the API key: ` +
      `${host} is not vouched for (${notVouchedBy(deps)}), so the key is not sent there. The health check could not be made.`,
    `If ${host} is your agent server, add it to ${deps.say('health-check-hosts')} (or set ${deps.say('custom-url')} to it); if not, the deployment's custom_url points somewhere it should not: check it.`,
    'Health check host not vouched for'
  )
}

/** The deadline came inside the window: the check did not finish; nothing is rolled back. */
export function gateTimedOutError(
  result: HealthResult,
  revisionId: string,
  timeoutMs: number,
  deps: Pick<HealthGateDeps, 'say'>
): DeployError {
  return new DeployError(
    `Timed out during the health check: revision ${revisionId} is DEPLOYED and its agent server answered 2xx, but ${result.reason ?? 'the window was cut short'} when the timeout (${formatDuration(timeoutMs)}) came.`,
    `Raise ${deps.say('timeout')}, or shorten ${deps.say('health-check-window')}, so that the window fits in it.`,
    'Health check timed out'
  )
}

function shown(url: string | undefined, path: string, redactor: Redactor): string {
  return sanitizeServerText(redactor.redact(`${(url ?? '').replace(/\/+$/, '')}${path}`), 300)
}
