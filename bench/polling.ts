// Polling, simulated: the action's own `waitForRevision` (with its real `nextPause`) and fixed
// pollers, against scripted stage timelines on a virtual clock. No real waiting: `sleep` moves
// the clock, and each request takes `latencyMs` (the status is read half-way, when the request
// reaches the service). Time 0 is the revision's creation; every poller starts when the create's
// answer is back (latency / 2 later) and polls the same revision.
import type { Revision } from '../src/control-plane/schema.ts'
import {
  DEFAULT_CADENCE,
  waitForRevision,
  type Cadence,
  type RevisionReader
} from '../src/commands/deploy/steps/wait.ts'
import { BuildLogFollower } from '../src/commands/deploy/steps/build-log.ts'
import { table } from './markdown.ts'
import { dur, median, pct } from './stats.ts'

export interface Stage {
  status: string
  ms: number
}

export interface Timeline {
  /** Duration class: `5 s`, `60 s`, `15 min`, `1 h`. */
  cls: string
  label: string
  stages: Stage[]
}

const s = (status: string, seconds: number): Stage => ({ status, ms: seconds * 1000 })

/** Several realistic timelines per class: a queue, a long build, a short deploy. */
export const TIMELINES: Timeline[] = [
  {
    cls: '5 s',
    label: 'Q1 B2.5 D1.5',
    stages: [s('QUEUED', 1), s('BUILDING', 2.5), s('DEPLOYING', 1.5)]
  },
  {
    cls: '5 s',
    label: 'C0.2 Q0.3 AB0.3 B2.5 AD0.2 D1.5',
    stages: [
      s('CREATING', 0.2),
      s('QUEUED', 0.3),
      s('AWAITING_BUILD', 0.3),
      s('BUILDING', 2.5),
      s('AWAITING_DEPLOY', 0.2),
      s('DEPLOYING', 1.5)
    ]
  },
  {
    cls: '5 s',
    label: 'Q0.5 B3.8 D0.7',
    stages: [s('QUEUED', 0.5), s('BUILDING', 3.8), s('DEPLOYING', 0.7)]
  },
  {
    cls: '60 s',
    label: 'Q5 AB2 B40 AD3 D10',
    stages: [
      s('QUEUED', 5),
      s('AWAITING_BUILD', 2),
      s('BUILDING', 40),
      s('AWAITING_DEPLOY', 3),
      s('DEPLOYING', 10)
    ]
  },
  {
    cls: '60 s',
    label: 'Q2 B50 D8',
    stages: [s('QUEUED', 2), s('BUILDING', 50), s('DEPLOYING', 8)]
  },
  {
    cls: '60 s',
    label: 'Q15 B30 AD5 D10',
    stages: [s('QUEUED', 15), s('BUILDING', 30), s('AWAITING_DEPLOY', 5), s('DEPLOYING', 10)]
  },
  {
    cls: '15 min',
    label: 'Q30 AB10 B720 AD30 D110',
    stages: [
      s('QUEUED', 30),
      s('AWAITING_BUILD', 10),
      s('BUILDING', 720),
      s('AWAITING_DEPLOY', 30),
      s('DEPLOYING', 110)
    ]
  },
  {
    cls: '15 min',
    label: 'Q5 B840 D55',
    stages: [s('QUEUED', 5), s('BUILDING', 840), s('DEPLOYING', 55)]
  },
  {
    cls: '15 min',
    label: 'Q120 B600 AD60 D120',
    stages: [s('QUEUED', 120), s('BUILDING', 600), s('AWAITING_DEPLOY', 60), s('DEPLOYING', 120)]
  },
  {
    cls: '1 h',
    label: 'Q120 B3200 D280',
    stages: [s('QUEUED', 120), s('BUILDING', 3200), s('DEPLOYING', 280)]
  },
  {
    cls: '1 h',
    label: 'Q30 AB30 B3300 AD60 D180',
    stages: [
      s('QUEUED', 30),
      s('AWAITING_BUILD', 30),
      s('BUILDING', 3300),
      s('AWAITING_DEPLOY', 60),
      s('DEPLOYING', 180)
    ]
  },
  {
    cls: '1 h',
    label: 'Q600 B2700 D300',
    stages: [s('QUEUED', 600), s('BUILDING', 2700), s('DEPLOYING', 300)]
  }
]

export const CLASSES = ['5 s', '60 s', '15 min', '1 h']

export const deployTime = (stages: readonly Stage[]): number =>
  stages.reduce((sum, st) => sum + st.ms, 0)

export function statusAt(stages: readonly Stage[], t: number): string {
  let end = 0
  for (const st of stages) {
    end += st.ms
    if (t < end) return st.status
  }
  return 'DEPLOYED'
}

