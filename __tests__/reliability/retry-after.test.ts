// Retry-After is honoured, measured from the emulator's log (when each request arrived), and the
// time spent retrying never runs past the deadline.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { FaultSpec } from '../../emulator/server.ts'
import { bundlePath } from '../e2e/harness.ts'
import {
  debugEnv,
  errorText,
  reliabilityCase,
  REVISIONS,
  targetInputs,
  withEmulator,
  type Case
} from './support.ts'

interface Spec {
  name: string
  fault: FaultSpec
  /** The earliest the next request of the same operation may arrive, from the 429's arrival. */
  floor: (refusedAt: number) => number
  target?: 'id'
  timeout?: string
  /**
   * Expect the run to fail, and by when (ms from its first poll of the revision, when the wait's
   * timeout starts: the process's start-up and set-up are the machine's speed, not the deadline's).
   * Otherwise, to deploy.
   */
  failsWithin?: number
  debug?: boolean
}

function specs(): Spec[] {
  const at = Date.now() + 4000
  // An HTTP date has whole seconds: the promise is "not before that second".
  const httpDate = new Date(at).toUTCString()
  const dateFloor = Date.parse(httpDate)
  return [
    {
      name: '429 Retry-After: 2 on list, twice',
      fault: {
        kind: 'status',
        status: 429,
        retryAfter: 2,
        method: 'GET',
        path: '/v2/deployments',
        times: 2
      },
      floor: t => t + 2000
    },
    {
      name: '429 Retry-After: 2 on create (a refused write is sent again, once applied)',
      fault: {
        kind: 'status',
        status: 429,
        retryAfter: 2,
        method: 'POST',
        path: '/v2/deployments',
        times: 2
      },
      floor: t => t + 2000,
      debug: true
    },
    {
      name: '503 Retry-After: 1.5 on get deployment',
      fault: {
        kind: 'status',
        status: 503,
        retryAfter: '1.5',
        method: 'GET',
        path: '/v2/deployments/*',
        times: 2
      },
      floor: t => t + 1500,
      target: 'id'
    },
    {
      name: '429 Retry-After as an HTTP date on get revision',
      fault: {
        kind: 'status',
        status: 429,
        retryAfter: httpDate,
        method: 'GET',
        path: REVISIONS,
        times: 1
      },
      floor: () => dateFloor,
      debug: true
    },
    {
      name: '429 Retry-After: 3600 on every poll, timeout 10s: ends at once, no poll before it',
      fault: { kind: 'status', status: 429, retryAfter: 3600, method: 'GET', path: REVISIONS },
      // The transport caps a Retry-After at 60 s; the run ends long before that anyway.
      floor: t => t + 60_000,
      timeout: '10s',
      failsWithin: 10_000 + 12_000
    },
    {
      name: '429 Retry-After: 4 on every poll, timeout 12s: polls spaced by it until the deadline',
      fault: { kind: 'status', status: 429, retryAfter: 4, method: 'GET', path: REVISIONS },
      floor: t => t + 4000,
      timeout: '12s',
      failsWithin: 12_000 + 12_000,
      debug: true
    }
  ]
}

describe(GROUPS.retryAfter, () => {
  specs().forEach((spec, i) =>
    reliabilityCase(GROUPS.retryAfter, spec.name, async c => {
      // The HTTP date is a few seconds ahead of the run: take it once the bundle is ready.
      await bundlePath()
      await retryAfterCase(c, specs()[i]!)
    })
  )
})

async function retryAfterCase(c: Case, spec: Spec): Promise<void> {
  await withEmulator({}, async emu => {
    const { name, before, inputs } = targetInputs(c, emu, spec.target ?? 'new', 'retry-after', {
      timeout: spec.timeout ?? '60s'
    })
    emu.setFaults(spec.fault)
    const r = await c.run({ inputs, env: debugEnv(spec.debug ?? false) })
    const ended = Date.now()

    const log = emu.requests()
    let refusals = 0
    log.forEach((q, i) => {
      if (q.fault !== 'status') return
      refusals++
      const refusedAt = Date.parse(q.time)
      const next = log.slice(i + 1).find(n => n.method === q.method && n.path === q.path)
      if (!next) return
      const gap = Date.parse(next.time) - refusedAt
      c.check(
        Date.parse(next.time) >= spec.floor(refusedAt) - 5,
        `${q.method} ${q.path} sent again ${gap} ms after a ${q.status}, before its Retry-After`
      )
    })
    c.check(refusals > 0, 'no request was refused: the case proves nothing')

    if (spec.failsWithin === undefined) {
      c.check(r.code === 0, `exit ${r.code}: ${errorText(r).slice(0, 300)}`)
      c.check(
        r.outputs['revision-status'] === 'DEPLOYED',
        `revision-status ${r.outputs['revision-status']}`
      )
      c.tally(emu, name, { deployments: 1, revisions: 1 }, before)
    } else {
      c.check(r.code === 1, `exit ${r.code}, expected 1`)
      c.check(
        /HTTP 429/.test(errorText(r)),
        `the error does not name HTTP 429: ${errorText(r).slice(0, 300)}`
      )
      const firstPoll = log.find(
        q => q.method === 'GET' && /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+$/.test(q.path)
      )
      const waited = firstPoll ? ended - Date.parse(firstPoll.time) : NaN
      c.check(
        waited < spec.failsWithin,
        `the run ended ${waited} ms after its first poll, past its deadline (${spec.failsWithin} ms)`
      )
      c.tally(emu, name, { deployments: 1, revisions: 1 }, before)
    }
  })
}
