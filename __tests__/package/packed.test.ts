// The packed CLI end to end: `npm pack` of the working tree, installed into a folder of its own
// (package.ts), run with Node in a clean environment against the emulator.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture, startEmulator, type Emulator } from '../../emulator/server.ts'
import { BUILDS_FOR_A_DAY } from '../e2e/harness.ts'
import { hostileRevision, readBack, readByAll, hostileDeploymentStatus } from './hostile-server.ts'
import { packedPackage, tarMembers, CLI_MEMBERS } from './package.ts'
import { packedCli } from './packed-cli.ts'
import {
  codehostEnv,
  outputsOf,
  runBin,
  uniqueName,
  type BinOptions,
  type CliRun
} from './run-bin.ts'
import { gitIn } from '../builders/upload.ts'

type CliOptions = Partial<Pick<BinOptions, 'cwd' | 'onStderr' | 'interruptWhen' | 'signal'>>

const packed = packedCli('cpd-cli-e2e-')
let emulator: Emulator
beforeAll(async () => {
  emulator = await packed.emulator()
}, 240_000)

/** The CLI with only `env` (and PATH, HOME) in its environment, in a folder that is no checkout. */
function cli(
  args: string[],
  env: Record<string, string> = {},
  o: CliOptions = {}
): Promise<CliRun> {
  return runBin(packed.cliJs, args, { ...o, cwd: o.cwd ?? packed.dir, home: packed.dir, env })
}

/** The create requests the emulator received for deployment `name`. */
function creates(name: string): Record<string, unknown>[] {
  return emulator
    .requests()
    .filter(r => r.method === 'POST' && (r.body as { name?: string } | null)?.name === name)
    .map(r => r.body as Record<string, unknown>)
}

/** Where a value the CLI must never print shows up in a run. */
function leaks(run: CliRun, ...values: string[]): string[] {
  return values.flatMap(v =>
    [
      run.stdout.includes(v) ? `stdout has ${v.slice(0, 6)}…` : '',
      run.stderr.includes(v) ? `stderr has ${v.slice(0, 6)}…` : ''
    ].filter(Boolean)
  )
}

const credentials = () => codehostEnv(emulator)

