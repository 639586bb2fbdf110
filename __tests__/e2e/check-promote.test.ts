// `command: check --promote-from` against `deploy --promote-from --dry-run`, through the bundle
// against the emulator, over every difference a promotion can make: for each, the check says in
// sync exactly when the dry run would change nothing (no field changes, the target already runs
// the source's material), and both say what they saw. Refusals are refusals in both. The
// sources here serve their revision: the promotion's evidence (which the check does not examine)
// passes.
import { expect } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture } from '../../emulator/server.ts'
import type { Fixture } from '../../emulator/state/store.ts'
import { e2e, runAction as run, type E2E, type RunResult } from './harness.ts'

const REPO = 'https://github.com/acme/agent-server'
const BUILT = 'a1'.repeat(20)
const MOVED = 'b2'.repeat(20)

type Seeded = Omit<NonNullable<Fixture['deployments']>[number], 'tenant_id'>

/** Deployments that exist before the run, each with one DEPLOYED revision; main at BUILT. */
function seed(t: E2E, deployments: Seeded[]): void {
  const base = demoFixture()
  const tenant = t.emu.credentials().tenantId
  t.emu.loadFixture({
    ...base,
    repo_commits: { [`${REPO}@main`]: BUILT, [`${REPO}@release`]: 'c3'.repeat(20) },
    deployments: deployments.map(d => ({ tenant_id: tenant, ...d }))
  })
}

const codehost = (t: E2E, name: string, over: Partial<Seeded> = {}): Seeded => ({
  name,
  source: 'codehost',
  source_config: { integration_id: t.integration, repo_url: REPO },
  source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
  secrets: [{ name: 'KEY', value: `${name}-value-0123456789` }],
  ...over
})

const image = (name: string, uri: string): Seeded => ({
  name,
  source: 'internal_docker',
  source_revision_config: { image_uri: uri }
})

const latest = (t: E2E, name: string) => t.named(name)[0]!.revisions.at(-1)!

/** A new revision of `name` made from the web app, built or failed before the run. */
async function redeploy(t: E2E, name: string, over: Record<string, string> = {}): Promise<void> {
  const id = t.emu.outOfBand(t.named(name)[0]!.id, { redeploy: over }).revision_id!
  t.emu.setSpeed(10_000)
  const ended = () => /DEPLOYED|FAILED/.test(t.named(name)[0]!.revisions.at(-1)!.status)
  while (latest(t, name).id !== id || !ended()) await new Promise(res => setTimeout(res, 20))
  t.emu.setSpeed(4)
}

const revisionPath = (t: E2E, name: string) =>
  `/v2/deployments/${t.named(name)[0]!.id}/revisions/${latest(t, name).id}`

/** The active revision of `name` as the control plane answers it, in its wire words. */
async function answer(t: E2E, name: string): Promise<unknown> {
  const res = await fetch(`${t.emu.url}${revisionPath(t, name)}`, {
    headers: { 'x-api-key': t.key }
  })
  return res.json()
}

type Verdict = 'in sync' | 'drift' | 'refused'

function checkVerdict(r: RunResult): Verdict {
  if (r.code === 0 && r.outputs.drift === 'false') return 'in sync'
  if (r.outputs.drift === 'true') return 'drift'
  expect(r.code).toBe(1)
  return 'refused'
}

/** A dry run changes nothing when it plans no field change and the target runs the material. */
function dryRunVerdict(r: RunResult): Verdict {
  if (r.code !== 0) return 'refused'
  const unchanged =
    /Update deployment "[^"]+" \([^)]+\), making a new revision\n {2}no field changes\n/.test(
      r.stdout
    ) && r.stdout.includes('already runs what the promotion deploys')
  return unchanged ? 'in sync' : 'drift'
}

interface Row {
  title: string
  /** Makes the difference; returns the inputs of both runs. */
  arrange(t: E2E): Promise<Record<string, string>> | Record<string, string>
  check: Verdict
  dryRun?: Verdict
  /** What the check's log says it saw. */
  says: (t: E2E) => string
  env?: Record<string, string>
}

const promote = (t: E2E, over: Record<string, string> = {}) =>
  t.inputs({ name: 'production', 'promote-from': 'staging', ...over })

