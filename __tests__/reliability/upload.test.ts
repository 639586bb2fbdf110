// The upload held to the run's deadline and to what the build needs, through the bundle against
// the emulator: a PUT that never answers ends at `timeout` as a timeout (not the client's later
// deadline), with nothing patched; the credential files agent projects carry stay out with no
// ignore file to say so, each named; the config's `env` file, gitignored, is warned about with how
// to pass its values; an archive over 50 MiB is sent with one warning; an archive over 200 MiB is
// refused before any request, the archive begun removed.
import { describe } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { uniqueName, type RunResult } from '../e2e/harness.ts'
import { copyFixture, rulesCase, rulesTree } from '../builders/upload.ts'
import * as support from './support.ts'

const GROUP = GROUPS.upload

/** The inputs of an upload deploy of a new name (no integration: the workspace is the source). */
function uploadInputs(
  c: support.Case,
  emu: Emulator,
  name: string,
  over: Record<string, string> = {}
) {
  const { 'integration-id': _none, ...inputs } = support.deployInputs(c, emu, name, {
    source: 'internal_source',
    ...over
  })
  return inputs
}

/** One upload run of `workspace`. */
function uploadRun(
  c: support.Case,
  emu: Emulator,
  workspace: string,
  o: { name: string; debug: boolean; over?: Record<string, string> }
): Promise<RunResult> {
  return c.run({
    inputs: uploadInputs(c, emu, o.name, o.over),
    env: { GITHUB_WORKSPACE: workspace, ...support.debugEnv(o.debug) }
  })
}

const patches = (emu: Emulator) => emu.requests().filter(r => r.method === 'PATCH')
const uploadUrls = (emu: Emulator) => emu.requests().filter(r => r.path.endsWith('/upload-url'))

/**
 * `timeout: 20s`, every PUT held for good: the run ends by the deadline, within a few seconds,
 * as the timeout ending; nothing is patched. The client's own deadline is 30 s later (the
 * look-ups' budget), where the run used to end.
 */
async function hungPutCase(c: support.Case, debug: boolean) {
  await support.withEmulator({}, async emu => {
    emu.addFaults({ method: 'PUT', path: '/_uploads/**', kind: 'delay', ms: 600_000 })
    const name = uniqueName('upload-hung')
    const workspace = await copyFixture('ignores')
    const r = await uploadRun(c, emu, workspace, { name, debug, over: { timeout: '20s' } })
    c.note(`ended ${(r.ms / 1000).toFixed(1)} s after the start, timeout 20 s`)
    c.check(r.code === 1, `exit ${r.code}, expected 1`)
    // 20 s and the process's start; the run used to end at 50 s.
    c.check(r.ms < 35_000, `the run took ${r.ms} ms, past the 20 s timeout by more than 15 s`)
    const error = support.errorText(r)
    c.check(r.errors.length === 1, `${r.errors.length} ::error lines`)
    c.check(
      error.includes('The run reached its deadline (from `timeout`)'),
      `the error does not say the deadline ended it: ${error.slice(0, 300)}`
    )
    c.check(error.includes('no answer within'), 'the error does not say the PUT went unanswered')
    c.check(r.summary.includes('Timed out'), 'the summary does not say the run timed out')
    c.check(patches(emu).length === 0, `${patches(emu).length} PATCH requests: an object named`)
    c.check(uploadUrls(emu).length === 1, `${uploadUrls(emu).length} upload URLs asked for`)
    c.check(/^sha256:/.test(r.outputs['source-digest'] ?? ''), 'no source-digest output')
    // The create's own revision; none of this run's upload.
    c.tally(emu, name, { deployments: 1, revisions: 1 })
  })
}

/** Credential files with this case's own values: any of them printed is a leak. */
async function plantCredentials(c: support.Case, dir: string, names: string[]) {
  for (const name of names) {
    const value = `cred-${randomBytes(8).toString('hex')}`
    c.secrets.push(value)
    await mkdir(dirname(join(dir, name)), { recursive: true })
    await writeFile(join(dir, name), `token = "${value}"\n`)
  }
}

/**
 * The credentials tree of fixtures/upload/rules, no ignore file: every file that carries a
 * credential by its name stays out of what the emulator built, and the log names each.
 */
async function credentialsCase(c: support.Case, debug: boolean) {
  const expected = await rulesCase('credentials')
  const tree = await rulesTree('credentials')
  await plantCredentials(c, tree.dir, Object.keys(expected.departures))
  await support.withEmulator({}, async emu => {
    const name = uniqueName('upload-creds')
    const r = await uploadRun(c, emu, tree.dir, { name, debug })
    c.check(r.code === 0, `exit ${r.code}, expected 0: ${support.errorText(r).slice(0, 300)}`)
    const [d] = support.deploymentsNamed(emu, name)
    const built = d?.revisions.find(v => v.id === r.outputs['revision-id'])?.source_files ?? []
    const leaked = built.filter(f => f in expected.departures)
    c.check(leaked.length === 0, `uploaded credential files: ${leaked.join(', ')}`)
    c.check(
      built.join() === expected.members.join(),
      `the build holds ${built.join(', ')}, expected ${expected.members.join(', ')}`
    )
    const unnamed = Object.keys(expected.departures).filter(
      f => !r.stdout.includes(`Left out: ${f}: it carries credentials by its name`)
    )
    c.check(unnamed.length === 0, `left out without a word: ${unnamed.join(', ')}`)
    c.note(`${Object.keys(expected.departures).length} credential files left out`)
    c.tally(emu, name, { deployments: 1, revisions: 2 })
  })
  await tree.close()
}

