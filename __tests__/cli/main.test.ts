import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cli, type CliIo, type Run } from '../../src/cli/main.ts'
import { type ExitCode, type RunPort, type RunResult } from '../../src/port.ts'
import { ACTION_OUTPUTS } from '../../src/interface/action-yml.ts'
import { run as realRun, run } from '../../src/run.ts'
import { expect, test, describe } from '@jest/globals'
import { virtualEmulator } from '../builders/virtual-emulator.ts'

// The CLI door in-process, with a fake run behind the port: what reaches the run, what reaches
// stdout, stderr and the dotenv file, and the exit codes.

const KEY = 'lsv2_pt_0123456789abcdef0123456789abcdef_0123456789'
const SECRET = 'sk-very-secret-value-42'
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const ENV = {
  CONTROL_PLANE_API_KEY: KEY,
  GITLAB_CI: 'true',
  CI_COMMIT_BRANCH: 'main',
  CI_COMMIT_SHA: SHA
}
const OUTPUTS = { 'deployment-id': 'd-1', 'revision-status': 'DEPLOYED', url: '' }

function io() {
  const fake = {
    stdout: '',
    stderr: '',
    /** Both streams as a terminal shows them, in the order written. */
    terminal: '',
    exits: [] as ExitCode[],
    signal: undefined as ((s: NodeJS.Signals) => void) | undefined,
    io: undefined as unknown as CliIo
  }
  fake.io = {
    stdout: { write: (t: string) => ((fake.terminal += t), (fake.stdout += t)) },
    stderr: { write: (t: string) => ((fake.terminal += t), (fake.stderr += t)), isTTY: false },
    now: () => 0,
    cwd: tmpdir(),
    onSignal: handler => {
      fake.signal = handler
      return () => (fake.signal = undefined)
    },
    exit: code => fake.exits.push(code)
  }
  return fake
}

/** A run that records its port and does what `body` says. */
function fakeRun(body: (port: RunPort) => Promise<RunResult> | RunResult) {
  const seen: RunPort[] = []
  const run: Run = async port => {
    seen.push(port)
    return body(port)
  }
  return { run, seen }
}

test('a deploy: inputs from flags and env reach the run; outputs on stdout; the log on stderr, redacted', async () => {
  const f = io()
  const { run, seen } = fakeRun(port => {
    port.mask(SECRET)
    port.info(`key ${KEY}, secret ${SECRET}, name ${port.input('name')}`)
    return { exitCode: 0, outputs: OUTPUTS }
  })
  const code = await cli(
    ['deploy', '--name', 'my-agent', '--no-wait'],
    { ...ENV, CONTROL_PLANE_TIMEOUT: ' 5m ' },
    f.io,
    run
  )
  expect(code).toBe(0)
  const port = seen[0]!
  expect([
    port.input('name'),
    port.input('wait'),
    port.input('timeout'),
    port.input('api-key')
  ]).toEqual(['my-agent', 'false', '5m', KEY])
  expect(port.input('command')).toBe('deploy')
  expect(port.event).toEqual({
    ref: 'main',
    refFrom: 'CI_COMMIT_BRANCH',
    expectedSha: SHA,
    workspace: tmpdir(),
    // A GitLab pipeline's repository is GitLab's: a create is pointed at an upload.
    codeHost: 'GitLab'
  })
  expect(port.github).toBeUndefined()
  expect(port.summary).toBeUndefined()
  expect(f.stdout).toMatch(/^deployment-id=d-1\n/)
  expect(f.stdout).toContain('\nrevision-status=DEPLOYED\n')
  expect(f.stdout).toContain('\nurl=\n')
  expect(f.stderr).toBe(
    'Defaults from GitLab CI (branch main): ref main, commit a1b2c3d4e5f6.\n' +
      'key ***, secret ***, name my-agent\n'
  )
})

