// The packed CLI end to end: `npm pack` of the working tree, unpacked into a folder of its own,
// run with Node in a clean environment against the emulator.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/server.ts'
import { NODE24, packedPackage } from './package.ts'

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

let cliJs: string
let emulator: Emulator
let work: string

beforeAll(async () => {
  cliJs = join(packedPackage().dir, 'dist/cli.js')
  emulator = await startEmulator({ port: 0 })
  work = mkdtempSync(join(tmpdir(), 'cpd-cli-e2e-'))
}, 240_000)

afterAll(async () => {
  await emulator?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

/** The CLI with only `env` (and PATH, HOME) in its environment, in a folder that is no checkout. */
function cli(args: string[], env: Record<string, string> = {}, cwd = work): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE24, [cliJs, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: work, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const run: CliRun = { code: null, stdout: '', stderr: '' }
    child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()))
    child.on('error', reject)
    child.on('close', code => resolve({ ...run, code }))
  })
}

function credentials() {
  const { apiKey, tenantId, integrationId } = emulator.credentials()
  return {
    CONTROL_PLANE_API_KEY: apiKey,
    CONTROL_PLANE_TENANT_ID: tenantId,
    CONTROL_PLANE_INTEGRATION_ID: integrationId ?? '',
    CONTROL_PLANE_BASE_URL: emulator.url
  }
}

test('--help and --version from the packed package, with no action.yml beside it', async () => {
  const help = await cli(['deploy', '--help'])
  expect(help.code).toBe(0)
  expect(help.stdout).toMatch(/^Usage: control-plane-deploy deploy \[flags\]/)
  expect(help.stdout).toContain('--timeout <value>   CONTROL_PLANE_TIMEOUT (default: 30m)')
  const version = await cli(['--version'])
  expect(version).toEqual({ code: 0, stdout: '1.0.0\n', stderr: '' })
})

test('bad flags: exit 2, the reason on stderr, and no request', async () => {
  emulator.clearRequests()
  const env = credentials()
  for (const args of [
    ['deploy', '--nmae', 'x'],
    ['deploy', '--name'],
    ['ship'],
    ['deploy', '--wait=soon']
  ]) {
    const run = await cli(args, env)
    expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 2, stdout: '' })
    expect(run.stderr).toMatch(/^control-plane-deploy: .+\n$/)
  }
  expect(emulator.requests()).toEqual([])
})

test('--api-key is refused with the reason, and the key is printed nowhere', async () => {
  emulator.clearRequests()
  const { CONTROL_PLANE_API_KEY: key, ...env } = credentials()
  const run = await cli(['deploy', '--name', 'my-agent', '--api-key', key], env)
  expect(run.code).toBe(2)
  expect(run.stderr).toContain('--api-key is not accepted')
  expect(run.stderr).toContain('shell history')
  expect(run.stdout + run.stderr).not.toContain(key)
  expect(emulator.requests()).toEqual([])
})

test('the tarball holds the bin, both bundles, README and LICENSE, and nothing of src/', () => {
  const { tarball, dir } = packedPackage()
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .sort()
  expect(files).toEqual(
    expect.arrayContaining([
      'package/package.json',
      'package/README.md',
      'package/LICENSE',
      'package/dist/cli.js',
      'package/dist/cli/index.js',
      'package/dist/index.js'
    ])
  )
  // The CLI's sources are in its bundle, not beside it.
  expect(files.filter(f => /^package\/(src|__tests__|scripts)\//.test(f))).toEqual([])
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>
  expect(pkg.private).toBeUndefined()
  expect(pkg.bin).toMatchObject({ 'control-plane-deploy': 'dist/cli.js' })
  expect(readFileSync(join(dir, 'dist/cli.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
})
