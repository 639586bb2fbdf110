// examples/gitlab-promote.yml run as a user runs it on their machine: `gitlab-ci-local` (its shell
// executor, no Docker) runs the pipeline's jobs from a checkout of the project, the CLI installed
// from the packed package as README's Install says (`DEPLOY_CLI=file:<tarball>`), against the
// emulator. main moves on between the staging and the promote job, and a second push's pipeline
// runs its staging job while the first one's promote job waits for a person: production never ends
// on an archive that staging did not verify; when it cannot have what staging runs, the job fails
// and production stays as it was.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parse as parseDotenv } from 'dotenv'
import { startEmulator, type Emulator } from '../../emulator/server.ts'
import { git } from '../../scripts/fixture-repo.ts'
import { installedPackage, NODE24, ROOT } from '../package/package.ts'
import { parse as parseYaml } from 'yaml'
import { AGENT_REPO } from '../builders/in-process.ts'
import { deployedAt, monorepo, serveOwnGraphs } from '../../scripts/monorepo.ts'

const STAGING = ['support-staging', 'research-staging', 'triage-staging']
const PRODUCTION = ['support-prod', 'research-prod']

let dir = ''
let emu: Emulator
beforeAll(async () => {
  // gitlab-ci-local copies the project with rsync, even for the shell executor.
  try {
    execFileSync('rsync', ['--version'], { stdio: 'ignore' })
  } catch {
    throw new Error('gitlab-ci-local needs rsync: apt-get install rsync (.ci/rsync does)')
  }
  dir = mkdtempSync(join(tmpdir(), 'cpd-gitlab-local-'))
  emu = await startEmulator({ port: 0, speed: 4 })
})
afterAll(async () => {
  await emu?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/**
 * The project: the example as its .gitlab-ci.yml, a graph, the smoke case, and a file naming the
 * version (`version-<name>`), so that the files an upload built tell which commit it was.
 */
function project(): string {
  const repo = join(dir, 'project')
  execFileSync('mkdir', ['-p', repo])
  git(repo, 'init', '-q', '-b', 'main')
  writeFileSync(
    join(repo, '.gitlab-ci.yml'),
    readFileSync(join(ROOT, 'examples/gitlab-promote.yml'), 'utf8')
  )
  // As gitlab-ci-local advises: its state folder is not part of the project.
  writeFileSync(join(repo, '.gitignore'), '.gitlab-ci-local/\n')
  writeFileSync(join(repo, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}\n')
  writeFileSync(join(repo, 'agent.py'), 'graph = None\n')
  writeFileSync(
    join(repo, 'smoke.yaml'),
    '- {name: echo, graph: agent, input: {q: ping}, expect: {contains: ping}}\n'
  )
  writeFileSync(join(repo, 'version-first'), '')
  git(repo, 'add', '-A')
  git(repo, 'commit', '-q', '-m', 'first')
  return repo
}

/** A commit pushed to the project's main: the version file renamed to `version-<name>`. */
function push(repo: string, from: string, to: string): string {
  git(repo, 'mv', `version-${from}`, `version-${to}`)
  git(repo, 'commit', '-q', '-m', to)
  return git(repo, 'rev-parse', 'HEAD')
}

/** A pipeline's checkout of the project at `sha` (each pipeline has its own, as on GitLab). */
function checkout(repo: string, name: string, sha: string): string {
  const at = join(dir, name)
  execFileSync('git', ['clone', '-q', repo, at])
  git(at, 'checkout', '-q', '-B', 'main', sha)
  return at
}

interface JobRun {
  /** gitlab-ci-local's exit code: 0 when the job passed. */
  code: number | null
  /** The job script's exit code, as gitlab-ci-local reports it (`FAIL <code>`), 0 when it passed. */
  script: number | undefined
  log: string
  /** The job's dotenv report (its --output-file), when it wrote one. */
  dotenv: Record<string, string>
}

/**
 * `gitlab-ci-local --force-shell-executor <job>` in `cwd`, on Node 24, with the project's CI/CD
 * variables (the emulator's key and workspace), the emulator's address, and DEPLOY_CLI the packed
 * package's tarball. A job run by name runs though it is manual; its `needs` read the dotenv
 * reports of the jobs run before in the same checkout.
 */
async function job(
  cwd: string,
  name: string,
  report: string,
  more: Record<string, string> = {},
  flags: string[] = []
): Promise<JobRun> {
  const c = emu.credentials()
  const variables = {
    ...more,
    DEPLOY_CLI: `file:${installedPackage().tarball}`,
    CONTROL_PLANE_API_KEY: c.apiKey,
    CONTROL_PLANE_TENANT_ID: c.tenantId,
    CONTROL_PLANE_BASE_URL: emu.url,
    CONTROL_PLANE_POLL_INTERVAL: '1s',
    CONTROL_PLANE_HEALTH_CHECK_WINDOW: '1s'
  }
  const cli = join(ROOT, 'node_modules/gitlab-ci-local/dist/index.js')
  const args = [cli, '--force-shell-executor', '--color=false', '--home', join(dir, 'gcl-home')]
  for (const [k, v] of Object.entries(variables)) args.push('--variable', `${k}=${v}`)
  // No name: the whole pipeline (a trigger's child pipeline runs only so).
  const child = spawn(NODE24, name ? [...args, ...flags, name] : [...args, ...flags], {
    cwd,
    // npx in the job runs on the same Node 24; its cache is this file's.
    env: { PATH: `${dirname(NODE24)}:${process.env.PATH ?? ''}`, HOME: join(dir, 'home') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let log = ''
  child.stdout.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr.on('data', (d: Buffer) => (log += d.toString()))
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000)
  const code = await new Promise<number | null>(res => child.on('close', res))
  clearTimeout(killer)
  let dotenv: Record<string, string> = {}
  try {
    dotenv = parseDotenv(readFileSync(join(cwd, report), 'utf8'))
  } catch {
    // no report
  }
  const failed = new RegExp(`^${name} finished in .* FAIL (\\d+)`, 'm').exec(log)
  const script = failed ? Number(failed[1]) : /^ PASS +/m.test(log) ? 0 : undefined
  return { code, script, log, dotenv }
}

/** The job succeeded, or its log shows why not. */
function expectGreen(r: JobRun) {
  if (r.code !== 0) throw new Error(`the job exited ${r.code}:\n${r.log}`)
}

/** The version whose files the active revision of deployment `name` was built from, or none. */
function liveVersion(name: string): string {
  const d = emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(x => x.name === name)
  if (!d) return 'none'
  const active = d.revisions.find(r => r.id === d.active_revision_id)
  const files = active?.source_files ?? []
  return files.find(f => f.startsWith('version-'))?.slice('version-'.length) ?? 'unknown'
}

/** After a promote job: green, production runs what staging runs and verified; else as before. */
function expectVerified(r: JobRun, verified: string[], before: string) {
  const live = liveVersion('my-agent')
  if (r.code === 0) {
    expect(live).toBe(liveVersion('my-agent-staging'))
    expect(verified).toContain(live)
  } else {
    expect(live).toBe(before)
  }
}

test('gitlab-promote.yml under gitlab-ci-local, main moving on between the jobs: production runs only what staging verified', async () => {
  const repo = project()
  const first = git(repo, 'rev-parse', 'HEAD')
  const verified: string[] = []
  const writes = () => emu.requests().filter(q => q.method !== 'GET').length

  // The first push's pipeline: staging verifies the first commit.
  const p1 = checkout(repo, 'pipeline-1', first)
  const staging1 = await job(p1, 'staging', 'staging.env')
  expectGreen(staging1)
  expect(liveVersion('my-agent-staging')).toBe('first')
  verified.push('first')

  // main moves on; the checkout the promote job runs in follows it.
  const second = push(repo, 'first', 'second')
  git(p1, 'pull', '-q', '--ff-only')
  let before = writes()
  const moved = await job(p1, 'promote', 'production.env')
  expectVerified(moved, verified, 'none')
  expect(moved.code).not.toBe(0)
  expect(moved.script).toBe(1)
  expect(moved.log).toContain(`not ${staging1.dotenv.SOURCE_DIGEST} that`)
  expect(writes()).toBe(before)

  // The second push's pipeline: staging verifies the second commit.
  const p2 = checkout(repo, 'pipeline-2', second)
  const staging2 = await job(p2, 'staging', 'staging.env')
  expectGreen(staging2)
  verified.push('second')

  // The first pipeline's promote job, run from its own commit again: staging runs another.
  git(p1, 'checkout', '-q', '-B', 'main', first)
  before = writes()
  const late = await job(p1, 'promote', 'production.env')
  expectVerified(late, verified, 'none')
  expect(late.code).not.toBe(0)
  expect(late.script).toBe(1)
  expect(late.log).toContain(`\`--promote-revision-id\` is ${staging1.dotenv.REVISION_ID}`)
  expect(writes()).toBe(before)

  // The second pipeline's promote job: what staging verified.
  const promoted = await job(p2, 'promote', 'production.env')
  expectVerified(promoted, verified, 'none')
  expectGreen(promoted)
  expect(promoted.dotenv.SOURCE_DIGEST).toBe(staging2.dotenv.SOURCE_DIGEST)
  expect(promoted.dotenv.PROMOTED_FROM_REVISION_ID).toBe(staging2.dotenv.REVISION_ID)
  expect(liveVersion('my-agent')).toBe('second')
})

/**
 * The pipeline file with the project's CI/CD variables in its own `variables:`, and DEPLOY_CLI the
 * packed package: GitLab gives a project's variables to its child pipelines too, gitlab-ci-local
 * gives its `--variable`s to none, but passes the file's on through a trigger, as GitLab does.
 */
function withVariables(text: string): string {
  const c = emu.credentials()
  const variables = {
    CONTROL_PLANE_API_KEY: c.apiKey,
    CONTROL_PLANE_TENANT_ID: c.tenantId,
    CONTROL_PLANE_BASE_URL: emu.url,
    CONTROL_PLANE_POLL_INTERVAL: '1s',
    CONTROL_PLANE_INTEGRATION_ID: c.integrationId!,
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server'
  }
  const lines = Object.entries(variables).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
  return text
    .replace(/^( {2}DEPLOY_CLI: ).*$/m, `$1file:${installedPackage().tarball}`)
    .replace(/^variables:\n/m, `variables:\n${lines.join('\n')}\n`)
}

// examples/gitlab-monorepo.yml the same way, on the fixture monorepo: the plan job writes the child
// pipeline, the trigger job runs it (one deploy job per agent the change planned); planned again,
// the child pipeline is the one job that says there is nothing to deploy.
test('gitlab-monorepo.yml under gitlab-ci-local: the plan writes the child pipeline, the trigger runs each deploy', async () => {
  const repo = monorepo()
  try {
    const base = repo.commit({
      '.gitlab-ci.yml': withVariables(
        readFileSync(join(ROOT, 'examples/gitlab-monorepo.yml'), 'utf8')
      ),
      '.gitignore': '.gitlab-ci-local/\n'
    })
    deployedAt(emu, Object.fromEntries([...STAGING, ...PRODUCTION].map(n => [n, base])))
    await serveOwnGraphs(emu, ['support', 'research'])
    const sha = repo.commit({ 'libs/common/common/tone.py': 'TONE = "Be brief."\n' })
    // The control plane's code host: main at the pushed commit (the project mirrors it).
    emu.configure({ repoCommits: { [`${AGENT_REPO}@main`]: sha } })
    const more = {
      CONTROL_PLANE_INTEGRATION_ID: emu.credentials().integrationId!,
      CONTROL_PLANE_REPOSITORY: 'acme/agent-server'
    }
    /** The commit the active revision of deployment `name` built. */
    const live = (name: string) => {
      const d = emu
        .state()
        .tenants.flatMap(t => t.deployments)
        .find(x => x.name === name)!
      return d.revisions.find(r => r.id === d.active_revision_id)?.source_revision_config
        .repo_commit_sha
    }
    const revisions = (name: string) =>
      emu
        .state()
        .tenants.flatMap(t => t.deployments)
        .find(d => d.name === name)!.revisions.length

    // The pipeline of the push, its manual job started: each plan, then each trigger runs its
    // child pipeline (staging's deploys, then production's promotions).
    const manual = ['--manual', 'plan-production']
    const pushed = await job(repo.dir, '', 'none', more, manual)
    expectGreen(pushed)
    expect(pushed.log).toContain('support (support-staging): deploy: a file changed since')
    const child = parseYaml(readFileSync(join(repo.dir, 'staging.yml'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(Object.keys(child).filter(k => k.startsWith('deploy '))).toEqual([
      'deploy support staging',
      'deploy research staging'
    ])
    expect(STAGING.map(revisions)).toEqual([2, 2, 1])
    expect(pushed.log).toContain(
      'support (support-prod): deploy: its source "support-staging" runs commit'
    )
    // Each production runs what its staging runs (support's size set too: a second revision).
    expect(PRODUCTION.map(live)).toEqual([sha, sha])
    const production = PRODUCTION.map(revisions)

    // Again: nothing to deploy, the child pipelines' one job says so.
    const again = await job(repo.dir, '', 'none', more, manual)
    expectGreen(again)
    const none = parseYaml(readFileSync(join(repo.dir, 'staging.yml'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(Object.keys(none).filter(k => k !== 'default')).toEqual(['nothing to deploy to staging'])
    expect(again.log).toContain('no agent needs a deploy to staging')
    expect(again.log).toContain('no agent needs a deploy to production')
    expect([...STAGING, ...PRODUCTION].map(revisions)).toEqual([2, 2, 1, ...production])
  } finally {
    repo.remove()
  }
})
