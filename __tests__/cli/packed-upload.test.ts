// Upload deploys (`--source internal_source`) through the packed CLI: the working directory is
// the workspace, as in a GitLab or Bitbucket job, against the emulator in both dialects.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/server.ts'
import {
  hostileWorkspace,
  INJECTED,
  steeredLog,
  type HostileWorkspace
} from '../hostile-workspace.ts'
import { copyFixture } from '../upload/helpers.ts'
import { packedPackage } from './package.ts'
import { outputsOf, runBin, uniqueName, type CliRun } from './run-bin.ts'

let cliJs: string
let home: string
const emulators: Emulator[] = []

beforeAll(() => {
  cliJs = join(packedPackage().dir, 'bin/cli.js')
  home = mkdtempSync(join(tmpdir(), 'cpd-cli-upload-'))
}, 240_000)

afterAll(async () => {
  await Promise.all(emulators.map(e => e.close()))
  if (home) rmSync(home, { recursive: true, force: true })
})

async function emulator(dialect: 'interface' | 'langsmith' = 'interface'): Promise<Emulator> {
  const emu = await startEmulator({ port: 0, speed: 4, dialect })
  emulators.push(emu)
  return emu
}

function cli(args: string[], env: Record<string, string>, cwd: string): Promise<CliRun> {
  return runBin(cliJs, args, { cwd, home, env })
}

/** A GitLab job on `main`, with the emulator's key and address. */
function gitlab(emu: Emulator, over: Record<string, string> = {}): Record<string, string> {
  const { apiKey, tenantId } = emu.credentials()
  return {
    CONTROL_PLANE_API_KEY: apiKey,
    CONTROL_PLANE_TENANT_ID: tenantId,
    CONTROL_PLANE_BASE_URL: emu.url,
    CONTROL_PLANE_SOURCE: 'internal_source',
    CONTROL_PLANE_POLL_INTERVAL: '1s',
    GITLAB_CI: 'true',
    CI: 'true',
    CI_PIPELINE_SOURCE: 'push',
    CI_COMMIT_BRANCH: 'main',
    CI_COMMIT_REF_NAME: 'main',
    CI_COMMIT_SHA: 'c0ffee'.padEnd(40, '0'),
    CI_PROJECT_PATH: 'acme/agent',
    ...over
  }
}

for (const dialect of ['interface', 'langsmith'] as const) {
  test(`${dialect}: creates then updates by upload from the working directory; the key never reaches the upload host`, async () => {
    const emu = await emulator(dialect)
    const workspace = await copyFixture('ignores')
    const name = uniqueName('cli-upload')
    const env = gitlab(emu, {
      CONTROL_PLANE_NAME: name,
      CONTROL_PLANE_DEPLOYMENT_TYPE: 'dev',
      ...(dialect === 'langsmith' ? { CONTROL_PLANE_API_DIALECT: 'langsmith' } : {})
    })
    const first = await cli(['deploy'], env, workspace)
    expect({ code: first.code, stderr: first.stderr }).toEqual({
      code: 0,
      stderr: expect.any(String)
    })
    const out = outputsOf(first.stdout)
    expect(out['source-digest']).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(out.created).toBe('true')
    expect(first.stderr).toContain('13 files')
    const second = await cli(['deploy'], env, workspace)
    expect(second.code).toBe(0)
    expect(outputsOf(second.stdout).created).toBe('false')
    // Same files, same bytes: the digest is the same on the second run.
    expect(outputsOf(second.stdout)['source-digest']).toBe(out['source-digest'])
    const d = emu
      .state()
      .tenants.flatMap(t => t.deployments)
      .find(x => x.name === name)!
    expect(d.source).toBe('internal_source')
    const last = d.revisions.at(-1)!
    expect(last.status).toBe('DEPLOYED')
    expect(last.graphs).toEqual(['agent'])
    expect(last.source_files).toContain('langgraph.json')
    const { apiKey } = emu.credentials()
    const uploads = emu.state().uploads
    expect(uploads).toHaveLength(2)
    for (const u of uploads) {
      expect(u.put_headers).toHaveLength(1)
      expect(JSON.stringify(u.put_headers)).not.toContain(apiKey)
    }
    // The create as the real clients send it: no repository, the deployment type, no revision yet.
    const create = emu.requests().find(r => r.method === 'POST' && r.path === '/v2/deployments')!
    expect(create.body).toMatchObject({
      name,
      source: 'internal_source',
      source_config: { deployment_type: 'dev' },
      source_revision_config: {}
    })
    // On the wire, the PATCH names the object in the dialect's words.
    const patch = emu.requests().find(r => r.method === 'PATCH')!
    const config = (patch.body as { source_revision_config: Record<string, string> })
      .source_revision_config
    const pathField = dialect === 'langsmith' ? 'langgraph_config_path' : 'graph_config_path'
    expect(config[pathField]).toBe('langgraph.json')
    expect(config.source_tarball_path).toBe(uploads[0]!.object_path)
  })
}

