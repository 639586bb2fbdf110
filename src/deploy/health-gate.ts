// The health gate as a step of the deploy: after DEPLOYED, ask the agent server (src/health/) and
// say what it answered in the job log. `unhealthy` becomes an error the flow throws like a failed
// revision; `unavailable` (the health routes are turned off) is one warning.
import type { Clock } from '../clock.ts'
import type { Redactor } from '../control-plane/redact.ts'
import { sanitizeServerText } from '../control-plane/redact.ts'
import { formatDuration } from '../duration.ts'
import {
  checkHealth,
  HealthTargetError,
  type HealthResult,
  type ProbeAnswer
} from '../health/gate.ts'
import type { ProbeTransport } from '../health/probe.ts'
import { DeployError } from './deploy-error.ts'
import type { FlowLog } from './deps.ts'

export interface HealthGateSettings {
  /** The path health-check asks for (`/ok`, or the one given). */
  path: string
  windowMs: number
  /** Pause between probes (default about 5 s). */
  intervalMs?: number
  apiKey: string
  /** Epoch ms (the run's timeout): no probe starts after it while no 2xx has come. */
  deadline: number
}

export interface HealthGateDeps {
  log: FlowLog
  redactor: Redactor
  signal?: AbortSignal
  /** The run's clock. */
  clock: Clock
  /** For tests: how a probe is sent. */
  probe?: ProbeTransport
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
    try {
      result = await checkHealth({
        url,
        path: s.path,
        apiKey: s.apiKey,
        deadline: s.deadline,
        windowMs: s.windowMs,
        ...(s.intervalMs !== undefined ? { intervalMs: s.intervalMs } : {}),
        redactor: deps.redactor,
        ...(deps.signal ? { signal: deps.signal } : {}),
        clock: deps.clock,
        ...(deps.probe ? { transport: deps.probe } : {}),
        onProbe: (n, answer) => {
          if (n === 1) log.info(`GET ${shown(url, s.path, deps.redactor)}: until a 2xx${window}.`)
          const text = describeAnswer(answer)
          // A long wait repeats one answer: it is said once, and again when it changes.
          if (text !== last) log.info(`Probe ${n}: ${text}`)
          last = text
        }
      })
    } catch (err) {
      if (!(err instanceof HealthTargetError)) throw err
      throw new DeployError(
        `health-check cannot ask the agent server: ${err.message}. No probe was sent.`,
        'Set custom-url to the https address of the agent server, or turn health-check off.',
        'Health check refused'
      )
    }
    const took = formatDuration(result.elapsedMs)
    if (result.health === 'healthy')
      log.info(`Healthy: ${result.probes} probes in ${took}, each 2xx from the first 2xx on.`)
    if (result.health === 'unavailable')
      log.warning(
        `Every probe of ${shown(url, s.path, deps.redactor)} answered 404: the agent server's health routes are turned off, so this deploy was not checked. ` +
          'Point health-check at a route the server serves, or turn it off.',
        'Health check unavailable'
      )
    return result
  })
}

/** One answer as the job log shows it: `503 "database unreachable"`, `no answer (…)`. */
export function describeAnswer(a: ProbeAnswer): string {
  if (a.status === null) return `no answer: ${a.excerpt}`
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

function shown(url: string | undefined, path: string, redactor: Redactor): string {
  return sanitizeServerText(redactor.redact(`${(url ?? '').replace(/\/+$/, '')}${path}`), 300)
}
