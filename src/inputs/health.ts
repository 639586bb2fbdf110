// The health gate's inputs, each checked on its own, and how they fit the others.
import { formatDuration, parseDuration } from '../duration.ts'
import { parseHostPatterns, type HostPattern } from '../control-plane/vouched-hosts.ts'
import type { Say } from '../interface/naming.ts'
import { FALSE_VALUES, TRUE_VALUES } from './fields.ts'
import type { Fail } from './problems.ts'

export const DEFAULT_HEALTH_PATH = '/ok'
export const DEFAULT_HEALTH_WINDOW = '30s'
export const MAX_HEALTH_WINDOW_MS = 60 * 60 * 1000
export const MAX_HEALTH_PATH_LENGTH = 2048

const NOT_IN_PATH = /[\s\u0000-\u001f\u007f#\\]/

/** `health-check`: the path to probe (with its query), `false` when off; `true` is `/ok`. */
export function parseHealthCheck(v: string, fail: Fail): string | false | undefined {
  if (v === '' || FALSE_VALUES.includes(v)) return false
  if (TRUE_VALUES.includes(v)) return DEFAULT_HEALTH_PATH
  const expected =
    '`health-check` must be `true`, `false`, or a path on the agent server starting with `/` (e.g. `/ok?check_db=1`)'
  if (!v.startsWith('/')) return fail(expected)
  if (v.startsWith('//')) return fail(`${expected}; \`//\` would read as another host`)
  if (NOT_IN_PATH.test(v)) return fail(`${expected}, without spaces, line breaks, \`#\` or \`\\\``)
  if (v.length > MAX_HEALTH_PATH_LENGTH)
    return fail(`${expected}, at most ${MAX_HEALTH_PATH_LENGTH} characters`)
  return v
}

/** `health-check-window`: ms of 2xx required after the first one; 0 = the first 2xx is enough. */
export function parseHealthCheckWindow(v: string, fail: Fail): number | undefined {
  const ms = parseDuration(v === '' ? DEFAULT_HEALTH_WINDOW : v)
  if (ms === undefined)
    return fail(
      '`health-check-window` must be a duration like `30s`, `2m` or plain seconds (`45`); `0` accepts the first 2xx'
    )
  if (ms > MAX_HEALTH_WINDOW_MS)
    return fail(
      `\`health-check-window\` must be at most ${formatDuration(MAX_HEALTH_WINDOW_MS)}: the job waits that long after the first 2xx`
    )
  return ms
}

export interface HealthFit {
  /** The parsed `health-check` (`false` when off, undefined when its check failed). */
  healthPath: string | false | undefined
  wait: boolean | undefined
}

/** How the gate fits the other inputs: [input, problem] pairs, empty when it fits. */
export function healthProblems(f: HealthFit, say: Say): Array<['health-check', string]> {
  const problems: Array<['health-check', string]> = []
  if (!f.healthPath) return problems
  if (f.wait === false)
    problems.push([
      'health-check',
      `${say('health-check')} needs ${say.set('wait', true)}: the agent server is asked only after the revision is DEPLOYED`
    ])
  return problems
}

/** `health-check-hosts`: more hosts the probes may send the key to (vouched-hosts.ts's grammar). */
export function parseHealthCheckHosts(v: string, fail: Fail): HostPattern[] | undefined {
  if (v === '') return undefined
  const parsed = parseHostPatterns(v)
  if (!('problems' in parsed)) return parsed
  for (const problem of parsed.problems)
    fail(
      `\`health-check-hosts\`: ${problem}; expected host names, *.domain patterns or IP addresses, each with an optional :port, separated by commas or line breaks`
    )
  return undefined
}
