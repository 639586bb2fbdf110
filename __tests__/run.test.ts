import { describe, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname, relative, resolve } from 'node:path'
import { type EventDefaults } from '../src/runner/event.ts'
import { ACTION_OUTPUTS } from '../src/interface/action-yml.ts'
import { cliSay } from '../src/cli/naming.ts'
import { sayAs } from '../src/interface/naming.ts'
import { run } from '../src/run.ts'
import { EVENT } from './builders.ts'
import { emulatorInputs, fakePort, type FakePort } from './builders/fake-port.ts'
import { virtualEmulator } from './builders/virtual-emulator.ts'
import { demoFixture } from '../emulator/server.ts'
import { cli, type CliIo } from '../src/cli/main.ts'

// run() in-process through a fake port, against the emulator over loopback HTTP, on one virtual
// clock: what a door sees of a run (its calls on the port, the outputs, the exit) for a deploy,
// bad inputs, a failed build and a delete, and that no secret reaches any of them.

const v = virtualEmulator()
const { now, sleep } = v

const inputs = (over: Record<string, string> = {}) => emulatorInputs(v.emu, over)

const deployments = () =>
  v.emu
    .state()
    .tenants.flatMap(x => x.deployments)
    .filter(d => d.name === 'agent-run')
const DECLARED = Object.keys(ACTION_OUTPUTS).sort()

describe('run() through a fake port', () => {
  test('deploys: exit 0, every declared output in the result, the summary, no error', async () => {
    const port = fakePort(inputs())
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(0)
    const [d] = deployments()
    expect(result.outputs).toMatchObject({
      'deployment-id': d!.id,
      'revision-id': d!.latest_revision_id,
      'revision-status': 'DEPLOYED',
      created: 'true',
      deleted: 'false',
      'github-deployment-id': '',
      'rollback-revision-id': ''
    })
    expect(Object.keys(result.outputs).sort()).toEqual(DECLARED)
    expect(port.calls.filter(c => c.startsWith('error: '))).toEqual([])
    expect(port.calls).toContain(`info: Done: revision ${d!.latest_revision_id} is DEPLOYED.`)
    expect(port.summaries.join('')).toMatch(/✅ Deployed: `agent-run`/)
    // The key is masked before anything else is said.
    expect(port.masked).toContain(v.emu.credentials().apiKey)
  })

  test('invalid inputs: exit 2, one error naming them, no request, outputs still declared', async () => {
    const port = fakePort(inputs({ timeout: 'soon', name: 'Bad Name' }))
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(2)
    expect(v.emu.requests()).toEqual([])
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^error: Invalid inputs: 2 inputs are not valid:/)
    expect(errors[0]).toMatch(/- timeout: /)
    expect(errors[0]).toMatch(/- name: /)
    expect(Object.keys(result.outputs).sort()).toEqual(DECLARED)
    expect(result.outputs).toMatchObject({
      created: 'false',
      deleted: 'false',
      'deployment-id': ''
    })
  })

  test('a smoke-test file is read from the workspace before any request; a bad one names the input as set', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'cpd-run-ws-'))
    writeFileSync(
      join(ws, 'cases.yaml'),
      '- name: a\n  graph: agent\n  input: {q: 1}\n  expect: {status: maybe}\n'
    )
    const port = fakePort(inputs({ 'health-check': 'true', 'smoke-test': 'cases.yaml' }), {
      event: { ...EVENT, workspace: ws }
    })
    port.say = sayAs(
      i => `--${i}`,
      (i, v) => `--${i} ${v}`
    )
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(2)
    expect(v.emu.requests()).toEqual([])
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toEqual([
      'error: Invalid inputs: One input is not valid:\n- --smoke-test: `--smoke-test` (cases.yaml), case 1 (line 1, column 3): `expect.status` must be success or error'
    ])
  })

  test('a failed build: exit 1, the status in the outputs and the error', async () => {
    const port = fakePort(inputs({ ref: 'fail-build' }))
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(1)
    expect(result.outputs['revision-status']).toBe('BUILD_FAILED')
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/ended BUILD_FAILED/)
  })

  test('a delete writes `deleted` true and the deploy-side outputs empty', async () => {
    await run(fakePort(inputs()), { now, sleep })
    const { 'integration-id': _, ...common } = inputs()
    const port = fakePort({ ...common, command: 'delete' })
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ deleted: 'true', created: 'false', 'revision-id': '' })
    expect(v.emu.requests().filter(r => r.method === 'DELETE')).toHaveLength(1)
  })

  test('no secret value reaches any port call, output or summary', async () => {
    const secret = 'sk-live-0123456789abcdef'
    const port = fakePort(
      inputs({ secrets: `OPENAI_API_KEY=${secret}\nDEBUG=true`, ref: 'fail-build' })
    )
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(1)
    const key = v.emu.credentials().apiKey
    const seen = [...port.calls, ...port.summaries, ...Object.values(result.outputs)].join('\n')
    expect(seen).not.toContain(secret)
    expect(seen).not.toContain(key)
    expect(port.masked).toEqual(expect.arrayContaining([secret, key]))
    // `true` is a common word: left unmasked (it would blot out every `true`), said once.
    expect(port.masked).not.toContain('true')
    const warned = port.calls.filter(c => /common word/.test(c))
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatch(/Secret DEBUG: its value is a common word/)
  })

  test('off GitHub (no port.github): pr-comment is skipped with a line, the run goes on', async () => {
    const port = fakePort(inputs({ 'pr-comment': 'true', 'github-token': 'ghs_0123456789' }))
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(0)
    expect(port.calls).toContain(
      'info: `pr-comment`: not running on GitHub Actions; no pull request comment is posted.'
    )
  })
})

