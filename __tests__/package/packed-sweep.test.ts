// `sweep` and `check` from the packed CLI, run as a GitLab job runs it, against the emulator and a
// fake GitLab API (merge requests read with CONTROL_PLANE_GITLAB_TOKEN): each criterion, names
// that almost match, a preview redeployed between the listing and its delete, a merge request read
// that fails; the check's exit codes (0 in sync, 3 drift, 2 bad input, 1 any other error) and
// secrets never shown by value. (A dry run and 1,000 deployments over many pages are the sweep's
// own, whatever the door: e2e/sweep.test.ts.)
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Emulator } from '../../emulator/server.ts'
import { daysAgo, previewsFixture, type PreviewSpec } from '../../scripts/previews.ts'
import { PUSH_MAIN } from '../../scripts/runner-env.ts'
import { packedCli } from './packed-cli.ts'
import { outputsOf, runBin, scheduledGitlabJob, type CliRun } from './run-bin.ts'

const GITLAB_TOKEN = 'glpat-sweepTokenValue-0123456789'
const SECRET = 'sk-live-packed-check-0123456789'

/** A fake GitLab API: merge request states by iid (404 for others), a hook before an answer. */
interface FakeGitLab {
  url: string
  mrs: Map<number, { state: string } | { status: number }>
  onRead: Map<number, () => void>
  seen: { path: string; headers: IncomingHttpHeaders }[]
  server: Server
}

