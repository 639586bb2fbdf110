// The upload's file set through the packed CLI, the working directory as the workspace (a GitLab
// job): the trees of fixtures/upload/rules as the emulator unpacked them, the log's account of
// each file left out, and `--output-file` never archived. Each case failed before the file set
// was amended (issue 32: defects 1, 2, 4, 6; credentials; silent omissions).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../emulator/server.ts'
import { copyFixture, rulesCase, rulesTree } from '../builders/upload.ts'
import { packedPackage } from './package.ts'
import { gitlabUploadJob, outputsOf, runBin, uniqueName } from './run-bin.ts'

let cliJs: string
let home: string
let emu: Emulator

beforeAll(async () => {
  cliJs = join(packedPackage().dir, 'bin/cli.js')
  home = mkdtempSync(join(tmpdir(), 'cpd-cli-upload-set-'))
  emu = await startEmulator({ port: 0, speed: 4 })
}, 240_000)

afterAll(async () => {
  await emu?.close()
  if (home) rmSync(home, { recursive: true, force: true })
})

/** `deploy` of `cwd` by upload, as a GitLab job on `main`; its run and what the emulator built. */
async function deploy(cwd: string, args: string[] = [], env: Record<string, string> = {}) {
  const name = uniqueName('cli-upload-set')
  const r = await runBin(cliJs, ['deploy', ...args], {
    cwd,
    home,
    env: gitlabUploadJob(emu, { CONTROL_PLANE_NAME: name, ...env })
  })
  const d = emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(x => x.name === name)
  const last = d?.revisions.at(-1)
  return { ...r, files: last?.source_files, graphs: last?.graphs }
}

test('`!.git/` and `*` then `!*/` never put .git/ in; an allowlist keeps the graph module', async () => {
  for (const name of ['negations', 'whitelist']) {
    const c = await rulesCase(name)
    const r = await deploy((await rulesTree(name)).dir)
    expect({ name, code: r.code, files: r.files }).toEqual({ name, code: 0, files: c.members })
  }
  const c = await rulesCase('allowlist')
  const tree = await rulesTree('allowlist')
  await writeFile(join(tree.dir, '.gitignore'), c.variants![1]!) // `**` then `!src/**`
  const r = await deploy(tree.dir)
  expect(r.code).toBe(0)
  expect(r.files).toEqual(c.members)
  expect(r.graphs).toEqual(['agent'])
})

test('links, special files and credentials are left out, each named; --secrets for the env file', async () => {
  const links = await rulesCase('links')
  const tree = await rulesTree('links')
  try {
    const r = await deploy(tree.dir)
    expect(r.code).toBe(0)
    expect(r.files).toEqual(links.members)
    expect(r.stderr).toContain('Left out: outside.py: a hard link (the file has 2 names)')
    expect(r.stderr).toContain('Left out: pipe: a FIFO, not a regular file')
    expect(r.stderr).toContain('Left out: link-to-agent.py: a symbolic link')
  } finally {
    await tree.close()
  }
  const creds = await rulesCase('credentials')
  const r = await deploy((await rulesTree('credentials')).dir)
  expect(r.code).toBe(0)
  expect(r.files).toEqual(creds.members)
  expect(r.stderr).toContain(
    'Left out: gha-creds-3f2a9c1d.json: it carries credentials by its name (`gha-creds-*.json`)'
  )
  expect(r.stderr).toContain('Give its values to `--secrets` instead')
})

test('--output-file deploy.env is never archived: the digest is the same with or without it', async () => {
  const workspace = await copyFixture('ignores')
  execFileSync('git', ['init', '-q'], { cwd: workspace })
  const without = await deploy(workspace)
  expect(without.code).toBe(0)
  const digest = outputsOf(without.stdout)['source-digest']
  // As both CI examples run it; the second run finds the first run's file in the workspace.
  for (const run of [1, 2]) {
    const r = await deploy(workspace, ['--output-file', 'deploy.env'])
    expect({ run, code: r.code }).toEqual({ run, code: 0 })
    expect(outputsOf(r.stdout)['source-digest']).toBe(digest)
    expect(r.files).not.toContain('deploy.env')
    expect(r.stderr).toContain('Left out: deploy.env: written by this run')
  }
  // The untracked files that went up are named (nothing is tracked in this checkout).
  expect(without.stderr).toContain('Not tracked by git, but in the archive: 11 files: ')
})

test('a dry run prints every file and every file left out with why', async () => {
  const r = await deploy((await rulesTree('nested')).dir, ['--dry-run'])
  expect(r.code).toBe(0)
  const c = await rulesCase('nested')
  const lines = r.stderr.split('\n').map(l => l.replace(/^.*?(Files in|Left out \(| {2})/, '$1'))
  const at = lines.indexOf(`Files in the archive (${c.members.length}):`)
  expect(lines.slice(at + 1, at + 1 + c.members.length)).toEqual(c.members.map(m => `  ${m}`))
  for (const [name, why] of Object.entries(c.departures))
    expect(lines).toContain(`  ${name}: ${why}`)
  expect(lines).toContain('  src/keep.tmp: ignored by `*.tmp` (.gitignore line 1)')
})
