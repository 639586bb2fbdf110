// The `control-plane-emulator` bin as users get it: `npm pack` of the working tree, installed into
// a folder of its own (the CLI's packed test's helper), run with Node from another folder, with no
// emulator/ sources and no fixtures/ beside it.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture } from '../../emulator/server.ts'
import { serving } from '../builders/emulator.ts'
import { NODE24, packedPackage } from './package.ts'

let packageDir: string
let tarball: string
let work: string

beforeAll(() => {
  ;({ dir: packageDir, tarball } = packedPackage())
  work = mkdtempSync(join(tmpdir(), 'cpd-emulator-packed-'))
}, 240_000)

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

function start(args: string[]) {
  return spawn(NODE24, [join(packageDir, 'bin/emulator.js'), ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', HOME: work },
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

/** The bin serving in the foreground; `lines` are its four printed lines by name. */
function serve(args: string[]) {
  const child = start(['--port', '0', ...args])
  return serving(child)
}

async function runToEnd(args: string[]) {
  const child = start(args)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

const reposPath = (integrationId: string) =>
  `/v1/integrations/forge/codehost/${integrationId}/repos`

test('the tarball holds the bin and its bundle, and no emulator source or fixture file', () => {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n')
  expect(files).toEqual(
    expect.arrayContaining(['package/bin/emulator.js', 'package/bin/emulator/index.js'])
  )
  expect(files.filter(f => /^package\/(emulator|fixtures)\//.test(f))).toEqual([])
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>
  }
  expect(pkg.bin['control-plane-emulator']).toBe('bin/emulator.js')
  expect(readFileSync(join(packageDir, 'bin/emulator.js'), 'utf8')).toMatch(
    /^#!\/usr\/bin\/env node\n/
  )
})

test('--version: exit 0 and the package version', async () => {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string
  }
  expect(await runToEnd(['--version'])).toMatchObject({
    code: 0,
    stdout: `${pkg.version}\n`,
    stderr: ''
  })
})

test('--help: exit 0 and the usage, which names the bin', async () => {
  const help = await runToEnd(['--help'])
  expect(help.code).toBe(0)
  expect(help.stdout).toMatch(/^Usage: control-plane-emulator \[options\]/)
  expect(help.stdout).toContain('--fixture FILE')
  expect(help.stderr).toBe('')
})

test('--port 0: prints url, api-key and tenant-id of the demo fixture, answers an authenticated request, exits 0 on SIGTERM', async () => {
  const { child, lines, stop } = serve([])
  try {
    const printed = await lines
    const demo = demoFixture()
    expect(printed.get('url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(printed.get('api-key')).toBe(demo.tenants[0]!.api_keys[0])
    expect(printed.get('tenant-id')).toBe(demo.tenants[0]!.id)
    const url = `${printed.get('url')}${reposPath(printed.get('integration-id')!)}`
    const res = await fetch(url, {
      headers: { 'X-Api-Key': printed.get('api-key')!, 'X-Tenant-Id': printed.get('tenant-id')! }
    })
    expect(res.status).toBe(200)
    const repos = (await res.json()) as { url: string }[]
    expect(repos.map(r => r.url)).toContain('https://github.com/acme/agent-server')
    expect((await fetch(url, { headers: { 'X-Api-Key': 'not-a-key' } })).status).toBe(401)
    expect(await stop()).toBe(0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
})

test('--fixture reads the user file given', async () => {
  const fixture = demoFixture()
  fixture.tenants[0]!.api_keys = ['lsv2_pt_from_a_user_fixture']
  const file = join(work, 'my-fixture.json')
  writeFileSync(file, JSON.stringify(fixture))
  const { child, lines, stop } = serve(['--fixture', 'my-fixture.json'])
  try {
    expect((await lines).get('api-key')).toBe('lsv2_pt_from_a_user_fixture')
    expect(await stop()).toBe(0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
  const missing = await runToEnd(['--fixture', 'no-such-file.json'])
  expect(missing.code).toBe(2)
  expect(missing.stderr).toContain('no-such-file.json')
})
