// A failed revision end to end: its log in the job (secrets redacted), the log's absence costing
// one warning and nothing else, an unhealthy revision's deploy log ending with its server's errors,
// and `on-failure: rollback` restoring the previous revision.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import { failureLogRead, startGateProxy } from './gate.ts'
import {
  BUILDS_FOR_A_DAY,
  e2e,
  leaks,
  runAction as run,
  uniqueName,
  warnings,
  redeploys,
  expectRolledBackTo,
  type E2E
} from './harness.ts'

const logRequests = (emu: Emulator) => emu.requests().filter(r => /\/logs$|_logs$/.test(r.path))
const PLANTED = 'planted-secret-value-42'
/** A run whose revision fails its build (`ref: fail-build`), with `over`. */
const failing = (inputs: E2E['inputs'], over: Record<string, string>) =>
  run({ inputs: inputs({ ref: 'fail-build', ...over }) })
const ROLLBACK = { 'on-failure': 'rollback' }

e2e(
  'the log of a failed revision: a build failure shows its last lines, redacted, and names the telling line',
  async ({ emu, inputs }) => {
    const name = uniqueName('build-log')
    emu.script({
      outcome: 'BUILD_FAILED',
      logLines: [
        'Installing dependencies',
        `Using token ${PLANTED}`,
        '::error::injected',
        'ModuleNotFoundError: No module named agentlib'
      ]
    })
    const r = await run({ inputs: inputs({ name, secrets: `TOKEN=${PLANTED}` }) })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/::group::Build log of revision [0-9a-f-]+ \(last \d+ lines\)/)
    expect(r.stdout).toContain('Using token ***')
    expect(r.stdout).not.toMatch(/^::error::injected/m)
    expect(leaks(r, [PLANTED])).toEqual([])
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /ended BUILD_FAILED after \S+: ModuleNotFoundError: No module named agentlib/
    )
    expect(r.summary).toContain('<details><summary>')
    expect(r.summary).toContain('ModuleNotFoundError')
  }
)

e2e(
  'the log of a failed revision: a deploy failure shows the deploy log',
  async ({ emu, inputs }) => {
    const name = uniqueName('deploy-log')
    emu.script({
      outcome: 'DEPLOY_FAILED',
      logLines: ['Starting server', 'Health check failed: port 8000 not open']
    })
    const r = await run({ inputs: inputs({ name }) })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/::group::Deploy log of revision/)
    expect(r.errors[0]).toMatch(/ended DEPLOY_FAILED .*Health check failed/)
  }
)

for (const status of [404, 500]) {
  e2e(
    `the log of a failed revision: a log that answers ${status} costs one warning and changes nothing else`,
    async ({ emu, inputs }) => {
      const name = uniqueName('no-log')
      emu.addFaults({ kind: 'status', status, path: '**/*logs' })
      const r = await failing(inputs, { name })
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(/ended BUILD_FAILED/)
      expect(warnings(r.stdout).filter(w => /Could not show the log/.test(w))).toHaveLength(1)
    }
  )
}

e2e(
  'the log of a failed revision: failure-logs: 0 makes no log request, not even while it builds',
  async ({ emu, inputs }) => {
    const r = await failing(inputs, { name: uniqueName('off'), 'failure-logs': '0' })
    expect(r.code).toBe(1)
    const ok = await run({ inputs: inputs({ name: uniqueName('ok'), 'failure-logs': '0' }) })
    expect(ok.code).toBe(0)
    expect(logRequests(emu)).toEqual([])
    expect(ok.stdout).not.toMatch(/^build \| /m)
  }
)

e2e(
  'on-failure: rollback: a failed revision is followed by the previous one, redeployed and DEPLOYED',
  async ({ emu, inputs, named, seed }) => {
    const name = uniqueName('rollback')
    seed(name)
    const good = named(name)[0]!.active_revision_id!
    const r = await failing(inputs, { name, ...ROLLBACK })
    expect(r.code).toBe(1)
    expectRolledBackTo(r, emu, good)
    const [d] = named(name)
    expect(r.outputs['rollback-revision-id']).toBe(d!.active_revision_id)
    expect(r.errors[0]).toMatch(/ended BUILD_FAILED.*Rolled back: revision \S+ \(a redeploy of /)
    expect(r.summary).toContain('Rollback timeline')
  }
)

e2e(
  'on-failure: rollback: a first deploy that fails has nothing to roll back to, and says so',
  async ({ emu, inputs }) => {
    const r = await failing(inputs, { name: uniqueName('first'), ...ROLLBACK })
    expect(r.code).toBe(1)
    expect(redeploys(emu)).toEqual([])
    expect(r.errors[0]).toMatch(/Not rolled back: nothing to roll back to/)
    expect(r.outputs['rollback-revision-id']).toBe('')
  }
)

e2e(
  'on-failure: rollback: a timeout is not rolled back',
  async ({ emu, inputs, seed }) => {
    const name = uniqueName('slow')
    seed(name)
    const r = await run({
      inputs: inputs({
        name,
        ref: 'release',
        timeout: '2s',
        'poll-interval': '1s',
        'on-failure': 'rollback'
      })
    })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Still BUILDING after 2s/)
    expect(redeploys(emu)).toEqual([])
  },
  // The new revision builds for a day: only the timeout ends the run, however slow the machine.
  { stageDurationsMs: BUILDS_FOR_A_DAY }
)

