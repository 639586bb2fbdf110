// The cost of the checks of the new revision, simulated like the health gate's (health.ts): the
// action's own gate (`checkHealth` with the served-revision check alongside, served-check.ts) and
// its graphs and smoke cases (revision-checks.ts), through its own AgentCall (agent-probe.ts),
// against scripted agent servers on a virtual clock where every request takes PROBE_LATENCY_MS.
// Timers are events: the earliest pending one fires when nothing else can run, so a slow case
// races its timeout as it would in real time, without waiting.
import { Redactor } from '../src/control-plane/redact.ts'
import { checkRevision } from '../src/health/revision-checks.ts'
import { servedCheck } from '../src/health/served-check.ts'
import type { FlowLog } from '../src/log.ts'
import { formatDuration } from '../src/duration.ts'
import { checkHealth } from '../src/health/window.ts'
import type { ProbeRequest, ProbeResponse } from '../src/health/probe.ts'
import { agentProbe } from '../src/health/verify/agent-probe.ts'
import type { SmokeCase } from '../src/inputs/smoke-cases.ts'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROBE_LATENCY_MS } from './health.ts'
import { table } from './markdown.ts'
import { dur } from './stats.ts'

const WINDOW_MS = 30_000
const DEADLINE_MS = 25 * 60_000
const THIS = 'rev-new'
const DEPLOYMENT = 'dep-1'

/** A clock whose sleeps are events: the earliest fires once nothing else can run. */
class VirtualTime {
  t = 0
  private timers: { at: number; fire: () => void }[] = []
  private queued = false
  now = () => this.t
  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'))
      const timer = { at: this.t + ms, fire: resolve }
      this.timers.push(timer)
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter(x => x !== timer)
        reject(new Error('aborted'))
      })
      this.kick()
    })
  private kick(): void {
    if (this.queued) return
    this.queued = true
    setImmediate(() => {
      this.queued = false
      this.timers.sort((a, b) => a.at - b.at)
      const next = this.timers.shift()
      if (!next) return
      this.t = Math.max(this.t, next.at)
      next.fire()
      this.kick()
    })
  }
}

interface Server {
  label: string
  /** The revision `/info` names at time t. */
  served: (t: number) => string
  graphs: string[]
  /** How long a run takes. */
  runMs: number
  /** The config's graphs and the cases (none: that check is off). */
  config: string[]
  cases: SmokeCase[]
}

const CASE: SmokeCase = {
  name: 'echo',
  graph: 'agent',
  input: { q: 'ping' },
  expect: {},
  timeoutMs: 60_000
}
const fresh = () => THIS
const SERVERS: Server[] = [
  {
    label: 'health-check only (today)',
    served: fresh,
    graphs: ['agent'],
    runMs: 0,
    config: [],
    cases: []
  },
  {
    label: 'this revision from the start, 1 graph, 1 case',
    served: fresh,
    graphs: ['agent'],
    runMs: 500,
    config: ['agent'],
    cases: [CASE]
  },
  {
    label: 'this revision from the start, 2 graphs, 2 cases',
    served: fresh,
    graphs: ['agent', 'planner'],
    runMs: 500,
    config: ['agent', 'planner'],
    cases: [CASE, { ...CASE, name: 'plan', graph: 'planner' }]
  },
  {
    label: 'stale for 30 s (the previous revision drains)',
    served: t => (t < 30_000 ? 'rev-old' : THIS),
    graphs: ['agent'],
    runMs: 500,
    config: ['agent'],
    cases: [CASE]
  },
  {
    label: 'stale for ever',
    served: () => 'rev-old',
    graphs: ['agent'],
    runMs: 500,
    config: ['agent'],
    cases: [CASE]
  },
  {
    label: 'one graph missing',
    served: fresh,
    graphs: ['agent'],
    runMs: 500,
    config: ['agent', 'planner'],
    cases: [CASE]
  },
  {
    label: 'a slow case (20 s, within its 60 s)',
    served: fresh,
    graphs: ['agent'],
    runMs: 20_000,
    config: ['agent'],
    cases: [CASE]
  },
  {
    label: 'a case slower than its 60 s',
    served: fresh,
    graphs: ['agent'],
    runMs: 90_000,
    config: ['agent'],
    cases: [CASE]
  }
]

export interface VerifyRow {
  server: Server
  health: string
  served: string
  graphs: string
  smoke: string
  requests: Record<string, number>
  elapsedMs: number
}

const quiet: FlowLog = {
  info: () => {},
  warning: () => {},
  notice: () => {},
  group: (_n, fn) => fn()
}

