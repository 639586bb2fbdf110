// `command: check --promote-from` against `deploy --promote-from --dry-run` over every difference a
// promotion can make: for each, the check says in sync exactly when the dry run would change
// nothing (no field changes, the target already runs the source's material), and both say what
// they saw; refusals are refusals in both. The rows, for the in-process table
// (commands/check/against-source.agreement.test.ts) and the end-to-end cases (e2e/check.test.ts).
import { expect } from '@jest/globals'
import { demoFixture, type Emulator } from '../../emulator/server.ts'
import type { Fixture } from '../../emulator/state/store.ts'

export const REPO = 'https://github.com/acme/agent-server'
export const BUILT = 'a1'.repeat(20)
export const MOVED = 'b2'.repeat(20)

type Seeded = Omit<NonNullable<Fixture['deployments']>[number], 'tenant_id'>
type Deployment = ReturnType<Emulator['state']>['tenants'][number]['deployments'][number]

/** What a row works with: the emulator, its inputs, and its time. */
export interface Agreement {
  emu: Emulator
  integration: string
  key: string
  inputs(over?: Record<string, string>): Record<string, string>
  named(name: string): Deployment[]
  /** Lets `ms` of the emulator's time pass. */
  pause(ms: number): Promise<void>
  /**
   * Moves the emulator's time on until `done()`, then on past the previous revision's drain (a
   * change made before the run is rolled out when the run starts).
   */
  fastForward(done: () => boolean): Promise<void>
}

/** One run as a row reads it: its exit code, outputs, log (stdout) and `::error` lines. */
export interface Seen {
  code: number | null
  outputs: Record<string, string>
  log: string
  errors: string[]
}

/** Deployments that exist before the run, each with one DEPLOYED revision; main at BUILT. */
export function seed(t: Agreement, deployments: Seeded[]): void {
  const base = demoFixture()
  const tenant = t.emu.credentials().tenantId
  t.emu.loadFixture({
    ...base,
    repo_commits: { [`${REPO}@main`]: BUILT, [`${REPO}@release`]: 'c3'.repeat(20) },
    deployments: deployments.map(d => ({ tenant_id: tenant, ...d }))
  })
}

export const codehost = (t: Agreement, name: string, over: Partial<Seeded> = {}): Seeded => ({
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

const latest = (t: Agreement, name: string) => t.named(name)[0]!.revisions.at(-1)!

/** A new revision of `name` made from the web app, built or failed before the run. */
async function redeploy(t: Agreement, name: string, over: Record<string, string> = {}) {
  const id = t.emu.outOfBand(t.named(name)[0]!.id, { redeploy: over }).revision_id!
  const ended = () => /DEPLOYED|FAILED/.test(t.named(name)[0]!.revisions.at(-1)!.status)
  await t.fastForward(() => latest(t, name).id === id && ended())
}

const revisionPath = (t: Agreement, name: string) =>
  `/v2/deployments/${t.named(name)[0]!.id}/revisions/${latest(t, name).id}`

/** The active revision of `name` as the control plane answers it, in its wire words. */
async function answer(t: Agreement, name: string): Promise<unknown> {
  const headers = { 'x-api-key': t.key, 'x-tenant-id': t.emu.credentials().tenantId }
  return (await fetch(`${t.emu.url}${revisionPath(t, name)}`, { headers })).json()
}

export type Verdict = 'in sync' | 'drift' | 'refused'

export function checkVerdict(r: Seen): Verdict {
  if (r.code === 0 && r.outputs.drift === 'false') return 'in sync'
  if (r.outputs.drift === 'true') return 'drift'
  expect(r.code).toBe(1)
  return 'refused'
}

/** A dry run changes nothing when it plans no field change and the target runs the material. */
export function dryRunVerdict(r: Seen): Verdict {
  if (r.code !== 0) return 'refused'
  const unchanged =
    /Update deployment "[^"]+" \([^)]+\), making a new revision\n {2}no field changes\n/.test(
      r.log
    ) && r.log.includes('already runs what the promotion deploys')
  return unchanged ? 'in sync' : 'drift'
}

