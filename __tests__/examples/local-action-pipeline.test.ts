// examples/promote-pipeline.yml run as a user runs it on their machine: each job's action step
// through GitHub's local-action, against the emulator whose code host is a local git repository
// (`--repo`), and a push to main between the jobs. Two pushes, their jobs interleaved as GitHub
// runs them when production waits for its reviewers: production never ends on a commit that
// staging did not verify; when it cannot have what staging verified, the job fails (exit 1) and
// production runs what it ran before.
import { expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture, type Emulator } from '../../emulator/server.ts'
import { git } from '../../scripts/fixture-repo.ts'
import { E2E_TEST_TIMEOUT_MS, withEmulator } from '../e2e/harness.ts'
import { actionStep, jobOutputs, localAction, workflowJobs, type LocalRun } from './local-action.ts'
import { deployedAt, monorepo, serveOwnGraphs } from '../../scripts/monorepo.ts'

const REPO = 'https://github.com/acme/agent-server'
const jobs = workflowJobs('promote-pipeline.yml')

/** The user's repository: v0 (what production runs), then main at the first push's commit. */
function repository(): { dir: string; v0: string; first: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-pipeline-repo-'))
  git(dir, 'init', '-q', '-b', 'main')
  writeFileSync(join(dir, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}\n')
  writeFileSync(join(dir, 'agent.py'), 'graph = None  # v0\n')
  // The smoke case the staging and production jobs read from the workspace.
  writeFileSync(
    join(dir, 'smoke.yaml'),
    '- {name: echo, graph: agent, input: {q: ping}, expect: {contains: ping}}\n'
  )
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'v0')
  git(dir, 'tag', 'v0')
  const v0 = git(dir, 'rev-parse', 'HEAD')
  return { dir, v0, first: push(dir, 'first') }
}

/** A commit pushed to main: its SHA. */
function push(dir: string, what: string): string {
  writeFileSync(join(dir, 'agent.py'), `graph = None  # ${what}\n`)
  git(dir, 'commit', '-q', '-am', what)
  return git(dir, 'rev-parse', 'HEAD')
}

/** A workflow run of the push of `sha`: its checkout, and the jobs' runner variables. */
function workflowRun(repo: string, sha: string) {
  const workspace = mkdtempSync(join(tmpdir(), 'cpd-pipeline-ws-'))
  execFileSync('git', ['clone', '-q', repo, workspace])
  git(workspace, 'checkout', '-q', sha)
  const event = join(workspace, '..', `${sha}.event.json`)
  writeFileSync(event, JSON.stringify({ ref: 'refs/heads/main', after: sha }))
  const env = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: event,
    GITHUB_REF: 'refs/heads/main',
    GITHUB_REF_NAME: 'main',
    GITHUB_SHA: sha,
    GITHUB_REPOSITORY: 'acme/agent-server',
    GITHUB_RUN_ID: sha.slice(0, 8),
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: workspace
  }
  return { workspace, event, env, needs: {} as Record<string, string> }
}
type WorkflowRun = ReturnType<typeof workflowRun>

/** The secrets and variables the workflow names, and what this machine adds: the emulator's URL. */
function settings(emu: Emulator) {
  const c = emu.credentials()
  return {
    context: {
      'secrets.CONTROL_PLANE_API_KEY': c.apiKey,
      'vars.CONTROL_PLANE_TENANT_ID': c.tenantId,
      'vars.CONTROL_PLANE_INTEGRATION_ID': c.integrationId!
    },
    local: { 'base-url': emu.url, 'poll-interval': '1s', 'health-check-window': '1s' }
  }
}

/** Runs `job` of `run` under local-action; a job that succeeds hands its outputs to `needs`. */
async function runJob(emu: Emulator, run: WorkflowRun, job: 'staging' | 'production') {
  const { context, local } = settings(emu)
  const step = actionStep(jobs[job]!, { ...context, ...run.needs })
  const r = await localAction({ ...step.inputs, ...local }, run.env)
  if (r.code === 0)
    for (const [k, v] of Object.entries(jobOutputs(jobs[job]!, step.id, r.outputs)))
      run.needs[`needs.${job}.outputs.${k}`] = v
  return r
}

