// What `command: plan` costs over a monorepo of 50 agents, against the emulator: one change to a
// library ten of them share, planned (requests counted by the emulator's request log, the time on
// the wall), then the deploys it plans, beside what a hand-written paths filter costs, which
// starts a deploy of every agent for any change under the agents' folders. Deploys are measured
// on a few and counted per deploy: each is the same lookup, update and wait.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { startEmulator, type Emulator } from '../emulator/server.ts'
import { commitFixtureRepo, git } from '../scripts/fixture-repo.ts'
import { deployedAt } from '../scripts/monorepo.ts'
import { run } from '../src/run.ts'
import { table } from './markdown.ts'
import { quietPort } from './upkeep.ts'

const AGENTS = 50
/** Every fifth agent depends on the shared library. */
const SHARED_EVERY = 5

export interface PlanBenchRow {
  scenario: string
  deploys: number
  requests: number
  seconds: number
}

function write(dir: string, path: string, text: string) {
  mkdirSync(dirname(join(dir, path)), { recursive: true })
  writeFileSync(join(dir, path), text)
}

/** The monorepo: 50 agents, a shared library, the manifest; committed once. Its first commit. */
function monorepo(dir: string): string {
  write(dir, 'libs/shared/shared/__init__.py', 'TONE = "plain"\n')
  const manifest = ['agents:']
  for (let i = 0; i < AGENTS; i++) {
    const deps = i % SHARED_EVERY === 0 ? '[".", "../../libs/shared"]' : '["."]'
    write(
      dir,
      `agents/a${i}/langgraph.json`,
      `{"dependencies": ${deps}, "graphs": {"a${i}": "./a${i}/graph.py:graph"}}\n`
    )
    write(dir, `agents/a${i}/a${i}/graph.py`, 'graph = None\n')
    manifest.push(
      `  a${i}:`,
      `    config: agents/a${i}/langgraph.json`,
      '    environments:',
      `      staging: { name: a${i}-staging }`
    )
  }
  write(dir, 'agents.yaml', manifest.join('\n') + '\n')
  return commitFixtureRepo(dir, 'first')
}

async function timed(emu: Emulator, inputs: Record<string, string>, workspace?: string) {
  emu.clearRequests()
  const { apiKey } = emu.credentials()
  const port = quietPort({ 'api-key': apiKey, 'base-url': emu.url, ...inputs })
  if (workspace) port.event = { ...port.event, workspace }
  const started = performance.now()
  const result = await run(port)
  return { result, requests: emu.requests().length, seconds: (performance.now() - started) / 1000 }
}

export async function planRows(): Promise<PlanBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-bench-plan-'))
  const emu = await startEmulator({ port: 0, speed: 200 })
  try {
    const first = monorepo(dir)
    deployedAt(
      emu,
      Object.fromEntries(Array.from({ length: AGENTS }, (_, i) => [`a${i}-staging`, first]))
    )
    write(dir, 'libs/shared/shared/__init__.py', 'TONE = "warm"\n')
    git(dir, 'commit', '-q', '-am', 'the shared library')
    const plan = await timed(
      emu,
      { command: 'plan', manifest: 'agents.yaml', environment: 'staging' },
      dir
    )
    const planned = (JSON.parse(plan.result.outputs.agents ?? '[]') as string[]).length
    // A few plain deploys, each of its own agent: what one deploy costs.
    const samples = []
    for (const i of [1, 2, 3]) {
      const { integrationId } = emu.credentials()
      samples.push(
        await timed(emu, {
          name: `a${i}-staging`,
          'integration-id': integrationId!,
          ref: 'main',
          'graph-config-path': `agents/a${i}/langgraph.json`
        })
      )
    }
    const perDeploy = {
      requests: samples.reduce((n, s) => n + s.requests, 0) / samples.length,
      seconds: samples.reduce((n, s) => n + s.seconds, 0) / samples.length
    }
    const deploys = (n: number) => ({
      requests: Math.round(n * perDeploy.requests),
      seconds: n * perDeploy.seconds
    })
    return [
      {
        scenario: `plan over ${AGENTS} agents (a change to a library ${planned} share)`,
        deploys: 0,
        requests: plan.requests,
        seconds: plan.seconds
      },
      {
        scenario: `plan, then the ${planned} deploys it plans`,
        deploys: planned,
        requests: plan.requests + deploys(planned).requests,
        seconds: plan.seconds + deploys(planned).seconds
      },
      {
        scenario: `a paths filter (\`agents/**\`, \`libs/**\`), then ${AGENTS} plain deploys`,
        deploys: AGENTS,
        ...deploys(AGENTS)
      }
    ]
  } finally {
    await emu.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

export function planTable(rows: PlanBenchRow[]): string {
  return table(
    ['scenario', 'deploys (new revisions)', 'requests', 'time'],
    rows.map(r => [r.scenario, r.deploys, r.requests, `${r.seconds.toFixed(1)} s`])
  )
}
