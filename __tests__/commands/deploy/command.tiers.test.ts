// Deployment types and sizes, the run's rules: run() in-process through a fake port against the
// emulator on one virtual clock. A resize alone or with a code change is waited on as this run's,
// a resize answered with an older revision is read again (never success on it), a failed resize is
// rolled back with the size kept, a change of type is refused before writing, a legacy word reads
// as its type, the langsmith dialect sends the same create, and a Serverless server's wake-up is
// told from its own error. What is asserted is what the emulator received and holds, the exit
// code, the outputs, the log lines and the summary. The bundle's share: __tests__/e2e/tiers.test.ts.
import { expect, test } from '@jest/globals'
import { startEmulator, type Emulator } from '../../../emulator/server.ts'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import {
  DEPLOYS_AT_ONCE,
  heldIn,
  loadSeeded,
  seededDeployment,
  type Seeded
} from '../../builders/in-process.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

const v = virtualEmulator()
const { now, sleep } = v

async function deploy(over: Record<string, string>, emu: Emulator = v.emu) {
  const port = fakePort(emulatorInputs(emu, { 'poll-interval': '2s', ...over }))
  const result = await run(port, { now, sleep })
  const log = port.calls.join('\n')
  return { ...result, port, log, errors: port.calls.filter(c => c.startsWith('error: ')) }
}

/**
 * A deployment READY with one DEPLOYED revision of `main` (what a first good deploy leaves), made
 * a minute before the run.
 */
function seed(name: string, over: Partial<Seeded> = {}): string {
  const id = loadSeeded(v.emu, [seededDeployment(v.emu, name, {}, over)])
  v.t += 60_000
  return id
}

/** The deployment of that name as the emulator holds it now. */
const held = (name: string, emu: Emulator = v.emu) => heldIn(emu, name)
const writes = (emu: Emulator = v.emu) =>
  emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')
/** The resize requests the emulator received. */
const resizes = (emu: Emulator = v.emu) =>
  emu.requests().filter(r => r.method === 'PATCH' && r.path.endsWith('/resource-tiers'))

test('a resize alone: the run makes no code revision; the resize revision is this run’s and waited on', async () => {
  const name = 'alone'
  const id = seed(name, {
    source: 'internal_template',
    source_config: {},
    source_revision_config: {},
    deployment_type: 'serverless'
  })
  const r = await deploy({
    name: '',
    'deployment-id': id,
    source: 'internal_template',
    'integration-id': '',
    size: 'large'
  })
  expect(r.errors).toEqual([])
  expect(r.exitCode).toBe(0)
  // The update itself sets nothing of a revision: only the resize makes one.
  expect(writes().map(w => [`${w.method} ${w.path.replace(id, ':id')}`, w.body])).toEqual([
    ['PATCH /v2/deployments/:id', {}],
    ['PATCH /v2/deployments/:id/resource-tiers', { compute_tier: 'SERVERLESS_L' }]
  ])
  const d = held(name)
  expect(d.revisions).toHaveLength(2)
  expect(r.outputs['revision-id']).toBe(d.latest_revision_id)
  expect(r.outputs['revision-status']).toBe('DEPLOYED')
  expect(r.log).toContain(`Wait for revision ${d.latest_revision_id}`)
  expect(r.outputs.size).toBe('large')
})

test(
  'a resize with a code change in one run: the verdict is on the resize revision, which carries the change',
  async () => {
    const name = 'both'
    seed(name)
    // The code change's revision builds long: the resize, sent right after it, supersedes it.
    v.emu.configure({ stageDurationsMs: { BUILDING: 40_000 } })
    v.emu.addFaults({
      kind: 'delay',
      ms: 1500,
      method: 'PATCH',
      path: '/v2/deployments/*/resource-tiers',
      times: 1
    })
    const r = await deploy({ name, ref: 'feature-x', size: 'medium' })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    const d = held(name)
    // Seeded, the code change's (superseded by the resize), the resize's.
    expect(d.revisions.map(x => x.status)).toEqual(['DEPLOYED', 'SKIPPED', 'DEPLOYED'])
    const [, code, resized] = d.revisions
    expect(r.outputs['revision-id']).toBe(resized!.id)
    expect(resized!.source_revision_config.repo_ref).toBe('feature-x')
    expect(code!.source_revision_config.repo_ref).toBe('feature-x')
    expect(d.deployment_tier).toBe('DEDICATED_M')
    expect(r.log).toContain(`follows revision ${code!.id} of this run's change and carries both`)
    expect(r.port.summaries.join('\n')).toMatch(
      /size: small \(DEDICATED_S\) -> medium \(DEDICATED_M\)/
    )
  },
  // The resize's answer waits 1.5 s of real time: room beyond jest's 5 s on a loaded machine.
  30_000
)

