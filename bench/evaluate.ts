// The evaluation gate on a 50-example LangSmith dataset against the emulator's agent server (each
// run answered `DELAY_MS` late) and its LangSmith API, for `npm run bench` (section `evaluate`):
// the gate's wall time against its limit (the slowest example times the rounds at the
// concurrency), the requests it made to each, and the price of loading the official `langsmith`
// client in a fresh process.
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { demoFixture, startEmulator, type Emulator } from '../emulator/server.ts'
import { makeClock } from '../src/clock.ts'
import { parseEvaluation } from '../src/evaluate/file.ts'
import { evaluateRevision } from '../src/evaluate/gate.ts'
import { langsmithRecorder } from '../src/evaluate/langsmith.ts'
import { agentProbe } from '../src/health/verify/agent-probe.ts'
import { LOOPBACK } from '../src/control-plane/vouched-hosts.ts'
import {
  langsmithCalls,
  langsmithUrl,
  numberedExamples,
  seedDataset
} from '../__tests__/builders/langsmith.ts'
import { table } from './markdown.ts'

/** A deployment with a DEPLOYED revision beside the demo fixture's: its id. */
function seeded(emu: Emulator): string {
  const c = emu.credentials()
  const base = demoFixture()
  const bench = {
    tenant_id: c.tenantId,
    name: 'bench',
    source: 'codehost' as const,
    source_config: {
      integration_id: c.integrationId,
      repo_url: 'https://github.com/acme/agent-server'
    },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: []
  }
  emu.loadFixture({ ...base, deployments: [...(base.deployments ?? []), bench] })
  return emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.name === 'bench')!.id
}

export const EVAL_EXAMPLES = 50
export const DELAY_MS = 200
const CONCURRENCY = [1, 4, 8]
const LOADS = 5

/** The client's load in a fresh process, as a run with a dataset pays it: each of `LOADS`, sorted. */
function importMs(): number[] {
  const script =
    "const t = performance.now(); await import('langsmith/client'); process.stdout.write(String(performance.now() - t))"
  return Array.from({ length: LOADS }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        cwd: resolve(import.meta.dirname, '..')
      })
    )
  ).sort((a, b) => a - b)
}

export interface EvaluateRow {
  concurrency: number
  verdict: string
  rounds: number
  limitMs: number
  wallMs: number
  runs: number
  langsmithRequests: number
}

const file = (concurrency: number) =>
  [
    'dataset: bench',
    `concurrency: ${concurrency}`,
    'evaluators:',
    '  - { key: echoes, type: equals, path: "messages[-1].content", reference: "messages[-1].content" }',
    '  - { key: judge, type: langsmith }',
    'thresholds:',
    '  echoes: { mean: 1 }'
  ].join('\n')

async function once(concurrency: number): Promise<EvaluateRow> {
  const emu = await startEmulator({ port: 0 })
  try {
    const id = seeded(emu)
    emu.agents.scriptApp('*', { runs: { delayMs: DELAY_MS } })
    const judge = { key: 'judge', type: 'score' as const, score: 1 }
    await seedDataset(emu.url, {
      name: 'bench',
      examples: numberedExamples(EVAL_EXAMPLES),
      evaluators: [judge]
    })
    const parsed = await parseEvaluation(file(concurrency), 'bench.yaml', async () => ({
      why: 'none'
    }))
    if (!('evaluation' in parsed)) throw new Error(parsed.problems.join('\n'))
    const clock = makeClock()
    const key = emu.credentials().apiKey
    const recorder = await langsmithRecorder({
      apiUrl: langsmithUrl(emu.url),
      apiKey: key,
      dataset: 'bench'
    })
    const call = agentProbe({ url: `${emu.url}/_agents/${id}`, apiKey: key, vouched: [LOOPBACK] })
    const quiet = {
      info: () => {},
      warning: () => {},
      notice: () => {},
      group: <T>(_: string, fn: () => Promise<T>) => fn()
    }
    const started = performance.now()
    const facts = await evaluateRevision({
      evaluation: parsed.evaluation,
      call,
      assistant: 'agent',
      clock,
      deadline: clock.now() + 10 * 60_000,
      signal: new AbortController().signal,
      intervalMs: 1000,
      mask: t => t,
      log: quiet,
      judging: {
        deploymentId: id,
        deploymentName: 'bench',
        revisionId: '00000000-0000-4000-8000-000000000000'
      },
      recorder
    })
    const wall = performance.now() - started
    const rounds = Math.ceil(EVAL_EXAMPLES / concurrency)
    const limit = rounds * DELAY_MS
    const runs = emu.agents.probes().filter(p => p.path === '/runs/wait').length
    const ls = (await langsmithCalls(emu.url)).calls.length
    return {
      concurrency,
      verdict: facts.verdict,
      rounds,
      limitMs: limit,
      wallMs: wall,
      runs,
      langsmithRequests: ls
    }
  } finally {
    await emu.close()
  }
}

/** The gate at each concurrency (one emulator each), and the client's load. */
export async function evaluateRows(): Promise<{ rows: EvaluateRow[]; loadMs: number[] }> {
  const rows: EvaluateRow[] = []
  for (const c of CONCURRENCY) rows.push(await once(c))
  return { rows, loadMs: importMs() }
}

export function evaluateTable(rows: readonly EvaluateRow[]): string {
  return table(
    [
      'concurrency',
      'verdict',
      'limit (rounds × slowest)',
      'gate wall time',
      'over the limit',
      'runs sent',
      'LangSmith requests'
    ],
    rows.map(r => [
      String(r.concurrency),
      r.verdict,
      `${r.rounds} × ${DELAY_MS} ms = ${r.limitMs} ms`,
      `${Math.round(r.wallMs)} ms`,
      `${(r.wallMs / r.limitMs).toFixed(2)}×`,
      String(r.runs),
      String(r.langsmithRequests)
    ])
  )
}
