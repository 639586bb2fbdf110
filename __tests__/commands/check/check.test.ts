// `command: check` in-process through run() and a fake port, against the emulator on one virtual
// clock: the deployment's own state (being deleted, another status or type, no revision, a newest
// revision that is not DEPLOYED) is drift, exit 3; with `promote-from` the target's material is
// compared with the source's active revision, and the words name both. The CLI's door exits 3 too.
import { describe, expect, test } from '@jest/globals'
import { tmpdir } from 'node:os'
import { cli, type CliIo } from '../../../src/cli/main.ts'
import { demoFixture, type Fixture } from '../../../emulator/server.ts'
import type { EventDefaults } from '../../../src/runner/event.ts'
import type { RunPort } from '../../../src/port.ts'
import { run } from '../../../src/run.ts'
import { ACTION_SAY } from '../../builders.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

const v = virtualEmulator()
const { now, sleep } = v

const REPO = 'https://github.com/acme/agent-server'
const OLD = 'a1'.repeat(20)
const NEW = 'b2'.repeat(20)
const EVENT: EventDefaults = { ref: 'main', expectedSha: OLD, repository: 'acme/agent-server' }

type Seeded = NonNullable<Fixture['deployments']>[number]

/** Deployments that exist before the run, each READY with one DEPLOYED revision; main at OLD. */
function seed(...deployments: Partial<Seeded>[]): void {
  const base = demoFixture()
  const c = v.emu.credentials()
  v.emu.loadFixture({
    ...base,
    repo_commits: { [`${REPO}@main`]: OLD },
    deployments: deployments.map(d => ({
      tenant_id: c.tenantId,
      name: 'agent',
      source: 'codehost' as const,
      source_config: { integration_id: c.integrationId, repo_url: REPO },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      ...d
    }))
  })
}

const idOf = (name: string) =>
  v.emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.name === name)!

async function check(over: Record<string, string> = {}) {
  const c = v.emu.credentials()
  const inputs: Record<string, string> = {
    'api-key': c.apiKey,
    'tenant-id': c.tenantId,
    'base-url': v.emu.url,
    'integration-id': c.integrationId!,
    name: 'agent',
    command: 'check',
    ...over
  }
  const lines: string[] = []
  const summaries: string[] = []
  const port: RunPort = {
    input: name => inputs[name] ?? '',
    say: ACTION_SAY,
    event: EVENT,
    mask: () => {},
    info: line => lines.push(line),
    warning: line => lines.push(line),
    notice: line => lines.push(line),
    error: (line, title) => lines.push(`error: ${title}: ${line}`),
    group: (_name, fn) => fn(),
    summary: async md => void summaries.push(md),
    signal: new AbortController().signal
  }
  const writesBefore = v.emu.requests().filter(r => r.method !== 'GET').length
  const r = await run(port, { now, sleep })
  const writes = v.emu.requests().filter(r => r.method !== 'GET').length - writesBefore
  return { ...r, log: lines.join('\n'), summary: summaries.join('\n'), writes }
}

