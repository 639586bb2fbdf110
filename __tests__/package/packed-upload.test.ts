// Upload deploys (`--source internal_source`) through the packed CLI: the working directory is
// the workspace, as in a GitLab or Bitbucket job, against the emulator in both dialects.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { copyFixture, fifoRace, openUp, RUN_AS, watchedTemp } from '../builders/upload.ts'
import {
  hostileWorkspace,
  INJECTED,
  steeredLog,
  type HostileWorkspace
} from '../builders/hostile-workspace.ts'
import { packedCli } from './packed-cli.ts'
import { gitlabUploadJob, outputsOf, runBin, uniqueName, type CliRun } from './run-bin.ts'

const packed = packedCli('cpd-cli-upload-')
const emulator = packed.emulator

function cli(args: string[], env: Record<string, string>, cwd: string): Promise<CliRun> {
  return runBin(packed.cliJs, args, { cwd, home: packed.dir, env })
}

/** A GitLab job on `main`, with the emulator's key and address. */
function gitlab(emu: Emulator, over: Record<string, string> = {}): Record<string, string> {
  return gitlabUploadJob(emu, over)
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
    expect(first.stderr).toContain('11 files')
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

test('a dry run builds the archive and sends no write', async () => {
  const emu = await emulator()
  const workspace = await copyFixture('ignores')
  const name = uniqueName('cli-upload-dry')
  const dry = await cli(
    ['deploy', '--dry-run'],
    gitlab(emu, { CONTROL_PLANE_NAME: name }),
    workspace
  )
  expect(dry.code).toBe(0)
  expect(dry.stderr).toMatch(/source: 11 files, \d+ B, sha256:[0-9a-f]{64}/)
  expect(emu.requests().filter(r => r.method !== 'GET')).toEqual([])
  expect(emu.state().uploads).toEqual([])
})

// ---------------------------------------------------------------------------------------------
// The edges (issue 32): what the upload host answers, the run's deadline, signals and races, and
// what ends with nothing sent (exit 2).

/** `KEY=value` lines of a dotenv file as a map. */
function dotenvOf(file: string): Record<string, string> {
  return outputsOf(readFileSync(file, 'utf8').replace(/'/g, ''))
}

const patches = (emu: Emulator) => emu.requests().filter(r => r.method === 'PATCH')

test('a malformed redirect from the upload host: exit 1, one error, the dotenv file, no signature anywhere', async () => {
  const emu = await emulator()
  const workspace = await copyFixture('ignores')
  const outFile = join(packed.dir, `${uniqueName('out')}.env`)
  emu.addFaults({
    method: 'PUT',
    path: '/_uploads/**',
    kind: 'redirect',
    location: 'http://[unparsable'
  })
  const r = await cli(
    ['deploy', '--output-file', outFile],
    gitlab(emu, { CONTROL_PLANE_NAME: uniqueName('cli-bad-location') }),
    workspace
  )
  expect(r.code).toBe(1)
  expect(r.stderr.split('\n').filter(l => l.includes('error: '))).toEqual([
    expect.stringContaining('error: Upload failed: The source archive could not be uploaded')
  ])
  expect(r.stderr).toContain('a redirect to (not a URL), not followed')
  expect(outputsOf(r.stdout)['source-digest']).toMatch(/^sha256:/)
  expect(dotenvOf(outFile).SOURCE_DIGEST).toMatch(/^sha256:/)
  const signatures = emu.state().uploads.map(u => u.signature)
  expect(signatures).toHaveLength(3)
  for (const s of signatures) expect(`${r.stdout}${r.stderr}`).not.toContain(s)
  expect(patches(emu)).toEqual([])
})

test('--timeout bounds a PUT that never answers, retries included; the message reads', async () => {
  const emu = await emulator()
  const workspace = await copyFixture('ignores')
  emu.addFaults({ method: 'PUT', path: '/_uploads/**', kind: 'delay', ms: 600_000 })
  const started = Date.now()
  const r = await runBin(packed.cliJs, ['deploy', '--timeout', '5s'], {
    cwd: workspace,
    home: packed.dir,
    env: gitlab(emu, { CONTROL_PLANE_NAME: uniqueName('cli-hang') }),
    killAfterMs: 110_000
  })
  expect(r.code).toBe(1)
  expect(Date.now() - started).toBeLessThan(100_000)
  expect(r.stderr).toContain('The run reached its deadline (from `--timeout`)')
  expect(r.stderr).not.toContain('was its answer')
  expect(patches(emu)).toEqual([])
}, 150_000)

test('an upload URL of another scheme is never sent to nor asked for again: exit 1, said plainly', async () => {
  const emu = await emulator()
  const workspace = await copyFixture('ignores')
  emu.addFaults({
    method: 'POST',
    path: '/v2/deployments/*/upload-url',
    kind: 'bad-schema',
    body: { upload_url: 'ftp://storage.example.com/o.tar.gz', object_path: 'uploads/o.tar.gz' }
  })
  const r = await cli(
    ['deploy'],
    gitlab(emu, { CONTROL_PLANE_NAME: uniqueName('cli-ftp') }),
    workspace
  )
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('The source archive was not sent: the upload URL must be https')
  expect(r.stderr).not.toContain('Unexpected error')
  expect(emu.requests().filter(q => q.path.endsWith('/upload-url'))).toHaveLength(1)
  expect(patches(emu)).toEqual([])
})

test('nothing sent, exit 2: a missing config, an unreadable file, 8 GiB unpacked, a file swapped for a fifo', async () => {
  const emu = await emulator()
  const env = gitlab(emu, { CONTROL_PLANE_NAME: uniqueName('cli-nothing-sent') })
  const missing = await cli(
    ['deploy', '--graph-config-path', 'agent/langgraph.json'],
    env,
    await copyFixture('ignores')
  )
  expect({ code: missing.code, said: missing.stderr }).toEqual({
    code: 2,
    said: expect.stringContaining("'agent/langgraph.json' does not exist in the workspace")
  })

  const unreadable = await copyFixture('ignores')
  await writeFile(join(unreadable, 'private.py'), 'key = 1\n', { mode: 0o000 })
  await openUp(unreadable, packed.dir)
  const denied = await runBin(packed.cliJs, ['deploy'], {
    cwd: unreadable,
    home: packed.dir,
    env,
    ...(RUN_AS ? { user: RUN_AS } : {})
  })
  expect({ code: denied.code, said: denied.stderr }).toEqual({
    code: 2,
    said: expect.stringContaining('private.py cannot be read (permission denied)')
  })
  expect(denied.stderr).not.toContain('Unexpected error')

  const sparse = await copyFixture('ignores')
  execFileSync('truncate', ['-s', '8G', join(sparse, 'disk.img')])
  const large = await cli(['deploy'], env, sparse)
  expect({ code: large.code, said: large.stderr }).toEqual({
    code: 2,
    said: expect.stringContaining('more than 1024.0 MiB unpacked')
  })

  const raced = await copyFixture('ignores')
  const temp = watchedTemp()
  const stopSwap = await fifoRace(raced, temp)
  const fifo = await runBin(packed.cliJs, ['deploy'], {
    cwd: raced,
    home: packed.dir,
    env: { ...env, TMPDIR: temp.dir },
    killAfterMs: 90_000
  })
  stopSwap()
  expect({ code: fifo.code, said: fifo.stderr }).toEqual({
    code: 2,
    said: expect.stringContaining('zz.py changed while it was archived')
  })
  expect(readdirSync(temp.dir)).toEqual([])
  expect(emu.requests()).toEqual([])
}, 180_000)

test('SIGTERM inside one large file: seen at once, exit 130 with the outputs, the temporary file removed', async () => {
  const emu = await emulator()
  const workspace = await copyFixture('ignores')
  execFileSync('truncate', ['-s', '900M', join(workspace, 'disk.img')])
  const temp = watchedTemp()
  const r = await runBin(packed.cliJs, ['deploy'], {
    cwd: workspace,
    home: packed.dir,
    env: { ...gitlab(emu, { CONTROL_PLANE_NAME: uniqueName('cli-sigterm') }), TMPDIR: temp.dir },
    interruptIf: temp.archiving,
    signal: 'SIGTERM',
    killAfterMs: 90_000
  })
  expect(r.code).toBe(130)
  // The outputs of a stopped run (the grace period's exit printed none).
  expect(Object.keys(outputsOf(r.stdout))).toContain('source-digest')
  expect(readdirSync(temp.dir)).toEqual([])
  expect(emu.requests()).toEqual([])
}, 120_000)

// `--revision-source` on a codehost deployment and an upload without its graph's file are refused
// before any request: e2e/upload.test.ts, and at their units (inputs/index.test.ts,
// upload/left-out.test.ts).
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
  expect({ code: dep.code, steered: steeredLog(dep.stderr) }).toEqual({ code: 2, steered: [] })
  expect(dep.stderr).toMatch(/the dependency '.\/dep agent \n: :error title=cpd-injected::/)
})
