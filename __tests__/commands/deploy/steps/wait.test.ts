import { describe, expect, test } from '@jest/globals'
import { ApiError } from '../../../../src/control-plane/errors.ts'
import { type Revision, type RevisionLogPage } from '../../../../src/control-plane/schema.ts'
import {
  DEFAULT_CADENCE,
  NOT_FOUND_GRACE_MS,
  nextPause,
  waitForRevision,
  type RevisionReader
} from '../../../../src/commands/deploy/steps/wait.ts'
import { ACTION_SAY } from '../../../builders.ts'
import { type RevisionLogsOptions } from '../../../../src/control-plane/client-options.ts'
import { BuildLogFollower, MAX_MISSES } from '../../../../src/commands/deploy/steps/build-log.ts'

const DEP = '11111111-1111-4111-8111-111111111111'
const REV = '22222222-2222-4222-8222-222222222222'

/** A virtual clock and a revision whose status follows a scripted timeline (ms -> status). */
function scripted(
  timeline: [number, string][],
  opts: { failAt?: (t: number) => Error | undefined } = {}
) {
  let t = 0
  const polls: number[] = []
  const client: RevisionReader = {
    async getRevision(): Promise<Revision> {
      polls.push(t)
      const err = opts.failAt?.(t)
      if (err) throw err
      let status = timeline[0]![1]
      for (const [at, s] of timeline) if (t >= at) status = s
      return { id: REV, status }
    }
  }
  return {
    client,
    polls,
    clock: {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms
      }
    }
  }
}

const base = { deploymentId: DEP, revisionId: REV, timeoutMs: 30 * 60_000, pollIntervalMs: 15_000 }

describe('the cadence', () => {
  const c = DEFAULT_CADENCE
  test('during a build it starts at 1 s and doubles up to the poll interval', () => {
    const pauses: number[] = []
    let p = nextPause(0, true, 'BUILDING', 0, 15_000, c)
    pauses.push(p)
    for (let i = 0; i < 5; i++)
      pauses.push((p = nextPause(p, false, 'BUILDING', 600_000, 15_000, c)))
    expect(pauses).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000])
  })

  test('early in a build no pause exceeds 20% of the time waited (or 2 s)', () => {
    expect(nextPause(8000, false, 'BUILDING', 5_000, 15_000, c)).toBe(2000)
    expect(nextPause(8000, false, 'AWAITING_BUILD', 30_000, 15_000, c)).toBe(6000)
    // Queued, the build has not started: the pause backs off freely.
    expect(nextPause(8000, false, 'QUEUED', 30_000, 15_000, c)).toBe(15_000)
  })

  test('a change of status makes it fast again, relative to the time waited', () => {
    expect(nextPause(15_000, true, 'BUILDING', 30_000, 15_000, c)).toBe(1000)
    expect(nextPause(15_000, true, 'AWAITING_DEPLOY', 100_000, 15_000, c)).toBe(3000)
  })

  test('past the build no pause exceeds 3% of the time waited (or 1 s)', () => {
    expect(nextPause(8000, false, 'DEPLOYING', 50_000, 15_000, c)).toBe(1500)
    expect(nextPause(1000, false, 'DEPLOYING', 10_000, 15_000, c)).toBe(1000)
    expect(nextPause(15_000, false, 'DEPLOYING', 3_600_000, 15_000, c)).toBe(15_000)
    // An unknown status might be the last one before DEPLOYED: it is polled as tightly.
    expect(nextPause(8000, false, 'SOMETHING_NEW', 50_000, 15_000, c)).toBe(1500)
  })

  test('never pauses longer than a short poll interval', () => {
    expect(nextPause(1000, true, 'QUEUED', 0, 500, c)).toBe(500)
  })
})

