// `command: check` in-process (the action's door on a fake port, against the emulator on one
// virtual clock): each kind of drift the deployment's own state makes (a setting changed by hand,
// a redeploy from the web app that failed or is still building, another commit than the ref names,
// no deployment, another type, one being deleted, an active revision whose answer is not DEPLOYED),
// with and without `fail-on-drift`. It never writes. Drift is exit 3 here; the action's door makes
// any non-zero exit 1 (e2e/check.test.ts holds in sync, a planned change and the masking).
import { describe, expect, test } from '@jest/globals'
import { demoFixture } from '../../../emulator/server.ts'
import type { EventDefaults } from '../../../src/runner/event.ts'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import { readRun } from '../../builders/in-process.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

const v = virtualEmulator()
const { now, sleep } = v

const REPO = 'https://github.com/acme/agent-server'
/** What main points to on the emulator, and the commit a push of main expects. */
const BUILT = 'a1'.repeat(20)
const PUSH: EventDefaults = { ref: 'main', expectedSha: BUILT, repository: 'acme/agent-server' }

const deployments = () => v.emu.state().tenants.flatMap(t => t.deployments)
const named = (name: string) => deployments().filter(d => d.name === name)
const idOf = () => named('agent')[0]!.id
const writes = () => v.emu.requests().filter(r => r.method !== 'GET')

/** `agent`, READY with one DEPLOYED revision of main (at BUILT), `over` on top. */
function seed(over: Record<string, unknown> = {}): string {
  const base = demoFixture()
  const c = v.emu.credentials()
  v.emu.loadFixture({
    ...base,
    repo_commits: { [`${REPO}@main`]: BUILT },
    deployments: [
      {
        tenant_id: c.tenantId,
        name: 'agent',
        source: 'codehost',
        source_config: { integration_id: c.integrationId, repo_url: REPO },
        source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
        ...over
      }
    ]
  })
  return idOf()
}

async function check(over: Record<string, string> = {}, event: EventDefaults = PUSH) {
  const port = fakePort(emulatorInputs(v.emu, { command: 'check', name: 'agent', ...over }), {
    event
  })
  return readRun(port, await run(port, { now, sleep }))
}

