// What the run does on its own (rollback, delete, the wait on a deployment being deleted), the
// run's rules: run() in-process through a fake port against the emulator on one virtual clock,
// among other writers and a control plane that answers wrongly. It acts only on what this run
// owns, re-checks before it writes, and says when it holds back. Races are decided by events (a
// request held until the other writer has acted, a write made as the run starts waiting), never by
// timing. The bundle's share (workflow commands in server text, the url output, the pull-request
// comment): __tests__/e2e/autonomy.test.ts.
import { beforeEach, expect, test } from '@jest/globals'
import { randomUUID } from 'node:crypto'
import { startEmulator, type Emulator } from '../../../emulator/server.ts'
import { run } from '../../../src/run.ts'
import { SHA } from '../../builders.ts'
import { emulatorInputs, fakePort, type FakePort } from '../../builders/fake-port.ts'
import { heldIn, loadSeeded, seededDeployment, type Seeded } from '../../builders/in-process.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'
import { failureLogRead, withGateProxy as withProxy } from '../../e2e/gate.ts'

const v = virtualEmulator()
const { now, sleep } = v

/** On the code host, main is at the commit the run's event names: what a push builds. */
const MAIN_AT_EVENT = { 'https://github.com/acme/agent-server@main': SHA }
/** The deployments the running test seeded: each seed loads them all. */
let seeded: Seeded[] = []
beforeEach(() => {
  seeded = []
  v.emu.configure({ repoCommits: MAIN_AT_EVENT })
})

const portOf = (over: Record<string, string>, emu: Emulator = v.emu) =>
  fakePort(emulatorInputs(emu, { 'poll-interval': '2s', ...over }))

async function deploy(over: Record<string, string>, port: FakePort = portOf(over)) {
  const result = await run(port, { now, sleep })
  const errors = port.calls.filter(c => c.startsWith('error: '))
  return { ...result, port, errors, log: port.calls.join('\n'), summary: port.summaries.join('\n') }
}

/**
 * A deployment READY with one DEPLOYED revision of `main` (what a first good deploy leaves), made
 * a minute before the run, beside those seeded before it; its id.
 */
function seed(name: string, secrets: Record<string, string> = {}, emu: Emulator = v.emu): string {
  // Its own id: every seed loads the fixture again, which would give the others new ids.
  seeded.push(seededDeployment(emu, name, secrets, { id: randomUUID() }))
  loadSeeded(emu, seeded, MAIN_AT_EVENT)
  v.t += 60_000
  return named(name, emu).id
}
const named = (name: string, emu: Emulator = v.emu) => heldIn(emu, name)
/** A run of `name` whose revision fails its build, rolled back, through the control plane at `url`. */
const rollingBack = (name: string, url: string) =>
  deploy({ name, ref: 'fail-build', 'on-failure': 'rollback', 'base-url': url })
const writesTo = (id: string) =>
  v.emu.requests().filter(r => r.method !== 'GET' && r.path.startsWith(`/v2/deployments/${id}`))
const redeploys = () => v.emu.requests().filter(r => r.path.endsWith('/redeploy'))

