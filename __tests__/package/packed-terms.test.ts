// The CLI in its own terms, through the packed bin as a new user runs it: an update needs only
// what an update needs, messages name flags and variables (never YAML inputs, "workflow" or "job
// summary"), network errors name the host and what to check once, an unwritable --output-file is
// found before any request, a GitLab or Bitbucket pipeline that needs an upload is pointed at it,
// and a GitLab review app can be deployed again after its stop job.
import { randomUUID } from 'node:crypto'

import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { closedPort } from '../builders.ts'
import { binOf, installedPackage } from './package.ts'
import { packedCli } from './packed-cli.ts'
import { emulatorEnv, outputsOf, runBin, uniqueName, type CliRun } from './run-bin.ts'

const packed = packedCli('cpd-cli-terms-', () => binOf(installedPackage(), 'control-plane-deploy'))
let emulator: Emulator
beforeAll(async () => {
  emulator = await packed.emulator()
}, 240_000)

/** The installed bin with only `env` (and PATH, HOME), in a folder that is no checkout. */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runBin(packed.cliJs, args, { cwd: packed.dir, env })
}

/** The key and the workspace only: what every run needs. */
function key(): Record<string, string> {
  return { ...emulatorEnv(emulator), CONTROL_PLANE_POLL_INTERVAL: '1s' }
}

/** What a create of a codehost deployment needs besides. */
function createInputs(): Record<string, string> {
  return {
    CONTROL_PLANE_INTEGRATION_ID: emulator.credentials().integrationId!,
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
    CONTROL_PLANE_REF: 'main'
  }
}

/** Writes (anything but a read) the emulator received for deployment `name`, or any after `from`. */
const writes = (from: number) =>
  emulator
    .requests()
    .slice(from)
    .filter(r => r.method !== 'GET')

/** What no CLI output may say: YAML inputs, the runner's words. */
const NOT_CLI =
  /workflow|job summary|the api-key input|`(create: false|api-key|base-url|tenant-id|integration-id|deployment-id|delete-tracing-project|api-dialect: \w+)`/

test('an update by name needs only --name and the key; a create without its inputs fails once, naming them, with no write', async () => {
  const name = uniqueName('terms')
  const created = await cli(['deploy', '--name', name], { ...key(), ...createInputs() })
  expect({ code: created.code, stderr: created.stderr }).toEqual({
    code: 0,
    stderr: expect.any(String)
  })

  // The update: no integration id, repository or ref (no CI, no checkout), nothing refused.
  const updated = await cli(['deploy', '--name', name, '--secrets', 'MODE=blue-green'], key())
  expect({ code: updated.code, stderr: updated.stderr }).toEqual({
    code: 0,
    stderr: expect.stringContaining(`Found deployment "${name}"`)
  })
  expect(outputsOf(updated.stdout)).toMatchObject({
    created: 'false',
    'revision-status': 'DEPLOYED'
  })

  const before = emulator.requests().length
  const missing = await cli(['deploy', '--name', uniqueName('terms-new')], key())
  expect(missing.code).toBe(1)
  const errors = missing.stderr.split('\n').filter(l => l.startsWith('error: '))
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatch(
    /creating a `codehost` deployment needs `--integration-id`, `--repository` and `--ref`: they were not given\./
  )
  expect(missing.stderr).toContain('`--no-create` to only update')
  expect(missing.stderr).not.toMatch(NOT_CLI)
  expect(writes(before)).toEqual([])
})

test('the same, named by the variable the user set', async () => {
  const before = emulator.requests().length
  const { CONTROL_PLANE_INTEGRATION_ID: _unused, ...noIntegration } = createInputs()
  const r = await cli(['deploy', '--name', uniqueName('terms-var')], {
    ...key(),
    ...noIntegration,
    CONTROL_PLANE_CREATE: 'true'
  })
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('needs `--integration-id`: it was not given')
  expect(r.stderr).toContain('`CONTROL_PLANE_CREATE=false` to only update')
  expect(writes(before)).toEqual([])
})

describe('a GitLab or Bitbucket pipeline that forgot --source internal_source', () => {
  /** The CI's own variables of a push to main. */
  const CI: Record<string, Record<string, string>> = {
    GitLab: {
      GITLAB_CI: 'true',
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_SHA: 'a'.repeat(40),
      CI_PROJECT_PATH: 'acme/agent'
    },
    Bitbucket: {
      BITBUCKET_BUILD_NUMBER: '7',
      BITBUCKET_BRANCH: 'main',
      BITBUCKET_COMMIT: 'b'.repeat(40),
      BITBUCKET_GIT_HTTP_ORIGIN: 'https://bitbucket.org/acme/agent'
    }
  }

  test.each(Object.keys(CI))(
    '%s: told to upload, not to set an integration and a GitHub repository it cannot use',
    async host => {
      const before = emulator.requests().length
      const r = await cli(['deploy', '--name', uniqueName('terms-ci')], { ...key(), ...CI[host] })
      expect(r.code).toBe(1)
      const error = r.stderr.slice(r.stderr.indexOf('error: '))
      expect(error).toContain('needs `--integration-id` and `--repository`')
      expect(error).toContain(`This repository is on ${host}`)
      expect(error).toContain('deploy this checkout by upload instead, `--source internal_source`')
      expect(error).not.toMatch(/Set `--integration-id`/)
      expect(writes(before)).toEqual([])
    }
  )

  test('the source given as a variable is named as one', async () => {
    const r = await cli(['deploy', '--name', uniqueName('terms-ci')], {
      ...key(),
      ...CI.GitLab,
      CONTROL_PLANE_SOURCE: 'codehost'
    })
    expect(r.stderr).toContain('upload instead, `CONTROL_PLANE_SOURCE=internal_source`')
  })

  test('outside those CIs, a create without its inputs is still asked for them', async () => {
    const r = await cli(['deploy', '--name', uniqueName('terms-ci')], key())
    expect(r.stderr).toContain('Set `--integration-id`, `--repository` and `--ref` to create it')
    expect(r.stderr).not.toContain('upload instead')
  })
})