/** The resize answered (and, with `reads`, the deployment read) naming its first revision. */
const OLD_RESIZE = {
  kind: 'old-revision',
  revision: 'oldest',
  path: '/v2/deployments/*/resource-tiers'
} as const

test('a resize answered with a revision from before the run: read again, and the verdict is on the resize’s own revision', async () => {
  const name = 'older'
  seed(name)
  v.emu.addFaults([{ ...OLD_RESIZE, times: 1 }])
  const r = await deploy({ name, ref: 'feature-x', size: 'medium' })
  expect(r.errors).toEqual([])
  expect(r.exitCode).toBe(0)
  const [seeded, , resized] = held(name).revisions
  expect(r.outputs['revision-id']).toBe(resized!.id)
  expect(r.log).toContain(`The resize's answer names revision ${seeded!.id}, made before`)
  expect(r.log).not.toContain(`Wait for revision ${seeded!.id}`)
})

test('a resize whose answer and reads keep naming a revision from before the run: exit 1 saying so, never success on it', async () => {
  const name = 'older'
  seed(name)
  v.emu.addFaults([OLD_RESIZE, { kind: 'old-revision', revision: 'oldest', method: 'GET' }])
  const r = await deploy({ name, ref: 'feature-x', size: 'medium' })
  expect(r.exitCode).toBe(1)
  const [seeded] = held(name).revisions
  expect(r.errors[0]).toMatch(
    new RegExp(
      `Resize revision not this run’s.*answered with revision ${seeded!.id}, which was made before this run's revision`
    )
  )
  expect(r.outputs['revision-id']).not.toBe(seeded!.id)
  expect(r.outputs['revision-status']).not.toBe('DEPLOYED')
  expect(r.log).not.toContain(`Wait for revision ${seeded!.id}`)
})

test('a resize whose revision fails: the status_message is in the error, and the rollback says the size stays', async () => {
  const name = 'oom'
  const id = seed(name)
  v.emu.script({ outcome: 'DEPLOYED', deploymentId: id })
  v.emu.script({
    outcome: 'DEPLOY_FAILED',
    deploymentId: id,
    statusMessage: 'The server ran out of memory while starting'
  })
  const r = await deploy({ name, size: 'medium', 'on-failure': 'rollback' })
  expect(r.exitCode).toBe(1)
  expect(r.outputs['revision-status']).toBe('DEPLOY_FAILED')
  expect(r.errors[0]).toMatch(
    /ended DEPLOY_FAILED.*The control plane says: The server ran out of memory while starting\./s
  )
  expect(r.errors[0]).toMatch(
    /Rolled back: revision .* is DEPLOYED\..*changes to size stay as this run set them/s
  )
  expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  // The redeploy restores the revision, not the tier: that stays as this run set it.
  expect(held(name).deployment_tier).toBe('DEDICATED_M')
})

test('a legacy read of the same type is that type: no refusal, the outputs say serverless', async () => {
  const name = 'legacy'
  seed(name, { deployment_type: 'serverless', compute_tier: 'SERVERLESS_S' })
  v.emu.configure({ legacyTypeReads: true })
  const r = await deploy({ name, 'deployment-type': 'serverless', size: 'small' })
  expect(r.errors).toEqual([])
  expect(r.exitCode).toBe(0)
  expect(held(name).source_config.deployment_type).toBe('dev_zero')
  expect(r.outputs).toMatchObject({ 'deployment-type': 'serverless', size: 'small' })
  expect(resizes()).toEqual([])
})