const ROWS: Row[] = [
  {
    title: 'production runs the commit staging runs',
    arrange: t => (seed(t, [codehost(t, 'staging'), codehost(t, 'production')]), promote(t)),
    check: 'in sync',
    says: t => `runs commit ${BUILT} of "staging" revision ${latest(t, 'staging').id}`
  },
  {
    title: 'staging was rebuilt at another commit since',
    arrange: async t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      await new Promise(res => setTimeout(res, 20))
      t.emu.configure({ repoCommits: { [`${REPO}@main`]: MOVED } })
      await redeploy(t, 'staging')
      return promote(t)
    },
    check: 'drift',
    says: t =>
      `"production" runs commit ${BUILT} (revision ${latest(t, 'production').id}), but "staging" (\`promote-from\`) revision ${latest(t, 'staging').id} runs commit ${MOVED}.`
  },
  {
    title: 'production is on another ref',
    arrange: t => {
      const release = { repo_ref: 'release', graph_config_path: 'langgraph.json' }
      seed(t, [
        codehost(t, 'staging'),
        codehost(t, 'production', { source_revision_config: release })
      ])
      return promote(t)
    },
    check: 'drift',
    says: () => 'source_revision_config.repo_ref: release -> main'
  },
  {
    title: 'staging builds another graph config',
    arrange: t => {
      const other = { repo_ref: 'main', graph_config_path: 'agents/langgraph.json' }
      seed(t, [
        codehost(t, 'staging', { source_revision_config: other }),
        codehost(t, 'production')
      ])
      return promote(t)
    },
    check: 'drift',
    says: () => 'source_revision_config.graph_config_path: langgraph.json -> agents/langgraph.json'
  },
  {
    title: 'production’s newest revision failed (a redeploy from the web app)',
    arrange: async t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      await redeploy(t, 'production', { repo_ref: 'fail-build' })
      return promote(t)
    },
    check: 'drift',
    says: t => `${latest(t, 'production').id} is BUILD_FAILED (failed)`
  },
  {
    title: 'a secret the inputs set differs',
    arrange: t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      return promote(t, { secrets: 'KEY=another-value-0123456789' })
    },
    check: 'drift',
    says: () => 'secrets.KEY: *** -> ***'
  },
  {
    title: 'a setting the inputs set differs',
    arrange: t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      return promote(t, { 'build-on-push': 'true' })
    },
    check: 'drift',
    says: () => 'source_config.build_on_push: true'
  },
  {
    title: 'production is of another type than deployment-type',
    arrange: t => {
      const dedicated = {
        integration_id: t.integration,
        repo_url: REPO,
        deployment_type: 'dedicated' as const
      }
      seed(t, [codehost(t, 'staging'), codehost(t, 'production', { source_config: dedicated })])
      return promote(t, { 'deployment-type': 'serverless' })
    },
    check: 'drift',
    // The deploy refuses to change a type.
    dryRun: 'refused',
    says: () => '"production" is dedicated, but `deployment-type: serverless` asks for serverless'
  },
  {
    title: 'production does not exist',
    arrange: t => (seed(t, [codehost(t, 'staging')]), promote(t)),
    check: 'drift',
    says: () => 'Deployment "production" does not exist: a deploy would create it.'
  },
  {
    title: 'production is being deleted',
    arrange: async t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      t.emu.configure({ stageDurationsMs: { DELETE: 24 * 3600_000 } })
      const res = await fetch(`${t.emu.url}/v2/deployments/${t.named('production')[0]!.id}`, {
        method: 'DELETE',
        headers: { 'x-api-key': t.key }
      })
      expect(res.status).toBe(204)
      return promote(t)
    },
    check: 'drift',
    says: () => '"production" is being deleted (AWAITING_DELETE)'
  },
  {
    title: 'production runs another image',
    arrange: t => {
      seed(t, [
        image('staging', 'registry.example.com/agent:1.2'),
        image('production', 'registry.example.com/agent:1.1')
      ])
      return promote(t)
    },
    check: 'drift',
    says: () => '"production" runs image registry.example.com/agent:1.1'
  },
  {
    title: 'production runs the image staging runs',
    arrange: t => {
      seed(t, [
        image('staging', 'registry.example.com/agent:1.2'),
        image('production', 'registry.example.com/agent:1.2')
      ])
      return promote(t)
    },
    check: 'in sync',
    says: () => 'runs image registry.example.com/agent:1.2 of "staging"'
  },
  {
    title: 'production was rebuilt from the repository: it names staging’s image, and runs a build',
    arrange: async t => {
      seed(t, [
        image('staging', 'registry.example.com/agent:1.2'),
        image('production', 'registry.example.com/agent:1.2'),
        codehost(t, 'built')
      ])
      // A revision of `revision-source: codehost` keeps the image of its config; the control
      // plane's word for its source is read from a codehost revision.
      const word = ((await answer(t, 'built')) as { source: string }).source
      const body = (await answer(t, 'production')) as { source_revision_config: object }
      t.emu.setFaults({
        kind: 'bad-schema',
        method: 'GET',
        path: revisionPath(t, 'production'),
        body: {
          ...body,
          source: word,
          source_revision_config: { ...body.source_revision_config, repo_ref: 'main' }
        }
      })
      return promote(t)
    },
    check: 'drift',
    says: t =>
      `"production" runs a revision built from codehost (revision ${latest(t, 'production').id}), but "staging" (\`promote-from\`) revision ${latest(t, 'staging').id} runs image registry.example.com/agent:1.2, built from internal_docker.`
  },
  {
    title: 'production’s active revision reports no commit',
    arrange: async t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      await new Promise(res => setTimeout(res, 20))
      t.emu.configure({ repoCommits: { [`${REPO}@main`]: null } })
      await redeploy(t, 'production')
      return promote(t)
    },
    check: 'drift',
    says: t =>
      `"production" reports no commit for its active revision ${latest(t, 'production').id}: it cannot be shown to run commit ${BUILT}`
  },
  {
    title: 'staging’s active revision reports no commit',
    arrange: async t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      await new Promise(res => setTimeout(res, 20))
      t.emu.configure({ repoCommits: { [`${REPO}@main`]: null } })
      await redeploy(t, 'staging')
      return promote(t)
    },
    check: 'refused',
    says: () => 'reports no built commit'
  },
  {
    title: 'promote-revision-id is not staging’s active revision',
    arrange: t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      return promote(t, { 'promote-revision-id': '0a8f4f39-0c53-4a8e-9a3b-0d2f0c9a1e01' })
    },
    check: 'refused',
    says: () => '`promote-revision-id` is 0a8f4f39-0c53-4a8e-9a3b-0d2f0c9a1e01'
  },
  {
    title: 'production builds another repository',
    arrange: t => {
      const other = { integration_id: t.integration, repo_url: 'https://github.com/acme/other' }
      seed(t, [codehost(t, 'staging'), codehost(t, 'production', { source_config: other })])
      return promote(t)
    },
    check: 'refused',
    says: () => '"staging" (`promote-from`) builds https://github.com/acme/agent-server'
  },
  {
    title: 'staging is not there',
    arrange: t => (seed(t, [codehost(t, 'production')]), promote(t)),
    check: 'refused',
    says: () => 'Deployment "staging" (`promote-from`) was not found'
  },
  {
    title: 'staging’s ref moved on since its active revision built (a newer revision failed)',
    arrange: async t => {
      seed(t, [codehost(t, 'staging'), codehost(t, 'production')])
      await new Promise(res => setTimeout(res, 20))
      t.emu.configure({ repoCommits: { [`${REPO}@main`]: MOVED } })
      t.emu.script({ outcome: 'DEPLOY_FAILED', deploymentId: t.named('staging')[0]!.id })
      await redeploy(t, 'staging')
      return promote(t)
    },
    check: 'refused',
    says: () => `now points to ${MOVED}`
  }
]