describe('check: the deployment itself is drift', () => {
  test('a setting changed by hand is drift; fail-on-drift false only reports it', async () => {
    seed()
    // As the last deploy left it, then changed by hand.
    v.emu.outOfBand(idOf(), { source_config: { build_on_push: false } })
    const inputs = { 'build-on-push': 'false', 'fail-on-drift': 'false' }
    const before = await check(inputs)
    expect(before.outputs.drift).toBe('false')
    v.emu.outOfBand(idOf(), { source_config: { build_on_push: true } })
    const r = await check(inputs)
    expect(r.code).toBe(0)
    expect(r.outputs.drift).toBe('true')
    expect(r.log).toContain('source_config.build_on_push: true -> false')
    expect(r.log).toMatch(
      /warning: Drift: "agent" differs from these inputs: .* `fail-on-drift: false`: the step passes\./
    )
    expect(r.errors).toEqual([])
  })

  test('a redeploy from the web app that failed leaves the active revision behind the latest', async () => {
    seed()
    const active = named('agent')[0]!.active_revision_id
    const failed = v.emu.outOfBand(idOf(), { redeploy: { repo_ref: 'fail-build' } }).revision_id!
    // Its build fails on the emulator's clock, moved on until it has.
    while (named('agent')[0]!.revisions.at(-1)!.status !== 'BUILD_FAILED') v.t += 1000
    const r = await check()
    expect(r.code).toBe(3)
    expect(r.log).toContain(
      `The active revision ${active} is not the latest: ${failed} is BUILD_FAILED (failed).`
    )
    // The failed revision's ref differs from what the inputs deploy: that is listed too.
    expect(r.log).toContain('source_revision_config.repo_ref: fail-build -> main')
    expect(r.summary).toContain('is not the latest')
  })

  test('a revision still building is drift; the commit the active one built is compared with the ref', async () => {
    seed()
    v.emu.configure({ stageDurationsMs: { BUILDING: 24 * 3600_000 } })
    const building = v.emu.outOfBand(idOf(), { redeploy: {} }).revision_id!
    v.t += 1000
    v.emu.clearRequests()
    const r = await check({}, { ...PUSH, expectedSha: '1'.repeat(40) })
    expect(r.code).toBe(3)
    expect(r.log).toMatch(new RegExp(`${building} is BUILDING \\(in progress\\)`))
    expect(r.log).toContain(`built commit ${BUILT}, but main names ${'1'.repeat(40)} now`)
    // Three reads: the look-up, the latest and the active revision.
    expect(v.emu.requests().length).toBeLessThanOrEqual(4)
  })

  test('a deployment that does not exist is drift; a ref set by input skips the commit', async () => {
    seed()
    const absent = await check({ name: 'nowhere' })
    expect(absent.code).toBe(3)
    expect(absent.outputs.drift).toBe('true')
    expect(absent.log).toContain('Deployment "nowhere" does not exist: a deploy would create it.')
    // Run on another branch: what `main` names now is not known to this run.
    const byInput = await check({ ref: 'main' }, { ...PUSH, ref: 'dev' })
    expect(byInput.code).toBe(0)
    expect(byInput.log).toMatch(
      /notice: : Not compared: the commit built: the ref main is not the event's/
    )
    expect(writes()).toEqual([])
  })

  test('another type than deployment-type, and being deleted, are drift, never in sync', async () => {
    const c = v.emu.credentials()
    seed({
      source_config: {
        integration_id: c.integrationId,
        repo_url: REPO,
        deployment_type: 'dedicated'
      }
    })
    const typed = await check({ 'deployment-type': 'serverless' })
    expect(typed.code).toBe(3)
    expect(typed.outputs.drift).toBe('true')
    expect(typed.errors.join('\n')).toContain(
      'error: Drift: "agent" differs from these inputs: it is of another type'
    )
    expect(typed.log).toContain(
      '"agent" is dedicated, but `deployment-type: serverless` asks for serverless'
    )
    v.emu.configure({ stageDurationsMs: { DELETE: 24 * 3600_000 } })
    const res = await fetch(`${v.emu.url}/v2/deployments/${idOf()}`, {
      method: 'DELETE',
      headers: { 'x-api-key': c.apiKey }
    })
    expect(res.status).toBe(204)
    const before = writes().length
    const gone = await check()
    expect(gone.code).toBe(3)
    expect(gone.outputs.drift).toBe('true')
    expect(gone.log).toContain(
      '"agent" is being deleted (AWAITING_DELETE): a deploy would wait until it is gone, then create it anew.'
    )
    expect(gone.summary).toContain('### ⚠️ Drift: `agent`')
    expect(gone.log).not.toContain('In sync')
    expect(writes()).toHaveLength(before)
  })

  test('an active revision whose own answer is not DEPLOYED is drift', async () => {
    const id = seed()
    const revision = named('agent')[0]!.revisions[0]!.id
    const path = `/v2/deployments/${id}/revisions/${revision}`
    const headers = { 'x-api-key': v.emu.credentials().apiKey }
    const answer = await fetch(`${v.emu.url}${path}`, { headers })
    const body = { ...((await answer.json()) as object), status: 'DEPLOY_FAILED' }
    v.emu.setFaults({ kind: 'bad-schema', method: 'GET', path, body })
    const r = await check()
    expect(r.code).toBe(3)
    expect(r.outputs.drift).toBe('true')
    expect(r.log).toContain(`The active revision ${revision} is DEPLOY_FAILED, not DEPLOYED.`)
    expect(r.errors.join('\n')).toContain('its active revision is not DEPLOYED')
  })
})
