// The package complete, as a user installs it: `npm pack` (prepack builds the bins' bundles),
// installed with --omit=dev into an empty folder. It brings no other package, and both bins run
// from there, by their shebang, on the lowest Node that `engines` claims and on the runner's
// Node 24: --version, --help, and a real deploy of the CLI against the packed emulator.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  binOf,
  installedPackage,
  lowestNode,
  nodeBinary,
  NAME,
  NODE24,
  type Installed,
  tarMembers,
  CLI_MEMBERS
} from './package.ts'
import { copyFixture } from '../builders/upload.ts'

let installed: Installed
let work: string

beforeAll(() => {
  installed = installedPackage()
  work = mkdtempSync(join(tmpdir(), 'cpd-installed-'))
}, 300_000)

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

test('the install brings this package and nothing else; its manifest has no dependencies', () => {
  const modules = join(installed.prefix, 'node_modules')
  expect(readdirSync(modules).sort()).toEqual(['.bin', '.package-lock.json', NAME])
  expect(readdirSync(join(modules, '.bin')).sort()).toEqual([
    'control-plane-deploy',
    'control-plane-emulator'
  ])
  const lock = JSON.parse(readFileSync(join(installed.prefix, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>
  }
  expect(Object.keys(lock.packages).sort()).toEqual(['', `node_modules/${NAME}`])
  const pkg = JSON.parse(readFileSync(join(installed.dir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'])
    expect({ field, value: pkg[field] ?? {} }).toEqual({ field, value: {} })
  expect(pkg).toMatchObject({
    name: NAME,
    repository: { url: expect.stringContaining('github.com/control-plane-deploy/') },
    bin: { 'control-plane-deploy': 'bin/cli.js', 'control-plane-emulator': 'bin/emulator.js' }
  })
})

test('the tarball holds the bins, their bundles, README, LICENSE and the manifest schema: no action bundle, no sources', () => {
  const files = tarMembers(installed.tarball)
  expect(files).toEqual(
    expect.arrayContaining([
      ...CLI_MEMBERS,
      'package/bin/emulator.js',
      'package/bin/emulator/index.js',
      'package/schema/manifest.schema.json'
    ])
  )
  const others = files.filter(
    f =>
      !/^package\/(package\.json|README\.md|LICENSE|schema\/manifest\.schema\.json|bin\/.+)$/.test(
        f
      )
  )
  expect(others).toEqual([])
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** An installed bin by its shebang, with `node` on PATH the given binary; only `env` besides. */
function bin(
  node: string,
  name: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = work
) {
  return spawn(binOf(installed, name), args, {
    cwd,
    env: { PATH: `${dirname(node)}:/usr/bin:/bin`, HOME: work, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

async function runToEnd(child: ReturnType<typeof spawn>): Promise<Run> {
  const run: Run = { code: null, stdout: '', stderr: '' }
  child.stdout!.on('data', (d: Buffer) => (run.stdout += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (run.stderr += d.toString()))
  const [code] = (await once(child, 'close')) as [number | null]
  return { ...run, code }
}

/** The packed emulator serving; its printed `name: value` lines, and a stop. */
async function emulator(node: string) {
  const child = bin(node, 'control-plane-emulator', ['--port', '0', '--speed', '20'])
  let out = ''
  const lines = await new Promise<Map<string, string>>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const all = out.split('\n').filter(l => l.includes(': '))
      if (all.some(l => l.startsWith('integration-id: ')))
        resolve(new Map(all.map(l => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)])))
    })
    child.once('exit', code => reject(new Error(`the emulator exited (${code}): ${out}`)))
  })
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    await exited
  }
  return { lines, stop }
}

/** The installed CLI run to its end, polling each second. */
function deployCli(node: string, args: string[], env: Record<string, string>, cwd = work) {
  return runToEnd(bin(node, 'control-plane-deploy', [...args, '--poll-interval', '1s'], env, cwd))
}

/** The variables that reach the packed emulator: its key, workspace and address. */
function keyOf(emu: { lines: Map<string, string> }): Record<string, string> {
  return {
    CONTROL_PLANE_API_KEY: emu.lines.get('api-key')!,
    CONTROL_PLANE_TENANT_ID: emu.lines.get('tenant-id')!,
    CONTROL_PLANE_BASE_URL: emu.lines.get('url')!
  }
}

const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string
  }
).version

describe.each([
  [
    `the lowest Node engines claims (${lowestNode()})`,
    () => nodeBinary(lowestNode()),
    `v${lowestNode()}`
  ],
  ["the runner's Node 24", () => NODE24, /^v24\./]
])('on %s', (_, nodePath, version) => {
  let node: string
  beforeAll(() => {
    node = nodePath()
  }, 300_000)

  test("the bins' shebang finds the Node meant", async () => {
    const run = await runToEnd(
      spawn('/usr/bin/env', ['node', '--version'], {
        env: { PATH: `${dirname(node)}:/usr/bin:/bin` }
      })
    )
    expect(run.stdout.trim()).toMatch(version)
  })

  test('both bins: --version and --help', async () => {
    expect(await runToEnd(bin(node, 'control-plane-deploy', ['--version']))).toEqual({
      code: 0,
      stdout: `${VERSION}\n`,
      stderr: ''
    })
    const help = await runToEnd(bin(node, 'control-plane-deploy', ['--help']))
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: control-plane-deploy deploy [flags]')
    const emuHelp = await runToEnd(bin(node, 'control-plane-emulator', ['--help']))
    expect(emuHelp.code).toBe(0)
    expect(emuHelp.stdout).toMatch(/^Usage: control-plane-emulator \[options\]/)
  })

  test('the CLI deploys, then deletes, against the packed emulator', async () => {
    const emu = await emulator(node)
    try {
      const env = {
        ...keyOf(emu),
        CONTROL_PLANE_INTEGRATION_ID: emu.lines.get('integration-id')!
      }
      const deploy = await deployCli(
        node,
        ['deploy', '--name', 'packed-agent', '--repository', 'acme/agent-server', '--ref', 'main'],
        env
      )
      expect({ code: deploy.code, stderr: deploy.stderr }).toEqual({
        code: 0,
        stderr: expect.stringContaining('Done: revision')
      })
      expect(deploy.stdout).toContain('revision-status=DEPLOYED\n')
      expect(deploy.stdout).toContain('created=true\n')
      const del = await deployCli(node, ['delete', '--name', 'packed-agent'], env)
      expect(del.code).toBe(0)
      expect(del.stdout).toContain('deleted=true\n')
    } finally {
      await emu.stop()
    }
  })

  // The archive's gzip trailer takes its CRC-32 from zlib.crc32 (Node 22.2 and later).
  test('the CLI deploys by upload (the working directory archived, gzip and all)', async () => {
    const emu = await emulator(node)
    const workspace = await copyFixture('ignores')
    try {
      const deploy = await deployCli(
        node,
        ['deploy', '--name', 'packed-upload', '--source', 'internal_source'],
        keyOf(emu),
        workspace
      )
      expect({ code: deploy.code, stderr: deploy.stderr }).toEqual({
        code: 0,
        stderr: expect.stringContaining('Done: revision')
      })
      expect(deploy.stdout).toContain('revision-status=DEPLOYED\n')
      expect(deploy.stdout).toMatch(/source-digest=sha256:[0-9a-f]{64}\n/)
      // The archive GNU tar reads, checksum included, is what the emulator built.
      // 13 files less .env and secrets.env, which carry credentials by their names.
      expect(deploy.stderr).toMatch(/Uploaded 11 files, /)
    } finally {
      await emu.stop()
    }
  })
})