async function startFakeGitLab(): Promise<FakeGitLab> {
  const fake = { mrs: new Map(), onRead: new Map(), seen: [] } as unknown as FakeGitLab
  fake.server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    fake.seen.push({ path, headers: req.headers })
    const m = /^\/api\/v4\/projects\/42\/merge_requests\/(\d+)$/.exec(path)
    const mr = m ? fake.mrs.get(Number(m[1])) : undefined
    if (m) fake.onRead.get(Number(m[1]))?.()
    const status =
      !mr || req.headers['private-token'] !== GITLAB_TOKEN ? 404 : 'status' in mr ? mr.status : 200
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify(
        status === 200
          ? { iid: Number(m![1]), project_id: 42, ...mr }
          : { message: `${status} error` }
      )
    )
  })
  await new Promise<void>(r => fake.server.listen(0, '127.0.0.1', r))
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/api/v4`
  return fake
}

const packed = packedCli('cpd-cli-sweep-')
let emulator: Emulator
let gitlab: FakeGitLab

beforeAll(async () => {
  emulator = await packed.emulator()
  gitlab = await startFakeGitLab()
}, 240_000)

afterAll(async () => {
  gitlab?.server.closeAllConnections()
  await new Promise(r => gitlab?.server.close(r))
})

/** A scheduled GitLab pipeline on main, with the emulator's key and the GitLab token. */
function gitlabJob(over: Record<string, string> = {}): Record<string, string> {
  return scheduledGitlabJob(emulator, {
    CI_API_V4_URL: gitlab.url,
    CONTROL_PLANE_GITLAB_TOKEN: GITLAB_TOKEN,
    ...over
  })
}

function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runBin(packed.cliJs, args, { cwd: packed.dir, home: packed.dir, env })
}

/** The deployments of `specs`, each built from main at the pushed commit. */
function load(specs: PreviewSpec[]): void {
  const fixture = previewsFixture(specs)
  const main = `${fixture.integrations![0]!.repositories![0]!.url}@main`
  emulator.loadFixture({ ...fixture, repo_commits: { [main]: PUSH_MAIN.sha! } })
  emulator.clearRequests()
}
const idOf = (name: string) =>
  emulator.state().tenants[0]!.deployments.find(d => d.name === name)!.id
const names = () =>
  emulator
    .state()
    .tenants.flatMap(t => t.deployments)
    .filter(d => d.status !== 'AWAITING_DELETE')
    .map(d => d.name)
const deletes = () => emulator.requests().filter(r => r.method === 'DELETE')
const sweptOf = (run: CliRun) => JSON.parse(outputsOf(run.stdout).swept ?? 'null') as string[]

test('sweep on GitLab: merged and closed merge requests go; open, absent, unreadable, changed and look-alikes stay', async () => {
  load(['mr-1', 'mr-2', 'mr-3', 'mr-4', 'mr-5', 'mr-6', 'mr-1-x', 'x-mr-1'].map(name => ({ name })))
  gitlab.mrs.clear()
  gitlab.mrs.set(1, { state: 'merged' })
  gitlab.mrs.set(2, { state: 'opened' })
  gitlab.mrs.set(3, { state: 'closed' })
  gitlab.mrs.set(5, { status: 500 })
  gitlab.mrs.set(6, { state: 'closed' })
  // mr-3 is redeployed from the web app after the listing, before its delete.
  gitlab.onRead.set(3, () => void emulator.outOfBand(idOf('mr-3'), { redeploy: {} }))
  const run = await cli(['sweep', '--sweep-names', 'mr-{pr}'], gitlabJob())
  gitlab.onRead.clear()
  expect(run.code).toBe(0)
  expect(sweptOf(run)).toEqual(['mr-1', 'mr-6'])
  expect(names()).toEqual(
    expect.arrayContaining(['mr-2', 'mr-3', 'mr-4', 'mr-5', 'mr-1-x', 'x-mr-1'])
  )
  expect(deletes()).toHaveLength(2)
  expect(run.stderr).toContain('Read 6 pull request states from GitLab project 42')
  expect(run.stderr).toMatch(/warning: .*Pull request !5: GitLab answered 500/)
  expect(run.stderr).toMatch(/warning: .*Held back "mr-3": it changed since the listing/)
  // The token went to GitLab in its header, and nowhere else.
  expect(gitlab.seen.every(s => s.headers['private-token'] === GITLAB_TOKEN)).toBe(true)
  expect(run.stdout + run.stderr).not.toContain(GITLAB_TOKEN)
})

test('sweep on GitLab without CONTROL_PLANE_GITLAB_TOKEN: the closed criterion is skipped with a notice; age and count still apply', async () => {
  load([
    { name: 'mr-1', updatedAt: daysAgo(20) },
    { name: 'mr-2', updatedAt: daysAgo(2) },
    { name: 'mr-3', updatedAt: daysAgo(3) },
    { name: 'mr-4' }
  ])
  const { CONTROL_PLANE_GITLAB_TOKEN: _none, ...job } = gitlabJob()
  const run = await cli(
    ['sweep', '--sweep-names=mr-{pr}', '--sweep-max-age=7d', '--sweep-max-count=2'],
    job
  )
  expect(run.code).toBe(0)
  expect(run.stderr).toMatch(/notice: .*CONTROL_PLANE_GITLAB_TOKEN is not set/)
  expect(sweptOf(run)).toEqual(['mr-1', 'mr-3'])
  expect(names()).toEqual(expect.arrayContaining(['mr-2', 'mr-4']))
})

test('check: exit 0 in sync, 3 on drift (secrets by name only), 0 with --no-fail-on-drift', async () => {
  load([{ name: 'prod-agent', secrets: { OPENAI_API_KEY: SECRET } }])
  const args = ['check', '--name=prod-agent', '--repository=acme/agent-server']
  const inSync = await cli(args, gitlabJob({ CONTROL_PLANE_SECRETS: `OPENAI_API_KEY=${SECRET}` }))
  expect([inSync.code, outputsOf(inSync.stdout).drift]).toEqual([0, 'false'])
  expect(emulator.requests().filter(r => r.method !== 'GET')).toEqual([])
  const changed = `${SECRET}-rotated`
  const drift = await cli(args, gitlabJob({ CONTROL_PLANE_SECRETS: `OPENAI_API_KEY=${changed}` }))
  expect([drift.code, outputsOf(drift.stdout).drift]).toEqual([3, 'true'])
  expect(drift.stderr).toContain('secrets.OPENAI_API_KEY: *** -> ***')
  expect(drift.stderr).toMatch(
    /error: Drift: "prod-agent" differs from these inputs: a deploy would change one setting/
  )
  for (const r of [inSync, drift]) expect(r.stdout + r.stderr).not.toContain(SECRET)
  const reported = await cli(
    [...args, '--no-fail-on-drift'],
    gitlabJob({ CONTROL_PLANE_SECRETS: `OPENAI_API_KEY=${changed}` })
  )
  expect([reported.code, outputsOf(reported.stdout).drift]).toEqual([0, 'true'])
  // The commit the active revision built against the one the pipeline's ref names now.
  const moved = await cli(args, gitlabJob({ CI_COMMIT_SHA: '2'.repeat(40) }))
  expect(moved.code).toBe(3)
  expect(moved.stderr).toContain(
    `built commit ${PUSH_MAIN.sha}, but main names ${'2'.repeat(40)} now`
  )
  expect(emulator.requests().filter(r => r.method !== 'GET')).toEqual([])
})

test('check: exit 2 on bad input (nothing sent), 1 on any other error', async () => {
  load([{ name: 'prod-agent' }])
  const bad = await cli(['check', '--sweep-names=x-*'], gitlabJob())
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('`--name` is required')
  expect(bad.stderr).toMatch(
    /`--sweep-names` applies only to command `sweep`, not to `control-plane-deploy check`/
  )
  expect(emulator.requests()).toEqual([])
  const other = await cli(
    [
      'check',
      '--name=prod-agent',
      '--source=internal_docker',
      '--image-uri=registry.example.com/agent:1'
    ],
    gitlabJob()
  )
  expect(other.code).toBe(1)
  expect(other.stderr).toContain('has source codehost, but `--source` is internal_docker')
  expect(outputsOf(other.stdout).drift).toBe('')
})