describe('check: the deployment’s own state', () => {
  test('a healthy deployment as a deploy would leave it is in sync: exit 0', async () => {
    seed({})
    const r = await check()
    expect(r.exitCode).toBe(0)
    expect(r.outputs.drift).toBe('false')
    expect(r.log).toContain('In sync: "agent" is what these inputs describe.')
    // What it compared with, as a deploy says it.
    expect(r.log).toContain(`Found deployment "agent" (${idOf('agent').id}), status READY.`)
  })

  test('being deleted is drift, exit 3, never in sync', async () => {
    seed({})
    const { apiKey, tenantId } = v.emu.credentials()
    const res = await fetch(`${v.emu.url}/v2/deployments/${idOf('agent').id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': apiKey, 'x-tenant-id': tenantId }
    })
    expect(res.status).toBe(204)
    const r = await check()
    expect(r.exitCode).toBe(3)
    expect(r.outputs.drift).toBe('true')
    expect(r.log).toContain(
      '"agent" is being deleted (AWAITING_DELETE): a deploy would wait until it is gone, then create it anew.'
    )
    expect(r.log).toMatch(/error: Drift: "agent" differs from these inputs: it is being deleted/)
    expect(r.log).not.toContain('In sync')
    expect(r.writes).toBe(0)
  })

  test('another type than deployment-type is drift (exit 3), not a failed check', async () => {
    seed({ source_config: { ...seededConfig(), deployment_type: 'dedicated' } })
    const r = await check({ 'deployment-type': 'serverless' })
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain(
      '"agent" is dedicated, but `deployment-type: serverless` asks for serverless'
    )
    expect(r.summary).toContain('### ⚠️ Drift: `agent`')
    // The same type under its legacy word is the same type.
    const same = await check({ 'deployment-type': 'prod' })
    expect(same.exitCode).toBe(0)
  })

  test('a deployment with no revision is drift, exit 3', async () => {
    seed({})
    await answerWith('/v2/deployments?name_contains=agent', '/v2/deployments', body => ({
      ...body,
      resources: (body.resources as object[]).map(d => ({
        ...d,
        latest_revision_id: null,
        active_revision_id: null
      }))
    }))
    const r = await check()
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain('"agent" has no revision: nothing runs there')
  })

  test('a newest revision that is the active one but not DEPLOYED is drift', async () => {
    seed({})
    const d = idOf('agent')
    const path = `/v2/deployments/${d.id}/revisions/${d.revisions[0]!.id}`
    // The deployment names it active; its own answer says BUILD_FAILED.
    await answerWith(path, path, body => ({ ...body, status: 'BUILD_FAILED' }))
    const r = await check()
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain(
      `The active revision ${d.revisions[0]!.id} is BUILD_FAILED, not DEPLOYED.`
    )
  })

  test('a status other than READY is drift', async () => {
    seed({})
    await answerWith('/v2/deployments?name_contains=agent', '/v2/deployments', body => ({
      ...body,
      resources: (body.resources as object[]).map(d => ({ ...d, status: 'UNKNOWN' }))
    }))
    const r = await check()
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain('"agent" is UNKNOWN, not READY.')
  })
})

/** From now on `path` answers 200 with what it answers now, changed by `change`. */
async function answerWith(
  url: string,
  path: string,
  change: (body: Record<string, unknown>) => Record<string, unknown>
): Promise<void> {
  const { apiKey, tenantId } = v.emu.credentials()
  const res = await fetch(`${v.emu.url}${url}`, {
    headers: { 'x-api-key': apiKey, 'x-tenant-id': tenantId }
  })
  const body = change((await res.json()) as Record<string, unknown>)
  v.emu.setFaults({ kind: 'bad-schema', method: 'GET', path, body })
}

/** A revision as the control plane answers it, in its wire words. */
async function answerOf(revisionId: string, name: string): Promise<Record<string, unknown>> {
  const { apiKey, tenantId } = v.emu.credentials()
  const res = await fetch(`${v.emu.url}/v2/deployments/${idOf(name).id}/revisions/${revisionId}`, {
    headers: { 'x-api-key': apiKey, 'x-tenant-id': tenantId }
  })
  return (await res.json()) as Record<string, unknown>
}

function seededConfig() {
  return { integration_id: v.emu.credentials().integrationId, repo_url: REPO }
}

/** staging and production of one repository, both built at OLD; then staging rebuilt at NEW. */
async function stagingMovedOn(): Promise<void> {
  seed({ name: 'staging' }, { name: 'production' })
  v.t += 1000
  v.emu.configure({ repoCommits: { [`${REPO}@main`]: NEW } })
  v.emu.outOfBand(idOf('staging').id, { redeploy: {} })
  v.t += 3600_000
}

describe('check --promote-from: the target against the source’s active revision', () => {
  test('the same commit: in sync, and it says what it compared', async () => {
    seed({ name: 'staging' }, { name: 'production' })
    const r = await check({ name: 'production', 'promote-from': 'staging' })
    expect(r.exitCode).toBe(0)
    const source = idOf('staging').revisions.at(-1)!.id
    expect(r.log).toContain(
      `In sync: "production" is what these inputs describe, and runs commit ${OLD} of "staging" revision ${source}.`
    )
  })

  test('another commit than the source runs: drift naming both, though the event’s ref matches', async () => {
    await stagingMovedOn()
    const staging = idOf('staging').revisions.at(-1)!
    const production = idOf('production').revisions.at(-1)!
    // production built OLD, which the event names: without promote-from it reads as in sync.
    expect((await check({ name: 'production' })).exitCode).toBe(0)
    const r = await check({ name: 'production', 'promote-from': 'staging' })
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain(
      `"production" runs commit ${OLD} (revision ${production.id}), but "staging" (\`promote-from\`) revision ${staging.id} runs commit ${NEW}.`
    )
    expect(r.writes).toBe(0)
  })

  test('a promoted production that runs what staging runs is in sync though main moved on', async () => {
    await stagingMovedOn()
    v.emu.outOfBand(idOf('production').id, { redeploy: {} })
    v.t += 3600_000
    v.emu.configure({ repoCommits: { [`${REPO}@main`]: 'c3'.repeat(20) } })
    const r = await check(
      { name: 'production', 'promote-from': 'staging' }
      // The event names main, which is at neither commit now: it is not compared.
    )
    expect(r.exitCode).toBe(0)
    expect(r.log).toContain(`runs commit ${NEW} of "staging"`)
  })

  test('an image other than the source’s: drift; the same image: in sync', async () => {
    const image = (name: string, uri: string): Partial<Seeded> => ({
      name,
      source: 'internal_docker',
      source_config: {},
      source_revision_config: { image_uri: uri }
    })
    seed(
      image('staging', 'registry.example.com/agent:1.2'),
      image('production', 'registry.example.com/agent:1.1')
    )
    const inputs = {
      name: 'production',
      'promote-from': 'staging',
      'integration-id': ''
    }
    const r = await check(inputs)
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain('"production" runs image registry.example.com/agent:1.1')
    expect(r.log).toContain('runs image registry.example.com/agent:1.2.')
    seed(
      image('staging', 'registry.example.com/agent:1.2'),
      image('production', 'registry.example.com/agent:1.2')
    )
    expect((await check(inputs)).exitCode).toBe(0)
  })

  test('a target whose active revision was built from another source runs other material: drift, though it names the image', async () => {
    const image = (name: string): Partial<Seeded> => ({
      name,
      source: 'internal_docker',
      source_config: {},
      source_revision_config: { image_uri: 'registry.example.com/agent:1.2' }
    })
    seed(image('staging'), image('production'), { name: 'built' })
    // production rebuilt from the repository (`revision-source: codehost`): its revision still
    // names the image of its config, and runs a build of a commit.
    const word = (await answerOf(idOf('built').revisions[0]!.id, 'built')).source
    const d = idOf('production')
    const path = `/v2/deployments/${d.id}/revisions/${d.revisions[0]!.id}`
    await answerWith(path, path, body => ({
      ...body,
      source: word,
      source_revision_config: {
        ...(body.source_revision_config as object),
        repo_ref: 'main',
        repo_commit_sha: OLD
      }
    }))
    const r = await check({ name: 'production', 'promote-from': 'staging', 'integration-id': '' })
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain(
      `"production" runs a revision built from codehost (revision ${d.revisions[0]!.id}), but "staging" (\`promote-from\`) revision ${idOf('staging').revisions[0]!.id} runs image registry.example.com/agent:1.2, built from internal_docker.`
    )
    expect(r.log).not.toContain('In sync')
  })

  test('a target whose active revision reports no commit is drift: not shown to be the same', async () => {
    seed({ name: 'staging' }, { name: 'production' })
    const d = idOf('production')
    const path = `/v2/deployments/${d.id}/revisions/${d.revisions[0]!.id}`
    await answerWith(path, path, body => ({
      ...body,
      source_revision_config: {
        ...(body.source_revision_config as object),
        repo_commit_sha: null
      }
    }))
    const r = await check({ name: 'production', 'promote-from': 'staging' })
    expect(r.exitCode).toBe(3)
    expect(r.log).toContain(
      `"production" reports no commit for its active revision ${d.revisions[0]!.id}: it cannot be shown to run commit ${OLD}`
    )
  })

  test('a source the deploy would refuse fails the check (exit 1), never in sync', async () => {
    seed({ name: 'production' })
    const r = await check({ name: 'production', 'promote-from': 'nowhere' })
    expect(r.exitCode).toBe(1)
    expect(r.outputs.drift).toBe('')
    expect(r.log).toContain('Deployment "nowhere" (`promote-from`) was not found')
  })
})

describe('check through the CLI door', () => {
  test('drift exits 3, in the CLI’s words', async () => {
    seed({ source_config: { ...seededConfig(), deployment_type: 'dedicated' } })
    const c = v.emu.credentials()
    let stderr = ''
    const io: CliIo = {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t), isTTY: false },
      now,
      cwd: tmpdir(),
      onSignal: () => () => {},
      exit: () => {}
    }
    const argv = ['check', '--name', 'agent', '--deployment-type', 'serverless']
    const env = {
      CONTROL_PLANE_API_KEY: c.apiKey,
      CONTROL_PLANE_TENANT_ID: c.tenantId,
      CONTROL_PLANE_BASE_URL: v.emu.url,
      CONTROL_PLANE_INTEGRATION_ID: c.integrationId!,
      CONTROL_PLANE_REF: 'main'
    }
    const code = await cli(argv, env, io, port => run(port, { now, sleep }))
    expect(code).toBe(3)
    expect(stderr).toContain(
      '"agent" is dedicated, but `--deployment-type serverless` asks for serverless'
    )
  })
})