e2e(
  'on-failure: rollback: a lost redeploy answer is read back: one redeploy, never two',
  async ({ emu, inputs, seed }) => {
    const name = uniqueName('lost-redeploy')
    seed(name)
    emu.addFaults({ kind: 'lost-response', method: 'POST', path: '**/redeploy', times: 1 })
    const r = await failing(inputs, { name, ...ROLLBACK })
    expect(r.code).toBe(1)
    expect(redeploys(emu)).toHaveLength(1)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  }
)

e2e(
  'on-failure: rollback: a revision superseded (SKIPPED) is not rolled back',
  async ({ emu, key, inputs, named, seed }) => {
    const name = uniqueName('skipped')
    seed(name)
    // This run's revision would fail its build, but a newer revision supersedes it first.
    const r = await run({
      inputs: inputs({ name, ref: 'fail-build', 'on-failure': 'rollback' }),
      onStdout: {
        when: '::group::Wait for revision',
        run: async () => {
          await patch(emu, key, named(name)[0]!.id)
          emu.setSpeed(1000)
        }
      }
    })
    expect(r.code).toBe(0)
    expect(r.outputs['revision-status']).toBe('SKIPPED')
    expect(redeploys(emu)).toEqual([])
    expect(r.outputs['rollback-revision-id']).toBe('')
    expect(r.stdout).not.toMatch(/Rolling back/)
  },
  // Near-frozen until the newer revision has arrived (however loaded the machine, this run's cannot
  // fail first), then fast: the run follows the newer revision to its end.
  { speed: 0.0001 }
)

e2e(
  'on-failure: rollback: not done when another revision became active meanwhile, and says why',
  async ({ emu, key, inputs, named, seed }) => {
    const name = uniqueName('overtaken')
    seed(name)
    const good = named(name)[0]!.active_revision_id!
    const proxy = await startGateProxy(emu.url)
    try {
      // The failed revision's log is read before the rollback: held until another run's
      // revision is DEPLOYED (the emulator fast-forwarded until then), whatever the timing.
      const logs = proxy.gate(failureLogRead)
      let other = ''
      void logs.reached.then(async () => {
        other = await patch(emu, key, named(name)[0]!.id)
        emu.setSpeed(1000)
        while (named(name)[0]!.active_revision_id !== other)
          await new Promise(res => setTimeout(res, 5))
        emu.setSpeed(4)
        logs.open()
      })
      const r = await run({
        inputs: inputs({ name, ref: 'fail-build', 'on-failure': 'rollback', 'base-url': proxy.url })
      })
      expect(r.code).toBe(1)
      expect(other).not.toBe('')
      expect(named(name)[0]!.active_revision_id).toBe(other)
      expect(redeploys(emu)).toEqual([])
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(/ended BUILD_FAILED/)
      // The other run's revision is the latest: that alone holds the rollback back.
      expect(r.errors[0]).toContain(
        `Not rolled back: revision ${other} came after this run's revision ${r.outputs['revision-id']}`
      )
      expect(r.errors[0]).not.toContain(good)
      expect(r.outputs['rollback-revision-id']).toBe('')
    } finally {
      await proxy.close()
    }
  }
)

/** Another run's update: PATCHes the deployment over HTTP; the id of the new revision. */
async function patch(emu: Emulator, key: string, deploymentId: string): Promise<string> {
  const res = await fetch(`${emu.url}/v2/deployments/${deploymentId}`, {
    method: 'PATCH',
    headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ source_revision_config: { repo_ref: 'main' } })
  })
  return ((await res.json()) as { latest_revision_id: string }).latest_revision_id
}

e2e(
  'the log of an unhealthy revision: its deploy log ends with what its server printed when the probes failed, not only with the rollout that passed',
  async ({ emu, inputs }) => {
    const name = uniqueName('unhealthy-log')
    // As run 4 of the demo: it answers once, then its graph no longer loads.
    emu.agents.script('*', {
      sequence: ['healthy'],
      health: 'failing',
      status: 500,
      body: 'graph "agent" failed to load: KeyError: OPENAI_API_BASE'
    })
    const r = await run({
      inputs: inputs({ name, 'health-check': 'true', 'health-check-window': '2s' })
    })
    expect(r.code).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    const group = /::group::Deploy log of revision [^\n]*\n([^]*?)::endgroup::/.exec(r.stdout)
    expect(group).not.toBeNull()
    const lines = group![1]!.trim().split('\n')
    expect(lines.at(-1)).toMatch(
      /^ERROR +"GET \/ok HTTP\/1\.1" 500: graph "agent" failed to load: KeyError: OPENAI_API_BASE$/
    )
  }
)
