// `command: check` end to end, through the built bundle against the emulator: in sync, each kind
// of drift (a planned change, a setting changed by hand, a redeploy from the web app that failed
// or is still building, another commit than the ref names, no deployment, another type, one being
// deleted, an active revision whose answer is not DEPLOYED), the step's verdict
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

e2e(
  'check: another type than deployment-type, and being deleted, are drift, never in sync',
  async t => {
    t.seed(
      'agent',
      {},
      {
        source_config: {
          integration_id: t.integration,
          repo_url: 'https://github.com/acme/agent-server',
          deployment_type: 'dedicated'
        }
      }
    )
    const typed = await run({ inputs: checkInputs(t, { 'deployment-type': 'serverless' }) })
    expect(typed.code).toBe(1)
    expect(typed.outputs.drift).toBe('true')
    expect(typed.errors.join('\n')).toContain(
      '::error title=Drift::"agent" differs from these inputs: it is of another type'
    )
    expect(typed.stdout).toContain(
      '"agent" is dedicated, but `deployment-type: serverless` asks for serverless'
    )
    t.emu.configure({ stageDurationsMs: { DELETE: 24 * 3600_000 } })
    const res = await fetch(`${t.emu.url}/v2/deployments/${idOf(t)}`, {
      method: 'DELETE',
      headers: { 'x-api-key': t.key }
    })
    expect(res.status).toBe(204)
    const before = writes(t).length
    const gone = await run({ inputs: checkInputs(t) })
    expect(gone.code).toBe(1)
    expect(gone.outputs.drift).toBe('true')
    expect(gone.stdout).toContain(
      '"agent" is being deleted (AWAITING_DELETE): a deploy would wait until it is gone, then create it anew.'
    )
    expect(gone.summary).toContain('### ⚠️ Drift: `agent`')
    expect(gone.stdout).not.toContain('In sync')
    expect(writes(t)).toHaveLength(before)
  }
)

e2e('check: an active revision whose own answer is not DEPLOYED is drift', async t => {
  const id = t.seed('agent')
  const revision = t.named('agent')[0]!.revisions[0]!.id
  const path = `/v2/deployments/${id}/revisions/${revision}`
  const answer = await fetch(`${t.emu.url}${path}`, { headers: { 'x-api-key': t.key } })
  const body = { ...((await answer.json()) as object), status: 'DEPLOY_FAILED' }
  t.emu.setFaults({ kind: 'bad-schema', method: 'GET', path, body })
  const r = await run({ inputs: checkInputs(t) })
  expect(r.code).toBe(1)
  expect(r.outputs.drift).toBe('true')
  expect(r.stdout).toContain(`The active revision ${revision} is DEPLOY_FAILED, not DEPLOYED.`)
  expect(r.errors.join('\n')).toContain('its active revision is not DEPLOYED')
})
