// The health gate under probe faults: the agent server (emulator/agents/servers.ts) times out, resets the
// connection, answers 5xx in bursts or slowly, before or after its first 2xx. Then the checks of
// the new revision under 5xx on /assistants/search and /runs/wait, passing and persisting. Each case deploys
// once through the bundle and judges from the agent server's probe log and the process itself:
// the verdict, a bounded number of probes and a bounded time, and nothing sent to the control
// plane for the gate.
import { describe } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { AgentAppSpec, AgentHealthSpec } from '../../emulator/server.ts'
import { uniqueName } from '../e2e/harness.ts'
import { mainAtPushCommit } from '../e2e/harness.ts'
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
  /** The error never says this. */
  never?: RegExp
  /** The job log says this. */
  logs?: RegExp
  /** More inputs of the deploy (`deployment-type`). */
  inputs?: Record<string, string>
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
  },
  {
    name: 'Serverless, a cold start of 503s: healthy, the wake-up said as it happens with its bound',
    agent: { sleepAfterMs: 60_000, wakeMs: 4000, whileWaking: '503' },
    inputs: { 'deployment-type': 'serverless' },
    health: 'healthy',
    // At most the time left to the 30 s timeout.
    logs: /Serverless deployment waking up, waited \d+s of at most \d+s\./
  },
  {
    name: 'Serverless, 503s carrying the server’s own error for good: unhealthy, never "did not wake up"',
    agent: { health: 'failing', status: 503, body: 'database unreachable' },
    inputs: { 'deployment-type': 'serverless' },
    health: 'unhealthy',
    says: /an error of its own, so it is awake.*database unreachable/,
    never: /did not wake up|waking/
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
            timeout: `${TIMEOUT_MS / 1000}s`,
            // Always on: a Serverless server (a create's default) takes a 503 for a wake-up.
            'deployment-type': 'dedicated',
            ...spec.inputs
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
        if (spec.never) c.check(!spec.never.test(errorText(r)), `the error says: ${errorText(r)}`)
        if (spec.logs) c.check(spec.logs.test(r.stdout), `the log never says ${String(spec.logs)}`)
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

interface CheckSpec {
  name: string
  app: AgentAppSpec
  /** `passed`: exit 0 and smoke=passed; else the error names this. */
  says?: RegExp
  /** Requests of each check route, at least and at most. */
  tries: { search: [number, number]; runs: [number, number] }
}

/** A persistent fault is tried again about every interval until the timeout, no more. */
const MAX_TRIES = TIMEOUT_MS / INTERVAL_MS + 1

const CHECK_SPECS: CheckSpec[] = [
  {
    name: 'one 503 on /assistants/search and one on /runs/wait: each tried again, the deploy passes',
    app: { assistantsFailFirst: 1, runs: { failFirst: 1 } },
    tries: { search: [2, 2], runs: [2, 2] }
  },
  {
    name: 'three 502 on /runs/wait, then the run: passes',
    app: { failStatus: 502, runs: { failFirst: 3 } },
    tries: { search: [1, 1], runs: [4, 4] }
  },
  {
    name: 'a burst of 504 on /assistants/search: passes',
    app: { failStatus: 504, assistantsFailFirst: 4 },
    tries: { search: [5, 5], runs: [1, 1] }
  },
  {
    name: '503 on /assistants/search for good: fails at the timeout naming the 503, never "did not load"',
    app: { assistantsFailFirst: 10_000 },
    says: /title=Graphs not listed::.*\/assistants\/search answered 503 on \d+ tries/,
    tries: { search: [2, MAX_TRIES], runs: [0, 0] }
  },
  {
    name: '500 on /runs/wait for good: the case fails at its timeout naming the 500',
    app: { failStatus: 500, runs: { failFirst: 10_000 } },
    says: /smoke case "echo" failed \(\/runs\/wait answered 500 on \d+ tries over/,
    tries: { search: [1, 1], runs: [2, MAX_TRIES] }
  }
]

/** A workspace with a graph config of `agent` and one smoke case (no expectation). */
function checkedWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-rel-ws-'))
  writeFileSync(join(dir, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}')
  writeFileSync(
    join(dir, 'smoke.yaml'),
    '- {name: echo, graph: agent, input: {q: 1}, timeout: 20s}\n'
  )
  return dir
}

describe('check faults', () => {
  for (const spec of CHECK_SPECS)
    reliabilityCase(GROUP, `${spec.name}; bounded tries and time`, c =>
      withEmulator({}, async emu => {
        const name = uniqueName('checks')
        // main builds the event's commit: the workspace is what was built, so its graphs are checked.
        mainAtPushCommit(emu)
        emu.agents.scriptApp('*', spec.app)
        const r = await c.run({
          inputs: deployInputs(c, emu, name, {
            'health-check': 'true',
            'health-check-window': '0',
            'smoke-test': 'smoke.yaml',
            timeout: `${TIMEOUT_MS / 1000}s`
          }),
          env: { GITHUB_WORKSPACE: checkedWorkspace() }
        })
        const all = emu.agents.probes()
        const count = (path: string) => all.filter(p => p.path === path).length
        const [search, runs] = [count('/assistants/search'), count('/runs/wait')]
        c.note(`${search} /assistants/search, ${runs} /runs/wait, ${(r.ms / 1000).toFixed(1)} s`)
        const within = (n: number, [lo, hi]: [number, number]) => n >= lo && n <= hi
        c.check(within(search, spec.tries.search), `${search} /assistants/search requests`)
        c.check(within(runs, spec.tries.runs), `${runs} /runs/wait requests`)
        if (spec.says) {
          c.check(r.code === 1, `exit ${r.code}`)
          c.check(spec.says.test(errorText(r)), `the error says: ${errorText(r)}`)
          c.check(!/did not load/.test(errorText(r)), `the error blames the graph: ${errorText(r)}`)
        } else {
          c.check(r.code === 0, `exit ${r.code}: ${errorText(r)}`)
          c.check(r.outputs.smoke === 'passed', `smoke=${r.outputs.smoke}`)
        }
        c.check(
          all.every(p => p.key === 'valid'),
          'a request without the key'
        )
        const bound = SETUP_MS + TIMEOUT_MS
        c.check(r.ms < bound, `the run took ${r.ms} ms, more than ${bound} ms`)
        c.tally(emu, name, { deployments: 1, revisions: 1 })
      })
    )
})
