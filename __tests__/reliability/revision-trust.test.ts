// A run claims only what happened: an update answered with the old revision, a revision answer
// about another revision, a 404 on a revision the write just returned, and a deployment list that
// never ends. Each judged from the emulator's state and request log.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { NOT_FOUND_GRACE_MS } from '../../src/commands/deploy/steps/wait.ts'
import type { Emulator, FaultSpec } from '../../emulator/server.ts'
import type { RunResult } from '../e2e/harness.ts'
import {
  debugEnv,
  deploymentsNamed,
  errorText,
  inBothLogModes,
  isWrite,
  lane,
  REVISIONS,
  settled,
  targetInputs,
  warningLines,
  withEmulator,
  type Case,
  type Target,
  type Targeted
} from './support.ts'

const GROUP = GROUPS.revisionTrust

function faultApplied(c: Case, emu: Emulator): void {
  c.check(
    emu.requests().some(q => q.fault !== null),
    'the fault was never applied: the case proves nothing'
  )
}

/** Exit 0, DEPLOYED, and `revision-id` is the deployment's latest revision, the run's own. */
function expectOwnRevisionDeployed(
  c: Case,
  { emu, t, r }: { emu: Emulator; t: Targeted; r: RunResult }
): void {
  c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
  c.check(r.errors.length === 0, `an error was reported: ${errorText(r).slice(0, 200)}`)
  c.tally(emu, t.name, { deployments: 1, revisions: 1 }, t.before)
  const d = deploymentsNamed(emu, t.name)[0]
  const latest = d?.revisions.at(-1)
  c.check(
    latest !== undefined && latest.id !== t.previous,
    'the emulator shows no new revision for the run'
  )
  c.check(
    r.outputs['revision-id'] === latest?.id,
    `revision-id output ${r.outputs['revision-id']}, expected the revision the run made (${latest?.id})`
  )
  c.check(
    r.outputs['revision-status'] === 'DEPLOYED' && latest?.status === 'DEPLOYED',
    `revision-status output ${r.outputs['revision-status']}, the emulator shows ${latest?.status}`
  )
}