for (const row of ROWS) {
  e2e(`check --promote-from and a dry-run promotion agree: ${row.title}`, async t => {
    const inputs = await row.arrange(t)
    const before = t.writes().length
    const checked = await run({ inputs: { ...inputs, command: 'check' }, env: row.env })
    const dry = await run({ inputs: { ...inputs, 'dry-run': 'true' }, env: row.env })
    expect(checked.stdout + checked.errors.join('\n')).toContain(row.says(t))
    expect({ check: checkVerdict(checked), dryRun: dryRunVerdict(dry) }).toEqual({
      check: row.check,
      dryRun: row.dryRun ?? row.check
    })
    // The one rule: in sync exactly when the dry run would change nothing.
    expect(checkVerdict(checked) === 'in sync').toBe(dryRunVerdict(dry) === 'in sync')
    if (row.check === 'refused') expect(checked.errors[0]).toBe(dry.errors[0])
    expect(t.writes()).toHaveLength(before)
  })
}

/** A workspace with a graph config. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
  writeFileSync(join(dir, 'langgraph.json'), JSON.stringify({ graphs: { agent: './a.py:g' } }))
  writeFileSync(join(dir, 'a.py'), 'g = None\n')
  return dir
}

e2e(
  'check --promote-from and a dry-run promotion agree: an upload never reads as in sync',
  async t => {
    const env = { GITHUB_WORKSPACE: workspace() }
    const upload = (name: string) =>
      run({
        inputs: { ...t.inputs({ name, source: 'internal_source' }), 'integration-id': '' },
        env
      })
    const staging = await upload('staging')
    expect(staging.code).toBe(0)
    expect((await upload('production')).code).toBe(0)
    const digest = staging.outputs['source-digest']!
    const before = t.writes().length
    // The check archives the workspace as the deploy does: another digest is refused by both.
    const wrong = promote(t, { 'expected-source-digest': `sha256:${'0'.repeat(64)}` })
    const [checkWrong, dryWrong] = [
      await run({ inputs: { ...wrong, command: 'check' }, env }),
      await run({ inputs: { ...wrong, 'dry-run': 'true' }, env })
    ]
    expect(checkVerdict(checkWrong)).toBe('refused')
    expect(checkWrong.errors[0]).toContain(`The source archive is ${digest}`)
    expect(checkWrong.errors[0]).toBe(dryWrong.errors[0])
    const inputs = promote(t, { 'expected-source-digest': digest })
    const checked = await run({ inputs: { ...inputs, command: 'check' }, env })
    const dry = await run({ inputs: { ...inputs, 'dry-run': 'true' }, env })
    expect(checkVerdict(checked)).toBe('drift')
    expect(dryRunVerdict(dry)).toBe('drift')
    expect(checked.stdout).toContain('"production" runs an upload, which cannot be compared')
    expect(t.writes()).toHaveLength(before)
  }
)