test('--output json and --output-file: one JSON object, and the dotenv file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-cli-'))
  try {
    const f = io()
    const file = join(dir, 'deploy.env')
    const { run } = fakeRun(() => ({ exitCode: 0, outputs: OUTPUTS }))
    expect(await cli(['deploy', '--output=json', '--output-file', file], ENV, f.io, run)).toBe(0)
    expect(JSON.parse(f.stdout)).toMatchObject({
      'deployment-id': 'd-1',
      'revision-status': 'DEPLOYED',
      url: null
    })
    expect(readFileSync(file, 'utf8')).toMatch(
      /^DEPLOYMENT_ID=d-1\nREVISION_ID=\nREVISION_STATUS=DEPLOYED\n(.*\n)*URL=\n/
    )
    // A file that cannot be written is refused before the run: no deploy that a retry repeats.
    for (const [target, why] of [
      [join(dir, 'no/such/dir.env'), 'its folder does not exist'],
      [dir, 'it is a folder']
    ] as const) {
      const g = io()
      const never = fakeRun(() => ({ exitCode: 0, outputs: OUTPUTS }))
      expect(await cli(['deploy', '--output-file', target], ENV, g.io, never.run)).toBe(2)
      expect(never.seen).toEqual([])
      expect(g.stdout).toBe('')
      expect(g.stderr).toContain(
        `--output-file ${target} cannot be written (${why}); nothing was sent`
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('bad flags: exit 2 before the run, with the reason on stderr and nothing on stdout', async () => {
  const f = io()
  const { run, seen } = fakeRun(() => ({ exitCode: 0, outputs: {} }))
  expect(await cli(['deploy', `--api-key=${KEY}`], ENV, f.io, run)).toBe(2)
  expect(seen).toHaveLength(0)
  expect(f.stdout).toBe('')
  expect(f.stderr).toMatch(
    /^control-plane-deploy: --api-key is not accepted: .*CONTROL_PLANE_API_KEY/
  )
  expect(f.stderr).not.toContain(KEY)
})

test('invalid inputs (the run says 2): the exit is 2, with a word on where inputs come from', async () => {
  const f = io()
  const { run } = fakeRun(port => {
    port.error('`timeout` must be a duration', 'Invalid inputs')
    return { exitCode: 2, outputs: { 'deployment-id': '' } }
  })
  expect(await cli(['deploy', '--timeout', 'soon'], ENV, f.io, run)).toBe(2)
  expect(f.stderr).toContain('error: Invalid inputs: `timeout` must be a duration\n')
  expect(f.stderr).toContain('Each input is a flag of the same name')
  // On a terminal the hint follows the error it explains, before the (empty) outputs.
  expect(f.terminal).toMatch(/must be a duration\nEach input is a flag[^\n]*\ndeployment-id=\n/)
})

test('SIGINT stops the run through the port (exit 130); a second one exits at once', async () => {
  const f = io()
  let interrupted!: () => void
  const started = new Promise<void>(resolve => (interrupted = resolve))
  const { run } = fakeRun(
    port =>
      new Promise<RunResult>(resolve => {
        interrupted()
        port.signal.addEventListener('abort', () => resolve({ exitCode: 1, outputs: {} }))
      })
  )
  const done = cli(['deploy'], ENV, f.io, run)
  await started
  f.signal!('SIGINT')
  expect(await done).toBe(130)
  expect(f.stderr).toContain('Received SIGINT: stopping (again to quit at once).')
  expect(f.signal).toBeUndefined()

  const g = io()
  const stuck = fakeRun(() => new Promise<RunResult>(() => undefined))
  void cli(['delete'], ENV, g.io, stuck.run)
  await new Promise(r => setImmediate(r))
  g.signal!('SIGINT')
  g.signal!('SIGINT')
  expect(g.exits).toEqual([130])
})

test('a run that throws: exit 1 with one line, no stack', async () => {
  const f = io()
  const { run } = fakeRun(() => {
    throw new Error(`boom ${KEY}`)
  })
  expect(await cli(['deploy'], ENV, f.io, run)).toBe(1)
  expect(f.stderr).toContain('error: Unexpected error: boom ***\n')
  expect(f.stderr).not.toMatch(/\bat .*\.ts:\d+/)
})

test('inside GitHub Actions the port has the GitHub side, and no job summary (the action door writes it)', async () => {
  const f = io()
  const { run, seen } = fakeRun(() => ({ exitCode: 0, outputs: {} }))
  const env = {
    CONTROL_PLANE_API_KEY: KEY,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: '/tmp/x',
    GITHUB_REPOSITORY: 'acme/agent',
    GITHUB_RUN_ID: '7'
  }
  await cli(['deploy'], env, f.io, run)
  expect(seen[0]!.github).toMatchObject({ repository: 'acme/agent', runId: '7' })
  expect(seen[0]!.summary).toBeUndefined()
})

test('--help and --version on stdout, exit 0, no run', async () => {
  const f = io()
  const { run, seen } = fakeRun(() => ({ exitCode: 0, outputs: {} }))
  expect(await cli(['--help'], {}, f.io, run)).toBe(0)
  expect(f.stdout).toMatch(/^Usage: control-plane-deploy deploy \[flags\]/)
  const g = io()
  expect(await cli(['--version'], {}, g.io, run)).toBe(0)
  expect(g.stdout).toMatch(/^\d+\.\d+\.\d+\n$/)
  expect(seen).toHaveLength(0)
})

test('--debug: the run gets a debug log, redacted, on stderr; without it none', async () => {
  const f = io()
  const { run, seen } = fakeRun(port => {
    port.debug?.(`-> GET /v2/deployments X-Api-Key: ${KEY}`)
    return { exitCode: 0, outputs: {} }
  })
  await cli(['deploy', '--debug'], ENV, f.io, run)
  expect(f.stderr).toContain('debug: -> GET /v2/deployments X-Api-Key: ***\n')
  await cli(['deploy'], ENV, io().io, run)
  expect(seen[1]!.debug).toBeUndefined()
})

/** A GitLab job for merge request !12 from the fork mallory/agent. */
const FORK = {
  ...ENV,
  CI_COMMIT_BRANCH: undefined,
  CI_MERGE_REQUEST_IID: '12',
  CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'main',
  CI_MERGE_REQUEST_PROJECT_PATH: 'acme/agent',
  CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'mallory/agent'
}

test('a merge request from a fork: refused before the run (exit 2), unless --repository and --ref are both given', async () => {
  const f = io()
  const { run, seen } = fakeRun(() => ({ exitCode: 0, outputs: OUTPUTS }))
  expect(await cli(['deploy', '--name', 'my-agent', '--ref', 'main'], FORK, f.io, run)).toBe(2)
  expect(seen).toEqual([])
  expect(f.stdout).toBe('')
  expect(f.stderr).toContain(
    'This GitLab CI run is for a change from the fork mallory/agent (CI_MERGE_REQUEST_SOURCE_PROJECT_PATH)'
  )
  expect(f.stderr).toContain('give both --repository')

  const g = io()
  const deliberate = ['deploy', '--name', 'my-agent', '--repository', 'mallory/agent']
  expect(await cli(deliberate, { ...FORK, CONTROL_PLANE_REF: 'main' }, g.io, run)).toBe(0)
  expect(seen[0]?.event.forkHead).toBe('mallory/agent')
})

test("a check from a fork's merge request is refused in the CLI's words, not the action's", async () => {
  const f = io()
  const { run, seen } = fakeRun(() => ({ exitCode: 0, outputs: OUTPUTS }))
  const check = ['check', '--name', 'my-agent', '--source', 'internal_source']
  expect(await cli(check, FORK, f.io, run)).toBe(2)
  expect(seen).toEqual([])
  expect(f.stderr).toContain(
    'This GitLab CI run is for a change from the fork mallory/agent (CI_MERGE_REQUEST_SOURCE_PROJECT_PATH)'
  )
  expect(f.stderr).toContain('To skip forks, add `rules:')
  expect(f.stderr).not.toMatch(/github\.event|pull_request/)
})

test("a delete or a sweep of a fork's merge request is not a deploy: the fork rule does not stop it", async () => {
  const { run, seen } = fakeRun(() => ({ exitCode: 0, outputs: OUTPUTS }))
  expect(await cli(['delete', '--name', 'my-agent-mr-12'], FORK, io().io, run)).toBe(0)
  const sweep = ['sweep', '--sweep-names', 'my-agent-mr-{pr}']
  expect(await cli(sweep, FORK, io().io, run)).toBe(0)
  expect(seen).toHaveLength(2)
})

test('a sweep-max-age without a unit is refused in the CLI’s words before any request (exit 2)', async () => {
  const f = io()
  const argv = ['sweep', '--sweep-names', 'my-agent-pr-*', '--sweep-max-age', '7']
  // No base URL that answers: a request would fail the run otherwise than exit 2.
  const env = { ...ENV, CONTROL_PLANE_BASE_URL: 'http://127.0.0.1:9' }
  expect(await cli(argv, env, f.io, realRun)).toBe(2)
  expect(f.stderr).toMatch(/`--sweep-max-age` needs a unit: `7` would be 7 seconds/)
})

/** Every declared output, as run() returns them: '' where unset, the booleans false. */
function allOutputs(over: Record<string, string>): Record<string, string> {
  const all = Object.fromEntries(Object.keys(ACTION_OUTPUTS).map(name => [name, '']))
  return { ...all, created: 'false', deleted: 'false', ...over }
}

test('a sweep prints its own output alone: no deleted=false beside what it deleted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-cli-'))
  try {
    const outputs = allOutputs({ swept: '["my-agent-mr-3","my-agent-mr-7"]' })
    const lines = io()
    const { run } = fakeRun(() => ({ exitCode: 0, outputs }))
    expect(await cli(['sweep', '--sweep-names', 'my-agent-mr-{pr}'], ENV, lines.io, run)).toBe(0)
    expect(lines.stdout).toBe('swept=["my-agent-mr-3","my-agent-mr-7"]\n')
    const json = io()
    const file = join(dir, 'sweep.env')
    const argv = ['sweep', '--sweep-names', 'my-agent-mr-{pr}', '--output', 'json']
    expect(await cli([...argv, '--output-file', file], ENV, json.io, run)).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ swept: ['my-agent-mr-3', 'my-agent-mr-7'] })
    expect(readFileSync(file, 'utf8')).toBe('SWEPT=my-agent-mr-3,my-agent-mr-7\n')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('--output json has JSON types: booleans, a number, null for an empty output', async () => {
  const outputs = allOutputs({
    'deployment-id': 'd-1',
    created: 'true',
    'github-deployment-id': '1234',
    drift: 'true'
  })
  const deploy = io()
  const { run } = fakeRun(() => ({ exitCode: 0, outputs }))
  expect(await cli(['deploy', '--name', 'a', '--output', 'json'], ENV, deploy.io, run)).toBe(0)
  const d = JSON.parse(deploy.stdout) as Record<string, unknown>
  expect(d).toMatchObject({ created: true, 'github-deployment-id': 1234, url: null })
  expect(Object.keys(d)).not.toEqual(expect.arrayContaining(['deleted']))
  expect(Object.keys(d)).not.toContain('swept')
  const check = io()
  expect(await cli(['check', '--name', 'a', '--output', 'json'], ENV, check.io, run)).toBe(0)
  expect(JSON.parse(check.stdout)).toEqual({ drift: true, 'deployment-id': 'd-1' })
  const del = io()
  expect(await cli(['delete', '--name', 'a', '--output', 'json'], ENV, del.io, run)).toBe(0)
  expect(JSON.parse(del.stdout)).toMatchObject({ deleted: false, 'deployment-id': 'd-1' })
  expect(Object.keys(JSON.parse(del.stdout) as object)).not.toContain('created')
})

// The CLI's door on a long build, in-process against the emulator on one virtual clock: the wait's
// progress and the build's lines are plain lines on stderr (no runner's group markers), and stdout
// holds the outputs alone.
describe('progress', () => {
  const v = virtualEmulator()

  test('a 90 s build from the CLI: progress and build lines, plain, on stderr', async () => {
    v.emu.configure({ stageDurationsMs: { BUILDING: 90_000 } })
    const c = v.emu.credentials()
    let stdout = ''
    let stderr = ''
    const io: CliIo = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t), isTTY: false },
      now: v.now,
      cwd: tmpdir(),
      onSignal: () => () => {},
      exit: () => {}
    }
    const code = await cli(
      ['deploy', '--name', 'cli-progress', '--repository', 'acme/agent-server', '--ref', 'main'],
      {
        CONTROL_PLANE_API_KEY: c.apiKey,
        CONTROL_PLANE_TENANT_ID: c.tenantId,
        CONTROL_PLANE_BASE_URL: v.emu.url,
        CONTROL_PLANE_INTEGRATION_ID: c.integrationId!
      },
      io,
      port => run(port, { now: v.now, sleep: v.sleep })
    )
    expect(code).toBe(0)
    const lines = stderr.split('\n')
    expect(lines).toContain(lines.find(l => /^▸ Wait for revision /.test(l)))
    expect(
      lines.filter(l => /^Still BUILDING after [0-9hms]+$/.test(l)).length
    ).toBeGreaterThanOrEqual(2)
    expect(lines.filter(l => l.startsWith('build | ')).length).toBeGreaterThanOrEqual(3)
    expect(stderr).not.toContain('::group::')
    expect(stdout).toMatch(/^deployment-id=\S+\n/)
    expect(stdout).not.toMatch(/build \||Still /)
  })
})
