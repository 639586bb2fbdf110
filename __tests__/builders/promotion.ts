// A promotion's deployments on the emulator: a staging and a production seeded with one DEPLOYED
// revision each (codehost from a branch or a tag, or an image), the branch moved on after their
// builds, and a workspace with a graph config and smoke cases for the checks of the source.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture } from '../../emulator/server.ts'
import type { Fixture } from '../../emulator/state/store.ts'
import type { E2E } from '../e2e/harness.ts'

export const REPO = 'https://github.com/acme/agent-server'
/** What main and the tag v1 point to when seeded. */
export const BUILT = 'a1'.repeat(20)
/** What main points to once it moved on (and the tag v2). */
export const MOVED = 'b2'.repeat(20)
export const TAG = 'refs/tags/v1'

type Seeded = NonNullable<Fixture['deployments']>[number]
export type SeededDeployment = Omit<Seeded, 'tenant_id'>

/** Deployments that exist before the run, each with one DEPLOYED revision; main and v1 at BUILT. */
export function seed(t: E2E, deployments: SeededDeployment[]): void {
  const base = demoFixture()
  const tenant = t.emu.credentials().tenantId
  t.emu.loadFixture({
    ...base,
    repo_commits: {
      [`${REPO}@main`]: BUILT,
      [`${REPO}@${TAG}`]: BUILT,
      [`${REPO}@refs/tags/v2`]: MOVED
    },
    deployments: [
      ...(base.deployments ?? []),
      ...deployments.map(d => ({ tenant_id: tenant, ...d }))
    ]
  })
}

/** A codehost deployment of REPO, deployed from `ref` (main unless said). */
export const codehost = (
  t: E2E,
  name: string,
  secrets: Record<string, string>,
  ref = 'main'
): SeededDeployment => ({
  name,
  source: 'codehost',
  source_config: { integration_id: t.integration, repo_url: REPO },
  source_revision_config: { repo_ref: ref, graph_config_path: 'langgraph.json' },
  secrets: Object.entries(secrets).map(([n, value]) => ({ name: n, value }))
})

export const image = (
  name: string,
  uri: string,
  secrets: Record<string, string> = {}
): SeededDeployment => ({
  name,
  source: 'internal_docker' as const,
  source_revision_config: { image_uri: uri },
  secrets: Object.entries(secrets).map(([n, value]) => ({ name: n, value }))
})

/**
 * main moves on to MOVED, after the seeded builds: a commit set at the very instant of a build's
 * start counts for it, so the emulator's clock first moves past the seeding.
 */
export async function moveMain(t: E2E): Promise<void> {
  await new Promise(resolve => setTimeout(resolve, 20))
  t.emu.configure({ repoCommits: { [`${REPO}@main`]: MOVED } })
}

export const one = (t: E2E, name: string) => t.named(name)[0]!
export const activeOf = (t: E2E, name: string) => one(t, name).revisions.at(-1)!

/** One smoke case that passes on the emulator's echo. */
export const ECHO = [
  { name: 'echo', graph: 'agent', input: { q: 'ping' }, expect: { contains: 'ping' } }
]

/** A workspace with a graph config (graph `agent`) and, when given, smoke cases (JSON, also YAML). */
export function promotionWorkspace(smoke?: unknown, file = 'smoke.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
  writeFileSync(join(dir, 'langgraph.json'), JSON.stringify({ graphs: { agent: './a.py:g' } }))
  writeFileSync(join(dir, 'a.py'), 'g = None\n')
  if (smoke !== undefined) writeFileSync(join(dir, file), JSON.stringify(smoke))
  return dir
}