describe(GROUP, () => {
  const four = lane(4)

  /**
   * One case in both log modes: `fault` set, a run against a `target` deployment, the fault seen
   * applied; `judge` checks the rest.
   */
  function faultedCase(
    title: string,
    fault: FaultSpec | FaultSpec[],
    target: Target,
    judge: (c: Case, run: { emu: Emulator; t: Targeted; r: RunResult }) => void,
    { inputs = {}, timeoutMs }: { inputs?: Record<string, string>; timeoutMs?: number } = {}
  ): void {
    inBothLogModes(
      GROUP,
      title,
      (c, debug) =>
        withEmulator({}, async emu => {
          emu.setFaults(fault)
          const t = targetInputs(c, emu, target, 'trust', inputs)
          const r = await c.run({
            inputs: t.inputs,
            env: debugEnv(debug),
            ...(timeoutMs ? { timeoutMs } : {})
          })
          faultApplied(c, emu)
          judge(c, { emu, t, r })
        }),
      { lane: four }
    )
  }

  // Faults the run gets past: it reports the revision it made.
  for (const [title, fault] of [
    [
      'an update answered with the old revision but applied: reports the revision the update made',
      { kind: 'old-revision', write: 'applied' }
    ],
    [
      'a revision answer about another (DEPLOYED) revision 3 times, then healthy: reports its own',
      { kind: 'other-revision', answer: 'deployed', times: 3 }
    ]
  ] as const)
    faultedCase(title, fault, 'existing', expectOwnRevisionDeployed)

  faultedCase(
    'an update answered with the old revision and dropped: exit 0, one warning, no revision claimed',
    { kind: 'old-revision', write: 'dropped' },
    'existing',
    (c, { emu, t, r }) => {
      c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
      c.tally(emu, t.name, { deployments: 1, revisions: 0 }, t.before)
      c.check(
        (r.outputs['revision-id'] ?? '') === '',
        `revision-id output ${r.outputs['revision-id']}, expected empty: the update made none`
      )
      c.check(
        (r.outputs['revision-status'] ?? '') === '',
        `revision-status output ${r.outputs['revision-status']}, expected empty`
      )
      const made = warningLines(r).filter(w => /made no new revision/.test(w))
      c.check(made.length === 1, `${made.length} "made no new revision" warnings, expected 1`)
      const polled = emu.requests().filter(q => q.method === 'GET' && /\/revisions\//.test(q.path))
      c.check(
        polled.length === 0,
        `${polled.length} revision polls: the old revision was waited on`
      )
    }
  )

  faultedCase(
    'a revision answer about another (DEPLOYED) revision for good: exit 1 with a clear error, never green',
    { kind: 'other-revision', answer: 'deployed' },
    'existing',
    (c, { emu, t, r }) => {
      const asked = deploymentsNamed(emu, t.name)[0]?.revisions.at(-1)?.id ?? '?'
      c.check(r.code === 1, `exit ${r.code}, expected 1`)
      c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
      c.check(
        r.outputs['revision-status'] !== 'DEPLOYED',
        'revision-status DEPLOYED, read from an answer about another revision'
      )
      const text = errorText(r)
      c.check(
        new RegExp(`not about revision ${asked}`).test(text),
        `the error does not say the answer was about another revision than ${asked}: ${text.slice(0, 300)}`
      )
      c.check(r.ms < (30 + 12) * 1000, `the run took ${r.ms} ms, past its 30 s timeout`)
      c.tally(emu, t.name, { deployments: 1, revisions: 1 }, t.before)
    },
    { inputs: { timeout: '30s' } }
  )

  /** A resize answered naming the deployment's first revision, one from before the run. */
  const oldResize: FaultSpec = {
    kind: 'old-revision',
    revision: 'oldest',
    path: '/v2/deployments/*/resource-tiers'
  } as FaultSpec
  const firstOf = (emu: Emulator, t: Targeted) =>
    deploymentsNamed(emu, t.name)[0]?.revisions[0]?.id ?? '?'

  faultedCase(
    'a resize answered with a revision from before the run, once: read again, reports the resize’s own',
    { ...oldResize, times: 1 } as FaultSpec,
    'existing',
    (c, { emu, t, r }) => {
      c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
      c.tally(emu, t.name, { deployments: 1, revisions: 2 }, t.before)
      const latest = deploymentsNamed(emu, t.name)[0]?.revisions.at(-1)
      c.check(
        r.outputs['revision-id'] === latest?.id && r.outputs['revision-id'] !== firstOf(emu, t),
        `revision-id output ${r.outputs['revision-id']}, expected the resize's (${latest?.id})`
      )
      c.check(r.outputs['revision-status'] === 'DEPLOYED', 'revision-status is not DEPLOYED')
    },
    { inputs: { size: 'medium' } }
  )

  faultedCase(
    'a resize whose answer and reads keep naming a revision from before the run: exit 1 saying so, never green',
    [oldResize, { kind: 'old-revision', revision: 'oldest', method: 'GET' } as FaultSpec],
    'existing',
    (c, { emu, t, r }) => {
      const first = firstOf(emu, t)
      c.check(r.code === 1, `exit ${r.code}, expected 1`)
      c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
      const text = errorText(r)
      c.check(
        new RegExp(`answered with revision ${first}, which was made before this run's`).test(text),
        `the error does not say the resize named a revision from before the run: ${text.slice(0, 300)}`
      )
      c.check(r.outputs['revision-status'] !== 'DEPLOYED', 'revision-status DEPLOYED')
      c.check(r.outputs['revision-id'] !== first, 'revision-id names the revision from before')
      const polled = emu
        .requests()
        .filter(q => q.method === 'GET' && q.path.endsWith(`/revisions/${first}`))
      c.note(`${polled.length} reads of the old revision (its creation time), none waited on`)
    },
    { inputs: { size: 'medium' } }
  )

  for (const times of [1, 2, 3])
    faultedCase(
      `a 404 on the revision right after the write, ${times} time${times > 1 ? 's' : ''}: DEPLOYED`,
      { kind: 'status', status: 404, method: 'GET', path: REVISIONS, times },
      'new',
      (c, { emu, t, r }) => {
        expectOwnRevisionDeployed(c, { emu, t, r })
      }
    )

  faultedCase(
    'a 404 on the revision for good: fails after the grace period with the hint, not at the timeout',
    { kind: 'status', status: 404, method: 'GET', path: REVISIONS },
    'new',
    (c, { emu, t, r }) => {
      c.check(r.code === 1, `exit ${r.code}, expected 1`)
      c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
      const text = errorText(r)
      c.check(/HTTP 404/.test(text), `the error does not name HTTP 404: ${text.slice(0, 300)}`)
      c.check(
        /was not found with this key/.test(text),
        `the error lacks the 404 hint: ${text.slice(0, 400)}`
      )
      c.check(!/timed out/i.test(text), `the run waited to the timeout: ${text.slice(0, 200)}`)
      c.check(r.ms < 60_000, `the run took ${r.ms} ms: the 404 was waited on to the timeout`)
      const notFound = emu.requests().filter(q => q.fault === 'status')
      const span =
        notFound.length > 1 ? Date.parse(notFound.at(-1)!.time) - Date.parse(notFound[0]!.time) : 0
      c.check(
        span >= NOT_FOUND_GRACE_MS - 1000,
        `the 404s were tolerated for ${span} ms only, less than the grace period (${NOT_FOUND_GRACE_MS} ms)`
      )
      c.note(`${notFound.length} polls answered 404 over ${(span / 1000).toFixed(1)} s`)
      c.tally(emu, t.name, { deployments: 1, revisions: 1 })
    },
    { inputs: { timeout: '120s' }, timeoutMs: 150_000 }
  )

  for (const advance of [true, false])
    inBothLogModes(
      GROUP,
      `a deployment list that never ends (${advance ? 'offset advancing' : 'offset stuck'}): exit 1 before any write`,
      (c, debug) =>
        withEmulator({}, async emu => {
          emu.setFaults({ kind: 'endless-list', advance } as FaultSpec)
          const t = targetInputs(c, emu, 'new', 'trust', { timeout: '120s' })
          const r = await c.run({ inputs: t.inputs, env: debugEnv(debug), timeoutMs: 150_000 })
          await settled(emu)
          faultApplied(c, emu)
          c.check(r.code === 1, `exit ${r.code}, expected 1`)
          c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
          const writes = emu.requests().filter(isWrite)
          c.check(writes.length === 0, `${writes.length} writes sent after a list that did not end`)
          const text = errorText(r)
          c.check(
            /did not end/.test(text),
            `the error does not say the list did not end: ${text.slice(0, 300)}`
          )
          c.check(r.ms < 30_000, `the run took ${r.ms} ms: the list was read until the deadline`)
          const pages = emu
            .requests()
            .filter(q => q.method === 'GET' && q.path === '/v2/deployments')
          c.note(`${pages.length} list requests, ${(r.ms / 1000).toFixed(1)} s`)
          c.tally(emu, t.name, { deployments: 0, revisions: 0 })
        }),
      { lane: four }
    )
})