describe('what a create needs, asked only when there is nothing to update', () => {
  const NO_EVENT: EventDefaults = {}
  const cliNamed = (port: FakePort) => {
    port.say = cliSay({ name: 'flag' })
    return port
  }
  const writes = () => v.emu.requests().filter(r => r.method !== 'GET')

  test('an update by name needs only the name and the key', async () => {
    const first = await run(fakePort(inputs()), { now, sleep })
    expect(first.exitCode).toBe(0)
    const { apiKey, tenantId } = v.emu.credentials()
    const only = { 'api-key': apiKey, 'tenant-id': tenantId, 'base-url': v.emu.url }
    const port = cliNamed(
      fakePort({ ...only, name: 'agent-run', 'poll-interval': '1s' }, { event: NO_EVENT })
    )
    const result = await run(port, { now, sleep })
    expect(port.calls.filter(c => c.startsWith('error: '))).toEqual([])
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ created: 'false', 'revision-status': 'DEPLOYED' })
  })

  test('a create without integration-id: one error naming --integration-id, and no write', async () => {
    const { apiKey, tenantId } = v.emu.credentials()
    const port = cliNamed(
      fakePort(
        { 'api-key': apiKey, 'tenant-id': tenantId, 'base-url': v.emu.url, name: 'agent-new' },
        { event: NO_EVENT }
      )
    )
    const result = await run(port, { now, sleep })
    expect(result.exitCode).toBe(1)
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(
      'No deployment is named "agent-new", and creating a `codehost` deployment needs `--integration-id`, `--repository` and `--ref`'
    )
    expect(errors[0]).toContain('`--no-create` to only update')
    expect(errors[0]).not.toMatch(/`(integration-id|create: false)`/)
    expect(writes()).toEqual([])
  })
})

