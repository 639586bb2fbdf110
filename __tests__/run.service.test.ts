// run() against the service as it is, in-process on one virtual clock, through both doors (a fake
// port as the action's, the CLI's own `cli()`): secret values that the control plane returns are
// masked as they are read; a create without `deployment-type` is Serverless, asked for explicitly.
import { describe, expect, test } from '@jest/globals'
import { tmpdir } from 'node:os'
import { demoFixture } from '../emulator/server.ts'
import { cli, type CliIo } from '../src/cli/main.ts'
import { run } from '../src/run.ts'
import { emulatorInputs, fakePort } from './builders/fake-port.ts'
import { virtualEmulator } from './builders/virtual-emulator.ts'

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
    expect(v.emu.requests().filter(r => r.path.includes(HOLDER) && r.method !== 'GET')).toEqual([])
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
