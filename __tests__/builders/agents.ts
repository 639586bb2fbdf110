// The checks of the new revision against the emulator's agent server over loopback HTTP, with one
// clock for both: the checks' waits move the emulator's virtual time (auto), or wait until the
// test moves it (manual: for a case's timeout, so nothing depends on the machine's speed).
import { agentProbe, type AgentServer } from '../../src/health/verify/agent-probe.ts'
import { LOOPBACK } from '../../src/control-plane/vouched-hosts.ts'
import { Redactor } from '../../src/control-plane/redact.ts'
import type { Clock } from '../../src/clock.ts'
import { servedCheck } from '../../src/health/served-check.ts'
import type { AgentCall } from '../../src/health/verify/agent-call.ts'
import type { Expected } from '../../src/health/verify/served-revision.ts'
import { checkHealth } from '../../src/health/window.ts'
import type { Emulator } from '../../emulator/server.ts'
import { afterEach, beforeEach } from '@jest/globals'
import {
  call,
  CLOUD_KEY,
  current,
  LIVE,
  liveFixture,
  manualClock,
  patchRef,
  start,
  type Json
} from './emulator.ts'

export { LIVE }

export interface TestClock extends Clock {
  advance: (ms: number) => void
  /** Waits pending until `advance` passes their time (manual), or resolve at once after moving time (auto). */
  mode: 'auto' | 'manual'
  pending: () => number
}

export function testClock(): TestClock {
  const base = manualClock()
  const timers: { at: number; resolve: () => void }[] = []
  const clock: TestClock = {
    mode: 'auto',
    now: base.now,
    advance(ms) {
      base.advance(ms)
      for (const t of timers.filter(t => t.at <= base.now())) {
        timers.splice(timers.indexOf(t), 1)
        t.resolve()
      }
    },
    pending: () => timers.length,
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.reject(new Error('aborted'))
      if (clock.mode === 'auto') {
        base.advance(ms)
        return Promise.resolve()
      }
      return new Promise((resolve, reject) => {
        const timer = { at: base.now() + ms, resolve }
        timers.push(timer)
        signal?.addEventListener('abort', () => {
          const i = timers.indexOf(timer)
          if (i >= 0) timers.splice(i, 1)
          reject(new Error('aborted'))
        })
      })
    }
  }
  return clock
}

export async function startAgents(clock: TestClock): Promise<Emulator> {
  return start({
    now: clock.now,
    fixture: liveFixture
  })
}

/** The agent servers of the live fixture for each test, on a test clock in `mode`; closed after it. */
export function agentsPerTest(mode: TestClock['mode'] = 'auto'): {
  emu: Emulator
  clock: TestClock
} {
  let emu: Emulator | undefined
  let clock: TestClock | undefined
  beforeEach(async () => {
    clock = testClock()
    clock.mode = mode
    emu = await startAgents(clock)
  })
  afterEach(async () => {
    await emu?.close()
    emu = undefined
  })
  return { emu: current(() => emu), clock: current(() => clock) }
}

/** The agent server of LIVE, with the tenant's key (or `key`; null sends none). */
export function agentOf(emu: Emulator, key: string | null = CLOUD_KEY): AgentCall {
  return agentProbe(serverOf(emu, key))
}

export function serverOf(emu: Emulator, key: string | null = CLOUD_KEY): AgentServer {
  // An empty key reads as none: loopback (vouched for, as the emulator's base-url is) gets the header.
  return { url: `${emu.url}/_agents/${LIVE}`, apiKey: key ?? '', vouched: [LOOPBACK] }
}

/**
 * The served-revision check as the gate runs it, alongside its probes of `/ok` (until the window
 * after the first 2xx, or the deadline): its verdict, the reads of `/info`, the time it took.
 */
export async function servedRevision(
  server: AgentServer,
  o: Expected & {
    clock: Clock
    signal: AbortSignal
    deadline: number
    windowMs: number
    intervalMs: number
    /** How `/info` is read (default: through the gate's client). */
    call?: AgentCall
  }
) {
  let probes = 0
  const call = o.call ?? agentProbe(server)
  const quiet = {
    info() {},
    warning() {},
    notice() {},
    group: <T>(_: string, fn: () => Promise<T>) => fn()
  }
  const served = servedCheck(req => (probes++, call(req)), o, quiet)
  const result = await checkHealth({
    ...server,
    ...o,
    path: '/ok',
    redactor: new Redactor([]),
    alongside: served.check
  })
  const verdict =
    result.health === 'cancelled'
      ? { verdict: 'cancelled' as const }
      : (served.verdict(result.health === 'healthy') ?? { verdict: 'not checked' as const })
  return { ...verdict, probes, elapsedMs: result.elapsedMs }
}

export async function latestRevision(emu: Emulator): Promise<string> {
  const d = await call(emu, 'GET', `/v2/deployments/${LIVE}`)
  return (d.body as Json).latest_revision_id as string
}

/** A new revision of LIVE, DEPLOYED (its drain not over): [previous, new]. */
export async function redeploy(
  emu: Emulator,
  clock: { advance(ms: number): void }
): Promise<[string, string]> {
  const before = await latestRevision(emu)
  await patchRef(emu, LIVE, 'next')
  const after = await latestRevision(emu)
  clock.advance(3_000)
  return [before, after]
}

export async function scriptApp(emu: Emulator, spec: unknown): Promise<void> {
  const res = await fetch(`${emu.url}/_emulator/agents/${LIVE}/app`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec)
  })
  if (res.status !== 200) throw new Error(`app script refused: ${await res.text()}`)
}
