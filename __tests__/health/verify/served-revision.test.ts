// The served-revision check against the emulator's agent server: /info's host block read on
// every probe, waiting through the drain, stale naming both revisions, unknown without a host.
import { describe, expect, it } from '@jest/globals'
import type { AgentCall } from '../../../src/health/verify/agent-call.ts'
import { readInfo, ServedTracker } from '../../../src/health/verify/served-revision.ts'
import {
  agentOf,
  agentsPerTest,
  latestRevision,
  LIVE,
  redeploy,
  scriptApp,
  servedRevision,
  serverOf
} from '../../builders/agents.ts'

const { emu, clock } = agentsPerTest()

function check(revisionId: string, over: { windowMs?: number; timeoutMs?: number } = {}) {
  return servedRevision(serverOf(emu), {
    clock,
    signal: new AbortController().signal,
    revisionId,
    deploymentId: LIVE,
    deadline: clock.now() + (over.timeoutMs ?? 60_000),
    windowMs: over.windowMs ?? 10_000,
    intervalMs: 1_000
  })
}

const infoProbes = () => emu.agents.probes(LIVE).filter(p => p.path === '/info')

describe('served revision', () => {
  it('this: the run’s revision answers from the first probe and for the whole window', async () => {
    const result = await check(await latestRevision(emu))
    expect(result).toMatchObject({ verdict: 'this' })
    expect(result.elapsedMs).toBeGreaterThanOrEqual(10_000)
    expect(infoProbes().every(p => p.key === 'valid' && p.status === 200)).toBe(true)
  })

  it('this after the drain: the previous revision answers first, then the new one', async () => {
    const [, after] = await redeploy(emu, clock)
    const result = await check(after, { windowMs: 3_000 })
    expect(result.verdict).toBe('this')
    expect(result.probes).toBeGreaterThanOrEqual(4)
  })

  it('this after N scripted probes of the previous revision', async () => {
    const [, after] = await redeploy(emu, clock)
    clock.advance(60_000)
    await scriptApp(emu, { previousFirst: 5 })
    const result = await check(after, { windowMs: 2_000 })
    expect(result).toMatchObject({ verdict: 'this', probes: 8 })
  })

  it('stale: the previous revision for ever, until the timeout; the reason names both revisions', async () => {
    const [before, after] = await redeploy(emu, clock)
    await scriptApp(emu, { previous: true })
    const result = await check(after, { timeoutMs: 30_000 })
    expect(result.verdict).toBe('stale')
    const reason = (result as { reason: string }).reason
    expect(reason).toContain(before)
    expect(reason).toContain(after)
    expect(result.elapsedMs).toBeGreaterThanOrEqual(30_000)
  })

  it('stale: another revision answers inside the window, after the run’s had answered', async () => {
    // The run's revision is the one draining: it answers first, then the newer one takes over.
    const [before, after] = await redeploy(emu, clock)
    const result = await check(before, { windowMs: 10_000 })
    expect(result.verdict).toBe('stale')
    expect((result as { reason: string }).reason).toMatch(
      new RegExp(
        `serves revision ${after}.*not this run's revision ${before}.*after this revision had answered`
      )
    )
  })

  it('another deployment’s server is not this one, even with the same revision id', () => {
    const info = {
      host: { host_revision_id: 'r1', project_id: '99999999-9999-4999-8999-999999999999' }
    }
    const r = readInfo(
      { status: 200, body: JSON.stringify(info) },
      { revisionId: 'r1', deploymentId: LIVE }
    )
    expect(r.kind).toBe('other')
  })

  it('unknown: no host block is one notice after one probe, never a failure', async () => {
    await scriptApp(emu, { host: false })
    const result = await check('any-revision')
    expect(result).toMatchObject({ verdict: 'unknown', probes: 1 })
    expect((result as { notice: string }).notice).toMatch(/no host block/)
  })

  it('unknown when /info never answers 2xx (its route turned off) by the timeout', async () => {
    // `/ok` answers (the gate's probes go on), `/info` is 404.
    await fetch(`${emu.url}/_emulator/agents/${LIVE}/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ health: 'unavailable', sequence: Array(20).fill('healthy') })
    })
    const result = await check(await latestRevision(emu), { timeoutMs: 5_000 })
    expect(result.verdict).toBe('unknown')
    expect((result as { notice: string }).notice).toMatch(/404/)
  })

  it('a probe that gets no answer within its bound counts as none: unknown at the timeout', async () => {
    // `/ok` answers at once, `/info` only after 10 minutes; each read of it is bounded to 50 ms.
    await fetch(`${emu.url}/_emulator/agents/${LIVE}/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        health: 'slow',
        delayMs: 600_000,
        sequence: Array(20).fill('healthy')
      })
    })
    const info = agentOf(emu)
    const call: AgentCall = req =>
      info({ ...req, signal: AbortSignal.any([req.signal, AbortSignal.timeout(50)]) })
    const result = await servedRevision(serverOf(emu), {
      call,
      clock,
      signal: new AbortController().signal,
      revisionId: await latestRevision(emu),
      deploymentId: LIVE,
      deadline: clock.now() + 3_000,
      windowMs: 0,
      intervalMs: 1_000
    })
    expect(result).toMatchObject({ verdict: 'unknown', probes: 3 })
    expect((result as { notice: string }).notice).toMatch(/no answer/)
  })

  it('cancelled when the signal aborts', async () => {
    const stop = new AbortController()
    stop.abort()
    const result = await servedRevision(serverOf(emu), {
      clock,
      signal: stop.signal,
      revisionId: 'r',
      deploymentId: LIVE,
      deadline: clock.now() + 1000,
      windowMs: 0,
      intervalMs: 100
    })
    expect(result.verdict).toBe('cancelled')
    expect(infoProbes()).toEqual([])
  })
})

describe('the served-revision rule, fed by another loop (the gate’s)', () => {
  const e = { revisionId: 'r-new', deploymentId: LIVE }
  const other = { kind: 'other' as const, revisionId: 'r-old', projectId: LIVE }
  const lost = { kind: 'no-answer' as const, reason: '/info answered 502' }

  it('waits through no answers and other revisions; this once matched', () => {
    const t = new ServedTracker(e)
    for (const r of [lost, other, other, { kind: 'this' as const }, { kind: 'this' as const }])
      expect(t.observe(r)).toBeUndefined()
    expect(t.end()).toEqual({ verdict: 'this' })
    expect(t.probes).toBe(5)
  })

  it('stale at once when another revision answers after a match; at the end when none matched', () => {
    const t = new ServedTracker(e)
    t.observe({ kind: 'this' })
    expect(t.observe(other)).toMatchObject({
      verdict: 'stale',
      reason: expect.stringContaining('r-old')
    })
    const never = new ServedTracker(e)
    never.observe(other)
    never.observe(lost)
    expect(never.end()).toMatchObject({
      verdict: 'stale',
      reason: expect.stringContaining('r-new')
    })
  })

  it('no drain (a promotion’s source): another revision at the first probe is stale at once, naming its active one', () => {
    const t = new ServedTracker({ ...e, drains: false, whose: 'its active' })
    expect(t.observe(other)).toMatchObject({
      verdict: 'stale',
      reason: expect.stringContaining('serves revision r-old, not its active revision r-new')
    })
  })

  it('unknown at once without a host block; at the end when nothing could be read', () => {
    expect(new ServedTracker(e).observe({ kind: 'no-host' })).toMatchObject({ verdict: 'unknown' })
    const t = new ServedTracker(e)
    t.observe(lost)
    expect(t.end()).toMatchObject({ verdict: 'unknown', notice: expect.stringContaining('502') })
  })
})