test('a network error names the operation once, the host, the cause in words and what to check', async () => {
  const port = await closedPort()
  const r = await cli(['deploy', '--name', 'my-agent', '--timeout', '20s'], {
    ...key(),
    CONTROL_PLANE_BASE_URL: `http://127.0.0.1:${port}/api`
  })
  expect(r.code).toBe(1)
  const error = r.stderr.slice(r.stderr.indexOf('error: '))
  expect(error).toMatch(
    new RegExp(
      `^error: Control plane unreachable: list deployments failed at 127\\.0\\.0\\.1:${port}: ` +
        'the connection was refused, nothing listens on that port \\(ECONNREFUSED; GET /api/v2/deployments, \\d attempts\\)\\.\n' +
        `Hint: check \`CONTROL_PLANE_BASE_URL\` \\(127\\.0\\.0\\.1:${port}\\), and the proxy`
    )
  )
  expect(error.match(/list deployments/g)).toHaveLength(1)
})

test('a 404 shows the full path, base path included, and names the inputs as flags', async () => {
  const id = randomUUID()
  const r = await cli(
    ['deploy', '--deployment-id', id, '--base-url', `${emulator.url}/nope`],
    key()
  )
  expect(r.code).toBe(1)
  expect(r.stderr).toContain(`HTTP 404 on GET /nope/v2/deployments/${id}`)
  expect(r.stderr).toContain('`--base-url`')
  expect(r.stderr).not.toMatch(NOT_CLI)
})

test('an unwritable --output-file is refused before any request', async () => {
  const before = emulator.requests().length
  const r = await cli(
    [
      'deploy',
      '--name',
      uniqueName('terms-file'),
      '--output-file',
      join(packed.dir, 'no/such/out.env')
    ],
    { ...key(), ...createInputs() }
  )
  expect(r.code).toBe(2)
  expect(r.stdout).toBe('')
  expect(r.stderr).toContain('cannot be written (its folder does not exist); nothing was sent')
  expect(emulator.requests().length).toBe(before)
})

test('failure paths speak CLI: flags and variables, never YAML inputs, "workflow" or "job summary"', async () => {
  const name = uniqueName('terms-speak')
  const runs = [
    // Invalid inputs, a 401, no deployment with --no-create, a dry run, secrets too short to mask.
    await cli(['deploy', '--name', name, '--timeout', 'soon'], key()),
    await cli(['deploy', '--name', name], {
      ...key(),
      CONTROL_PLANE_API_KEY: 'lsv2_pt_wrong_0123456789abcdef'
    }),
    await cli(['deploy', '--name', name, '--no-create'], key()),
    await cli(['deploy', '--name', name, '--dry-run', '--no-wait'], {
      ...key(),
      ...createInputs()
    }),
    await cli(['deploy', '--name', name, '--pr-comment', '--secrets', 'A=short'], {
      ...key(),
      ...createInputs(),
      GITHUB_TOKEN: 'ghs_0123456789abcdef'
    })
  ]
  const id = outputsOf(runs.at(-1)!.stdout)['deployment-id']!
  // Then a repository it does not build, and a name and an id that disagree.
  runs.push(await cli(['deploy', '--name', name, '--repository', 'acme/other'], key()))
  runs.push(await cli(['delete', '--name', `${name}-x`, '--deployment-id', id], key()))
  const said = runs.map(r => r.stderr).join('\n')
  expect(runs.map(r => r.code)).toEqual([2, 1, 1, 0, 0, 1, 1])
  expect(said).toContain('Set `--name` and `--deployment-id` to the same deployment')
  expect(said).toContain('`--no-create` was set')
  expect(said).toContain('check the API key (`CONTROL_PLANE_API_KEY`)')
  expect(said).toContain('`--pr-comment`: not running on GitHub Actions')
  expect(said).toContain('`--repository` is acme/other')
  expect(said).not.toMatch(NOT_CLI)
})

test('a GitLab review app is deployed again after its stop job deleted it (the tracing project too)', async () => {
  const name = uniqueName('my-agent-mr')
  const env = { ...key(), ...createInputs() }
  expect((await cli(['deploy', '--name', name], env)).code).toBe(0)
  expect((await cli(['delete', '--name', name, '--delete-tracing-project'], env)).code).toBe(0)
  const again = await cli(['deploy', '--name', name], env)
  expect({ code: again.code, stderr: again.stderr }).toEqual({
    code: 0,
    stderr: expect.any(String)
  })
  expect(outputsOf(again.stdout).created).toBe('true')

  // Without it, the name stays held: the error says why, and which flag frees the next one.
  const kept = uniqueName('my-agent-mr')
  expect((await cli(['deploy', '--name', kept], env)).code).toBe(0)
  expect((await cli(['delete', '--name', kept], env)).code).toBe(0)
  const held = await cli(['deploy', '--name', kept], env)
  expect(held.code).toBe(1)
  expect(held.stderr).toContain(`tracing project named "${kept}" remains`)
  expect(held.stderr).toContain('`--delete-tracing-project`')
  expect(held.stderr).not.toMatch(NOT_CLI)
})