/** The commit the active revision of deployment `name` reports, read over the API. */
async function liveCommit(emu: Emulator, name: string): Promise<string | null> {
  const get = async (path: string) => {
    const res = await fetch(`${emu.url}${path}`, {
      headers: { 'X-Api-Key': emu.credentials().apiKey }
    })
    return (await res.json()) as Record<string, unknown>
  }
  const list = (await get(`/v2/deployments?name_contains=${name}`)) as {
    resources: { id: string; name: string; active_revision_id: string }[]
  }
  const d = list.resources.find(r => r.name === name)!
  const rev = await get(`/v2/deployments/${d.id}/revisions/${d.active_revision_id}`)
  return (rev.source_revision_config as { repo_commit_sha: string | null }).repo_commit_sha
}

/**
 * What a production job may leave: green, production runs the commit staging runs and verified;
 * failed, production runs what it ran before the job. Commits are compared by the names the test
 * gave them, so that a failure says which one production ended on.
 */
async function expectVerified(
  emu: Emulator,
  r: LocalRun,
  commits: Record<string, string>,
  verified: string[],
  before: string
) {
  const name = (sha: string | null) =>
    Object.entries(commits).find(([, c]) => c === sha)?.[0] ?? String(sha)
  const live = name(await liveCommit(emu, 'my-agent'))
  if (r.code === 0) {
    expect(live).toBe(name(await liveCommit(emu, 'my-agent-staging')))
    expect(verified.map(name)).toContain(live)
  } else {
    expect(r.code).toBe(1)
    expect(live).toBe(name(before))
  }
}

test(
  'promote-pipeline.yml under local-action, main moving on between the jobs: production runs only what staging verified',
  async () => {
    // The jobs run in the order the workflow gives them: production after staging, with its output.
    expect(jobs.production!.needs).toBe('staging')
    expect(jobs.staging!.outputs).toHaveProperty('revision-id')
    const repo = repository()
    const dirs: string[] = [repo.dir]
    try {
      await withEmulator({ speed: 4, repoDir: repo.dir }, async emu => {
        // Production exists, deployed from v0.
        const base = demoFixture()
        const { tenantId, integrationId } = emu.credentials()
        emu.loadFixture({
          ...base,
          deployments: [
            ...(base.deployments ?? []),
            {
              tenant_id: tenantId,
              name: 'my-agent',
              source: 'codehost',
              deployment_type: 'dedicated',
              source_config: { integration_id: integrationId, repo_url: REPO },
              source_revision_config: {
                repo_ref: 'refs/tags/v0',
                graph_config_path: 'langgraph.json'
              },
              secrets: [{ name: 'KEY', value: 'prod' }]
            }
          ]
        })
        expect(await liveCommit(emu, 'my-agent')).toBe(repo.v0)
        const verified: string[] = []
        const writes = () => emu.requests().filter(q => q.method !== 'GET').length

        // The first push's run: staging verifies the first commit.
        const first = workflowRun(repo.dir, repo.first)
        dirs.push(first.workspace, first.event)
        const staging1 = await runJob(emu, first, 'staging')
        expect(staging1.errors).toEqual([])
        expect(staging1.code).toBe(0)
        expect(staging1.outputs['repo-commit-sha']).toBe(repo.first)
        verified.push(repo.first)

        // main moves on while production waits for its reviewers; then they approve.
        const second = push(repo.dir, 'second')
        const commits = { v0: repo.v0, first: repo.first, second }
        const production1 = await runJob(emu, first, 'production')
        await expectVerified(emu, production1, commits, verified, repo.v0)
        expect(production1.code).toBe(1)
        expect(production1.errors[0]).toContain(`built commit ${second}, not ${repo.first}`)
        expect(production1.outputs['rollback-status']).toBe('DEPLOYED')

        // The second push's run: staging verifies the second commit.
        const next = workflowRun(repo.dir, second)
        dirs.push(next.workspace, next.event)
        const staging2 = await runJob(emu, next, 'staging')
        expect(staging2.code).toBe(0)
        expect(staging2.outputs['repo-commit-sha']).toBe(second)
        verified.push(second)

        // The first run's production job re-run: its staging revision is no longer staging's.
        const before = writes()
        const rerun = await runJob(emu, first, 'production')
        await expectVerified(emu, rerun, commits, verified, repo.v0)
        expect(rerun.code).toBe(1)
        expect(rerun.errors[0]).toContain('`promote-revision-id`')
        expect(writes()).toBe(before)

        // The second run's production job: what staging verified, exactly.
        const production2 = await runJob(emu, next, 'production')
        await expectVerified(emu, production2, commits, verified, repo.v0)
        expect(production2.errors).toEqual([])
        expect(production2.code).toBe(0)
        expect(production2.outputs['promoted-from-revision-id']).toBe(
          staging2.outputs['revision-id']
        )
        expect(production2.outputs['repo-commit-sha']).toBe(second)
      })
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    }
  },
  E2E_TEST_TIMEOUT_MS
)