// run() against the service as it is, in-process on one virtual clock, through both doors (a fake
// port as the action's, the CLI's own `cli()`): secret values that the control plane returns are
// masked as they are read; a create without `deployment-type` is Serverless, asked for explicitly.
describe('service', () => {
  const v = virtualEmulator()
  const { now, sleep } = v

  /** The demo fixture's deployment, with a secret set in the web app (no input of a run names it). */
  const HELD = { name: 'support-bot-prod', secret: 'sk-demo-not-a-real-key' }

  const inputs = (over: Record<string, string> = {}) => emulatorInputs(v.emu, over)

  /** The build of the next revision fails, its log printing the web app's secret. */
  function buildLeaksTheSecret(): void {
    v.emu.script({
      outcome: 'BUILD_FAILED',
      logLines: [`Using OPENAI_API_KEY=${HELD.secret}`, 'ModuleNotFoundError: No module named x']
    })
  }

  describe('secret values read from the control plane are masked as they are read', () => {
    test('the action door: masked through the port before the failure log shows it as ***', async () => {
      buildLeaksTheSecret()
      const port = fakePort(inputs({ name: HELD.name, repository: 'acme/support-bot' }))
      const result = await run(port, { now, sleep })
      expect(result.exitCode).toBe(1)
      expect(port.masked).toContain(HELD.secret)
      const seen = [...port.calls, ...port.summaries].join('\n')
      expect(seen).toContain('Using OPENAI_API_KEY=***')
      expect(seen).not.toContain(HELD.secret)
    })

    test('the CLI door: its log (stderr) shows the failure log with *** in its place', async () => {
      buildLeaksTheSecret()
      const c = v.emu.credentials()
      let stderr = ''
      let stdout = ''
      const io: CliIo = {
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: (t: string) => (stderr += t), isTTY: false },
        now,
        cwd: tmpdir(),
        onSignal: () => () => undefined,
        exit: () => undefined
      }
      const env = {
        CONTROL_PLANE_API_KEY: c.apiKey,
        CONTROL_PLANE_TENANT_ID: c.tenantId,
        CONTROL_PLANE_BASE_URL: v.emu.url,
        CONTROL_PLANE_INTEGRATION_ID: c.integrationId!,
        CONTROL_PLANE_REPOSITORY: 'acme/support-bot',
        CONTROL_PLANE_REF: 'main'
      }
      const code = await cli(['deploy', '--name', HELD.name, '--poll-interval', '1s'], env, io, p =>
        run(p, { now, sleep })
      )
      expect(code).toBe(1)
      expect(stderr).toContain('Using OPENAI_API_KEY=***')
      expect(stderr + stdout).not.toContain(HELD.secret)
    })
  })

  describe('the deployment type of a create', () => {
    test('without deployment-type: serverless, sent explicitly; the output says so', async () => {
      const result = await run(fakePort(inputs()), { now, sleep })
      expect(result.exitCode).toBe(0)
      const create = v.emu.requests().find(r => r.method === 'POST' && r.path === '/v2/deployments')
      expect((create?.body as { source_config: object }).source_config).toMatchObject({
        deployment_type: 'serverless'
      })
      expect(result.outputs['deployment-type']).toBe('serverless')
    })

    test('database-size without deployment-type on a create: refused before any write', async () => {
      const port = fakePort(inputs({ 'database-size': 'medium' }))
      const result = await run(port, { now, sleep })
      expect(result.exitCode).toBe(1)
      expect(v.emu.requests().filter(r => r.method !== 'GET')).toEqual([])
      const errors = port.calls.filter(c => c.startsWith('error: '))
      expect(errors).toEqual([
        expect.stringMatching(
          /a create without `deployment-type` makes a Serverless deployment.*`deployment-type: dedicated`/s
        )
      ])
    })
  })

  describe('a codehost build reports the commit it built (the emulator)', () => {
    test('without a pin: staging reports a commit, and its promotion to production is not refused', async () => {
      const staging = await run(fakePort(inputs({ name: 'agent-staging' })), { now, sleep })
      expect(staging.exitCode).toBe(0)
      const built = staging.outputs['repo-commit-sha']
      expect(built).toMatch(/^[0-9a-f]{40}$/)
      const port = fakePort(
        inputs({
          name: 'agent-production',
          'promote-from': 'agent-staging',
          'verify-source': 'false'
        })
      )
      const promoted = await run(port, { now, sleep })
      expect(port.calls.filter(c => c.startsWith('error: '))).toEqual([])
      expect(promoted.exitCode).toBe(0)
      expect(promoted.outputs['promoted-from-revision-id']).toBe(staging.outputs['revision-id'])
      expect(promoted.outputs['repo-commit-sha']).toBe(built)
    })
  })

  describe('a create answered 409: another deployment holds the agent environment', () => {
    const HOLDER = '0a9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f'

    /** The demo fixture and a deployment bound to an agent environment, told to hold every create's. */
    function holdsTheEnvironment(): void {
      const fixture = demoFixture()
      const tenant = fixture.tenants[0]!.id
      v.emu.loadFixture({
        ...fixture,
        deployments: [
          ...(fixture.deployments ?? []),
          {
            id: HOLDER,
            tenant_id: tenant,
            name: 'old-agent',
            source: 'internal_docker',
            agent: { agent_id: 'agent-7', environment: 'staging' }
          }
        ]
      })
      v.emu.configure({ agentEnvironmentHeldBy: HOLDER })
    }

    async function deleteHolder(): Promise<void> {
      const c = v.emu.credentials()
      const r = await fetch(`${v.emu.url}/v2/deployments/${HOLDER}`, {
        method: 'DELETE',
        headers: { 'X-Api-Key': c.apiKey, 'X-Tenant-Id': c.tenantId }
      })
      expect(r.status).toBe(204)
    }

    test('the holder is being deleted: the run waits until it is gone, then creates (exit 0)', async () => {
      holdsTheEnvironment()
      v.emu.configure({ stageDurationsMs: { DELETE: 60_000 } })
      await deleteHolder()
      const port = fakePort(inputs())
      const result = await run(port, { now, sleep })
      expect(port.calls.filter(c => c.startsWith('error: '))).toEqual([])
      expect(result.exitCode).toBe(0)
      const creates = v.emu
        .requests()
        .filter(r => r.method === 'POST' && r.path === '/v2/deployments')
      expect(creates.map(r => r.status)).toEqual([409, 201])
      const log = port.calls.join('\n')
      expect(log).toMatch(
        /Deployment "old-agent" \(0a9e8d7c-[^)]*\), bound to agent agent-7, environment staging, holds the agent environment of "agent-run" and is being deleted \(AWAITING_DELETE\): waiting until it is gone/
      )
      expect(log).toMatch(/Deployment "old-agent" is gone after 1m/)
      expect(result.outputs.created).toBe('true')
    })

    test('the holder stays: one error naming it, not a taken name or a tracing project (exit 1)', async () => {
      holdsTheEnvironment()
      const port = fakePort(inputs())
      const result = await run(port, { now, sleep })
      expect(result.exitCode).toBe(1)
      const errors = port.calls.filter(c => c.startsWith('error: '))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(
        /^error: Agent environment held: Deployment "agent-run" cannot be created: the control plane answered 409 \(A deployment already exists for this agent environment\): deployment "old-agent" \(0a9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f, agent agent-7, environment staging, READY\) holds its agent environment\. The name is not taken\./
      )
      expect(errors[0]).not.toMatch(/tracing project/)
      // Nothing of the holder was touched.
      expect(v.emu.requests().filter(r => r.path.includes(HOLDER) && r.method !== 'GET')).toEqual(
        []
      )
    })

    test('a holder listed without a name (an agent-mode deployment) is named by its id', async () => {
      holdsTheEnvironment()
      const unnamed = {
        id: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
        name: null,
        agent: { agent_id: 'agent-9' }
      }
      // The list of every deployment (after the create's 409 and the look-up of the name) answers
      // one agent-mode entry, which does not parse.
      v.emu.addFaults({
        kind: 'bad-schema',
        method: 'GET',
        path: '/v2/deployments',
        skip: 2,
        times: 1,
        body: { resources: [unnamed], offset: 1 }
      })
      const port = fakePort(inputs())
      expect((await run(port, { now, sleep })).exitCode).toBe(1)
      const errors = port.calls.filter(c => c.startsWith('error: '))
      expect(errors).toEqual([
        expect.stringMatching(
          /deployment "\(no name\)" \(1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9, its entry does not parse: name: [^)]*\) holds its agent environment\. The name is not taken\./
        )
      ])
    })

    test('the holder is still being deleted at the timeout: timed out, nothing created', async () => {
      holdsTheEnvironment()
      v.emu.configure({ stageDurationsMs: { DELETE: 3_600_000 } })
      await deleteHolder()
      const port = fakePort(inputs({ timeout: '2m' }))
      const result = await run(port, { now, sleep })
      expect(result.exitCode).toBe(1)
      expect(port.calls.filter(c => c.startsWith('error: '))).toEqual([
        expect.stringMatching(
          /Timed out: deployment "old-agent" \(0a9e8d7c-[^)]*\), which holds the agent environment of "agent-run", was still AWAITING_DELETE after 2m/
        )
      ])
      expect(v.emu.state().tenants[0]!.deployments.map(d => d.name)).not.toContain('agent-run')
    })
  })
})

