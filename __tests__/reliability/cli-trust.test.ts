// The CLI as a compromised server would meet it, through the packed package:
// hostile server texts (custom_url, statuses) in every output of the dotenv file, each read back
// by sh, bash, python-dotenv, GitLab's dotenv report and npm's dotenv exactly and with nothing run
// or expanded; the workspace's hostile texts (graph id, smoke case, folder and dependency names),
// which steer no line of the CLI's log. (A change from a fork is refused before any request: each
// CI's signal in cli/ci.test.ts and cli/main.test.ts, the installed CLI in package/packed.test.ts.)
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { demoFixture, type Emulator } from '../../emulator/server.ts'
import {
  hostileRevision as faultRevision,
  readBack,
  hostileDeploymentStatus
} from '../package/hostile-server.ts'
import { dotenvName, dotenvValue } from '../../src/cli/outputs.ts'
import { packedPackage } from '../package/package.ts'
import { codehostEnv, runBin, type CliRun } from '../package/run-bin.ts'
import { hostileWorkspace, INJECTED, steeredLog } from '../builders/hostile-workspace.ts'
import { lane, reliabilityCase, withEmulator, type Case } from './support.ts'

const GROUP = GROUPS.hostile

let cliJs: string | undefined
/** The packed CLI, built once per worker (cached across runs by the sources' key). */
function cliPath(): string {
  return (cliJs ??= join(packedPackage().dir, 'bin/cli.js'))
}

/** One run of the packed CLI in `cwd`, with only `env`; `onStderr` sees stderr as it grows. */
async function runCli(
  c: Case,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  onStderr?: (stderr: string) => void
): Promise<CliRun> {
  const started = Date.now()
  const run = await runBin(cliPath(), args, { cwd, env, onStderr, killAfterMs: 90_000 })
  c.runs++
  c.longestMs = Math.max(c.longestMs, Date.now() - started)
  return run
}

/** A deploy of the fixture's deployment `id` on `main` that writes its outputs to `file`. */
function deployWithFile(
  c: Case,
  emu: Emulator,
  id: string,
  file: string,
  dir: string,
  more: string[] = [],
  onStderr?: (stderr: string) => void
): Promise<CliRun> {
  return runCli(
    c,
    [
      'deploy',
      '--deployment-id',
      id,
      '--ref',
      'main',
      ...more,
      '--output',
      'json',
      '--output-file',
      file
    ],
    { ...credentials(emu), CONTROL_PLANE_REPOSITORY: 'acme/support-bot' },
    dir,
    onStderr
  )
}

/** The keys of the emulators: no run may print one. */
const KEYS = new Set<string>()

function credentials(emu: Emulator): Record<string, string> {
  KEYS.add(emu.credentials().apiKey)
  return codehostEnv(emu)
}

/** `--output json`'s values as the file carries them: null is empty, true is `true`. */
function textOf(json: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(json).map(([k, v]) => [
      k,
      v === null ? '' : typeof v === 'string' ? v : String(v)
    ])
  )
}

/**
 * The dotenv file against the outputs the run printed as JSON: every output there read back by sh,
 * bash, python-dotenv, GitLab's dotenv report and npm's dotenv as it is, or (a value not every
 * reader takes back as written) left out and named in a warning; and no marker file, which any
 * expansion of the payloads would create.
 */
function checkFile(c: Case, run: CliRun, file: string, dir: string, marks: string[]) {
  let outputs: Record<string, string>
  try {
    outputs = textOf(JSON.parse(run.stdout) as Record<string, unknown>)
  } catch {
    c.check(false, `stdout is no JSON object: ${run.stdout.slice(0, 200)}`)
    return
  }
  const names = Object.keys(outputs).map(dotenvName)
  const meant = Object.values(outputs).map(v => (dotenvValue(v) === undefined ? null : v))
  // What python-dotenv would put for `${CONTROL_PLANE_API_KEY}`, were it expanded.
  const read = readBack(file, names, dir, { CONTROL_PLANE_API_KEY: 'cpd-expanded-key' })
  for (const [reader, values] of Object.entries(read))
    c.check(
      JSON.stringify(values) === JSON.stringify(meant),
      `${reader} read ${JSON.stringify(values)}, meant ${JSON.stringify(meant)}`
    )
  const warning = run.stderr.split('\n').find(l => l.includes('Not in --output-file: ')) ?? ''
  for (const [name, v] of Object.entries(outputs))
    if (dotenvValue(v) === undefined)
      c.check(new RegExp(`[:,] ${name}[,]? `).test(warning), `no warning names ${name}`)
  const ran = marks.filter(m => existsSync(m))
  c.check(ran.length === 0, `commands ran: ${ran.join(', ')}`)
  for (const key of KEYS) c.check(!(run.stdout + run.stderr).includes(key), 'the key leaked')
}

// Each payload writes a marker file if anything expands it; `%M` is the marker's path.
const PAYLOADS: [string, string][] = [
  ['a backtick', '`id>%M`'],
  ['$(..)', '$(id>%M)'],
  ['a single quote', "'$(id>%M)'"],
  ['a double quote', '"$(id>%M)"'],
  ['a newline', '\n$(id>%M)'],
  ['a backslash', '\\`id>%M`\\'],
  ['${NAME}, which python-dotenv expands in single quotes', '${CONTROL_PLANE_API_KEY}$(id>%M)']
]

