// A deploy whose build fails, with `on-failure: rollback` after a first good deploy: faults on the
// log request cost one warning and change nothing else (exit code, annotation, rollback); faults
// on the redeploy request are reconciled (a lost answer: one redeploy, never two), waited out
// (Retry-After), or reported (the job still names the failed revision and says the rollback
// failed). Judged from the emulator's state and request log.
import { describe } from '@jest/globals'
import { failureLogRead, startGateProxy } from '../e2e/gate.ts'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { Emulator, FaultSpec } from '../../emulator/server.ts'
import { uniqueName, type RunResult } from '../e2e/harness.ts'
import { checkRetryAfter } from './faults.ts'
import {
  debugEnv,
  deployInputs,
  deploymentsNamed,
  errorText,
  lane,
  settled,
  warningLines,
  type Case,
  inBothLogModesWithEmulator
} from './support.ts'

const GROUP = GROUPS.failedDeploy
/** Both log APIs: the v2 GET and the older v1 POST the client falls back to after a 404. */
const LOGS = '**/*logs'
const REDEPLOY = '/v2/deployments/*/revisions/*/redeploy'
/** How long the action gives the log look in all (LOG_BUDGET_MS of src/commands/deploy/after-failure/failure-logs.ts). */
const LOG_BUDGET_MS = 10_000

interface Failed {
  name: string
  /** The first good deploy's revision: the one a rollback puts back. */
  good: string
  /** The run whose build failed. */
  r: RunResult
  /** Its revision, as the emulator shows it. */
  failed: string | undefined
  /** The revisions the emulator holds for the name after the failed run. */
  revisions: Array<{ id: string; status: string }>
  activeId: string | null
}

/**
 * A first good deploy, then `faults`, then a run of a build that fails (the emulator's `fail-build`
 * rule, or `script` when given) with `on-failure: rollback`.
 */
async function deployThenFail(
  c: Case,
  emu: Emulator,
  debug: boolean,
  faults: FaultSpec[],
  script?: (inputs: Record<string, string>) => void
): Promise<Failed> {
  const name = uniqueName('rollback')
  const inputs = deployInputs(c, emu, name)
  const first = await c.run({ inputs, env: debugEnv(debug) })
  c.check(first.code === 0, `the first deploy failed: exit ${first.code}: ${errorText(first)}`)
  const good = deploymentsNamed(emu, name)[0]?.revisions[0]?.id ?? '?'
  emu.clearRequests()
  script?.(inputs)
  emu.setFaults(faults)
  const r = await c.run({
    inputs: { ...inputs, ref: 'fail-build', 'on-failure': 'rollback' },
    env: debugEnv(debug),
    timeoutMs: 150_000
  })
  await settled(emu)
  if (faults.length)
    c.check(
      emu.requests().some(q => q.fault !== null),
      'the fault was never applied: the case proves nothing'
    )
  const d = deploymentsNamed(emu, name)[0]
  const revisions = (d?.revisions ?? []).map(v => ({ id: v.id, status: v.status }))
  return {
    name,
    good,
    r,
    failed: revisions[1]?.id,
    revisions,
    activeId: d?.active_revision_id ?? null
  }
}

/** The failed revision is reported as such: exit 1, one annotation naming it, its outputs. */
function expectFailedRevisionNamed(c: Case, f: Failed): void {
  const { r } = f
  c.check(r.code === 1, `exit ${r.code}, expected 1`)
  c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
  c.check(
    f.revisions[1]?.status === 'BUILD_FAILED',
    `the emulator shows the run's revision ${f.revisions[1]?.status}, expected BUILD_FAILED`
  )
  c.check(
    r.outputs['revision-id'] === f.failed && r.outputs['revision-status'] === 'BUILD_FAILED',
    `revision-id ${r.outputs['revision-id']} ${r.outputs['revision-status']}, expected ${f.failed} BUILD_FAILED`
  )
  c.check(
    new RegExp(`Revision ${f.failed} of "${f.name}" ended BUILD_FAILED`).test(errorText(r)),
    `the annotation does not name the failed revision: ${errorText(r).slice(0, 300)}`
  )
}

/** The rollback put the good revision back: one redeploy of it, its new revision DEPLOYED. */
function expectRolledBack(c: Case, emu: Emulator, f: Failed): void {
  const { r } = f
  const sent = redeploys(emu)
  c.check(sent.length >= 1, 'no redeploy was sent')
  c.check(
    sent.every(q => q.path.includes(f.good)),
    `a redeploy of another revision than ${f.good}: ${sent.map(q => q.path).join(', ')}`
  )
  c.check(
    f.revisions.length === 3,
    `${f.revisions.length} revisions, expected 3 (the good one, the failed one, one rollback)`
  )
  const rollback = f.revisions[2]
  c.check(
    rollback?.status === 'DEPLOYED' && f.activeId === rollback.id,
    `the rollback revision is ${rollback?.status}, active ${f.activeId}: service not restored`
  )
  c.check(
    r.outputs['rollback-revision-id'] === rollback?.id &&
      r.outputs['rollback-status'] === 'DEPLOYED',
    `rollback outputs ${r.outputs['rollback-revision-id']} ${r.outputs['rollback-status']}, expected ${rollback?.id} DEPLOYED`
  )
}

