// The health gate as a step of the deploy: after DEPLOYED, ask the agent server (src/health/) and
// say what it answered. `unavailable` (health routes off) is one warning; the rest are failures.
import type { Redactor } from '../../../control-plane/redact.ts'
import { sanitizeServerText } from '../../../inert.ts'
import { formatDuration } from '../../../duration.ts'
import { probeTarget } from '../../../health/target.ts'
import {
  checkHealth,
  HealthTargetError,
  type HealthCheckOptions,
  type HealthResult,
  type ProbeAnswer
} from '../../../health/window.ts'
import type { Say } from '../../../interface/naming.ts'
import type { FlowLog } from '../../../log.ts'
import { stop, type Failure, type Stop } from '../../../interface/ending.ts'

export interface HealthGateDeps {
  log: FlowLog
  say: Say
  /** Why the deployment's custom_url was not taken (credentials in it, say): said, not probed. */
  urlProblem?: string
}

/** Probes until the gate decides, saying each change; a URL that may not carry the key stops. */
export async function healthGate(
  s: HealthCheckOptions,
  deps: HealthGateDeps
): Promise<HealthResult | Stop> {
  const { log } = deps
  const { url } = s
  const window = s.windowMs > 0 ? `, then 2xx for ${formatDuration(s.windowMs)}` : ''
  return log.group('Health check of the agent server', async () => {
    let last: string | undefined
    const wakeUp = wakeUpSayer(log)
    let result: HealthResult
    if (!url && deps.urlProblem) return refused(deps.urlProblem, deps, ', without user:password@')
    try {
      result = await checkHealth({
        ...s,
        onProbe: (n, answer) => {
          if (n === 1) {
            log.info(`GET ${shown(url, s.path, s.redactor)}: until a 2xx${window}.`)
            const unvouched = withoutKey(s, deps.say)
            if (unvouched) log.info(unvouched)
          }
          const text =
            describeAnswer(answer) +
            (answer.warming ? ' (warming: the Serverless agent server is waking up)' : '')
          // A long wait repeats one answer: it is said once, and again when it changes.
          if (text !== last) log.info(`Probe ${n}: ${text}`)
          last = text
          wakeUp(answer)
        }
      })
    } catch (err) {
      if (!(err instanceof HealthTargetError)) throw err
      return refused(err.message, deps)
    }
    if (result.health === 'not-vouched') return notVouched(result, deps.say)
    if (result.wokeUp)
      log.info(
        `Probe ${result.wokeUp.probe} waited ${formatDuration(result.wokeUp.waitedMs)} on a wake-up: the Serverless agent server was scaled to zero and woke within the timeout.`
      )
    const took = formatDuration(result.elapsedMs)
    if (result.health === 'healthy')
      log.info(
        result.probes === 1
          ? `Healthy: 1 probe in ${took}, a 2xx.`
          : `Healthy: ${result.probes} probes in ${took}, each 2xx from the first 2xx on.`
      )
    if (result.health === 'unavailable')
      log.warning(
        `Every probe of ${shown(url, s.path, s.redactor)} answered 404: the agent server's health routes are turned off, so this deploy was not checked. ` +
          `Point ${deps.say('health-check')} at a route the server serves, or turn it off.`,
        'Health check unavailable'
      )
    return result
  })
}

/** How often a long wake-up is said again, as it goes on. */
const WAKE_SAID_EVERY_MS = 15_000

/** Says a Serverless wake-up as it happens: when it starts, then every so often while it lasts. */
function wakeUpSayer(log: FlowLog): (answer: ProbeAnswer) => void {
  let said: number | undefined
  return answer => {
    const w = answer.warming ? answer.wake : undefined
    if (!w) return
    if (said !== undefined && w.waitedMs >= said && w.waitedMs - said < WAKE_SAID_EVERY_MS) return
    said = w.waitedMs
    const seconds = (ms: number) => formatDuration(Math.round(ms / 1000) * 1000)
    log.info(
      `Serverless deployment waking up, waited ${seconds(w.waitedMs)} of at most ${seconds(w.maxMs)}.`
    )
  }
}

const failure = (message: string, hint: string, title: string): Failure => ({
  message,
  hint,
  title
})

