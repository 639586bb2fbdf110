// Today's deployment types and sizes through the packed CLI (`--size`, `--database-size` and
// their CONTROL_PLANE_* variables), against the emulator in both dialects: creates with a size,
// resizes waited on as the run's revision, a failed resize rolled back with its status_message,
// a legacy read, the refusals before any write or request, and a Serverless wake-up at the gate.

import { demoFixture, type Emulator, type Fixture } from '../../emulator/server.ts'
import { packedCli } from './packed-cli.ts'
import { codehostEnv, outputsOf, runBin, uniqueName, type CliRun } from './run-bin.ts'

const packed = packedCli('cpd-cli-tiers-')
const emulator = packed.emulator

/** The CLI in a folder that is no checkout, with the emulator's key, address and integration. */
function cli(emu: Emulator, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runBin(packed.cliJs, ['deploy', ...args], {
    cwd: packed.dir,
    env: {
      ...codehostEnv(emu),
      CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
      CONTROL_PLANE_REF: 'main',
      CONTROL_PLANE_POLL_INTERVAL: '1s',
      ...env
    },
    killAfterMs: 120_000
  })
}

type Seeded = NonNullable<Fixture['deployments']>[number]

/** A READY deployment of `main` with one DEPLOYED revision, `over` on top; its id. */
function seed(emu: Emulator, name: string, over: Partial<Seeded> = {}): string {
  const { tenantId, integrationId } = emu.credentials()
  const base = demoFixture()
  emu.loadFixture({
    ...base,
    deployments: [
      ...(base.deployments ?? []),
      {
        tenant_id: tenantId,
        name,
        source: 'codehost',
        source_config: {
          integration_id: integrationId,
          repo_url: 'https://github.com/acme/agent-server'
        },
        source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
        ...over
      }
    ]
  })
  return emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.name === name)!.id
}

const held = (emu: Emulator, name: string) =>
  emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.name === name)!
const resizes = (emu: Emulator) =>
  emu.requests().filter(r => r.method === 'PATCH' && r.path.endsWith('/resource-tiers'))
const writes = (emu: Emulator) => emu.requests().filter(r => ['POST', 'PATCH'].includes(r.method))

for (const dialect of ['interface', 'langsmith'] as const) {
  test(`${dialect}: --deployment-type serverless --size medium creates, then resizes; the resize revision is waited on`, async () => {
    const emu = await emulator(dialect)
    const name = uniqueName('cli-srv')
    const langsmith: Record<string, string> =
      dialect === 'langsmith' ? { CONTROL_PLANE_API_DIALECT: 'langsmith' } : {}
    const run = await cli(
      emu,
      ['--name', name, '--deployment-type', 'serverless', '--size', 'medium'],
      langsmith
    )
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    const out = outputsOf(run.stdout)
    const d = held(emu, name)
    expect(out).toMatchObject({
      'deployment-type': 'serverless',
      size: 'medium',
      'revision-id': d.latest_revision_id,
      'revision-status': 'DEPLOYED'
    })
    expect(resizes(emu).map(r => r.body)).toEqual([{ compute_tier: 'SERVERLESS_M' }])
    expect(d.revisions).toHaveLength(2)
    expect(run.stderr).toContain(`Wait for revision ${d.latest_revision_id}`)
  })
}

test('CONTROL_PLANE_SIZE and CONTROL_PLANE_DATABASE_SIZE create a Dedicated deployment at those sizes', async () => {
  const emu = await emulator()
  const name = uniqueName('cli-ded')
  const run = await cli(emu, [], {
    CONTROL_PLANE_NAME: name,
    CONTROL_PLANE_DEPLOYMENT_TYPE: 'dedicated',
    CONTROL_PLANE_SIZE: 'large',
    CONTROL_PLANE_DATABASE_SIZE: 'medium'
  })
  expect(run.code).toBe(0)
  expect(resizes(emu).map(r => r.body)).toEqual([
    { compute_tier: 'DEDICATED_L', database_tier: 'DEDICATED_M' }
  ])
  expect(outputsOf(run.stdout)).toMatchObject({ 'deployment-type': 'dedicated', size: 'large' })
})