/**
 * The annotation a run without the log fault gives, less the log's telling line (which only a
 * log that was read can give) and with the duration left out.
 */
function expectSameVerdict(c: Case, f: Failed): void {
  const rollback = f.revisions[2]?.id ?? '?'
  const expected = new RegExp(
    `^::error title=Revision BUILD_FAILED::Revision ${f.failed} of "${f.name}" ended BUILD_FAILED ` +
      `after [0-9.]+m?s\\. The control plane says: The image build failed; see the build logs\\. ` +
      `Rolled back: revision ${rollback} \\(a redeploy of ${f.good}\\) is DEPLOYED\\.%0A`
  )
  c.check(
    expected.test(f.r.errors[0] ?? ''),
    `the annotation is not the one without the fault: ${(f.r.errors[0] ?? '').slice(0, 400)}`
  )
}

const redeploys = (emu: Emulator) =>
  emu.requests().filter(q => q.method === 'POST' && q.path.endsWith('/redeploy'))

const LOG_FAULTS: Array<{ key: string; spec: FaultSpec }> = [
  { key: '500', spec: { kind: 'status', status: 500, path: LOGS } },
  { key: '404 (no log)', spec: { kind: 'status', status: 404, path: LOGS } },
  { key: 'connection reset', spec: { kind: 'reset', path: LOGS } },
  {
    key: 'a delay past the log budget',
    spec: { kind: 'delay', ms: LOG_BUDGET_MS + 2000, path: LOGS }
  },
  { key: 'non-JSON body', spec: { kind: 'non-json', path: LOGS } }
]

/** A deploy that fails under `faults`: its failed revision named, and rolled back. */
async function rolledBackUnder(c: Case, emu: Emulator, debug: boolean, faults: FaultSpec[]) {
  const f = await deployThenFail(c, emu, debug, faults)
  expectFailedRevisionNamed(c, f)
  expectRolledBack(c, emu, f)
}