/** The DEPLOYED moment moved later by `deltaMs` (the last stage lasts longer). */
export function shifted(stages: readonly Stage[], deltaMs: number): Stage[] {
  const out = stages.map(st => ({ ...st }))
  out[out.length - 1]!.ms += deltaMs
  return out
}

/** The goal: DEPLOYED known within max(2 s, 3% of the deploy time). */
export const allowedDelay = (deployMs: number): number => Math.max(2000, 0.03 * deployMs)

export interface SimRun {
  deployMs: number
  /** When the answer saying DEPLOYED was back. */
  knownMs: number
  delayMs: number
  requests: number
  /** When each poll read the status (ms since creation). */
  reads: number[]
  /** Reads of the build log as the action follows it (one per poll while building, one after). */
  logReads: number
}

export type Poller =
  | {
      kind: 'action'
      name: string
      cadence: Cadence
      pollIntervalMs: number
    }
  | { kind: 'fixed'; name: string; everyMs: number }

export const LATENCY_MS = 50
export const ACTION_POLL_INTERVAL_MS = 15_000

export const actionPoller = (
  cadence: Cadence = DEFAULT_CADENCE,
  name = 'this action',
  pollIntervalMs = ACTION_POLL_INTERVAL_MS
): Poller => ({ kind: 'action', name, cadence, pollIntervalMs })

export const FIXED_POLLERS: Poller[] = [
  { kind: 'fixed', name: 'every 60 s', everyMs: 60_000 },
  { kind: 'fixed', name: 'every 5 s', everyMs: 5000 },
  { kind: 'fixed', name: 'every 3 s', everyMs: 3000 }
]
export const EVERY_5_S = FIXED_POLLERS[1]!

function revision(status: string): Revision {
  return {
    id: '00000000-0000-4000-8000-000000000002',
    status,
    created_at: null,
    updated_at: null,
    source: 'codehost',
    source_revision_config: null
  } as Revision
}

export interface SimOptions {
  latencyMs?: number
  /** When the poller starts, in ms after the revision's creation (default latency / 2). */
  startMs?: number
}

export async function simulate(
  poller: Poller,
  stages: readonly Stage[],
  o: SimOptions = {}
): Promise<SimRun> {
  const latency = o.latencyMs ?? LATENCY_MS
  const start = o.startMs ?? latency / 2
  const deployMs = deployTime(stages)
  const reads: number[] = []
  if (poller.kind === 'fixed') {
    for (let k = 0; ; k++) {
      const read = start + k * poller.everyMs + latency / 2
      reads.push(read)
      if (statusAt(stages, read) === 'DEPLOYED') {
        const knownMs = read + latency / 2
        return {
          deployMs,
          knownMs,
          delayMs: knownMs - deployMs,
          requests: k + 1,
          reads,
          logReads: 0
        }
      }
    }
  }
  let t = start
  const client: RevisionReader = {
    getRevision: async () => {
      t += latency / 2
      reads.push(t)
      const seen = statusAt(stages, t)
      t += latency / 2
      return revision(seen)
    }
  }
  const sleep = async (wait: number) => void (t += wait)
  // The build log, followed as the deploy does: each read costs a request's latency.
  const logs = new BuildLogFollower(
    {
      getRevisionLogs: async () => {
        t += latency
        return { logs: [], next_offset: null }
      }
    },
    { deploymentId: '00000000-0000-4000-8000-000000000001', revisionId: '' },
    () => t
  )
  const result = await waitForRevision({
    client,
    deploymentId: '00000000-0000-4000-8000-000000000001',
    revisionId: '00000000-0000-4000-8000-000000000002',
    timeoutMs: 6 * 3600_000,
    pollIntervalMs: poller.pollIntervalMs,
    cadence: poller.cadence,
    clock: { now: () => t, sleep },
    afterPoll: async (status, deadline) => void (await logs.read(status, deadline))
  })
  if (result.outcome !== 'deployed') throw new Error(`simulation ended ${result.outcome}`)
  const { polls: requests } = result
  return { deployMs, knownMs: t, delayMs: t - deployMs, requests, reads, logReads: logs.reads }
}

/**
 * How far the DEPLOYED moment is swept: a fixed poller's period (its phase is uniform over it), and
 * for the action the delay the goal allows (any schedule that meets the goal reads at least once in
 * such a window, so a violation cannot hide outside it).
 */
const sweepWindow = (p: Poller, deployMs: number): number =>
  p.kind === 'fixed' ? p.everyMs : allowedDelay(deployMs)

export const GRID_POINTS = 120