describe('waitForRevision', () => {
  test('DEPLOYED is noticed within seconds of happening, and each status is logged once', async () => {
    const s = scripted([
      [0, 'QUEUED'],
      [20_000, 'BUILDING'],
      [200_000, 'DEPLOYING'],
      [230_000, 'DEPLOYED']
    ])
    const seen: string[] = []
    const r = await waitForRevision({ ...base, ...s, onStatus: st => seen.push(st) })
    expect(r.outcome).toBe('deployed')
    expect(r.status).toBe('DEPLOYED')
    expect(seen).toEqual(['QUEUED', 'BUILDING', 'DEPLOYING', 'DEPLOYED'])
    expect(r.timeline.map(e => e.status)).toEqual(seen)
    // DEPLOYED is seen within 3% of the deploy's duration.
    expect(r.elapsedMs - 230_000).toBeLessThanOrEqual(0.03 * 230_000)
    // A 4-minute deploy costs far fewer polls than a 5 s poller (48).
    expect(r.polls).toBeLessThan(30)
  })

  test('a failure status ends the wait as failed, naming the status', async () => {
    const s = scripted([
      [0, 'BUILDING'],
      [5000, 'BUILD_FAILED']
    ])
    const r = await waitForRevision({ ...base, ...s })
    expect(r).toMatchObject({ outcome: 'failed', status: 'BUILD_FAILED' })
  })

  test('SKIPPED ends the wait as superseded', async () => {
    const s = scripted([
      [0, 'QUEUED'],
      [3000, 'SKIPPED']
    ])
    expect((await waitForRevision({ ...base, ...s })).outcome).toBe('skipped')
  })

  test('an unknown status keeps it waiting, then DEPLOYED still counts', async () => {
    const s = scripted([
      [0, 'WARMING_UP_SOMETHING_NEW'],
      [10_000, 'INTERRUPTED'],
      [30_000, 'DEPLOYED']
    ])
    const r = await waitForRevision({ ...base, ...s })
    expect(r.outcome).toBe('deployed')
    expect(r.timeline.map(e => e.status)).toEqual([
      'WARMING_UP_SOMETHING_NEW',
      'INTERRUPTED',
      'DEPLOYED'
    ])
  })

  test('the deadline is hard: a revision still building times out at the timeout, polled at the end', async () => {
    const s = scripted([[0, 'BUILDING']])
    const r = await waitForRevision({ ...base, ...s, timeoutMs: 60_000, pollIntervalMs: 15_000 })
    expect(r.outcome).toBe('timeout')
    expect(r.status).toBe('BUILDING')
    expect(r.elapsedMs).toBe(60_000)
    expect(s.polls.at(-1)).toBe(60_000)
  })

  test('a timeout shorter than the first answer still reads the revision once before it ends', async () => {
    // The first answer comes 5 s after the poll is sent (a loaded runner, a slow control plane):
    // later than the 1 s timeout, but the wait reports the status it read, not a blind timeout.
    let t = 0
    const deadlines: number[] = []
    const client: RevisionReader = {
      async getRevision(_d, _r, call) {
        deadlines.push(call?.deadline ?? Infinity)
        if (t + 5000 > (call?.deadline ?? Infinity)) throw new Error('cut by the deadline')
        t += 5000
        return { id: REV, status: 'BUILDING' }
      }
    }
    const r = await waitForRevision({
      ...base,
      client,
      clock: { now: () => t, sleep: async (ms: number) => void (t += ms) },
      timeoutMs: 1000,
      pollIntervalMs: 1000
    })
    expect(r).toMatchObject({ outcome: 'timeout', status: 'BUILDING', polls: 1 })
    expect(r.elapsedMs).toBe(5000)
    expect(deadlines).toHaveLength(1)
  })

  test('transient poll errors are ridden out within the deadline', async () => {
    const s = scripted(
      [
        [0, 'BUILDING'],
        [8000, 'DEPLOYED']
      ],
      { failAt: t => (t > 0 && t < 6000 ? new Error('socket hang up') : undefined) }
    )
    const errors: number[] = []
    const r = await waitForRevision({ ...base, ...s, onPollError: (_m, n) => errors.push(n) })
    expect(r.outcome).toBe('deployed')
    expect(errors.length).toBeGreaterThan(0)
  })

  test('persistent poll errors give up with the last error, long before the timeout', async () => {
    const s = scripted([[0, 'BUILDING']], {
      failAt: t => (t > 0 ? new Error('ECONNRESET') : undefined)
    })
    const r = await waitForRevision({ ...base, ...s, maxConsecutiveErrors: 4 })
    expect(r).toMatchObject({ outcome: 'error', status: 'BUILDING' })
    expect(String(r.lastError)).toBe('Error: ECONNRESET')
    expect(r.elapsedMs).toBeLessThan(base.timeoutMs)
  })

  const notFound = () =>
    new ApiError(
      {
        operation: 'get revision',
        method: 'GET',
        path: `/v2/deployments/${DEP}/revisions/${REV}`,
        say: ACTION_SAY
      },
      404,
      'not found'
    )

  test('a 404 on a revision already read is final at once', async () => {
    const s = scripted([[0, 'BUILDING']], { failAt: t => (t > 0 ? notFound() : undefined) })
    const r = await waitForRevision({ ...base, ...s })
    expect(r.outcome).toBe('error')
    expect(s.polls).toHaveLength(2)
  })

  test('a 404 right after the write is waited through while the read catches up', async () => {
    const s = scripted(
      [
        [0, 'BUILDING'],
        [20_000, 'DEPLOYED']
      ],
      { failAt: t => (t < 3000 ? notFound() : undefined) }
    )
    const errors: number[] = []
    const r = await waitForRevision({ ...base, ...s, onPollError: (_e, n) => errors.push(n) })
    expect(r.outcome).toBe('deployed')
    expect(errors.length).toBeGreaterThan(0)
    expect(r.timeline.map(e => e.status)).toEqual(['BUILDING', 'DEPLOYED'])
  })

  test('a 404 that lasts past the grace period fails soon after it, not at the timeout', async () => {
    const s = scripted([[0, 'BUILDING']], { failAt: notFound })
    const r = await waitForRevision({ ...base, ...s })
    expect(r.outcome).toBe('error')
    expect(r.lastError).toBeInstanceOf(ApiError)
    expect(r.elapsedMs).toBeGreaterThanOrEqual(NOT_FOUND_GRACE_MS)
    expect(r.elapsedMs).toBeLessThan(NOT_FOUND_GRACE_MS + 5000)
  })

  test('an undocumented status is waited through and reported once', async () => {
    const s = scripted([
      [0, 'FAILED'],
      [5000, 'deployed'],
      [9000, 'DEPLOYED']
    ])
    const unknown: string[] = []
    const r = await waitForRevision({ ...base, ...s, onUnknownStatus: u => unknown.push(u) })
    expect(r.outcome).toBe('deployed')
    expect(unknown).toEqual(['FAILED'])
  })

  test('an aborted signal ends the wait as cancelled without another poll', async () => {
    const s = scripted([[0, 'BUILDING']])
    const controller = new AbortController()
    const r = await waitForRevision({
      ...base,
      ...s,
      signal: controller.signal,
      clock: {
        ...s.clock,
        sleep: async () => {
          controller.abort()
          throw new Error('aborted')
        }
      }
    })
    expect(r.outcome).toBe('cancelled')
    expect(s.polls).toHaveLength(1)
  })
})

// Progress while the wait polls: a line at least every 30 s of the run's clock with the status and
// the time waited, and the build's own lines as they come (one log read per poll at most), made
// inert. Everything runs on a virtual clock: no assertion depends on the machine's speed.
describe('progress', () => {
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
      const follower = new BuildLogFollower(
        log.reader,
        { deploymentId: DEP, revisionId: REV },
        s.now
      )
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
})
