// The 5 s case in real time: the committed bundle against the emulator, whose stage durations are
// set to the simulated timeline. The measured detection delay and polls (from the emulator's
// request log, and the revision's DEPLOYED moment = created_at + the stage durations) are set
// against the simulation of the same timeline, started at the same moment after the creation.
import { startEmulator, type StageDurationsMs } from '../src/emulator/server.ts'
import { clock, describeFailure, runBundle } from './bundle.ts'
import { table } from './markdown.ts'
import {
  deployTime,
  simulate,
  shifted,
  actionPoller,
  type Stage,
  type Timeline
} from './polling.ts'
import { ms } from './stats.ts'

export interface RealRun {
  offsetMs: number
  deployMs: number
  measured: { delayMs: number; polls: number; reads: number[] }
  simulated: { delayMs: number; polls: number; reads: number[] }
  /** Largest difference between a measured read and the simulated one, in ms. */
  maxReadDiffMs: number
  /** Fitted time each poll adds to its pause, in ms. */
  overheadMs: number
  stdoutDeployedLine: string
}

function durations(stages: Stage[]): Partial<StageDurationsMs> {
  const d: Partial<StageDurationsMs> = {
    CREATING: 0,
    QUEUED: 0,
    AWAITING_BUILD: 0,
    BUILDING: 0,
    AWAITING_DEPLOY: 0,
    DEPLOYING: 0
  }
  for (const st of stages) d[st.status as keyof StageDurationsMs] = st.ms
  return d
}

export async function realTimeRuns(timeline: Timeline, offsets: number[]): Promise<RealRun[]> {
  const out: RealRun[] = []
  for (const offsetMs of offsets) {
    const stages = shifted(timeline.stages, offsetMs)
    const emu = await startEmulator({ port: 0, now: clock, stageDurationsMs: durations(stages) })
    try {
      const c = emu.credentials()
      const name = `realtime-${out.length}`
      const r = await runBundle({
        inputs: {
          'api-key': c.apiKey,
          'base-url': emu.url,
          'integration-id': c.integrationId!,
          name
        }
      })
      if (r.code !== 0 || r.outputs['revision-status'] !== 'DEPLOYED')
        throw new Error(`real-time run failed: ${describeFailure(r)}`)
      const dep = emu
        .state()
        .tenants.flatMap(t => t.deployments)
        .find(d => d.name === name)!
      const rev = dep.revisions.find(x => x.id === r.outputs['revision-id'])!
      const created = Date.parse(rev.created_at)
      const deployedAt = created + deployTime(stages)
      const polls = emu
        .requests()
        .filter(q => q.method === 'GET' && q.path.endsWith(`/revisions/${rev.id}`))
        .map(q => Date.parse(q.time) - created)
      const first = polls.find(t => t >= deployTime(stages))!
      // The model's one free parameter, the time a poll adds to its pause (round trip, parsing,
      // timer slack), is fitted from the run: the measured span of the reads minus the pauses.
      const bare = await simulate(actionPoller(), stages, { latencyMs: 0, startMs: polls[0]! })
      const n = Math.min(polls.length, bare.reads.length)
      const overhead =
        n > 1
          ? Math.max(
              0,
              (polls[n - 1]! - polls[0]! - (bare.reads[n - 1]! - bare.reads[0]!)) / (n - 1)
            )
          : 0
      const sim = await simulate(actionPoller(), stages, {
        latencyMs: overhead,
        startMs: polls[0]! - overhead / 2
      })
      const diffs = polls.map((t, i) => Math.abs(t - (sim.reads[i] ?? Infinity)))
      out.push({
        offsetMs,
        deployMs: deployedAt - created,
        measured: { delayMs: first - deployTime(stages), polls: polls.length, reads: polls },
        simulated: { delayMs: sim.delayMs, polls: sim.requests, reads: sim.reads },
        maxReadDiffMs: Math.max(...diffs),
        overheadMs: overhead,
        stdoutDeployedLine: /^DEPLOYED after .*$/m.exec(r.stdout)?.[0] ?? ''
      })
    } finally {
      await emu.close()
    }
  }
  return out
}

export function realTimeTable(runs: RealRun[]): string {
  return table(
    [
      'Deploy time',
      'Delay measured',
      'Delay simulated',
      'Polls measured',
      'Polls simulated',
      'Per-poll overhead (fitted)',
      'Largest read-time difference',
      'Reads measured (s after creation)',
      'Reads simulated'
    ],
    runs.map(r => [
      ms(r.deployMs, 0),
      ms(r.measured.delayMs, 0),
      ms(r.simulated.delayMs, 0),
      r.measured.polls,
      r.simulated.polls,
      ms(r.overheadMs, 1),
      ms(r.maxReadDiffMs, 0),
      r.measured.reads.map(t => (t / 1000).toFixed(2)).join(' '),
      r.simulated.reads.map(t => (t / 1000).toFixed(2)).join(' ')
    ])
  )
}