test('--help and --version from the packed package, with no action.yml beside it', async () => {
  const help = await cli(['deploy', '--help'])
  expect(help.code).toBe(0)
  expect(help.stdout).toMatch(/^Usage: control-plane-deploy deploy \[flags\]/)
  expect(help.stdout).toMatch(
    /--timeout <value> +Longest wait for the revision[^]*?\(default: 30m\)/
  )
  expect(help.stdout).toContain('Examples:')
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

test('the tarball holds the bin, its bundle, README and LICENSE, and nothing of src/', () => {
  const { tarball, dir } = packedPackage()
  const files = tarMembers(tarball).sort()
  expect(files).toEqual(expect.arrayContaining(CLI_MEMBERS))
  // The CLI's sources are in its bundle, not beside it.
  expect(files.filter(f => /^package\/(src|__tests__|scripts|dist)\//.test(f))).toEqual([])
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>
  expect(pkg.private).toBeUndefined()
  expect(pkg.bin).toMatchObject({ 'control-plane-deploy': 'bin/cli.js' })
  expect(readFileSync(join(dir, 'bin/cli.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
})

const SECRET = 'sk-live-0123456789abcdef-never-shown'

test('deploy from flags: exit 0, the outputs on stdout, the log on stderr, no key anywhere', async () => {
  const { CONTROL_PLANE_API_KEY: key, ...rest } = credentials()
  const name = uniqueName('flags')
  const run = await cli(
    [
      'deploy',
      `--name=${name}`,
      `--base-url=${rest.CONTROL_PLANE_BASE_URL}`,
      `--tenant-id=${rest.CONTROL_PLANE_TENANT_ID}`,
      `--integration-id=${rest.CONTROL_PLANE_INTEGRATION_ID}`,
      '--repository=acme/agent-server',
      '--ref=main',
      '--poll-interval=1s'
    ],
    { CONTROL_PLANE_API_KEY: key }
  )
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
  const outputs = outputsOf(run.stdout)
  expect(outputs).toMatchObject({ 'revision-status': 'DEPLOYED', created: 'true' })
  // A deploy's own outputs: none that only a delete, a sweep or a check sets.
  expect(Object.keys(outputs)).not.toEqual(expect.arrayContaining(['deleted']))
  expect(outputs).not.toHaveProperty('swept')
  expect(outputs['deployment-id']).toMatch(/^[0-9a-f-]{36}$/)
  expect(run.stderr).toContain('No CI and no git checkout found')
  expect(run.stderr).toContain('▸ Wait for revision')
  expect(run.stderr).toContain('Done: revision')
  expect(creates(name)).toHaveLength(1)
  expect(leaks(run, key)).toEqual([])

  // Delete: the same deployment is gone, and a second delete finds nothing to delete (exit 0).
  const del = await cli(['delete', `--name=${name}`, '--poll-interval=1s'], credentials())
  expect([del.code, outputsOf(del.stdout).deleted]).toEqual([0, 'true'])
  const again = await cli(['delete', `--name=${name}`], credentials())
  expect([again.code, outputsOf(again.stdout).deleted]).toEqual([0, 'false'])
  expect(leaks(del, key)).toEqual([])
})

test('deploy from the environment, --output json and a dotenv --output-file; the secret is sent, never shown', async () => {
  const name = uniqueName('env')
  const file = join(packed.dir, `${name}.env`)
  const env = {
    ...credentials(),
    CONTROL_PLANE_NAME: name,
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
    CONTROL_PLANE_REF: 'main',
    CONTROL_PLANE_POLL_INTERVAL: '1s',
    CONTROL_PLANE_SECRETS: `OPENAI_API_KEY=${SECRET}`
  }
  const run = await cli(['deploy', '--output', 'json', '--output-file', file], env)
  expect(run.code).toBe(0)
  const outputs = JSON.parse(run.stdout) as Record<string, unknown>
  expect(outputs).toMatchObject({ 'revision-status': 'DEPLOYED', created: true })
  const dotenv = readFileSync(file, 'utf8')
  expect(dotenv).toContain(`DEPLOYMENT_ID=${outputs['deployment-id']}\n`)
  expect(dotenv).toContain('REVISION_STATUS=DEPLOYED\n')
  expect(JSON.stringify(creates(name))).toContain(SECRET)
  expect(leaks(run, env.CONTROL_PLANE_API_KEY, SECRET)).toEqual([])
  expect(dotenv).not.toContain(SECRET)
})

test('GitLab CI merge request pipeline: ref and commit from its variables', async () => {
  const name = uniqueName('gitlab')
  const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
  const run = await cli(['deploy', '--name', name, '--no-wait'], {
    ...credentials(),
    GITLAB_CI: 'true',
    CI_COMMIT_SHA: sha,
    CI_COMMIT_REF_NAME: 'feature-login',
    CI_MERGE_REQUEST_IID: '7',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature-login',
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server'
  })
  expect(run.code).toBe(0)
  expect(run.stderr).toContain(
    'Defaults from GitLab CI (merge request !7): ref feature-login, commit a1b2c3d4e5f6.'
  )
  expect(JSON.stringify(creates(name))).toContain('"repo_ref":"feature-login"')
})

test('a git checkout: its branch, and the repository from its GitHub origin', async () => {
  const repo = join(packed.dir, uniqueName('checkout'))
  mkdirSync(repo)
  const git = gitIn(repo)
  git('init', '-q', '-b', 'release-2')
  git('commit', '-q', '--allow-empty', '-m', 'one')
  git('remote', 'add', 'origin', 'git@github.com:acme/agent-server.git')
  const name = uniqueName('git')
  const run = await cli(['deploy', '--name', name, '--no-wait'], credentials(), { cwd: repo })
  expect(run.code).toBe(0)
  expect(run.stderr).toContain(
    `Defaults from the git checkout: ref release-2, commit ${git('rev-parse', 'HEAD').slice(0, 12)}, repository acme/agent-server.`
  )
  const body = JSON.stringify(creates(name))
  expect(body).toContain('"repo_ref":"release-2"')
  expect(body).toContain('https://github.com/acme/agent-server')
})

test('a failed build: exit 1, the error on stderr, the outputs still on stdout', async () => {
  const name = uniqueName('fails')
  emulator.script({ outcome: 'BUILD_FAILED', logLines: [`pip: no such package (token ${SECRET})`] })
  const run = await cli(['deploy', '--name', name, '--poll-interval', '1s'], {
    ...credentials(),
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
    CONTROL_PLANE_REF: 'main',
    CONTROL_PLANE_SECRETS: `TOKEN=${SECRET}`
  })
  expect(run.code).toBe(1)
  expect(outputsOf(run.stdout)['revision-status']).toBe('BUILD_FAILED')
  expect(run.stderr).toMatch(/\nerror: Revision BUILD_FAILED: .*BUILD_FAILED/)
  expect(run.stderr).toContain('pip: no such package (token ***)')
  expect(leaks(run, SECRET)).toEqual([])
})

test('invalid inputs: exit 2, every problem on stderr, no request', async () => {
  emulator.clearRequests()
  const run = await cli(['deploy', '--name', 'Not_A_Name', '--timeout', 'soon'], credentials())
  expect(run.code).toBe(2)
  expect(run.stderr).toContain('- --name: `--name` must be')
  expect(run.stderr).toContain('- --timeout: `--timeout` must be')
  expect(run.stderr).toContain('Each input is a flag of the same name')
  expect(emulator.requests()).toEqual([])
})

test('a ref from a CI variable is checked as the --ref flag is, naming the variable: no request', async () => {
  emulator.clearRequests()
  for (const [env, variable] of [
    [{ BUILDKITE: 'true', BUILDKITE_BRANCH: 'evil:main' }, 'BUILDKITE_BRANCH'],
    [{ CIRCLECI: 'true', CIRCLE_BRANCH: 'pull/5' }, 'CIRCLE_BRANCH'],
    [{ GITLAB_CI: 'true', CI_COMMIT_BRANCH: 'ma\u202Ein' }, 'CI_COMMIT_BRANCH']
  ] as const) {
    const run = await cli(['deploy', '--name', uniqueName('ci-ref')], {
      ...credentials(),
      CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
      ...env
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`- --ref: The ref read from ${variable} `)
  }
  expect(emulator.requests()).toEqual([])
})

test.each(['SIGINT', 'SIGHUP'] as const)(
  '%s while waiting: the run stops, says what goes on, writes its outputs, exit 130',
  async signal => {
    const slow = await startEmulator({ port: 0, speed: 0.02 })
    try {
      const run = await cli(
        [
          'deploy',
          '--name',
          uniqueName(signal.toLowerCase()),
          '--repository',
          'acme/agent-server',
          '--ref',
          'main'
        ],
        codehostEnv(slow),
        { interruptWhen: '▸ Wait for revision', signal }
      )
      expect(run.code).toBe(130)
      expect(run.stderr).toContain(`Received ${signal}: stopping`)
      expect(run.stderr).toMatch(
        /\nerror: Deploy cancelled: .*revision \S+ goes on on the control plane\./
      )
      expect(outputsOf(run.stdout)['revision-id']).toMatch(/^[0-9a-f-]{36}$/)
    } finally {
      await slow.close()
    }
  }
)

test('issue 25, defect 1, and issue 33, defect 4: hostile custom_url and statuses in --output-file run and expand nothing, and read back as written by sh, bash, python-dotenv, GitLab and dotenv', async () => {
  const dir = mkdtempSync(join(packed.dir, 'dotenv-'))
  const marks = [1, 2, 3, 4].map(n => join(dir, `ran-${n}`))
  const fixture = demoFixture()
  const dep = fixture.deployments![0]!
  const id = dep.id!
  // python-dotenv expands `${NAME}` even in single quotes: the url must not read back holding the key.
  const url = `https://x.example/\`id>${marks[0]}\`/$(id>${marks[1]})?k=\${CONTROL_PLANE_API_KEY}`
  dep.source_config = { ...dep.source_config, custom_url: url }
  // Slow: the new revision is still building when its status is made hostile.
  const emu = await startEmulator({ port: 0, speed: 0.05 })
  try {
    emu.loadFixture(fixture)
    // The server says statuses no model has: each would run a command if a shell expanded it.
    await hostileDeploymentStatus(emu, id, `READY\`id>${marks[2]}\``)
    // The new revision, once the run names it, answers with a status of the same kind.
    const revised = hostileRevision(emu, id, `DEPLOYING'"$(id>${marks[3]})"\\`)
    const file = join(dir, 'deploy.env')
    const withFile = await cli(
      [
        'deploy',
        '--deployment-id',
        id,
        '--repository',
        'acme/support-bot',
        '--ref',
        'main',
        '--timeout',
        '10s',
        '--output-file',
        file
      ],
      codehostEnv(emu),
      { cwd: dir, onStderr: revised.onStderr }
    )
    await revised.done()
    const expected = {
      // Percent-encoded where a shell or python-dotenv would read syntax: the same URL.
      URL: `https://x.example/%60id%3E${marks[0]}%60/%24%28id%3E${marks[1]}%29?k=%24%7BCONTROL_PLANE_API_KEY%7D`,
      REVISION_STATUS: 'UNKNOWN',
      // As the update answered; the hostile one came from reads, and the log shows it neutralised.
      DEPLOYMENT_STATUS: 'READY'
    }
    const names = Object.keys(expected)
    expect(readBack(file, names, dir, { CONTROL_PLANE_API_KEY: emu.credentials().apiKey })).toEqual(
      readByAll(Object.values(expected))
    )
    expect(outputsOf(withFile.stdout)).toMatchObject({
      url: expected.URL,
      'revision-status': 'UNKNOWN',
      'deployment-status': 'READY'
    })
    expect(marks.filter(m => existsSync(m))).toEqual([])
    // Still DEPLOYING as far as the run can tell: the undocumented status is in progress.
    expect({ code: withFile.code, stderr: withFile.stderr }).toEqual({
      code: 1,
      stderr: expect.stringMatching(/Revision \S+ reports status UNKNOWN \(undocumented/)
    })
    expect(withFile.stderr).toContain('status UNKNOWN (undocumented "READY?id?')
    expect(withFile.stderr).toMatch(/Still UNKNOWN \(undocumented "DEPLOYING\?+id\?/)
  } finally {
    await emu.close()
  }
})

// Each CI's fork signal is read in cli/ci.test.ts, and refused before the run in cli/main.test.ts;
// here, one of them through the installed CLI.
test('a change from a fork (a GitLab merge request) is refused before any request, exit 2, naming the fork', async () => {
  const name = uniqueName('fork')
  const env = {
    ...credentials(),
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
    GITLAB_CI: 'true',
    CI_MERGE_REQUEST_IID: '12',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'main',
    CI_MERGE_REQUEST_PROJECT_PATH: 'acme/agent-server',
    CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'mallory/agent-server'
  }
  emulator.clearRequests()
  const run = await cli(['deploy', '--name', name], env)
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' })
  expect(run.stderr).toContain(
    'a change from the fork mallory/agent-server (CI_MERGE_REQUEST_SOURCE_PROJECT_PATH)'
  )
  expect(run.stderr).toContain('give both --repository')
  expect(emulator.requests()).toEqual([])
  // Deployed deliberately: both given, the run goes ahead.
  const deliberate = await cli(['deploy', '--name', name, '--ref', 'main', '--no-wait'], env)
  expect({ code: deliberate.code, stderr: deliberate.stderr }).toMatchObject({ code: 0 })
  expect(creates(name)).toHaveLength(1)
})

test('a timeout: the hint names the CLI’s own --timeout and --no-wait, and the label is said once', async () => {
  // Builds that last a day: the run's 3 s timeout comes first.
  const slow = await startEmulator({ port: 0, speed: 4, stageDurationsMs: BUILDS_FOR_A_DAY })
  try {
    const args = ['deploy', '--name', uniqueName('clislow'), '--repository', 'acme/agent-server']
    const run = await cli([...args, '--ref', 'main', '--timeout', '3s'], {
      ...codehostEnv(slow),
      CONTROL_PLANE_POLL_INTERVAL: '1s'
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /error: Deploy timed out: Still BUILDING after 3s; revision \S+ goes on/
    )
    expect(run.stderr).not.toMatch(/timed out: timed out/i)
    expect(run.stderr).toMatch(/Raise `--timeout` \(a first deploy .*\), or use `--no-wait`/)
    expect(run.stderr).not.toMatch(/wait: false|Raise timeout/)
  } finally {
    await slow.close()
  }
})

test('--smoke-test naming a file outside the working tree, or a device through a link: exit 2 naming --smoke-test, nothing sent', async () => {
  emulator.clearRequests()
  const ws = mkdtempSync(join(tmpdir(), 'cpd-cli-smoke-'))
  symlinkSync('/dev/zero', join(ws, 'zero.yaml'))
  const args = ['deploy', '--name', uniqueName('clismoke'), '--health-check', 'true']
  const [absolute, zero] = await Promise.all([
    cli([...args, '--smoke-test', '/proc/self/environ'], credentials(), { cwd: ws }),
    cli([...args, '--smoke-test', 'zero.yaml'], credentials(), { cwd: ws })
  ])
  expect(absolute.code).toBe(2)
  expect(absolute.stderr).toMatch(/`--smoke-test` must be relative to the repository root/)
  expect(zero.code).toBe(2)
  expect(zero.stderr).toMatch(
    /`--smoke-test` \(zero\.yaml\) could not be read: it leads outside the workspace/
  )
  expect(emulator.requests()).toEqual([])
})