test('a change of type is refused before any write, naming the current type and what to do', async () => {
  const name = 'retype'
  seed(name)
  const r = await deploy({ name, 'deployment-type': 'serverless' })
  expect(r.exitCode).toBe(1)
  expect(r.errors[0]).toMatch(/is dedicated \(read as prod\), but `deployment-type: serverless`/)
  expect(r.errors[0]).toMatch(/create a new deployment under another name/)
  expect(writes()).toEqual([])
})

test('langsmith dialect: the same create with a size, in the production service’s words', async () => {
  const emu = await startEmulator({ port: 0, now, dialect: 'langsmith' })
  try {
    const r = await deploy(
      { name: 'ls', 'api-dialect': 'langsmith', 'deployment-type': 'dedicated', size: 'medium' },
      emu
    )
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    const create = writes(emu).find(w => w.method === 'POST' && w.path === '/v2/deployments')
    expect(create?.body).toMatchObject({ source: 'github' })
    expect(resizes(emu).map(w => w.body)).toEqual([{ compute_tier: 'DEDICATED_M' }])
    expect(r.outputs).toMatchObject({ 'deployment-type': 'dedicated', size: 'medium' })
  } finally {
    await emu.close()
  }
})

const GATE = { 'health-check': 'true', 'health-check-window': '2s' }

/** A Serverless deployment scaled to zero, whose server answers 503 for `wakeMs` once probed. */
function asleep(name: string, wakeMs: number) {
  const id = seed(name, { deployment_type: 'serverless' })
  v.emu.agents.script(id, { sleepAfterMs: 60_000, wakeMs, whileWaking: '503' })
  return id
}

test('a Serverless cold start within the timeout is healthy; the log says the probe waited on a wake-up', async () => {
  const name = 'cold'
  const id = asleep(name, 4000)
  const r = await deploy({ name, ...GATE })
  expect(r.errors).toEqual([])
  expect(r.exitCode).toBe(0)
  expect(r.outputs.health).toBe('healthy')
  const statuses = v.emu.agents.probes(id).map(p => p.status)
  expect(statuses[0]).toBe(503)
  expect(statuses).toContain(200)
  expect(r.log).toMatch(/Probe 1: 503 .*\(warming: the Serverless agent server is waking up\)/)
  expect(r.log).toMatch(/Probe \d+ waited \d+(\.\d+)?s on a wake-up/)
  // Said as it happens, with its bound.
  expect(r.log).toMatch(/Serverless deployment waking up, waited \d+s of at most 3m\./)
})

/** Revisions DEPLOYED as soon as they exist: the run's timeout is spent on the gate's probes. */
const deploysAtOnce = () => v.emu.configure({ stageDurationsMs: DEPLOYS_AT_ONCE })

test('a Serverless server answering 503 with its own error is unhealthy, never "did not wake up"', async () => {
  deploysAtOnce()
  const name = 'down'
  const id = seed(name, { deployment_type: 'serverless' })
  v.emu.agents.script(id, { health: 'failing', status: 503, body: 'database unreachable' })
  const r = await deploy({ name, ...GATE, timeout: '20s' })
  expect(r.exitCode).toBe(1)
  expect(r.outputs.health).toBe('unhealthy')
  expect(r.errors[0]).not.toMatch(/did not wake up|waking/)
  expect(r.errors[0]).toMatch(/an error of its own, so it is awake.*database unreachable/)
  expect(r.log).not.toMatch(/warming|waking up/)
  expect(v.emu.agents.probes(id).every(p => p.status === 503)).toBe(true)
})

test('a Serverless server that never wakes is unhealthy at the timeout, and rolled back', async () => {
  deploysAtOnce()
  const name = 'asleep'
  const id = asleep(name, 86_400_000)
  const r = await deploy({ name, ...GATE, timeout: '12s', 'on-failure': 'rollback' })
  expect(r.exitCode).toBe(1)
  expect(r.outputs.health).toBe('unhealthy')
  expect(r.errors[0]).toMatch(/did not wake up before the timeout/)
  expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  expect(v.emu.agents.probes(id).every(p => p.status === 503)).toBe(true)
})