/** A request to the emulator as another run (or a person) would send it. */
async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${v.emu.url}${path}`, {
    method,
    headers: { 'X-Api-Key': v.emu.credentials().apiKey, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await res.text()
  return text ? (JSON.parse(text) as Record<string, unknown>) : {}
}

/** Calls `act` once, as the run opens the group of that title (before what the group does). */
function onGroup(port: FakePort, title: RegExp, act: () => Promise<void>): void {
  const group = port.group
  let done = false
  port.group = async (name, fn) => {
    if (!done && title.test(name)) {
      done = true
      await act()
    }
    return group(name, fn)
  }
}

// ---------------------------------------------------------------------------------------------
// An answer about another deployment is an error naming both ids, before any write.

for (const command of ['deploy', 'delete'] as const) {
  test(`another id: a GET of deployment A answered with B (${command}) writes nothing and names both`, async () => {
    const a = seed('mine')
    const b = seed('other')
    const bBody = await call('GET', `/v2/deployments/${b}`)
    await withProxy(v.emu, async proxy => {
      proxy.rewrite(
        x => x.method === 'GET' && x.path === `/v2/deployments/${a}`,
        () => bBody
      )
      const inputs = { name: '', 'deployment-id': a, 'base-url': proxy.url }
      const r = await deploy(
        command === 'delete' ? { ...inputs, command, 'integration-id': '' } : inputs
      )
      expect(r.exitCode).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toContain(`about deployment ${b}, not about deployment ${a}`)
      expect(r.outputs['deployment-id']).not.toBe(b)
      if (command === 'delete') expect(r.outputs.deleted).toBe('false')
      expect(writesTo(a)).toEqual([])
      expect(writesTo(b)).toEqual([])
      expect(named('other').status).not.toBe('AWAITING_DELETE')
    })
  })
}

test('another id: a PATCH answered with another deployment is an error, not followed', async () => {
  const a = seed('mine')
  const b = seed('other')
  const bBody = await call('GET', `/v2/deployments/${b}`)
  await withProxy(v.emu, async proxy => {
    proxy.rewrite(
      x => x.method === 'PATCH',
      () => bBody
    )
    const r = await deploy({ name: 'mine', 'base-url': proxy.url })
    expect(r.exitCode).toBe(1)
    expect(r.errors[0]).toContain(`about deployment ${b}, not about deployment ${a}`)
    // One PATCH, never sent again on the strength of the lie, and nothing sent to B.
    expect(writesTo(a)).toHaveLength(1)
    expect(writesTo(b)).toEqual([])
    expect(r.outputs['deployment-id']).toBe(a)
  })
})

// ---------------------------------------------------------------------------------------------
// The rollback.

test('rollback vs a newer write: another run wrote after the failed revision, so nothing is redeployed', async () => {
  const name = 'overtaken'
  const id = seed(name)
  await withProxy(v.emu, async proxy => {
    // The failed revision's log is read before the rollback: held until the other run wrote.
    const logs = proxy.gate(failureLogRead)
    let other = ''
    void logs.reached.then(async () => {
      const d = await call('PATCH', `/v2/deployments/${id}`, {
        source_revision_config: { repo_ref: 'main' }
      })
      other = d.latest_revision_id as string
      logs.open()
    })
    const r = await rollingBack(name, proxy.url)
    expect(r.exitCode).toBe(1)
    expect(other).toMatch(/^[0-9a-f-]{36}$/)
    expect(redeploys()).toEqual([])
    expect(r.errors[0]).toContain(
      `Not rolled back: revision ${other} came after this run's revision ${r.outputs['revision-id']}`
    )
    expect(r.outputs['rollback-revision-id']).toBe('')
    // The other run's revision goes on: not superseded by a rollback.
    expect(named(name).latest_revision_id).toBe(other)
  })
})

test('rollback: a redeploy answered with the old latest revision is followed to its own new revision', async () => {
  const name = 'late-redeploy'
  seed(name)
  // Made, but the answer still shows the revision from before.
  v.emu.addFaults({ kind: 'old-revision', method: 'POST', path: '**/redeploy' })
  const r = await deploy({ name, ref: 'fail-build', 'on-failure': 'rollback' })
  expect(r.exitCode).toBe(1)
  const d = named(name)
  expect(redeploys()).toHaveLength(1)
  expect(r.outputs['rollback-revision-id']).toBe(d.latest_revision_id)
  expect(r.outputs['rollback-revision-id']).not.toBe(r.outputs['revision-id'])
  expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  expect(r.log).toContain("The redeploy's answer names no new revision")
  expect(r.errors[0]).toContain(`Rolled back: revision ${d.latest_revision_id}`)
})

test('rollback: a redeploy that made no revision is reported as not confirmed', async () => {
  const name = 'dropped-redeploy'
  const id = seed(name)
  await withProxy(v.emu, async proxy => {
    // The redeploy is never made: its answer is the deployment as it is.
    proxy.divert(x => x.path.endsWith('/redeploy'), {
      method: 'GET',
      path: `/v2/deployments/${id}`
    })
    const r = await rollingBack(name, proxy.url)
    expect(r.exitCode).toBe(1)
    expect(r.errors[0]).toContain('The rollback could not be confirmed')
    expect(r.errors[0]).not.toContain('Rolled back')
    expect(r.outputs['rollback-revision-id']).toBe('')
    expect(named(name).active_revision_id).not.toBe(r.outputs['revision-id'])
    expect(r.summary).toContain('**Rollback**: not confirmed')
  })
})