export interface Row {
  title: string
  /** Makes the difference; returns the inputs of both runs. */
  arrange(t: Agreement): Promise<Record<string, string>> | Record<string, string>
  check: Verdict
  dryRun?: Verdict
  /** What the check's log says it saw. */
  says: (t: Agreement) => string
}

export const promote = (t: Agreement, over: Record<string, string> = {}) =>
  t.inputs({ name: 'production', 'promote-from': 'staging', ...over })

/** Staging and production alike, each on main; the inputs of a promotion with `over`. */
const alike = (t: Agreement, over: Record<string, string> = {}) => (
  seed(t, [codehost(t, 'staging'), codehost(t, 'production')]),
  promote(t, over)
)

/** Both alike, then `name` rebuilt from the web app once main is at `commit` (null: none reported). */
async function rebuilt(t: Agreement, name: string, commit: string | null, fails = false) {
  alike(t)
  await t.pause(20)
  t.emu.configure({ repoCommits: { [`${REPO}@main`]: commit } })
  if (fails) t.emu.script({ outcome: 'DEPLOY_FAILED', deploymentId: t.named(name)[0]!.id })
  await redeploy(t, name)
  return promote(t)
}

/** The check, then the dry run, of one row's inputs: they agree, and neither writes. */
export async function expectAgreement(
  t: Agreement,
  row: Row,
  run: (inputs: Record<string, string>) => Promise<Seen>
): Promise<void> {
  const inputs = await row.arrange(t)
  const writes = () => t.emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')
  const before = writes().length
  const checked = await run({ ...inputs, command: 'check' })
  const dry = await run({ ...inputs, 'dry-run': 'true' })
  expect(checked.log + checked.errors.join('\n')).toContain(row.says(t))
  expect({ check: checkVerdict(checked), dryRun: dryRunVerdict(dry) }).toEqual({
    check: row.check,
    dryRun: row.dryRun ?? row.check
  })
  // The one rule: in sync exactly when the dry run would change nothing.
  expect(checkVerdict(checked) === 'in sync').toBe(dryRunVerdict(dry) === 'in sync')
  if (row.check === 'refused') expect(checked.errors[0]).toBe(dry.errors[0])
  expect(writes()).toHaveLength(before)
}

export const ROWS: Row[] = [
  {
    title: 'production runs the commit staging runs',
    arrange: t => alike(t),
    check: 'in sync',
    says: t => `runs commit ${BUILT} of "staging" revision ${latest(t, 'staging').id}`
  },
  {
    title: 'staging was rebuilt at another commit since',
    arrange: t => rebuilt(t, 'staging', MOVED),
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
      alike(t)
      await redeploy(t, 'production', { repo_ref: 'fail-build' })
      return promote(t)
    },
    check: 'drift',
    says: t => `${latest(t, 'production').id} is BUILD_FAILED (failed)`
  },
  {
    title: 'a secret the inputs set differs',
    arrange: t => alike(t, { secrets: 'KEY=another-value-0123456789' }),
    check: 'drift',
    says: () => 'secrets.KEY: *** -> ***'
  },
  {
    title: 'a setting the inputs set differs',
    arrange: t => alike(t, { 'build-on-push': 'true' }),
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
      alike(t)
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
    arrange: t => rebuilt(t, 'production', null),
    check: 'drift',
    says: t =>
      `"production" reports no commit for its active revision ${latest(t, 'production').id}: it cannot be shown to run commit ${BUILT}`
  },
  {
    title: 'staging’s active revision reports no commit',
    arrange: t => rebuilt(t, 'staging', null),
    check: 'refused',
    says: () => 'reports no built commit'
  },
  {
    title: 'promote-revision-id is not staging’s active revision',
    arrange: t => alike(t, { 'promote-revision-id': '0a8f4f39-0c53-4a8e-9a3b-0d2f0c9a1e01' }),
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
    arrange: t => rebuilt(t, 'staging', MOVED, true),
    check: 'refused',
    says: () => `now points to ${MOVED}`
  }
]
