// The health gate under probe faults: the agent server (emulator/agents.ts) times out, resets the
// connection, answers 5xx in bursts or slowly, before or after its first 2xx. Each case deploys
// once through the bundle and judges from the agent server's probe log and the process itself:
// the verdict, a bounded number of probes and a bounded time, and nothing sent to the control
// plane for the gate.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { AgentHealthSpec } from '../../emulator/server.ts'
import { uniqueName } from '../e2e/harness.ts'
import { deployInputs, errorText, reliabilityCase, withEmulator } from './support.ts'

const GROUP = GROUPS.health
/** The probe interval follows poll-interval (2 s in these cases); each probe waits at most 10 s. */
const INTERVAL_MS = 2000
const WINDOW_MS = 4000
const TIMEOUT_MS = 30_000
/** Start-up, the lookups and the deploy at 10x speed, with room for a loaded machine. */
const SETUP_MS = 20_000

interface Spec {
  name: string
  agent: AgentHealthSpec
  health: 'healthy' | 'unhealthy'
  /** The error names this (unhealthy cases). */
  says?: RegExp
}

const NEVER = 600_000

const SPECS: Spec[] = [
  {
    name: 'two probes time out (no answer in 10 s), then 2xx: healthy',
    agent: { sequence: ['slow', 'slow'], delayMs: NEVER },
    health: 'healthy'
  },
  {
    name: 'three resets, then 2xx: healthy',
    agent: { sequence: ['reset', 'reset', 'reset'] },
    health: 'healthy'
  },
  {
    name: 'a burst of four 503 before the first 2xx: healthy',
    agent: { failFirst: 4, status: 503 },
    health: 'healthy'
  },
  {
    name: 'slow answers (3 s each) within the probe timeout: healthy',
    agent: { health: 'slow', delayMs: 3000 },
    health: 'healthy'
  },
  {
    name: 'a 502 inside the window after the first 2xx: unhealthy at once',
    agent: { sequence: ['healthy', 'failing'], status: 502 },
    health: 'unhealthy',
    says: /probe 2 failed after the agent server had answered 2xx.*502/
  },
  {
    name: 'a reset inside the window: unhealthy at once',
    agent: { sequence: ['healthy', 'reset'] },
    health: 'unhealthy',
    says: /no answer: the connection was reset/
  },
  {
    name: 'a server that never answers: unhealthy at the timeout',
    agent: { health: 'slow', delayMs: NEVER },
    health: 'unhealthy',
    says: /no probe answered 2xx before the timeout.*no answer within 10000 ms/
  },
  {
    name: 'resets for good: unhealthy at the timeout',
    agent: { health: 'reset' },
    health: 'unhealthy',
    says: /no probe answered 2xx before the timeout.*the connection was reset/
  },
  {
    name: '500 for good: unhealthy at the timeout',
    agent: { health: 'failing', status: 500 },
    health: 'unhealthy',
    says: /no probe answered 2xx before the timeout.*500/
  }
]

/** Probes before the first 2xx (one per interval to the deadline, plus the one on it) and in the window. */
const MAX_PROBES = TIMEOUT_MS / INTERVAL_MS + 1 + WINDOW_MS / INTERVAL_MS + 1

describe('probe faults', () => {
  for (const spec of SPECS)
    reliabilityCase(GROUP, `${spec.name}; bounded probes and time`, c =>
      withEmulator({}, async emu => {
        const name = uniqueName('health')
        emu.agents.script('*', spec.agent)
        const r = await c.run({
          inputs: deployInputs(c, emu, name, {
            'health-check': 'true',
            'health-check-window': `${WINDOW_MS / 1000}s`,
            timeout: `${TIMEOUT_MS / 1000}s`
          })
        })
        const all = emu.agents.probes()
        // Each 2xx of /ok is followed by one read of /info (is it this revision?): both bounded.
        const probes = all.filter(p => p.path === '/ok')
        const infos = all.filter(p => p.path === '/info')
        c.note(`${probes.length} probes, ${infos.length} /info, ${(r.ms / 1000).toFixed(1)} s`)
        c.check(r.outputs.health === spec.health, `health=${r.outputs.health}, not ${spec.health}`)
        c.check(r.code === (spec.health === 'healthy' ? 0 : 1), `exit ${r.code}: ${errorText(r)}`)
        if (spec.says) c.check(spec.says.test(errorText(r)), `the error says: ${errorText(r)}`)
        c.check(probes.length >= 1, 'no probe was sent')
        c.check(probes.length <= MAX_PROBES, `${probes.length} probes, more than ${MAX_PROBES}`)
        c.check(
          infos.length <= probes.length,
          `${infos.length} /info reads for ${probes.length} probes`
        )
        c.check(
          all.every(p => p.key === 'valid' && (p.path === '/ok' || p.path === '/info')),
          'a probe without the key, or to another path'
        )
        // The timeout bounds the wait and the gate together, its last probe included.
        const bound = SETUP_MS + TIMEOUT_MS
        c.check(r.ms < bound, `the run took ${r.ms} ms, more than ${bound} ms`)
        // The gate talks to the agent server only: the control plane sees one deploy's requests.
        c.check(
          !emu.requests().some(q => q.path.includes('_agents')),
          'a probe reached the control plane API'
        )
        c.tally(emu, name, { deployments: 1, revisions: 1 })
      })
    )
})