// examples/monorepo.yml the same way, on the fixture monorepo (its workspace, and the emulator's
// code host): the staging plan, each entry of its matrix deployed, then the production plan and
// each promotion. A change to the shared library deploys its two dependents to staging, then
// promotes those two; the third agent is never touched.
test(
  'monorepo.yml under local-action: plan, each matrix entry deployed, then each promotion',
  async () => {
    const monoJobs = workflowJobs('monorepo.yml')
    expect(monoJobs.staging!.needs).toBe('plan-staging')
    expect(monoJobs.production!.needs).toBe('plan-production')
    const repo = monorepo()
    try {
      await withEmulator({ speed: 4, repoDir: repo.dir }, async emu => {
        deployedAt(emu, {
          'support-staging': repo.first,
          'research-staging': repo.first,
          'triage-staging': repo.first,
          'support-prod': repo.first,
          'research-prod': repo.first
        })
        const sha = repo.commit({ 'libs/common/common/tone.py': 'TONE = "Be brief."\n' })
        const env = {
          ...workflowRun(repo.dir, sha).env,
          GITHUB_WORKSPACE: repo.dir,
          GITHUB_REPOSITORY: 'acme/agent-server'
        }
        const { context, local } = settings(emu)
        const needs: Record<string, string> = {}
        /** One job's action step, for one matrix entry when given; its outputs into `needs`. */
        const step = async (name: string, matrix: Record<string, string> = {}) => {
          const entry = Object.fromEntries(
            Object.entries(matrix).map(([k, v]) => [`matrix.${k}`, v])
          )
          const s = actionStep(monoJobs[name]!, { ...context, ...needs, ...entry })
          // A GitHub deployment needs the runner's GitHub API: not here.
          // A plan takes no deploy's settings: the emulator's address alone.
          const here = s.inputs.command === 'plan' ? { 'base-url': local['base-url'] } : local
          const r = await localAction({ ...s.inputs, ...here, 'github-token': '' }, env)
          expect([name, r.code, r.errors]).toEqual([name, 0, []])
          for (const [k, v] of Object.entries(jobOutputs(monoJobs[name]!, s.id, r.outputs)))
            needs[`needs.${name}.outputs.${k}`] = v
          return r
        }
        await step('plan-staging')
        expect(needs['needs.plan-staging.outputs.agents']).toBe('["support","research"]')
        const staging = JSON.parse(needs['needs.plan-staging.outputs.matrix']!) as {
          include: Record<string, string>[]
        }
        for (const entry of staging.include) await step('staging', entry)
        expect(await liveCommit(emu, 'support-staging')).toBe(sha)
        expect(await liveCommit(emu, 'research-staging')).toBe(sha)
        expect(await liveCommit(emu, 'triage-staging')).toBe(repo.first)

        await serveOwnGraphs(emu, ['support', 'research'])
        await step('plan-production')
        expect(needs['needs.plan-production.outputs.agents']).toBe('["support","research"]')
        const production = JSON.parse(needs['needs.plan-production.outputs.matrix']!) as {
          include: Record<string, string>[]
        }
        for (const entry of production.include) await step('production', entry)
        expect(await liveCommit(emu, 'support-prod')).toBe(sha)
        expect(await liveCommit(emu, 'research-prod')).toBe(sha)
        // Planned again: nothing left to promote.
        await step('plan-production')
        expect(needs['needs.plan-production.outputs.agents']).toBe('[]')
      })
    } finally {
      repo.remove()
    }
  },
  E2E_TEST_TIMEOUT_MS
)
