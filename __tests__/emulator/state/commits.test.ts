// The commit a codehost build reports without a pin: the ref resolved in a local clone given to
// the emulator (`repoDir`, `--repo DIR`), else a stable commit per repository and ref.
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveInClone, stableCommit } from '../../../emulator/state/commits.ts'
import { parseCli } from '../../../emulator/cli-options.ts'
import { Deployment, Revision } from '../../../src/control-plane/schema.ts'
import {
  call,
  codehostBody,
  emulatorPerTest,
  REPO,
  STAGES_100_MS
} from '../../builders/emulator.ts'

/** A git checkout with two commits: develop at the second, tag v1 at the first. */
function clone(): { dir: string; first: string; develop: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-emu-repo-'))
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com'
      }
    }).trim()
  git('init', '-q', '-b', 'develop')
  writeFileSync(join(dir, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}\n')
  git('add', '.')
  git('commit', '-q', '-m', 'first')
  git('tag', 'v1')
  const first = git('rev-parse', 'HEAD')
  writeFileSync(join(dir, 'agent.py'), 'graph = None\n')
  git('add', '.')
  git('commit', '-q', '-m', 'second')
  return { dir, first, develop: git('rev-parse', 'HEAD') }
}

const repo = clone()
afterAll(() => rmSync(repo.dir, { recursive: true, force: true }))

const perTest = emulatorPerTest({}, { eager: false, manualClock: true })

let n = 0
/** The commit the first revision of a new deployment of `ref` reports once its build started. */
async function builtCommit(ref: string): Promise<string | null | undefined> {
  const { emu, clock } = perTest
  const body = codehostBody(`c-${++n}`, {
    source_revision_config: { repo_ref: ref, graph_config_path: 'langgraph.json' }
  })
  const d = Deployment.parse((await call(emu, 'POST', '/v2/deployments', { body })).body)
  clock.advance(1000)
  const r = await call(emu, 'GET', `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`)
  return Revision.parse(r.body).source_revision_config?.repo_commit_sha
}

describe('with a local clone (repoDir)', () => {
  it('a branch, a full tag ref and a bare tag resolve there; a ref it lacks gets the stable commit', async () => {
    await perTest.setup({ stageDurationsMs: STAGES_100_MS, repoDir: repo.dir })
    expect(await builtCommit('develop')).toBe(repo.develop)
    expect(await builtCommit('refs/tags/v1')).toBe(repo.first)
    expect(await builtCommit('v1')).toBe(repo.first)
    expect(await builtCommit('no-such-branch')).toBe(stableCommit(REPO, 'no-such-branch'))
  })

  it('a pin of repoCommits still wins, a null pin included', async () => {
    await perTest.setup({ stageDurationsMs: STAGES_100_MS, repoDir: repo.dir })
    perTest.emu.configure({ repoCommits: { [`${REPO}@develop`]: 'c'.repeat(40) } })
    expect(await builtCommit('develop')).toBe('c'.repeat(40))
    perTest.emu.configure({ repoCommits: { [`${REPO}@develop`]: null } })
    expect(await builtCommit('develop')).toBeNull()
  })

  it('resolveInClone: null for a ref the clone does not have, or a directory that is no clone', () => {
    expect(resolveInClone(repo.dir, 'develop')).toBe(repo.develop)
    expect(resolveInClone(repo.dir, 'nope')).toBeNull()
    expect(resolveInClone(tmpdir(), 'develop')).toBeNull()
  })
})

describe('without a clone', () => {
  it('a stable commit per repository and ref: the same on every build, another for another ref', async () => {
    await perTest.setup({ stageDurationsMs: STAGES_100_MS })
    const first = await builtCommit('feature-x')
    expect(first).toMatch(/^[0-9a-f]{40}$/)
    expect(await builtCommit('feature-x')).toBe(first)
    expect(await builtCommit('feature-y')).not.toBe(first)
    // The repository URL as the hosting service compares it.
    expect(stableCommit(`${REPO}.git/`, 'feature-x')).toBe(first)
  })
})

describe('--repo DIR', () => {
  it('names the clone; a path that is no directory is refused in one line', () => {
    expect(parseCli(['--repo', repo.dir])).toMatchObject({ kind: 'run', repoDir: repo.dir })
    expect(parseCli([])).toMatchObject({ kind: 'run', repoDir: undefined })
    expect(parseCli(['--repo', join(repo.dir, 'missing')])).toEqual({
      kind: 'error',
      message: `invalid --repo ${join(repo.dir, 'missing')}: not a directory`
    })
  })
})
