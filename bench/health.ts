// The health gate's cost, simulated: the action's own `checkHealth` (src/health/window.ts) against
// scripted agent servers on a virtual clock, each probe taking `PROBE_LATENCY_MS`. What a deploy
// gains with `health-check`: probes to the agent server and seconds from DEPLOYED to the verdict.
// The control plane gets no request from the gate (the end-to-end test of the gate compares the
// requests of a run with and without it).
import { Redactor } from '../src/control-plane/redact.ts'
import { checkHealth, DEFAULT_PROBE_INTERVAL_MS, type HealthResult } from '../src/health/window.ts'
import type { ProbeRequest, ProbeResponse } from '../src/health/probe.ts'
import { formatDuration } from '../src/duration.ts'
import { table } from './markdown.ts'
import { dur } from './stats.ts'

export const PROBE_LATENCY_MS = 80
/** What is left of the default 30 min timeout after a typical deploy. */
const DEADLINE_MS = 25 * 60_000

interface Scenario {
  server: string
  windowMs: number
  /** The answer at virtual time `t` (ms after DEPLOYED). */
  answer: (t: number) => number
  /** A Serverless server scaled to zero: no answer before this (ms after DEPLOYED), then `answer`. */
  wakesAtMs?: number
}

const ok = () => 200
const SCENARIOS: Scenario[] = [
  { server: 'ready at DEPLOYED', windowMs: 30_000, answer: ok },
  { server: 'ready at DEPLOYED', windowMs: 10_000, answer: ok },
  { server: 'ready at DEPLOYED', windowMs: 0, answer: ok },
  { server: 'warming up for 10 s (503)', windowMs: 30_000, answer: t => (t < 10_000 ? 503 : 200) },
  { server: 'warming up for 60 s (503)', windowMs: 30_000, answer: t => (t < 60_000 ? 503 : 200) },
  {
    server: 'fails 12 s after its first 2xx',
    windowMs: 30_000,
    answer: t => (t < 12_000 ? 200 : 500)
  },
  {
    server: 'Serverless cold start (first answer after 25 s)',
    windowMs: 30_000,
    answer: ok,
    wakesAtMs: 25_000
  },
  { server: 'health routes off (404)', windowMs: 30_000, answer: () => 404 },
  { server: 'never 2xx (500)', windowMs: 30_000, answer: () => 500 }
]

export interface HealthRow {
  scenario: Scenario
  health: HealthResult['health']
  probes: number
  elapsedMs: number
}

export async function healthRows(): Promise<HealthRow[]> {
  const rows: HealthRow[] = []
  for (const scenario of SCENARIOS) {
    let t = 0
    const transport = async (_req: ProbeRequest): Promise<ProbeResponse> => {
      t += PROBE_LATENCY_MS / 2
      // The first request to a sleeping server waits for its wake-up.
      t = Math.max(t, scenario.wakesAtMs ?? 0)
      const status = scenario.answer(t)
      t += PROBE_LATENCY_MS / 2
      return { status, body: status === 200 ? '{"ok":true}' : '' }
    }
    const r = await checkHealth({
      url: 'https://agent.example.com',
      path: '/ok',
      apiKey: 'bench-key',
      deadline: DEADLINE_MS,
      windowMs: scenario.windowMs,
      redactor: new Redactor([]),
      clock: {
        now: () => t,
        sleep: async (ms: number) => {
          t += ms
        }
      },
      transport,
      ...(scenario.wakesAtMs !== undefined ? { wakes: true } : {})
    })
    rows.push({ scenario, health: r.health, probes: r.probes, elapsedMs: r.elapsedMs })
  }
  return rows
}

export function healthTable(rows: HealthRow[]): string {
  return table(
    ['agent server', 'health-check-window', 'verdict', 'probes', 'time added after DEPLOYED'],
    rows.map(r => [
      r.scenario.server,
      formatDuration(r.scenario.windowMs),
      r.health,
      r.probes,
      dur(r.elapsedMs)
    ])
  )
}

export const HEALTH_INTERVAL_S = DEFAULT_PROBE_INTERVAL_MS / 1000
export const HEALTH_DEADLINE = formatDuration(DEADLINE_MS)