/** The address may not be probed: nothing was sent. */
function refused(problem: string, deps: HealthGateDeps, without = ''): Stop {
  return stop(
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
export function unhealthy(
  result: HealthResult,
  revisionId: string,
  name: string | undefined,
  rolledBack?: string
): Failure {
  const answers = result.answers.map(describeAnswer).join('; ')
  return failure(
    `Revision ${revisionId} of "${name ?? ''}" is DEPLOYED, but its agent server is unhealthy: ${result.reason ?? 'a probe failed'}. ` +
      `Last answers: ${answers}.` +
      (rolledBack ? ` ${rolledBack}` : ''),
    'Read the revision’s deploy log and the server’s own log (a missing secret, a database it cannot reach, a graph that does not load); fix, and push again.',
    'Agent server unhealthy'
  )
}

/** A check of the new revision failed: the probes answered, the new code does not. */
export function checkFailed(
  f: { title: string; what: string },
  revisionId: string,
  name: string | undefined,
  rolledBack?: string
): Failure {
  const hint =
    f.title === 'New revision not served'
      ? 'Another revision answers: the previous one still draining (raise timeout when its drain takes longer), or a newer one that another run deployed; check the deployment’s revisions on the control plane.'
      : f.title === 'Graph not served'
        ? 'The agent server did not load that graph: read the revision’s deploy log and the server’s log (an import error, a missing dependency or secret).'
        : f.title === 'Graphs not listed'
          ? 'The agent server answered that, not a list of assistants, until the timeout: read the server’s log (a database or a proxy before it that is down).'
          : 'Read the case’s output above and in the job summary, and the server’s log; fix, and push again.'
  return failure(
    `Revision ${revisionId} of "${name ?? ''}" is DEPLOYED and its agent server answers, but ${f.what}.` +
      (rolledBack ? ` ${rolledBack}` : ''),
    hint,
    f.title
  )
}

/** The run's timeout came during the graphs or the smoke cases: nothing is rolled back. */
export function checksTimedOut(revisionId: string, timeoutMs: number, say: Say): Failure {
  return failure(
    `Timed out during the checks of revision ${revisionId}: it is DEPLOYED and its agent server answered, but the timeout (${formatDuration(timeoutMs)}) came before its graphs and smoke cases were done.`,
    `Raise ${say('timeout')}, or give the smoke cases shorter timeouts.`,
    'Health check timed out'
  )
}

function notVouchedBy(say: Say, host: string): string {
  // The service's hosts are anyone's: only the deployment's own one is vouched for.
  const service = /\.langgraph\.app(:\d+)?$/i.test(host)
    ? `, not the agent server host the control plane reported for this deployment in the langsmith ${say('api-dialect')} (<name>-<hash>.<region>.langgraph.app)`
    : ''
  return `not the host of ${say('custom-url')}, not in ${say('health-check-hosts')}${service}, not loopback with ${say('base-url')} on loopback too`
}

/** The line for probes that go without the key (the gate decides it the same way, target.ts). */
function withoutKey(s: HealthCheckOptions, say: Say): string | undefined {
  const t = probeTarget(s.url, s.path, s.vouched)
  if ('url' in t && t.vouchedBy !== undefined) return undefined
  const host = URL.parse(s.url ?? '')?.host ?? 'its host'
  return (
    `${sanitizeServerText(host, 300)} is not vouched for (${notVouchedBy(say, host)}): ` +
    'the probes go without the API key.'
  )
}

function notVouched(result: HealthResult, say: Say): Stop {
  const host = sanitizeServerText(result.host ?? 'its host', 300)
  const answer = result.answers.at(-1)
  return stop(
    `The agent server at ${host} answered ${answer ? describeAnswer(answer) : '401/403'} to a probe sent without the API key: ` +
      `${host} is not vouched for (${notVouchedBy(say, host)}), so the key is not sent there. The health check could not be made.`,
    `If ${host} is your agent server, add it to ${say('health-check-hosts')} (or set ${say('custom-url')} to it); if not, the deployment's custom_url points somewhere it should not: check it.`,
    'Health check host not vouched for'
  )
}

/** The deadline came inside the window: the check did not finish; nothing is rolled back. */
export function gateTimedOut(
  result: HealthResult,
  revisionId: string,
  timeoutMs: number,
  say: Say
): Failure {
  return failure(
    `Timed out during the health check: revision ${revisionId} is DEPLOYED and its agent server answered 2xx, but ${result.reason ?? 'the window was cut short'} when the timeout (${formatDuration(timeoutMs)}) came.`,
    `Raise ${say('timeout')}, or shorten ${say('health-check-window')}, so that the window fits in it.`,
    'Health check timed out'
  )
}

function shown(url: string | null | undefined, path: string, redactor: Redactor): string {
  return sanitizeServerText(redactor.redact(`${(url ?? '').replace(/\/+$/, '')}${path}`), 300)
}
