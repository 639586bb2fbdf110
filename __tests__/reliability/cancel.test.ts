// A run cancelled in each phase (lookup, create, wait) exits on its own, leaves what it
// knows in its outputs and summary, and a re-run afterwards converges without a duplicate.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { FaultSpec } from '../../emulator/server.ts'
import { uniqueName } from '../e2e/harness.ts'
import * as support from './support.ts'

interface Phase {
  name: string
  /** Holds the phase's request back, so the signal comes while it is pending. */
  fault?: FaultSpec
  /** The group the run has entered when the signal is sent. */
  when: string
  /** Slow lifecycle: the revision is still building when the signal comes. */
  speed?: number
  signal?: NodeJS.Signals
  /** Revisions in all after the cancelled run and the re-run. */
  revisions: number
}

const PHASES: Phase[] = [
  {
    name: 'lookup',
    fault: { kind: 'delay', ms: 4000, method: 'GET', path: '/v2/deployments', times: 1 },
    when: '::group::Find the deployment',
    revisions: 1
  },
  {
    // The held-back create lands after the run is gone: the re-run must find it, not make another.
    name: 'create',
    fault: { kind: 'delay', ms: 3000, method: 'POST', path: '/v2/deployments', times: 1 },
    when: '::group::Create the deployment',
    revisions: 2
  },
  { name: 'wait', when: '::group::Wait for revision', speed: 0.2, revisions: 2 },
  { name: 'wait', when: '::group::Wait for revision', speed: 0.2, revisions: 2, signal: 'SIGTERM' }
]

describe(GROUPS.cancel, () => {
  // Two at a time: the time from the signal to the exit is noted.
  const two = support.lane(2)
  for (const phase of PHASES)
    support.inBothLogModes(
      GROUPS.cancel,
      `${phase.signal ?? 'SIGINT'} during ${phase.name}: exits on its own, a re-run converges`,
      (c, debug) => cancelCase(c, phase, debug),
      { lane: two }
    )
})

async function cancelCase(c: support.Case, phase: Phase, debug: boolean): Promise<void> {
  await support.withEmulator({ speed: phase.speed ?? 10 }, async emu => {
    const name = uniqueName(`cancel-${phase.name}`)
    if (phase.fault) emu.setFaults(phase.fault)
    const inputs = support.deployInputs(c, emu, name)
    const env = support.debugEnv(debug)
    const signal = phase.signal ?? 'SIGINT'
    const r = await c.run({ inputs, env, cancel: { signal, when: phase.when } })

    c.check(r.exitAfterSignalMs !== undefined, 'the signal was never sent')
    // Exiting on its own (an exit code, not the harness's kill) is the check; how soon depends
    // on the machine, so it is noted, not asserted.
    c.note(`exited ${r.exitAfterSignalMs} ms after ${signal}`)
    c.check(r.code !== 0 && r.code !== null, `exit ${r.code}, expected a failure`)
    c.check(
      r.errors.length === 1 && /Cancel/.test(support.errorText(r)),
      `error: ${support.errorText(r).slice(0, 200)}`
    )
    c.check(r.summary.includes('Cancelled'), 'the summary does not say Cancelled')
    // A create cut off in flight may have landed: then `created` is not claimed either way.
    const inFlight = /whether it was applied is unknown/.test(support.errorText(r))
    c.check(
      inFlight
        ? (r.outputs.created ?? '') === ''
        : r.outputs.created === 'false' || r.outputs.created === 'true',
      inFlight ? '`created` claimed for a create whose outcome is unknown' : 'no `created` output'
    )
    if (phase.name === 'wait') {
      const [d] = support.deploymentsNamed(emu, name)
      c.check(
        r.outputs['deployment-id'] === d?.id,
        `deployment-id output ${r.outputs['deployment-id']}`
      )
      c.check(
        r.outputs['revision-id'] === d?.revisions[0]?.id,
        `revision-id output ${r.outputs['revision-id']}`
      )
      c.check(
        support.errorText(r).includes('goes on on the control plane'),
        'the error does not say the revision goes on'
      )
    }

    // Whatever the cancelled run left pending reaches the server first, then the re-run.
    await support.settled(emu)
    emu.clearFaults()
    emu.setSpeed(10)
    const again = await c.run({ inputs, env })
    c.check(
      again.code === 0,
      `re-run exit ${again.code}: ${support.errorText(again).slice(0, 300)}`
    )
    c.check(
      again.outputs['revision-status'] === 'DEPLOYED',
      `re-run revision-status ${again.outputs['revision-status']}`
    )
    c.tally(emu, name, { deployments: 1, revisions: phase.revisions })
  })
}
