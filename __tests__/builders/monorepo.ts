// The fixture monorepo (fixtures/monorepo: three agents, a shared library) as a git repository with
// history in a temporary folder, and an emulator whose deployments of its agents built the commits
// a test names: what `command: plan` compares.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { demoFixture, type Emulator } from '../../emulator/server.ts'
import { loadSeeded, seededDeployment, AGENT_REPO, type Seeded } from './in-process.ts'
import { ROOT } from './repo.ts'

export const MONOREPO = join(ROOT, 'fixtures/monorepo')

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
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null'
      }
    }).trim()
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-q', '-m', 'the fixture')
  const first = git('rev-parse', 'HEAD')
  const commit = (files: Record<string, string | null>, message = 'a change') => {
    for (const [path, text] of Object.entries(files)) {
      const file = join(dir, path)
      if (text === null) rmSync(file)
      else {
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, text)
      }
    }
    git('add', '-A')
    git('commit', '-q', '-m', message)
    return git('rev-parse', 'HEAD')
  }
  return { dir, first, commit, git, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * The emulator holds a deployment of each name, its active revision built the commit given
 * (each from a ref of its own, pinned to that commit); a name given null holds none.
 */
export function deployedAt(emu: Emulator, built: Record<string, string | null>): void {
  const deployments: Seeded[] = []
  const commits: Record<string, string> = {}
  for (const [name, sha] of Object.entries(built)) {
    if (sha === null) continue
    const ref = `deployed-${name}`
    commits[`${AGENT_REPO}@${ref}`] = sha
    const d = seededDeployment(emu, name)
    deployments.push({
      ...d,
      // As the fixture's manifest creates them: production dedicated, the rest serverless.
      deployment_type: name.endsWith('-prod') ? 'dedicated' : 'serverless',
      source_revision_config: { ...d.source_revision_config, repo_ref: ref }
    })
  }
  if (deployments.length) loadSeeded(emu, deployments, commits)
  else emu.loadFixture(demoFixture())
}
