// What `command: sweep` and `command: check` cost, in requests: run() from src/ in-process through
// a quiet port against the emulator (and the fake GitHub for pull request states), each request
// counted by the emulator's request log and the fake GitHub's. The goals: a sweep of 1,000
// deployments, 40 of them matching, sends at most the list pages, one read and one delete per
// deleted deployment, and the pull request reads; a check sends at most 4 requests.
import { startEmulator, type Emulator } from '../emulator/server.ts'
import { githubContext } from '../src/runner/context.ts'
import { actionSay } from '../src/interface/naming.ts'
import type { RunPort } from '../src/port.ts'
import { run } from '../src/run.ts'
import { startFakeGitHub, type FakeGitHub } from '../scripts/fake-github.ts'
import { daysAgo, largeWorkspace, previewsFixture } from '../scripts/previews.ts'
import { PUSH_MAIN } from '../scripts/runner-env.ts'
import { table } from './markdown.ts'

export interface UpkeepRow {
  scenario: string
  pages: number
  reads: number
  deletes: number
  pullReads: number
  total: number
  /** The most the goal allows. */
  bound: number
  outcome: string
}

/** A port that keeps nothing but the inputs (and a GitHub context when given). */
export function quietPort(inputs: Record<string, string>, github?: FakeGitHub): RunPort {
  const env = github
    ? {
        GITHUB_API_URL: github.url,
        GITHUB_REPOSITORY: 'acme/agent-server',
        GITHUB_SHA: PUSH_MAIN.sha
      }
    : undefined
  return {
    input: name => inputs[name] ?? '',
    say: actionSay(),
    event: { ref: 'main', expectedSha: PUSH_MAIN.sha!, repository: 'acme/agent-server' },
    mask: () => {},
    info: () => {},
    warning: () => {},
    notice: () => {},
    error: () => {},
    group: (_name, fn) => fn(),
    ...(env ? { github: githubContext(env, {}) } : {}),
    signal: new AbortController().signal
  }
}

async function measure(
  emu: Emulator,
  scenario: string,
  inputs: Record<string, string>,
  bound: (r: Omit<UpkeepRow, 'bound'>) => number,
  github?: FakeGitHub
): Promise<UpkeepRow> {
  emu.clearRequests()
  github?.requests.splice(0)
  const { apiKey } = emu.credentials()
  const result = await run(quietPort({ 'api-key': apiKey, 'base-url': emu.url, ...inputs }, github))
  const log = emu.requests()
  const deletes = log.filter(r => r.method === 'DELETE').length
  const pullReads = github?.requests.filter(r => r.path.includes('/pulls/')).length ?? 0
  const swept = result.outputs.swept ? `${JSON.parse(result.outputs.swept).length} deleted` : ''
  const drift = result.outputs.drift ? `drift ${result.outputs.drift}` : ''
  const row = {
    scenario,
    pages: log.filter(r => r.method === 'GET' && r.path === '/v2/deployments').length,
    reads: log.filter(r => r.method === 'GET' && r.path !== '/v2/deployments').length,
    deletes,
    pullReads,
    total: log.length + pullReads,
    outcome: `exit ${result.exitCode}, ${swept || drift}`
  }
  return { ...row, bound: bound(row) }
}

export async function upkeepRows(): Promise<UpkeepRow[]> {
  const emu = await startEmulator({ port: 0, speed: 50 })
  const github = await startFakeGitHub()
  try {
    const rows: UpkeepRow[] = []
    // The list pages, one read and one delete per deleted deployment, the pull request reads.
    const sweepBound = (r: Omit<UpkeepRow, 'bound'>) => r.pages + 2 * r.deletes + r.pullReads
    emu.loadFixture(largeWorkspace('big', 1000, 40))
    rows.push(
      await measure(
        emu,
        'sweep, 1,000 deployments, 40 older than 7d',
        {
          command: 'sweep',
          'sweep-names': 'big-*pr-{pr}',
          'sweep-max-age': '7d',
          'sweep-closed': 'false'
        },
        sweepBound
      )
    )
    emu.loadFixture(largeWorkspace('big', 1000, 40))
    for (let n = 1; n <= 40; n++) github.setPull(n, n % 2 ? 'closed' : 'open')
    rows.push(
      await measure(
        emu,
        'sweep, 1,000 deployments, 40 previews, 20 of them closed',
        { command: 'sweep', 'sweep-names': 'big-*pr-{pr}', 'github-token': 'ghs_benchToken000' },
        sweepBound,
        github
      )
    )
    rows.push(...(await checkRows(emu)))
    return rows
  } finally {
    await github.close()
    await emu.close()
  }
}

async function checkRows(emu: Emulator): Promise<UpkeepRow[]> {
  emu.loadFixture(previewsFixture([{ name: 'prod-agent', updatedAt: daysAgo(1) }]))
  const { integrationId } = emu.credentials()
  const inputs = { command: 'check', name: 'prod-agent', 'integration-id': integrationId! }
  const four = () => 4
  const rows = [await measure(emu, 'check, in sync', inputs, four)]
  rows.push(await measure(emu, 'check, a planned change', { ...inputs, ref: 'release' }, four))
  const id = emu.state().tenants[0]!.deployments.find(d => d.name === 'prod-agent')!.id
  emu.outOfBand(id, { redeploy: {} })
  rows.push(await measure(emu, 'check, a newer revision in progress', inputs, four))
  rows.push(await measure(emu, 'check, no such deployment', { ...inputs, name: 'nowhere' }, four))
  return rows
}

export function upkeepTable(rows: UpkeepRow[]): string {
  return table(
    [
      'scenario',
      'list pages',
      'reads',
      'deletes',
      'PR reads',
      'requests',
      'at most',
      'goal',
      'outcome'
    ],
    rows.map(r => [
      r.scenario,
      r.pages,
      r.reads,
      r.deletes,
      r.pullReads,
      r.total,
      r.bound,
      r.total <= r.bound ? 'met' : 'missed',
      r.outcome
    ])
  )
}