// One flow, two doors: the action (src/action/) and the CLI (src/cli/) both run src/run.ts, and
// neither reaches the flow's parts (the deploy, the client, the GitHub side, the report) any other
// way. What the doors do besides is theirs: inputs, log, outputs, signals.
describe('shared-flow', () => {
  const SRC = resolve(import.meta.dirname, '../src')

  function filesOf(dir: string): string[] {
    return readdirSync(join(SRC, dir)).map(f => join(SRC, dir, f))
  }

  /** Every file of src/ a door's file imports, relative to src/. */
  function importsOf(file: string): string[] {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\s*\(?\s*'(\.[^']+)'/g)]
      .map(m => relative(SRC, resolve(dirname(file), (m[1] ?? m[2])!)))
      .filter(p => !p.startsWith('..'))
  }

  /**
   * The flow: what runs a deploy or a delete, and what only the flow may call. The workflow run's
   * context (runner/context.ts) and its event's defaults (runner/event.ts) are not: the doors read
   * them and hand them to the flow.
   */
  const FLOW =
    /^(deploy\/|github\/(?!(context|event)\.ts$)|control-plane\/(client|http|paging)\b|report\.ts$)/

  for (const door of ['action', 'cli']) {
    test(`src/${door}/ runs src/run.ts and reaches no part of the flow otherwise`, () => {
      const imports = filesOf(door).flatMap(f =>
        importsOf(f).map(i => ({ file: relative(SRC, f), i }))
      )
      expect(imports.filter(x => x.i === 'run.ts').length).toBeGreaterThan(0)
      expect(imports.filter(x => FLOW.test(x.i))).toEqual([])
    })
  }

  test('the flow is written once: its messages live in src/run.ts and src/deploy/ only', () => {
    const all = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap(e =>
        e.isDirectory() ? all(join(dir, e.name)) : [join(dir, e.name)]
      )
    const holding = (text: string) =>
      all(SRC)
        .filter(f => readFileSync(f, 'utf8').includes(text))
        .map(f => relative(SRC, f))
    expect(holding('Cancelled while the create of deployment')).toEqual([
      'commands/deploy/ending.ts'
    ])
    expect(holding('Wait for revision')).toEqual(['commands/deploy/flow.ts'])
  })
})