test('a dry run builds the archive and sends no write; a fork merge request is refused', async () => {
  const emu = await emulator()
  const workspace = await copyFixture('ignores')
  const name = uniqueName('cli-upload-dry')
  const dry = await cli(
    ['deploy', '--dry-run'],
    gitlab(emu, { CONTROL_PLANE_NAME: name }),
    workspace
  )
  expect(dry.code).toBe(0)
  expect(dry.stderr).toMatch(/source: 13 files, \d+ B, sha256:[0-9a-f]{64}/)
  expect(emu.requests().filter(r => r.method !== 'GET')).toEqual([])
  expect(emu.state().uploads).toEqual([])

  // Even with --repository and --ref given on purpose: the upload would be the fork's code.
  const fork = await cli(
    ['deploy', '--repository=acme/agent', '--ref=main'],
    gitlab(emu, {
      CONTROL_PLANE_NAME: name,
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_MERGE_REQUEST_IID: '4',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'mallory/agent',
      CI_MERGE_REQUEST_PROJECT_PATH: 'acme/agent'
    }),
    workspace
  )
  expect(fork.code).toBe(2)
  expect(fork.stderr).toContain('an upload deploy (internal_source)')
  expect(emu.requests().filter(r => r.method !== 'GET')).toEqual([])
})

test('issue 33, defect 1: a graph id, a smoke case, a folder and a dependency name carrying workflow commands and escapes steer no line of the CLI’s log', async () => {
  const emu = await emulator()
  const checks = (ws: HostileWorkspace) =>
    gitlab(emu, {
      CONTROL_PLANE_NAME: uniqueName('cli-hostile'),
      CONTROL_PLANE_GRAPH_CONFIG_PATH: ws.configPath,
      CONTROL_PLANE_HEALTH_CHECK: 'true',
      CONTROL_PLANE_HEALTH_CHECK_WINDOW: '2s',
      CONTROL_PLANE_SMOKE_TEST: ws.smokePath
    })
  const ws = hostileWorkspace()
  const run = await cli(['deploy'], checks(ws), ws.dir)
  expect({ code: run.code, steered: steeredLog(run.stderr) }).toEqual({ code: 0, steered: [] })
  expect(steeredLog(run.stdout)).toEqual([])
  expect(outputsOf(run.stdout)).toMatchObject({ health: 'healthy', smoke: 'passed' })
  expect(run.stderr).toContain(`: :error title=${INJECTED}::${INJECTED}`)
  expect(run.stderr).toMatch(/Smoke case "case agent/)
  const refused = hostileWorkspace({ missingDependency: true })
  const dep = await cli(['deploy'], checks(refused), refused.dir)
  expect({ code: dep.code, steered: steeredLog(dep.stderr) }).toEqual({ code: 1, steered: [] })
  expect(dep.stderr).toMatch(/the dependency '.\/dep agent \n: :error title=cpd-injected::/)
})
