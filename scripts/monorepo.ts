// The fixture monorepo (fixtures/monorepo: three agents, a shared library) as a git repository in
// a folder of its own, and an emulator whose deployments of its agents built the commits named:
// what `command: plan` compares. Used by the tests, the demo and the bench.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { demoFixture, type Emulator } from '../emulator/server.ts'
import { commitFixtureRepo, git } from './fixture-repo.ts'

export const MONOREPO = fileURLToPath(new URL('../fixtures/monorepo', import.meta.url))
/** The demo fixture's repository, which its integration builds. */
export const MONOREPO_URL = 'https://github.com/acme/agent-server'

export interface Monorepo {
  dir: string
  /** The first commit: the fixture as it is. */
  first: string
  /** Writes (or, with null, deletes) files and commits them; the new commit. */
  commit(files: Record<string, string | null>, message?: string): string
  git(...args: string[]): string
  remove(): void
}

/** The fixture copied into a new git repository, committed once. */
export function monorepo(): Monorepo {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-monorepo-'))
  cpSync(MONOREPO, dir, { recursive: true })
  const first = commitFixtureRepo(dir, 'the fixture')
  const commit = (files: Record<string, string | null>, message = 'a change') => {
    for (const [path, text] of Object.entries(files)) {
      const file = join(dir, path)
      if (text === null) rmSync(file)
      else {
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, text)
      }
    }
    // One process for the three steps: a test makes many commits, each spawn a fork of this one.
    return git(
      dir,
      '-c',
      'alias.save=!git add -A && git commit -q -m "$1" && git rev-parse HEAD #',
      'save',
      message
    )
  }
  return {
    dir,
    first,
    commit,
    git: (...args) => git(dir, ...args),
    remove: () => rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The emulator holds the demo fixture and a deployment of each name, whose active revision built
 * the commit given (from a ref of its own, pinned to it); a name given null has none. Production
 * ones are dedicated, the rest serverless, as the fixture's manifest creates them.
 */
export function deployedAt(emu: Emulator, built: Record<string, string | null>): void {
  const c = emu.credentials()
  const base = demoFixture()
  const commits: Record<string, string> = {}
  const deployments = Object.entries(built).flatMap(([name, sha]) => {
    if (sha === null) return []
    const ref = `deployed-${name}`
    commits[`${MONOREPO_URL}@${ref}`] = sha
    return [
      {
        tenant_id: c.tenantId,
        name,
        source: 'codehost' as const,
        deployment_type: name.endsWith('-prod') ? ('dedicated' as const) : ('serverless' as const),
        source_config: { integration_id: c.integrationId, repo_url: MONOREPO_URL },
        source_revision_config: { repo_ref: ref, graph_config_path: 'langgraph.json' },
        secrets: []
      }
    ]
  })
  emu.loadFixture({
    ...base,
    repo_commits: { ...base.repo_commits, ...commits },
    deployments: [...(base.deployments ?? []), ...deployments]
  })
}

/**
 * The emulator builds no codehost config: each agent's staging server is made to serve the graph
 * its config names (the agent's own), for a promotion's graphs check of its source.
 */
export async function serveOwnGraphs(emu: Emulator, agents: readonly string[]): Promise<void> {
  for (const agent of agents) {
    const id = emu
      .state()
      .tenants.flatMap(t => t.deployments)
      .find(d => d.name === `${agent}-staging`)!.id
    const res = await fetch(`${emu.url}/_emulator/agents/${id}/app`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ graphs: [agent] })
    })
    if (res.status !== 200) throw new Error(`the emulator refused ${agent}'s graphs: ${res.status}`)
  }
}