async function simulate(s: Server): Promise<VerifyRow> {
  const vt = new VirtualTime()
  const requests: Record<string, number> = {}
  const transport = async (req: ProbeRequest): Promise<ProbeResponse> => {
    const path = req.url.pathname
    requests[path] = (requests[path] ?? 0) + 1
    await vt.sleep(PROBE_LATENCY_MS, req.signal)
    if (path === '/ok') return { status: 200, body: '{"ok":true}' }
    if (path === '/info')
      return {
        status: 200,
        body: JSON.stringify({ host: { host_revision_id: s.served(vt.t), project_id: DEPLOYMENT } })
      }
    if (path === '/assistants/search') {
      const id = (JSON.parse(req.body ?? '{}') as { graph_id: string }).graph_id
      return { status: 200, body: JSON.stringify(s.graphs.includes(id) ? [{ graph_id: id }] : []) }
    }
    await vt.sleep(s.runMs, req.signal)
    return { status: 200, body: req.body ?? '' }
  }
  const url = 'https://agent.example.com'
  const call = agentProbe({ url, apiKey: 'bench-key', vouched: [], transport })
  const served = servedCheck(call, { revisionId: THIS, deploymentId: DEPLOYMENT }, quiet)
  const checking = s.config.length > 0 || s.cases.length > 0
  const gate = await checkHealth({
    url,
    path: '/ok',
    apiKey: 'bench-key',
    deadline: DEADLINE_MS,
    windowMs: WINDOW_MS,
    redactor: new Redactor([]),
    clock: { now: vt.now, sleep: vt.sleep },
    transport,
    ...(checking ? { alongside: served.check } : {})
  })
  const verdict = checking ? served.verdict(gate.health === 'healthy') : undefined
  let graphs = '',
    smoke = ''
  if (gate.health === 'healthy' && verdict?.verdict !== 'stale' && checking) {
    const ws = mkdtempSync(join(tmpdir(), 'cpd-bench-ws-'))
    writeFileSync(
      join(ws, 'langgraph.json'),
      JSON.stringify({ graphs: Object.fromEntries(s.config.map(g => [g, 'x'])) })
    )
    const c = await checkRevision({
      call,
      graphConfigPath: 'langgraph.json',
      workspace: ws,
      cases: s.cases,
      clock: { now: vt.now, sleep: vt.sleep },
      deadline: DEADLINE_MS,
      signal: undefined,
      log: quiet,
      mask: t => t,
      intervalMs: 5000
    })
    graphs = c.graphs?.verdict ?? ''
    smoke = c.smoke?.verdict ?? (c.failure ? 'not run' : '')
  }
  return {
    server: s,
    health: gate.health,
    served: verdict?.verdict ?? '',
    graphs,
    smoke,
    requests,
    elapsedMs: vt.t
  }
}

export async function verifyRows(): Promise<VerifyRow[]> {
  const rows: VerifyRow[] = []
  for (const s of SERVERS) rows.push(await simulate(s))
  return rows
}

const n = (r: VerifyRow, path: string) => r.requests[path] ?? 0

export function verifyTable(rows: VerifyRow[]): string {
  return table(
    [
      'agent server',
      'health',
      'served-revision',
      'graphs',
      'smoke',
      '/ok',
      '/info',
      'searches',
      'runs',
      'time after DEPLOYED'
    ],
    rows.map(r => [
      r.server.label,
      r.health,
      r.served || '-',
      r.graphs || '-',
      r.smoke || '-',
      n(r, '/ok'),
      n(r, '/info'),
      n(r, '/assistants/search'),
      n(r, '/runs/wait'),
      dur(r.elapsedMs)
    ])
  )
}

/** The goal, against the server that serves this revision from the start, beside today's gate. */
export function verifyGoal(rows: VerifyRow[]): string {
  const [today, one, two] = rows as [VerifyRow, VerifyRow, VerifyRow]
  const check = (r: VerifyRow) => {
    const timeOk = r.elapsedMs <= WINDOW_MS + 2000
    const extra = n(r, '/assistants/search') + n(r, '/runs/wait')
    const budget = r.server.config.length + r.server.cases.length
    const probesOk = n(r, '/ok') === n(today, '/ok') && n(r, '/info') <= n(r, '/ok')
    return (
      `${r.server.label}: ${dur(r.elapsedMs)} (goal ≤ window + 2 s = ${formatDuration(WINDOW_MS + 2000)}: ${timeOk ? 'met' : 'missed'}); ` +
      `${n(r, '/ok')} probes as today's ${n(today, '/ok')}, each with its /info, and ${extra} requests beyond them for ${budget} graphs and cases (goal ≤ ${budget}: ${extra <= budget && probesOk ? 'met' : 'missed'})`
    )
  }
  return [one, two].map(check).join('; ')
}
