// Today's deployment types and sizes end to end: the bundle creates Serverless and Dedicated
// deployments with a size, resizes through `resource-tiers` (alone, and with a code change in one
// run), waits on the resize's revision as this run's, rolls back a failed one, refuses a change
// of type and a database size on Serverless before writing, reads a legacy word as its type, and
// gates a Serverless server through its wake-up. What is asserted is what the emulator received
// and holds, the exit code, the outputs, the log and the summary.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import { DEPLOYS_AT_ONCE, e2e, runAction as run, uniqueName, type E2E } from './harness.ts'

/** The resize requests the emulator received. */
const resizes = (emu: Emulator) =>
  emu.requests().filter(r => r.method === 'PATCH' && r.path.endsWith('/resource-tiers'))

/** The deployment of that name as the emulator holds it now. */
const held = (t: E2E, name: string) => t.named(name)[0]!

e2e(
  'create Serverless with a size: created, then resized once its first revision exists; the resize revision is waited on',
  async t => {
    const name = uniqueName('srv')
    const r = await run({
      inputs: t.inputs({ name, 'deployment-type': 'serverless', size: 'medium' })
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const create = t.writes().find(w => w.method === 'POST' && w.path === '/v2/deployments')
    expect((create?.body as { source_config: object }).source_config).toMatchObject({
      deployment_type: 'serverless'
    })
    expect(resizes(t.emu).map(w => w.body)).toEqual([{ compute_tier: 'SERVERLESS_M' }])
    const d = held(t, name)
    expect(d.deployment_tier).toBe('SERVERLESS_M')
    // Two revisions: the create's, then the resize's, which is this run's.
    expect(d.revisions).toHaveLength(2)
    expect(r.outputs['revision-id']).toBe(d.latest_revision_id)
    expect(d.revisions.at(-1)).toMatchObject({ id: d.latest_revision_id, status: 'DEPLOYED' })
    expect(r.stdout).toContain(`Wait for revision ${d.latest_revision_id}`)
    expect(r.outputs).toMatchObject({ 'deployment-type': 'serverless', size: 'medium' })
    expect(r.summary).toMatch(/\| Type and size \| serverless, medium \(`SERVERLESS_M`\) \|/)
    expect(r.stdout).toMatch(/size: medium \(SERVERLESS_M\)/)
  }
)

e2e(
  'create Dedicated with a size and a database size; again with the same sizes sends no resize',
  async t => {
    const name = uniqueName('ded')
    const inputs = t.inputs({
      name,
      'deployment-type': 'dedicated',
      size: 'large',
      'database-size': 'medium'
    })
    const r = await run({ inputs })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(resizes(t.emu).map(w => w.body)).toEqual([
      { compute_tier: 'DEDICATED_L', database_tier: 'DEDICATED_M' }
    ])
    expect(held(t, name)).toMatchObject({
      deployment_tier: 'DEDICATED_L',
      database_tier: 'DEDICATED_M'
    })
    expect(r.outputs).toMatchObject({ 'deployment-type': 'dedicated', size: 'large' })
    const again = await run({ inputs })
    expect(again.code).toBe(0)
    expect(resizes(t.emu)).toHaveLength(1)
    expect(again.stdout).toContain('already of the size asked for: no resize')
  }
)

e2e(
  'a resize alone: the run makes no code revision; the resize revision is this run’s and waited on',
  async t => {
    const name = uniqueName('alone')
    const id = t.seed(
      name,
      {},
      {
        source: 'internal_template',
        source_config: {},
        source_revision_config: {},
        deployment_type: 'serverless'
      }
    )
    const r = await run({
      inputs: t.inputs({
        'deployment-id': id,
        source: 'internal_template',
        'integration-id': '',
        size: 'large'
      })
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    // The update itself sets nothing of a revision: only the resize makes one.
    expect(t.writes().map(w => [`${w.method} ${w.path.replace(id, ':id')}`, w.body])).toEqual([
      ['PATCH /v2/deployments/:id', {}],
      ['PATCH /v2/deployments/:id/resource-tiers', { compute_tier: 'SERVERLESS_L' }]
    ])
    const d = held(t, name)
    expect(d.revisions).toHaveLength(2)
    expect(r.outputs['revision-id']).toBe(d.latest_revision_id)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')
    expect(r.stdout).toContain(`Wait for revision ${d.latest_revision_id}`)
    expect(r.outputs.size).toBe('large')
  }
)

e2e(
  'a resize with a code change in one run: the verdict is on the resize revision, which carries the change',
  async t => {
    const name = uniqueName('both')
    t.seed(name)
    t.emu.addFaults({
      kind: 'delay',
      ms: 1500,
      method: 'PATCH',
      path: '/v2/deployments/*/resource-tiers',
      times: 1
    })
    const r = await run({ inputs: t.inputs({ name, ref: 'feature-x', size: 'medium' }) })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const d = held(t, name)
    // Seeded, the code change's (superseded by the resize), the resize's.
    expect(d.revisions.map(v => v.status)).toEqual(['DEPLOYED', 'SKIPPED', 'DEPLOYED'])
    const [, code, resized] = d.revisions
    expect(r.outputs['revision-id']).toBe(resized!.id)
    expect(resized!.source_revision_config.repo_ref).toBe('feature-x')
    expect(code!.source_revision_config.repo_ref).toBe('feature-x')
    expect(d.deployment_tier).toBe('DEDICATED_M')
    expect(r.stdout).toContain(`follows revision ${code!.id} of this run's change and carries both`)
    expect(r.summary).toMatch(/size: small \(DEDICATED_S\) -> medium \(DEDICATED_M\)/)
  },
  // The code change's revision builds for 10 s (at speed 4): the resize, sent right after it,
  // supersedes it however slow the machine, instead of racing its build.
  { stageDurationsMs: { BUILDING: 40_000 } }
)

/** The resize answered (and, with `reads`, the deployment read) naming its first revision. */
const OLD_RESIZE = {
  kind: 'old-revision',
  revision: 'oldest',
  path: '/v2/deployments/*/resource-tiers'
} as const

e2e(
  'a resize answered with a revision from before the run: read again, and the verdict is on the resize’s own revision',
  async t => {
    const name = uniqueName('older')
    t.seed(name)
    t.emu.addFaults([{ ...OLD_RESIZE, times: 1 }])
    const r = await run({ inputs: t.inputs({ name, ref: 'feature-x', size: 'medium' }) })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const [seeded, , resized] = held(t, name).revisions
    expect(r.outputs['revision-id']).toBe(resized!.id)
    expect(r.stdout).toContain(`The resize's answer names revision ${seeded!.id}, made before`)
    expect(r.stdout).not.toContain(`Wait for revision ${seeded!.id}`)
  }
)

e2e(
  'a resize whose answer and reads keep naming a revision from before the run: exit 1 saying so, never success on it',
  async t => {
    const name = uniqueName('older')
    t.seed(name)
    t.emu.addFaults([OLD_RESIZE, { kind: 'old-revision', revision: 'oldest', method: 'GET' }])
    const r = await run({ inputs: t.inputs({ name, ref: 'feature-x', size: 'medium' }) })
    expect(r.code).toBe(1)
    const [seeded] = held(t, name).revisions
    expect(r.errors[0]).toMatch(
      new RegExp(
        `Resize revision not this run’s.*answered with revision ${seeded!.id}, which was made before this run's revision`
      )
    )
    expect(r.outputs['revision-id']).not.toBe(seeded!.id)
    expect(r.outputs['revision-status']).not.toBe('DEPLOYED')
    expect(r.stdout).not.toContain(`Wait for revision ${seeded!.id}`)
  }
)

e2e(
  'a resize whose revision fails: the status_message is in the error, and the rollback says the size stays',
  async t => {
    const name = uniqueName('oom')
    const id = t.seed(name)
    t.emu.script({ outcome: 'DEPLOYED', deploymentId: id })
    t.emu.script({
      outcome: 'DEPLOY_FAILED',
      deploymentId: id,
      statusMessage: 'The server ran out of memory while starting'
    })
    const r = await run({
      inputs: t.inputs({ name, size: 'medium', 'on-failure': 'rollback' })
    })
    expect(r.code).toBe(1)
    expect(r.outputs['revision-status']).toBe('DEPLOY_FAILED')
    expect(r.errors[0]).toMatch(
      /ended DEPLOY_FAILED.*The control plane says: The server ran out of memory while starting\./s
    )
    expect(r.errors[0]).toMatch(
      /Rolled back: revision .* is DEPLOYED\..*changes to size stay as this run set them/s
    )
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    // The redeploy restores the revision, not the tier: that stays as this run set it.
    expect(held(t, name).deployment_tier).toBe('DEDICATED_M')
  }
)

e2e(
  'a legacy read of the same type is that type: no refusal, the outputs say serverless',
  async t => {
    const name = uniqueName('legacy')
    t.seed(name, {}, { deployment_type: 'serverless', compute_tier: 'SERVERLESS_S' })
    t.emu.configure({ legacyTypeReads: true })
    const r = await run({
      inputs: t.inputs({ name, 'deployment-type': 'serverless', size: 'small' })
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(held(t, name).source_config.deployment_type).toBe('dev_zero')
    expect(r.outputs).toMatchObject({ 'deployment-type': 'serverless', size: 'small' })
    expect(resizes(t.emu)).toEqual([])
  }
)

e2e(
  'a change of type is refused before any write, naming the current type and what to do',
  async t => {
    const name = uniqueName('retype')
    t.seed(name)
    const r = await run({ inputs: t.inputs({ name, 'deployment-type': 'serverless' }) })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/is dedicated \(read as prod\), but `deployment-type: serverless`/)
    expect(r.errors[0]).toMatch(/create a new deployment under another name/)
    expect(t.writes()).toEqual([])
  }
)

e2e('database-size on Serverless is refused before any request', async t => {
  const r = await run({
    inputs: t.inputs({
      name: uniqueName('nodb'),
      'deployment-type': 'serverless',
      'database-size': 'small'
    })
  })
  expect(r.code).toBe(1)
  expect(r.errors[0]).toMatch(/`database-size` applies only to a Dedicated deployment/)
  expect(t.emu.requests()).toEqual([])
})

const GATE = { 'health-check': 'true', 'health-check-window': '2s' }

/** A Serverless deployment scaled to zero, whose server answers 503 for `wakeMs` once probed. */
function asleep(t: E2E, prefix: string, wakeMs: number) {
  const name = uniqueName(prefix)
  const id = t.seed(name, {}, { deployment_type: 'serverless' })
  t.emu.agents.script(id, { sleepAfterMs: 60_000, wakeMs, whileWaking: '503' })
  return { name, id }
}

e2e(
  'a Serverless cold start within the timeout is healthy; the log says the probe waited on a wake-up',
  async t => {
    const { name, id } = asleep(t, 'cold', 4000)
    const r = await run({ inputs: t.inputs({ name, ...GATE }) })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs.health).toBe('healthy')
    const statuses = t.emu.agents.probes(id).map(p => p.status)
    expect(statuses[0]).toBe(503)
    expect(statuses).toContain(200)
    expect(r.stdout).toMatch(/Probe 1: 503 .*\(warming: the Serverless agent server is waking up\)/)
    expect(r.stdout).toMatch(/Probe \d+ waited \d+(\.\d+)?s on a wake-up/)
    // Said as it happens, with its bound.
    expect(r.stdout).toMatch(/Serverless deployment waking up, waited \d+s of at most 3m\./)
  }
)

e2e(
  'a Serverless server answering 503 with its own error is unhealthy, never "did not wake up"',
  async t => {
    const name = uniqueName('down')
    const id = t.seed(name, {}, { deployment_type: 'serverless' })
    t.emu.agents.script(id, { health: 'failing', status: 503, body: 'database unreachable' })
    const r = await run({ inputs: t.inputs({ name, ...GATE, timeout: '20s' }) })
    expect(r.code).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(r.errors[0]).not.toMatch(/did not wake up|waking/)
    expect(r.errors[0]).toMatch(/an error of its own, so it is awake.*database unreachable/)
    expect(r.stdout).not.toMatch(/warming|waking up/)
    expect(t.emu.agents.probes(id).every(p => p.status === 503)).toBe(true)
  },
  { stageDurationsMs: DEPLOYS_AT_ONCE }
)

e2e(
  'a Serverless server that never wakes is unhealthy at the timeout, and rolled back',
  async t => {
    const { name, id } = asleep(t, 'asleep', 86_400_000)
    const r = await run({
      inputs: t.inputs({ name, ...GATE, timeout: '12s', 'on-failure': 'rollback' })
    })
    expect(r.code).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(r.errors[0]).toMatch(/did not wake up before the timeout/)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    expect(t.emu.agents.probes(id).every(p => p.status === 503)).toBe(true)
  },
  { stageDurationsMs: DEPLOYS_AT_ONCE }
)

e2e(
  'langsmith dialect: the same create with a size, in the production service’s words',
  async t => {
    const name = uniqueName('ls')
    const r = await run({
      inputs: t.inputs({
        name,
        'api-dialect': 'langsmith',
        'deployment-type': 'dedicated',
        size: 'medium'
      })
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const create = t.writes().find(w => w.method === 'POST' && w.path === '/v2/deployments')
    expect(create?.body).toMatchObject({ source: 'github' })
    expect(resizes(t.emu).map(w => w.body)).toEqual([{ compute_tier: 'DEDICATED_M' }])
    expect(r.outputs).toMatchObject({ 'deployment-type': 'dedicated', size: 'medium' })
  },
  { dialect: 'langsmith' }
)