/**
 * The phase sweep: DEPLOYED moved later by 0..window in even steps, plus the adversarial moments
 * 1 ms after each read inside the window (DEPLOYED just missed by a poll), found from a run in
 * which the revision stays in its last stage for the whole window. Polls before DEPLOYED do not
 * depend on when it comes, so this finds the exact worst case in the window.
 */
export async function sweepOffsets(
  poller: Poller,
  stages: readonly Stage[],
  gridPoints = GRID_POINTS
): Promise<number[]> {
  const deploy = deployTime(stages)
  const window = sweepWindow(poller, deploy)
  const probe = await simulate(poller, shifted(stages, window))
  const offsets = new Set<number>()
  for (let i = 0; i < gridPoints; i++) offsets.add(Math.round((i * window) / gridPoints))
  for (const read of probe.reads) {
    const delta = read + 1 - deploy
    if (delta >= 0 && delta < window) offsets.add(delta)
  }
  return [...offsets].sort((a, b) => a - b)
}

export interface Point {
  timeline: Timeline
  deltaMs: number
  run: SimRun
  /** Requests of the every-5-s poller for the same deploy. */
  every5Requests: number
}

export async function sweep(
  poller: Poller,
  timeline: Timeline,
  gridPoints = GRID_POINTS
): Promise<Point[]> {
  const points: Point[] = []
  for (const deltaMs of await sweepOffsets(poller, timeline.stages, gridPoints)) {
    const stages = shifted(timeline.stages, deltaMs)
    const run = await simulate(poller, stages)
    const every5Requests = (await simulate(EVERY_5_S, stages)).requests
    points.push({ timeline, deltaMs, run, every5Requests })
  }
  return points
}

export interface Row {
  cls: string
  poller: string
  points: Point[]
  delayMedian: number
  delayWorst: number
  /** The worst delay as a share of what the goal allows for that deploy. */
  worstShareOfAllowed: number
  requestsMedian: number
  requestsMax: number
  /** The most build-log reads of one deploy (the action's; none for a fixed poller). */
  logReadsMax: number
  /** Worst (highest) ratio of requests to the every-5-s poller's for the same deploy. */
  vsEvery5Worst: number
  delayGoalMet: boolean
}

export async function pollingRows(
  pollers: Poller[],
  timelines: Timeline[] = TIMELINES,
  gridPoints = GRID_POINTS
): Promise<Row[]> {
  const rows: Row[] = []
  for (const cls of CLASSES) {
    for (const poller of pollers) {
      const points: Point[] = []
      for (const tl of timelines.filter(t => t.cls === cls))
        points.push(...(await sweep(poller, tl, gridPoints)))
      const delays = points.map(p => p.run.delayMs)
      const requests = points.map(p => p.run.requests)
      const shares = points.map(p => p.run.delayMs / allowedDelay(p.run.deployMs))
      rows.push({
        cls,
        poller: poller.name,
        points,
        delayMedian: median(delays),
        delayWorst: Math.max(...delays),
        worstShareOfAllowed: Math.max(...shares),
        requestsMedian: median(requests),
        requestsMax: Math.max(...requests),
        logReadsMax: Math.max(...points.map(p => p.run.logReads)),
        vsEvery5Worst: Math.max(...points.map(p => p.run.requests / p.every5Requests)),
        delayGoalMet: shares.every(x => x <= 1)
      })
    }
  }
  return rows
}

export const isLong = (cls: string): boolean => cls === '15 min' || cls === '1 h'

export function pollingTable(rows: Row[]): string {
  return table(
    [
      'Deploy',
      'Poller',
      'Delay median',
      'Delay worst',
      'Allowed',
      'Worst / allowed',
      'Requests median',
      'Requests max',
      'Build-log reads max',
      'Requests / every-5-s (worst)'
    ],
    rows.map(r => [
      r.cls,
      r.poller,
      dur(r.delayMedian),
      dur(r.delayWorst),
      dur(allowedDelay(nominal(r.cls))),
      `${r.worstShareOfAllowed.toFixed(2)}${r.delayGoalMet ? '' : ' ✗'}`,
      r.requestsMedian,
      r.requestsMax,
      r.poller.startsWith('every') ? '–' : r.logReadsMax,
      pct(r.vsEvery5Worst, 1)
    ])
  )
}