/** The config's `env` file is gitignored (its name is no credential's): warned about, with why. */
async function envFileCase(c: support.Case, debug: boolean) {
  const dir = await copyFixture('ignores')
  const config = { dependencies: ['.'], graphs: { agent: './agent.py:graph' }, env: 'conf/vars' }
  await writeFile(join(dir, 'langgraph.json'), JSON.stringify(config))
  await mkdir(join(dir, 'conf'))
  await plantCredentials(c, dir, ['conf/vars'])
  await writeFile(join(dir, '.gitignore'), '\nconf/\n', { flag: 'a' })
  await support.withEmulator({}, async emu => {
    const name = uniqueName('upload-env')
    const r = await uploadRun(c, emu, dir, { name, debug })
    c.check(r.code === 0, `exit ${r.code}, expected 0: ${support.errorText(r).slice(0, 300)}`)
    const warning = support.warningLines(r).find(l => l.includes('conf/vars')) ?? ''
    for (const part of [
      'langgraph.json names conf/vars as its `env`, and it is not in the archive',
      'conf/ is ignored by `conf/` (.gitignore line',
      'Give its values to `secrets` instead'
    ])
      c.check(warning.includes(part), `the warning lacks "${part}": ${warning.slice(0, 300)}`)
    c.tally(emu, name, { deployments: 1, revisions: 2 })
  })
}

/**
 * 201 MiB that deflate cannot shrink (one random 16 MiB block again and again, far past its 32 KiB
 * window): the build stops as it passes 200 MiB, before any request,
 * and the archive begun in the runner's temporary directory is removed. One log mode: the
 * deflate of 200 MiB costs seconds of CPU.
 */
async function overLimitCase(c: support.Case) {
  const workspace = await copyFixture('ignores')
  const block = randomBytes(16 * 1024 * 1024)
  for (let i = 0; i < 201 / 16 + 1; i++)
    await writeFile(join(workspace, 'weights.bin'), block, { flag: 'a' })
  const runnerTemp = await mkdtemp(join(tmpdir(), 'upload-tmp-'))
  await support.withEmulator({}, async emu => {
    const name = uniqueName('upload-large')
    const r = await c.run({
      inputs: uploadInputs(c, emu, name),
      env: { GITHUB_WORKSPACE: workspace, TMPDIR: runnerTemp },
      timeoutMs: 180_000
    })
    c.check(r.code === 1, `exit ${r.code}, expected 1`)
    const error = support.errorText(r)
    c.check(error.includes('larger than 200.0 MiB, the upload limit'), `the error: ${error}`)
    c.check(emu.requests().length === 0, `${emu.requests().length} requests reached the emulator`)
    const left = await readdir(runnerTemp)
    c.check(left.length === 0, `left in the runner's temporary directory: ${left.join(', ')}`)
    c.tally(emu, name, { deployments: 0, revisions: 0 })
  })
}

/** 51 MiB that deflate cannot shrink: the archive goes up and deploys, with one warning. */
async function overWarningCase(c: support.Case) {
  const workspace = await copyFixture('ignores')
  await writeFile(join(workspace, 'weights.bin'), randomBytes(51 * support.MiB))
  await support.withEmulator({}, async emu => {
    const name = uniqueName('upload-warned')
    const r = await c.run({
      inputs: uploadInputs(c, emu, name),
      env: { GITHUB_WORKSPACE: workspace }
    })
    c.check(r.code === 0, `exit ${r.code}, expected 0: ${support.errorText(r)}`)
    const warned = support.warningLines(r).filter(w => w.includes('MiB'))
    c.check(
      warned.length === 1 && warned[0]!.includes('over 50.0 MiB'),
      `the size warnings: ${JSON.stringify(warned)}`
    )
    c.tally(emu, name, { deployments: 1, revisions: 2 })
  })
}

describe(GROUP, () => {
  const idle = support.lane(4)
  const busy = support.lane(2)
  support.inBothLogModes(
    GROUP,
    'upload: timeout 20s and a PUT that never answers: a timeout by the deadline, nothing patched',
    hungPutCase,
    { lane: idle }
  )
  support.inBothLogModes(
    GROUP,
    'upload: credential files agent projects carry, no ignore file: left out, each named',
    credentialsCase,
    { lane: busy }
  )
  support.reliabilityCase(
    GROUP,
    'upload: an archive over 50 MiB deploys, with one warning saying its size',
    overWarningCase,
    { lane: busy }
  )
  support.reliabilityCase(
    GROUP,
    'upload: an archive over 200 MiB is refused before any request, the archive begun removed',
    overLimitCase,
    { lane: busy }
  )
  support.inBothLogModes(
    GROUP,
    "upload: the config's env file gitignored: a warning saying why, and how to pass its values",
    envFileCase,
    { lane: busy }
  )
})