test('a resize alone, and a resize with a code change: each waited on as the run’s revision', async () => {
  const emu = await emulator()
  const alone = uniqueName('cli-alone')
  const id = seed(emu, alone, {
    source: 'internal_template',
    source_config: {},
    source_revision_config: {},
    deployment_type: 'serverless'
  })
  const a = await cli(
    emu,
    ['--deployment-id', id, '--source', 'internal_template', '--size', 'large'],
    {
      CONTROL_PLANE_INTEGRATION_ID: '',
      CONTROL_PLANE_REPOSITORY: '',
      CONTROL_PLANE_REF: ''
    }
  )
  expect({ code: a.code, stderr: a.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
  expect(outputsOf(a.stdout)['revision-id']).toBe(held(emu, alone).latest_revision_id)
  expect(resizes(emu).map(r => r.body)).toEqual([{ compute_tier: 'SERVERLESS_L' }])

  const both = uniqueName('cli-both')
  seed(emu, both)
  const b = await cli(emu, ['--name', both, '--ref', 'feature-x', '--size', 'medium'])
  expect(b.code).toBe(0)
  const d = held(emu, both)
  expect(d.revisions.map(v => v.status)).toEqual(['DEPLOYED', 'SKIPPED', 'DEPLOYED'])
  expect(d.revisions.at(-1)!.source_revision_config.repo_ref).toBe('feature-x')
  expect(outputsOf(b.stdout)['revision-id']).toBe(d.latest_revision_id)
  expect(b.stderr).toContain('carries both')
})

test('a failed resize: exit 1, status_message in the error, rolled back; the size stays as set', async () => {
  const emu = await emulator()
  const name = uniqueName('cli-oom')
  const id = seed(emu, name)
  emu.script({ outcome: 'DEPLOYED', deploymentId: id })
  emu.script({
    outcome: 'DEPLOY_FAILED',
    deploymentId: id,
    statusMessage: 'Out of memory at start'
  })
  const run = await cli(emu, ['--name', name, '--size', 'medium', '--on-failure', 'rollback'])
  expect(run.code).toBe(1)
  expect(run.stderr).toMatch(
    /ended DEPLOY_FAILED.*The control plane says: Out of memory at start\./s
  )
  expect(run.stderr).toMatch(/changes to size stay as this run set them/)
  expect(outputsOf(run.stdout)['rollback-status']).toBe('DEPLOYED')
  expect(held(emu, name).deployment_tier).toBe('DEDICATED_M')
})

test('a legacy read of the same type passes; another type is refused with nothing written', async () => {
  const emu = await emulator()
  const name = uniqueName('cli-legacy')
  seed(emu, name, { deployment_type: 'serverless' })
  emu.configure({ legacyTypeReads: true })
  const same = await cli(emu, ['--name', name, '--deployment-type', 'serverless'])
  expect(same.code).toBe(0)
  expect(outputsOf(same.stdout)['deployment-type']).toBe('serverless')
  emu.clearRequests()
  const other = await cli(emu, ['--name', name, '--deployment-type', 'dedicated'])
  expect(other.code).toBe(1)
  expect(other.stderr).toMatch(
    /is serverless \(read as dev_zero\), but `--deployment-type dedicated`/
  )
  expect(other.stderr).toMatch(/create a new deployment/)
  expect(writes(emu)).toEqual([])
})

test('--database-size with a Serverless type: exit 2 naming the flag, and no request', async () => {
  const emu = await emulator()
  const run = await cli(emu, [
    '--name',
    uniqueName('cli-nodb'),
    '--deployment-type',
    'serverless',
    '--database-size',
    'small'
  ])
  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(/`--database-size` applies only to a Dedicated deployment/)
  expect(emu.requests()).toEqual([])
})

test('the gate on Serverless: a cold start is healthy and said; a server that never wakes is rolled back', async () => {
  const emu = await emulator()
  const cold = uniqueName('cli-cold')
  const id = seed(emu, cold, { deployment_type: 'serverless' })
  emu.agents.script(id, { sleepAfterMs: 60_000, wakeMs: 3000, whileWaking: 'slow' })
  const gate = ['--health-check', '--health-check-window', '2s']
  const warm = await cli(emu, ['--name', cold, ...gate])
  expect({ code: warm.code, stderr: warm.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
  expect(outputsOf(warm.stdout).health).toBe('healthy')
  expect(warm.stderr).toMatch(/Probe 1 waited \d+(\.\d+)?s on a wake-up/)

  const asleep = uniqueName('cli-asleep')
  const id2 = seed(emu, asleep, { deployment_type: 'serverless' })
  emu.agents.script(id2, { sleepAfterMs: 60_000, wakeMs: 86_400_000, whileWaking: '503' })
  const never = await cli(emu, [
    '--name',
    asleep,
    ...gate,
    '--timeout',
    '12s',
    '--on-failure',
    'rollback'
  ])
  expect(never.code).toBe(1)
  expect(outputsOf(never.stdout)).toMatchObject({
    health: 'unhealthy',
    'rollback-status': 'DEPLOYED'
  })
  expect(never.stderr).toMatch(/did not wake up before the timeout/)
})