/** Per timeline, for one poller: the sweep's extremes. */
export function timelineTable(rows: Row[]): string {
  const out: (string | number)[][] = []
  for (const r of rows) {
    for (const tl of TIMELINES.filter(t => t.cls === r.cls)) {
      const pts = r.points.filter(p => p.timeline === tl)
      const delays = pts.map(p => p.run.delayMs)
      const base = pts.find(p => p.deltaMs === 0)!
      out.push([
        r.cls,
        tl.label,
        dur(deployTime(tl.stages)),
        pts.length,
        dur(base.run.delayMs),
        dur(Math.max(...delays)),
        `${Math.min(...pts.map(p => p.run.requests))}–${Math.max(...pts.map(p => p.run.requests))}`,
        `${Math.min(...pts.map(p => p.every5Requests))}–${Math.max(...pts.map(p => p.every5Requests))}`,
        pct(Math.max(...pts.map(p => p.run.requests / p.every5Requests)), 1)
      ])
    }
  }
  return table(
    [
      'Deploy',
      'Timeline (s)',
      'Deploy time',
      'Sweep points',
      'Delay at offset 0',
      'Delay worst',
      'Requests',
      'Every-5-s requests',
      'Ratio worst'
    ],
    out
  )
}

export function nominal(cls: string): number {
  return { '5 s': 5000, '60 s': 60_000, '15 min': 900_000, '1 h': 3_600_000 }[cls] ?? NaN
}

/** A deterministic pseudo-random generator (mulberry32), so that the random timelines repeat. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Random realistic timelines of one class: a queue of 2–25% of the deploy, sometimes an
 * AWAITING_BUILD of up to 5%, a build, and a deploy stage of 10–30% (part of it AWAITING_DEPLOY
 * half of the time). Used to check that a cadence is not tuned to the named timelines only.
 */
export function randomTimelines(cls: string, count: number, random: () => number): Timeline[] {
  const total = nominal(cls)
  const out: Timeline[] = []
  for (let i = 0; i < count; i++) {
    const between = (lo: number, hi: number) => lo + (hi - lo) * random()
    const queue = between(0.02, 0.25)
    const awaitingBuild = random() < 0.5 ? between(0, 0.05) : 0
    const post = between(0.1, 0.3)
    const awaitingDeploy = random() < 0.5 ? post * between(0, 0.3) : 0
    const build = 1 - queue - awaitingBuild - post
    const stages: Stage[] = [
      { status: 'QUEUED', ms: queue * total },
      { status: 'AWAITING_BUILD', ms: awaitingBuild * total },
      { status: 'BUILDING', ms: build * total },
      { status: 'AWAITING_DEPLOY', ms: awaitingDeploy * total },
      { status: 'DEPLOYING', ms: (post - awaitingDeploy) * total }
    ]
      .filter(st => st.ms > 0)
      .map(st => ({ ...st, ms: Math.round(st.ms) }))
    out.push({ cls, label: `random ${i + 1}`, stages })
  }
  return out
}

export interface RobustnessRow {
  cls: string
  poller: string
  timelines: number
  delayGoalMet: number
  requestGoalMet: number | undefined
  worstShareOfAllowed: number
  vsEvery5Worst: number
}

/** Each poller over `count` random timelines per class, with a coarser sweep. */
export async function robustness(
  pollers: Poller[],
  count: number,
  seed = 6
): Promise<RobustnessRow[]> {
  const random = seeded(seed)
  const timelines = CLASSES.flatMap(cls => randomTimelines(cls, count, random))
  const rows: RobustnessRow[] = []
  for (const cls of CLASSES) {
    for (const poller of pollers) {
      let delayOk = 0
      let requestOk = 0
      let worstShare = 0
      let worstRatio = 0
      for (const tl of timelines.filter(t => t.cls === cls)) {
        const points = await sweep(poller, tl, 24)
        const share = Math.max(...points.map(p => p.run.delayMs / allowedDelay(p.run.deployMs)))
        const ratio = Math.max(...points.map(p => p.run.requests / p.every5Requests))
        if (share <= 1) delayOk++
        if (ratio <= 0.4) requestOk++
        worstShare = Math.max(worstShare, share)
        worstRatio = Math.max(worstRatio, ratio)
      }
      rows.push({
        cls,
        poller: poller.name,
        timelines: count,
        delayGoalMet: delayOk,
        requestGoalMet: isLong(cls) ? requestOk : undefined,
        worstShareOfAllowed: worstShare,
        vsEvery5Worst: worstRatio
      })
    }
  }
  return rows
}

export function robustnessTable(rows: RobustnessRow[]): string {
  return table(
    [
      'Deploy',
      'Poller',
      'Delay goal met',
      'Worst delay / allowed',
      'Request goal met',
      'Requests / every-5-s (worst)'
    ],
    rows.map(r => [
      r.cls,
      r.poller,
      `${r.delayGoalMet}/${r.timelines}`,
      r.worstShareOfAllowed.toFixed(2),
      r.requestGoalMet === undefined ? '–' : `${r.requestGoalMet}/${r.timelines}`,
      pct(r.vsEvery5Worst, 1)
    ])
  )
}
