// Progress while the wait polls: a line at least every 30 s of the run's clock with the status and
// the time waited, and the build's own lines as they come (one log read per poll at most), made
// inert. Everything runs on a virtual clock: no assertion depends on the machine's speed.
import { describe, expect, test } from '@jest/globals'
import { ApiError } from '../../../../src/control-plane/errors.ts'
import type { Revision, RevisionLogPage } from '../../../../src/control-plane/schema.ts'
import type { RevisionLogsOptions } from '../../../../src/control-plane/client-options.ts'
import { BuildLogFollower, MAX_MISSES } from '../../../../src/commands/deploy/steps/build-log.ts'
import { waitForRevision, type RevisionReader } from '../../../../src/commands/deploy/steps/wait.ts'
import { ACTION_SAY } from '../../../builders.ts'

const DEP = '11111111-1111-4111-8111-111111111111'
const REV = '22222222-2222-4222-8222-222222222222'

/** A virtual clock and a revision whose status follows a timeline (ms -> status). */
function scripted(timeline: [number, string][]) {
  let t = 0
  const client: RevisionReader = {
    async getRevision(): Promise<Revision> {
      let status = timeline[0]![1]
      for (const [at, s] of timeline) if (t >= at) status = s
      return { id: REV, status } as Revision
    }
  }
  const clock = { now: () => t, sleep: async (ms: number) => void (t += ms) }
  return { client, clock, now: () => t }
}

const base = { deploymentId: DEP, revisionId: REV, timeoutMs: 30 * 60_000 }

/** Every line the wait said, with when: statuses and progress. */
function said() {
  const lines: { at: number; text: string }[] = []
  return {
    lines,
    hooks: (now: () => number) => ({
      onStatus: (s: string, ms: number) => lines.push({ at: now(), text: `${s} after ${ms}` }),
      onProgress: (s: string | undefined, ms: number) =>
        lines.push({ at: now(), text: `Still ${s} after ${ms}` })
    })
  }
}

describe('progress lines while waiting', () => {
  test('a 90 s build says where it is at least every 30 s, even with a 60 s poll-interval', async () => {
    const s = scripted([
      [0, 'QUEUED'],
      [5000, 'BUILDING'],
      [95_000, 'DEPLOYING'],
      [100_000, 'DEPLOYED']
    ])
    const log = said()
    const r = await waitForRevision({
      ...base,
      ...s,
      pollIntervalMs: 60_000,
      ...log.hooks(s.now)
    })
    expect(r.outcome).toBe('deployed')
    const progress = log.lines.filter(l => l.text.startsWith('Still'))
    expect(progress.length).toBeGreaterThanOrEqual(2)
    for (const p of progress) expect(p.text).toMatch(/^Still BUILDING after \d+$/)
    // Never more than 30 s without a line, from the start to DEPLOYED.
    const times = [0, ...log.lines.map(l => l.at), r.elapsedMs]
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(30_000)
    // The time said is the time waited.
    for (const p of progress) expect(p.text).toBe(`Still BUILDING after ${p.at}`)
  })

  test('no progress line while the status keeps changing within 30 s', async () => {
    const s = scripted([
      [0, 'QUEUED'],
      [10_000, 'BUILDING'],
      [35_000, 'DEPLOYING'],
      [50_000, 'DEPLOYED']
    ])
    const log = said()
    await waitForRevision({ ...base, ...s, pollIntervalMs: 15_000, ...log.hooks(s.now) })
    expect(log.lines.filter(l => l.text.startsWith('Still'))).toEqual([])
  })
})

/** A build log that grows with the clock: line n at n seconds, ids stable. */
function growingLog(now: () => number, lines: string[]) {
  const reads: RevisionLogsOptions[] = []
  const reader = {
    async getRevisionLogs(
      _d: string,
      _r: string,
      q: RevisionLogsOptions
    ): Promise<RevisionLogPage> {
      reads.push(q)
      const upTo = Math.floor(now() / 1000)
      const all = lines.slice(0, upTo + 1).map((message, n) => ({
        id: `${REV}:build:${n}`,
        timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
        message,
        level: n === 2 ? 'WARNING' : 'INFO'
      }))
      const from = q.start_time ? Date.parse(q.start_time) : -Infinity
      const logs = all.filter(l => Date.parse(l.timestamp) >= from).slice(0, q.limit ?? 50)
      return { logs, next_offset: null }
    }
  }
  return { reader, reads }
}

describe('the build log while it builds', () => {
  test('each line once, in order, as it comes; at most one read per poll; made inert', async () => {
    const s = scripted([
      [0, 'QUEUED'],
      [2000, 'BUILDING'],
      [40_000, 'DEPLOYING'],
      [45_000, 'DEPLOYED']
    ])
    const build = Array.from({ length: 40 }, (_, n) => `step ${n}`)
    build[5] = '::error::forged \u001b[31mred\u001b[0m'
    const log = growingLog(s.now, build)
    const follower = new BuildLogFollower(log.reader, { deploymentId: DEP, revisionId: REV }, s.now)
    const shown: string[] = []
    let polls = 0
    const r = await waitForRevision({
      ...base,
      ...s,
      pollIntervalMs: 15_000,
      afterPoll: async (status, deadline) => {
        polls++
        shown.push(...(await follower.read(status, deadline)).lines)
      }
    })
    expect(r.outcome).toBe('deployed')
    // Every line of the build, once and in order, the last ones from the read after the build.
    expect(shown).toHaveLength(40)
    expect(shown[0]).toBe('build | step 0')
    expect(shown[2]).toBe('build | WARNING step 2')
    expect(shown.at(-1)).toBe('build | step 39')
    // A line cannot be a workflow command, nor colour the terminal.
    expect(shown[5]).toBe('build | : :error: :forged red')
    expect(follower.reads).toBeLessThanOrEqual(polls)
    // Read from where the last read ended, not from the start.
    expect(log.reads.slice(1).every(q => q.start_time !== undefined)).toBe(true)
  })

  test('nothing is read before the build or after the read that follows it', async () => {
    const s = scripted([[0, 'QUEUED']])
    const log = growingLog(s.now, ['a'])
    const f = new BuildLogFollower(log.reader, { deploymentId: DEP, revisionId: REV }, s.now)
    expect((await f.read('QUEUED', 1e9)).lines).toEqual([])
    expect(f.reads).toBe(0)
    await f.read('BUILDING', 1e9)
    await f.read('DEPLOYING', 1e9)
    await f.read('DEPLOYING', 1e9)
    expect(f.reads).toBe(2)
  })

  test('a service with no build log: said once, then no more reads', async () => {
    let t = 0
    let reads = 0
    const reader = {
      async getRevisionLogs(): Promise<RevisionLogPage> {
        reads++
        const path = `/v2/deployments/${DEP}/revisions/${REV}/logs`
        const ctx = {
          operation: 'get revision logs',
          method: 'GET',
          path,
          say: ACTION_SAY
        } as const
        throw new ApiError(ctx, 404, 'Not Found')
      }
    }
    const f = new BuildLogFollower(reader, { deploymentId: DEP, revisionId: REV }, () => t)
    const stops: string[] = []
    for (let i = 0; i < 10; i++) {
      t += 2000
      const r = await f.read('BUILDING', 1e9)
      if (r.stopped) stops.push(r.stopped)
    }
    expect(reads).toBe(MAX_MISSES)
    expect(stops).toEqual([
      'The build log is not followed any more: the control plane gives no build log for this revision.'
    ])
  })
})