test('rollback: the message and the summary name the secrets and settings it did not undo', async () => {
  const name = 'partial'
  seed(name, { KEEP_ME: 'keep-value-1234', DROP_ME: 'drop-value-5678' })
  const r = await deploy({
    name,
    ref: 'fail-build',
    'on-failure': 'rollback',
    secrets: 'KEEP_ME=keep-value-1234',
    'install-command': 'pip install -e .[extra]'
  })
  expect(r.exitCode).toBe(1)
  expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  for (const text of [r.errors[0]!, r.summary]) {
    expect(text).toContain('secret DROP_ME (removed)')
    expect(text).toContain('install-command')
    expect(text).toContain('stay as this run set them')
  }
  // Indeed: the redeploy brought the old revision back, not the secret.
  expect(named(name).secrets.map(s => s.name)).toEqual(['KEEP_ME'])
})

// ---------------------------------------------------------------------------------------------
// A deployment being deleted, and a deployment deleted during the wait.

test('deploy meets AWAITING_DELETE: waits until it is gone, then creates it anew', async () => {
  const name = 'reborn'
  const old = seed(name)
  // No time passes before the run's first sleep: it reads AWAITING_DELETE first.
  await call('DELETE', `/v2/deployments/${old}?delete_tracing_project=true`)
  const r = await deploy({ name })
  expect(r.errors).toEqual([])
  expect(r.exitCode).toBe(0)
  expect(r.log).toMatch(
    /is being deleted \(AWAITING_DELETE\), so it cannot be updated: waiting until it is gone \(at most the timeout/
  )
  expect(r.outputs.created).toBe('true')
  expect(r.outputs['deployment-id']).not.toBe(old)
  expect(writesTo(old)).toEqual([expect.objectContaining({ method: 'DELETE' })])
})

test('a dry run that meets AWAITING_DELETE says what a run would do, and neither waits nor writes', async () => {
  const name = 'reborn-dry'
  const old = seed(name)
  await call('DELETE', `/v2/deployments/${old}`)
  const started = v.t
  const r = await deploy({ name, 'dry-run': 'true' })
  expect(r.exitCode).toBe(0)
  expect(r.log).toContain('a run would wait until it is gone, then create it anew')
  expect(r.log).toMatch(/Create deployment/)
  expect(v.emu.requests().filter(q => q.method === 'POST' || q.method === 'PATCH')).toEqual([])
  expect(named(name).status).toBe('AWAITING_DELETE')
  // Not a moment of its clock spent waiting.
  expect(v.t).toBe(started)
})

test('deploy vs delete: a deployment deleted during the wait is reported as deleted', async () => {
  const name = 'deleted-meanwhile'
  const port = portOf({ name })
  onGroup(port, /^Wait for revision/, async () => {
    await call('DELETE', `/v2/deployments/${named(name).id}?delete_tracing_project=true`)
  })
  const r = await deploy({}, port)
  expect(r.exitCode).toBe(1)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(/was deleted while this run waited for revision/)
  expect(r.errors[0]).not.toMatch(/check the id/)
})

// ---------------------------------------------------------------------------------------------
// The wrong dialect on the update path.

test('an update through the wrong dialect names api-dialect, not source', async () => {
  const emu = await startEmulator({ port: 0, now, dialect: 'langsmith' })
  try {
    const name = 'dialect'
    seed(name, {}, emu)
    const r = await deploy(
      { name, 'api-dialect': 'interface' },
      portOf({ name, 'api-dialect': 'interface' }, emu)
    )
    expect(r.exitCode).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('api-dialect: langsmith')
    expect(r.errors[0]).not.toContain('set source: github')
  } finally {
    await emu.close()
  }
})
