// Today's deployment types and sizes end to end: the bundle creates Serverless and Dedicated
// deployments with a size, waits on the resize's revision as this run's, sends no resize when the
// size is already right (a database size on Serverless is refused with other bad inputs at once:
// health.test.ts). What is asserted is what the emulator received and holds, the exit code, the outputs, the log and the
// summary. The run's other rules on types and sizes (a resize alone or with a code change, older
// answers, a failed resize, a change of type, legacy words, the langsmith dialect, a Serverless
// wake-up) run in-process, in __tests__/commands/deploy/command.tiers.test.ts.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import { e2e, runAction as run, uniqueName, type E2E } from './harness.ts'

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