describe(GROUP, () => {
  const four = lane(4)

  inBothLogModesWithEmulator(
    GROUP,
    'a failed build (scripted log, a secret planted in it): log shown redacted, rolled back',
    async (c, emu, debug) => {
      let planted = ''
      const f = await deployThenFail(c, emu, debug, [], inputs => {
        planted = /OPENAI_API_KEY=(.*)/.exec(inputs.secrets ?? '')?.[1] ?? ''
        emu.script({
          outcome: 'BUILD_FAILED',
          logLines: [`Using key ${planted}`, 'ModuleNotFoundError: No module named agentlib']
        })
      })
      c.check(planted !== '', 'no secret to plant')
      expectFailedRevisionNamed(c, f)
      expectRolledBack(c, emu, f)
      c.check(redeploys(emu).length === 1, `${redeploys(emu).length} redeploys sent, expected 1`)
      c.check(
        /ended BUILD_FAILED after \S+: ModuleNotFoundError: No module named agentlib/.test(
          errorText(f.r)
        ),
        `the annotation does not name the telling line: ${errorText(f.r).slice(0, 300)}`
      )
      c.check(
        f.r.stdout.includes('Using key ***'),
        'the planted line is not shown, redacted, in the log'
      )
      c.check(warningLines(f.r).length === 0, `warnings: ${warningLines(f.r).join(' | ')}`)
    },
    { lane: four }
  )

  for (const fault of LOG_FAULTS)
    inBothLogModesWithEmulator(
      GROUP,
      `${fault.key} on the log request: one warning, the same exit code and annotation, rolled back`,
      async (c, emu, debug) => {
        const f = await deployThenFail(c, emu, debug, [fault.spec])
        expectFailedRevisionNamed(c, f)
        expectSameVerdict(c, f)
        expectRolledBack(c, emu, f)
        const ws = warningLines(f.r)
        c.check(
          ws.length === 1 && /Could not show the log/.test(ws[0]!),
          `${ws.length} warnings, expected 1 saying the log could not be shown: ${ws.join(' | ').slice(0, 300)}`
        )
        const logRequests = emu.requests().filter(q => /logs$/.test(q.path))
        const spanMs =
          logRequests.length > 0
            ? Date.parse(logRequests.at(-1)!.time) - Date.parse(logRequests[0]!.time)
            : 0
        c.check(
          spanMs < LOG_BUDGET_MS,
          `log requests sent over ${spanMs} ms, past the ${LOG_BUDGET_MS} ms budget`
        )
        c.note(`${logRequests.length} log requests; the failing run took ${f.r.ms} ms`)
      },
      { lane: four }
    )

  inBothLogModesWithEmulator(
    GROUP,
    'a log slower than its budget: the run ends at the budget, not when the log answers',
    async (c, emu, debug) => {
      // The failed revision's log request (newest first; the wait's reads of the build log go
      // oldest first) is held and never answered: a run that waited for it past its budget
      // would never end by itself (the harness kills it: exit code null).
      const proxy = await startGateProxy(emu.url)
      const held = proxy.gate(failureLogRead)
      let asked = false
      void held.reached.then(() => (asked = true))
      try {
        const r = await c.run({
          inputs: {
            ...deployInputs(c, emu, uniqueName('slow-log')),
            ref: 'fail-build',
            'base-url': proxy.url
          },
          env: debugEnv(debug),
          timeoutMs: LOG_BUDGET_MS + 60_000
        })
        c.check(r.code === 1 && r.errors.length === 1, `exit ${r.code}, ${r.errors.length} errors`)
        c.check(/ended BUILD_FAILED/.test(errorText(r)), `error: ${errorText(r).slice(0, 200)}`)
        const ws = warningLines(r)
        c.check(
          ws.length === 1 && /Could not show the log/.test(ws[0]!),
          `${ws.length} warnings: ${ws.join(' | ').slice(0, 300)}`
        )
        c.check(asked, 'the log was never asked for')
      } finally {
        held.open()
        await proxy.close()
      }
    },
    { lane: four }
  )

  // A redeploy that meets one fault and is rolled back all the same: what each fault leaves.
  const ROLLED_BACK_UNDER: [string, FaultSpec, (c: Case, emu: Emulator) => void][] = [
    [
      'the redeploy answer lost once: one redeploy, never two, rolled back',
      { kind: 'lost-response', method: 'POST', path: REDEPLOY, times: 1 },
      (c, emu) =>
        c.check(
          redeploys(emu).length === 1,
          `${redeploys(emu).length} redeploys sent, expected 1: a write whose answer was lost was sent again`
        )
    ],
    [
      'the redeploy answered 429 with Retry-After once: waited out, one redeploy, rolled back',
      { kind: 'status', status: 429, retryAfter: 1, method: 'POST', path: REDEPLOY, times: 1 },
      (c, emu) => {
        const applied = redeploys(emu).filter(q => q.status !== null && q.status < 300)
        c.check(applied.length === 1, `${applied.length} redeploys applied, expected 1`)
        const gaps = checkRetryAfter(c, emu.requests(), {
          key: '429',
          spec: { kind: 'status', status: 429 },
          last: /HTTP 429/,
          retryAfterMs: 1000
        })
        c.check(gaps.length === 1, `${gaps.length} redeploys after the 429, expected 1`)
        c.note(`redeploy sent again ${gaps.join(', ')} ms after the 429`)
      }
    ]
  ]
  for (const [title, fault, then] of ROLLED_BACK_UNDER)
    inBothLogModesWithEmulator(
      GROUP,
      title,
      async (c, emu, debug) => {
        await rolledBackUnder(c, emu, debug, [fault])
        then(c, emu)
      },
      { lane: four }
    )

  inBothLogModesWithEmulator(
    GROUP,
    'the redeploy answered 500 for good: fails naming the failed revision and that the rollback failed',
    async (c, emu, debug) => {
      const f = await deployThenFail(c, emu, debug, [
        { kind: 'status', status: 500, method: 'POST', path: REDEPLOY }
      ])
      expectFailedRevisionNamed(c, f)
      const text = errorText(f.r)
      c.check(
        /roll(ed)?[ -]?back/i.test(text) && /fail|did not|could not|not restore/i.test(text),
        `the annotation does not say the rollback failed: ${text.slice(0, 300)}`
      )
      c.check(/HTTP 500/.test(text), `the annotation does not name HTTP 500: ${text.slice(0, 300)}`)
      c.check(
        f.revisions.length === 2,
        `${f.revisions.length} revisions, expected 2 (no rollback revision was made)`
      )
      c.check(
        f.activeId === f.good,
        `active revision ${f.activeId}, expected the good one (${f.good}) still serving`
      )
      c.check(
        (f.r.outputs['rollback-status'] ?? '') !== 'DEPLOYED',
        'rollback-status DEPLOYED although no redeploy was applied'
      )
      c.note(`${redeploys(emu).length} redeploys sent`)
    },
    { lane: four }
  )
})
