// `command: check` end to end, through the built bundle against the emulator: in sync, each kind
// of drift (a planned change, a setting changed by hand, a redeploy from the web app that failed
// or is still building, another commit than the ref names, no deployment), the step's verdict
// with and without `fail-on-drift`, and secrets shown by name only. It never writes.
import { expect } from '@jest/globals'
import { PUSH_MAIN } from '../../scripts/runner-env.ts'
import { BUILDS_FOR_A_DAY, e2e, leaks, runAction as run, type E2E } from './harness.ts'

const SECRET = 'sk-live-check-0123456789-current'
const OTHER = 'sk-live-check-0123456789-wanted'

const checkInputs = (t: E2E, over: Record<string, string> = {}) =>
  t.inputs({ command: 'check', name: 'agent', ...over })
const writes = (t: E2E) => t.emu.requests().filter(r => r.method !== 'GET')
const idOf = (t: E2E) => t.named('agent')[0]!.id

e2e('check: in sync: drift false, exit 0, three requests at most, nothing written', async t => {
  t.seed('agent', { OPENAI_API_KEY: SECRET })
  t.emu.clearRequests()
  const r = await run({ inputs: checkInputs(t, { secrets: `OPENAI_API_KEY=${SECRET}` }) })
  expect(r.code).toBe(0)
  expect(r.outputs.drift).toBe('false')
  expect(r.outputs['deployment-id']).toBe(idOf(t))
  expect(r.stdout).toContain('In sync: "agent" is what these inputs describe.')
  expect(r.summary).toContain('### ✅ In sync: `agent`')
  expect(t.emu.requests().length).toBeLessThanOrEqual(4)
  expect(writes(t)).toEqual([])
})

e2e('check: a planned change is drift; secrets by name only; the step fails', async t => {
  t.seed('agent', { OPENAI_API_KEY: SECRET })
  const r = await run({
    inputs: checkInputs(t, { secrets: `OPENAI_API_KEY=${OTHER}`, ref: 'release' })
  })
  expect(r.code).toBe(1)
  expect(r.outputs.drift).toBe('true')
  expect(r.errors.join('\n')).toMatch(
    /::error title=Drift::"agent" differs from these inputs: a deploy would change 2 settings/
  )
  expect(r.stdout).toContain('source_revision_config.repo_ref: main -> release')
  expect(r.stdout).toContain('secrets.OPENAI_API_KEY: *** -> ***')
  expect(r.summary).toContain('secrets.OPENAI_API_KEY: *** -> ***')
  expect(leaks(r, [SECRET, OTHER])).toEqual([])
  expect(writes(t)).toEqual([])
})

e2e('check: a setting changed by hand is drift; fail-on-drift false only reports it', async t => {
  t.seed('agent')
  // As the last deploy left it, then changed by hand.
  t.emu.outOfBand(idOf(t), { source_config: { build_on_push: false } })
  const inputs = checkInputs(t, { 'build-on-push': 'false', 'fail-on-drift': 'false' })
  const before = await run({ inputs })
  expect(before.outputs.drift).toBe('false')
  t.emu.outOfBand(idOf(t), { source_config: { build_on_push: true } })
  const r = await run({ inputs })
  expect(r.code).toBe(0)
  expect(r.outputs.drift).toBe('true')
  expect(r.stdout).toContain('source_config.build_on_push: true -> false')
  expect(r.stdout).toMatch(
    /::warning title=Drift::"agent" differs from these inputs: .* `fail-on-drift: false`: the step passes\./
  )
  expect(r.errors).toEqual([])
})

e2e(
  'check: a redeploy from the web app that failed leaves the active revision behind the latest',
  async t => {
    t.seed('agent')
    const active = t.named('agent')[0]!.active_revision_id
    const failed = t.emu.outOfBand(idOf(t), { redeploy: { repo_ref: 'fail-build' } }).revision_id!
    // Its build fails at once on the emulator's clock, sped up until it has.
    t.emu.setSpeed(10_000)
    while (t.named('agent')[0]!.revisions.at(-1)!.status !== 'BUILD_FAILED')
      await new Promise(res => setTimeout(res, 20))
    t.emu.setSpeed(4)
    const r = await run({ inputs: checkInputs(t) })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      `The active revision ${active} is not the latest: ${failed} is BUILD_FAILED (failed).`
    )
    // The failed revision's ref differs from what the inputs deploy: that is listed too.
    expect(r.stdout).toContain('source_revision_config.repo_ref: fail-build -> main')
    expect(r.summary).toContain('is not the latest')
  }
)

e2e(
  'check: a revision still building is drift; the commit the active one built is compared with the ref',
  async t => {
    t.seed('agent')
    const building = t.emu.outOfBand(idOf(t), { redeploy: {} }).revision_id!
    const r = await run({
      inputs: checkInputs(t),
      event: { ...PUSH_MAIN, sha: '1111111111111111111111111111111111111111' }
    })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`${building} is BUILDING \\(in progress\\)`))
    expect(r.stdout).toContain(
      `built commit ${PUSH_MAIN.sha}, but main names 1111111111111111111111111111111111111111 now`
    )
    // Three reads: the look-up, the latest and the active revision.
    expect(t.emu.requests().length).toBeLessThanOrEqual(4)
  },
  { stageDurationsMs: BUILDS_FOR_A_DAY }
)

e2e(
  'check: a deployment that does not exist is drift; a ref set by input skips the commit',
  async t => {
    const absent = await run({ inputs: checkInputs(t, { name: 'nowhere' }) })
    expect(absent.code).toBe(1)
    expect(absent.outputs.drift).toBe('true')
    expect(absent.stdout).toContain(
      'Deployment "nowhere" does not exist: a deploy would create it.'
    )
    t.seed('agent')
    // Run on another branch: what `main` names now is not known to this run.
    const byInput = await run({
      inputs: checkInputs(t, { ref: 'main' }),
      event: { ...PUSH_MAIN, ref: 'refs/heads/dev', refName: 'dev' }
    })
    expect(byInput.code).toBe(0)
    expect(byInput.stdout).toMatch(
      /::notice::Not compared: the commit built: the ref main is not the event's/
    )
    expect(writes(t)).toEqual([])
  }
)