/** A deploy whose custom_url and deployment status carry the payload, to DEPLOYED. */
async function hostileDeployment(c: Case, payload: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-rel-dotenv-'))
  const marks = [1, 2].map(n => join(dir, `ran-${n}`))
  const text = (n: number) => payload.replaceAll('%M', marks[n]!)
  const fixture = demoFixture()
  const dep = fixture.deployments![0]!
  const id = dep.id!
  dep.source_config = { ...dep.source_config, custom_url: `https://x.example/${text(0)}` }
  try {
    await withEmulator({}, async emu => {
      emu.loadFixture(fixture)
      await hostileDeploymentStatus(emu, id, `READY${text(1)}`)
      const file = join(dir, 'deploy.env')
      const run = await deployWithFile(c, emu, id, file, dir)
      c.check(run.code === 0, `exit ${run.code}: ${run.stderr.slice(-400)}`)
      checkFile(c, run, file, dir, marks)
      const outputs = textOf(JSON.parse(run.stdout || '{}') as Record<string, unknown>)
      c.check(
        outputs['deployment-status'] === 'UNKNOWN',
        `deployment-status ${outputs['deployment-status']}`
      )
      c.check(!(outputs.url ?? '').includes('`'), `url ${outputs.url}`)
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A deploy whose new revision reports the payload as its status until the timeout. */
async function hostileRevision(c: Case, payload: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-rel-dotenv-'))
  const marks = [join(dir, 'ran-1')]
  const fixture = demoFixture()
  const id = fixture.deployments![0]!.id!
  try {
    await withEmulator({ speed: 0.05 }, async emu => {
      emu.loadFixture(fixture)
      const revised = faultRevision(emu, id, `DEPLOYING${payload.replaceAll('%M', marks[0]!)}`)
      const file = join(dir, 'deploy.env')
      const run = await deployWithFile(c, emu, id, file, dir, ['--timeout', '8s'], revised.onStderr)
      await revised.done()
      c.check(run.code === 1, `exit ${run.code}, expected 1 (timed out)`)
      c.check(/Still UNKNOWN \(undocumented/.test(run.stderr), 'no neutralised status')
      checkFile(c, run, file, dir, marks)
      const outputs = textOf(JSON.parse(run.stdout || '{}') as Record<string, unknown>)
      c.check(
        outputs['revision-status'] === 'UNKNOWN',
        `revision-status ${outputs['revision-status']}`
      )
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The hostile workspace deployed by upload through the packed CLI, every check on. */
async function hostileWorkspaceCase(
  c: Case,
  o: { missingDependency?: boolean; failingCase?: boolean },
  code: number
) {
  const ws = hostileWorkspace(o)
  try {
    await withEmulator({}, async emu => {
      const { CONTROL_PLANE_INTEGRATION_ID: _none, ...env } = credentials(emu)
      const run = await runCli(
        c,
        ['deploy'],
        {
          ...env,
          CONTROL_PLANE_NAME: `hostile-ws-${c.runs}`,
          CONTROL_PLANE_SOURCE: 'internal_source',
          CONTROL_PLANE_GRAPH_CONFIG_PATH: ws.configPath,
          CONTROL_PLANE_HEALTH_CHECK: 'true',
          CONTROL_PLANE_HEALTH_CHECK_WINDOW: '2s',
          CONTROL_PLANE_SMOKE_TEST: ws.smokePath
        },
        ws.dir
      )
      c.check(run.code === code, `exit ${run.code}, expected ${code}: ${run.stderr.slice(-300)}`)
      for (const line of [...steeredLog(run.stderr), ...steeredLog(run.stdout)].slice(0, 3))
        c.check(false, `the log was steered: ${JSON.stringify(line.slice(0, 160))}`)
      c.check(run.stderr.includes(INJECTED), 'the hostile text is not shown at all')
    })
  } finally {
    rmSync(ws.dir, { recursive: true, force: true })
  }
}

describe(GROUP, () => {
  const three = lane(3)
  const cases: [string, { missingDependency?: boolean; failingCase?: boolean }, number][] = [
    ['a graph id, a smoke case name and graph; the checks pass', {}, 0],
    ['a smoke case that fails', { failingCase: true }, 1],
    // Nothing sent: the workspace cannot be archived (exit 2).
    ['a dependency that does not exist, in a hostile folder', { missingDependency: true }, 2]
  ]
  for (const [what, o, code] of cases)
    reliabilityCase(
      GROUP,
      `CLI hostile workspace text: ${what}: no line of the log is a workflow command or an escape`,
      c => hostileWorkspaceCase(c, o, code),
      { lane: three }
    )
  for (const [what, payload] of PAYLOADS) {
    reliabilityCase(
      GROUP,
      `CLI dotenv: a custom_url and a deployment status with ${what} read back exactly, nothing runs`,
      c => hostileDeployment(c, payload),
      { lane: three }
    )
    reliabilityCase(
      GROUP,
      `CLI dotenv: a revision status with ${what} is UNKNOWN, read back exactly, nothing runs`,
      c => hostileRevision(c, payload),
      { lane: three }
    )
  }
})
