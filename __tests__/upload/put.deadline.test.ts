// The run's deadline bounds the upload, every try included: with `timeout: 20s`, a PUT that never
// answers ends when the run's clock reaches 20 s, as the run's timeout ending, with nothing
// patched; so does an upload URL the control plane does not answer in time. The clock here is
// the test's: its pauses end when the test moves it on, so nothing depends on the machine's speed.
import * as net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, it } from '@jest/globals'
import type { ControlPlaneClient } from '../../src/control-plane/client.ts'
import type { CallOptions } from '../../src/control-plane/client-options.ts'
import { AbortedError } from '../../src/control-plane/errors.ts'
import type { FlowDeps } from '../../src/commands/deploy/deps.ts'
import { stopped, type Stop } from '../../src/interface/ending.ts'
import { prepareUpload, type SourceUpload } from '../../src/commands/deploy/steps/upload.ts'
import { ACTION_SAY, testOptions } from '../builders.ts'
import { copyFixture } from '../builders/upload.ts'

const START = Date.parse('2026-11-01T00:00:00Z')

/** A clock whose pauses wait for the test: `next()` ends the earliest, moving the time to it. */
function manualClock() {
  const pending: Array<{ at: number; ms: number; end: () => void }> = []
  const clock = {
    t: START,
    now: () => clock.t,
    sleep: (ms: number) =>
      new Promise<void>(resolve => pending.push({ at: clock.t + ms, ms, end: resolve })),
    /** The pauses asked for so far, in ms, and which are still running. */
    asked: [] as number[],
    pending,
    next() {
      pending.sort((a, b) => a.at - b.at)
      const first = pending.shift()
      if (!first) throw new Error('no pause is running')
      clock.t = Math.max(clock.t, first.at)
      first.end()
    }
  }
  const sleep = clock.sleep
  clock.sleep = (ms: number) => {
    clock.asked.push(ms)
    return sleep(ms)
  }
  return clock
}

/** An upload host that takes every connection and never answers. */
const hosts: net.Server[] = []
afterEach(() => {
  for (const h of hosts.splice(0)) h.close()
})
async function hungHost() {
  const sockets: net.Socket[] = []
  const host = net.createServer(s => {
    sockets.push(s)
    s.resume()
  })
  hosts.push(host)
  await new Promise<void>(r => host.listen(0, '127.0.0.1', r))
  host.on('close', () => sockets.forEach(s => s.destroy()))
  const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
  return { origin, connections: () => sockets.length }
}

/** Waits (on events, not a time) until `ok()` holds. */
async function until(ok: () => boolean) {
  while (!ok()) await new Promise(r => setImmediate(r))
}

/** The upload step of `timeout: 20s` in the `ignores` fixture, on `clock`, with `client`. */
async function uploadStep(client: ControlPlaneClient, clock: ReturnType<typeof manualClock>) {
  const o = testOptions(
    { 'integration-id': undefined, source: 'internal_source', timeout: '20s' },
    { baseUrl: 'http://127.0.0.1:1' }
  )
  const deps: FlowDeps = {
    client,
    clock,
    say: ACTION_SAY,
    workspace: await copyFixture('ignores'),
    log: { info: () => {}, warning: () => {}, notice: () => {}, group: (_n, fn) => fn() }
  }
  const upload = (await prepareUpload(o, deps)) as SourceUpload
  return { upload, stored: upload.store(client, 'd-1', {}) }
}

/**
 * A client whose deadline is the run's, 30 s past `timeout` for the look-ups around the wait: each
 * upload URL asked for (its call options in `asked`) is what `answer` gives.
 */
function deadlineClient(
  answer: (call: CallOptions, n: number) => Promise<unknown>,
  pause: () => Promise<boolean>
) {
  const asked: CallOptions[] = []
  const client = {
    deadline: START + 50_000,
    requestUploadUrl: async (_id: string, call: CallOptions = {}) => {
      asked.push(call)
      return answer(call, asked.length)
    },
    pause
  } as unknown as ControlPlaneClient
  return { client, asked }
}

it('timeout: 20s and a PUT that never answers: the upload ends at 20 s on the run clock, a timeout', async () => {
  const host = await hungHost()
  const clock = manualClock()
  const { client, asked } = deadlineClient(
    async (_call, n) => ({ upload_url: `${host.origin}/o?sig=${n}`, object_path: `o${n}` }),
    async () => {
      await clock.sleep(1_000)
      return true
    }
  )
  const { upload, stored } = await uploadStep(client, clock)
  // The PUT is in and its one pause, the timeout, is what is left of the 20 s.
  await until(() => host.connections() === 1 && clock.pending.length === 1)
  expect(clock.asked).toEqual([20_000])
  expect(asked).toEqual([{ deadline: START + 20_000 }])
  clock.next()
  // Then the pause before another try, after which no time is left for one.
  await until(() => clock.pending.length === 1)
  clock.next()
  const ended = (await stored) as Stop
  await upload.archive.cleanup()
  expect(stopped(ended)).toBe(true)
  expect(ended.outcome).toBe('timeout')
  expect(ended.failure.message).toContain('its answer was lost (no answer within 20 s)')
  expect(ended.failure.message).toContain('The run reached its deadline (from `timeout`)')
  expect(ended.failure.message).toContain('Nothing was patched')
  expect(clock.t - START).toBeLessThanOrEqual(21_000)
  expect(asked).toHaveLength(1)
})

it('an upload URL not answered by the deadline ends the upload as the timeout too, nothing sent', async () => {
  const clock = manualClock()
  // What the transport does when the call's deadline passes while it waits.
  const { client, asked } = deadlineClient(
    async call => {
      clock.t = call.deadline ?? clock.t + 50_000
      throw new AbortedError(
        { method: 'POST', path: '/v2/deployments/d-1/upload-url', operation: 'request upload url' },
        'request upload url: no complete answer within 20 s (the deadline of the run)'
      )
    },
    async () => true
  )
  const { upload, stored } = await uploadStep(client, clock)
  const ended = (await stored) as Stop
  await upload.archive.cleanup()
  expect(asked).toEqual([{ deadline: START + 20_000 }])
  expect(ended.outcome).toBe('timeout')
  expect(ended.failure.message).toContain(
    'The source archive could not be uploaded. The run reached its deadline (from `timeout`).'
  )
})
