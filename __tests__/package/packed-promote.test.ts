// Promotion through the packed CLI (`--promote-from`, `--expected-source-digest`) against the
// emulator: an upload's archive promoted by digest, a codehost commit with the target's secrets
// kept, and the refusals: a digest that differs (exit 2, nothing sent) and a ref beside it (exit 1).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture, type Emulator } from '../../emulator/server.ts'
import { copyFixture } from '../builders/upload.ts'
import { packedCli } from './packed-cli.ts'
import { gitlabUploadJob, outputsOf, runBin, uniqueName, type CliRun } from './run-bin.ts'

const REPO = 'https://github.com/acme/agent-server'
const BUILT = 'a1'.repeat(20)

const packed = packedCli('cpd-cli-promote-')
const emulator = packed.emulator

const cli = (args: string[], env: Record<string, string>, cwd: string): Promise<CliRun> =>
  runBin(packed.cliJs, args, { cwd, home: packed.dir, env })
const writes = (emu: Emulator) =>
  emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')

test('an upload promoted by digest; another digest exits 2 naming both, with nothing sent', async () => {
  const emu = await emulator()
  const workspace = await copyFixture('ignores')
  const [staging, production] = [uniqueName('staging'), uniqueName('production')]
  const first = await cli(
    ['deploy'],
    gitlabUploadJob(emu, { CONTROL_PLANE_NAME: staging }),
    workspace
  )
  expect(first.code).toBe(0)
  const digest = outputsOf(first.stdout)['source-digest']!
  const other = `sha256:${'0'.repeat(64)}`
  const before = writes(emu).length
  const mismatch = await cli(
    ['deploy', '--name', production, '--expected-source-digest', other],
    gitlabUploadJob(emu),
    workspace
  )
  expect(mismatch.code).toBe(2)
  expect(mismatch.stderr).toContain(`The source archive is ${digest} (`)
  expect(mismatch.stderr).toContain(`not ${other} that \`--expected-source-digest\` asks for`)
  expect(writes(emu)).toHaveLength(before)
  const promoted = await cli(
    ['deploy', '--name', production, '--promote-from', staging],
    gitlabUploadJob(emu, { CONTROL_PLANE_EXPECTED_SOURCE_DIGEST: digest }),
    workspace
  )
  expect(promoted.code).toBe(0)
  const out = outputsOf(promoted.stdout)
  expect(out['promoted-from-revision-id']).toBe(outputsOf(first.stdout)['revision-id'])
  expect(out['source-digest']).toBe(digest)
  expect(promoted.stderr).toContain(
    `Promoted ${staging} revision ${out['promoted-from-revision-id']} (${digest}) to ${production}: revision ${out['revision-id']}`
  )
})

test('a codehost commit promoted with the target’s secrets kept; a ref beside it is refused (exit 1)', async () => {
  const emu = await emulator()
  const { tenantId, integrationId } = emu.credentials()
  const [staging, production] = [uniqueName('staging'), uniqueName('production')]
  const base = demoFixture()
  const seeded = (name: string, secret: string) => ({
    tenant_id: tenantId,
    name,
    source: 'codehost' as const,
    source_config: { integration_id: integrationId, repo_url: REPO },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'KEY', value: secret }]
  })
  emu.loadFixture({
    ...base,
    repo_commits: { [`${REPO}@main`]: BUILT },
    deployments: [...(base.deployments ?? []), seeded(staging, 's'), seeded(production, 'p')]
  })
  const env = gitlabUploadJob(emu, { CONTROL_PLANE_SOURCE: '' })
  const cwd = mkdtempSync(join(tmpdir(), 'cpd-cli-promote-ws-'))
  const before = writes(emu).length
  const refused = await cli(
    ['deploy', '--name', production, '--promote-from', staging, '--ref', 'release'],
    env,
    cwd
  )
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain(
    `\`--ref\` is release, but deployment "${staging}" (\`--promote-from\`) deploys main`
  )
  expect(writes(emu)).toHaveLength(before)
  const r = await cli(['deploy', '--name', production, '--promote-from', staging], env, cwd)
  expect(r.code).toBe(0)
  const out = outputsOf(r.stdout)
  expect(out['repo-commit-sha']).toBe(BUILT)
  expect(out['promoted-from-revision-id']).toMatch(/^[0-9a-f-]{36}$/)
  expect(r.stderr).toContain(`(commit ${BUILT}) to ${production}: revision ${out['revision-id']}`)
  const target = emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.name === production)!
  expect(target.secrets).toEqual([{ name: 'KEY', value: 'p' }])
})
