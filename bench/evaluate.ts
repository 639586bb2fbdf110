// `node bench/evaluate.ts`: the evaluation gate on a 50-example LangSmith dataset against the
// emulator's agent server (each run answered `delayMs` late) and its LangSmith API: the gate's
// wall time against its limit (the slowest example times the rounds at the concurrency), the
// requests it made to each, and the price of loading the official `langsmith` client. Printed as a
// markdown table; the figures go to RESULTS.md's "Recorded once" by hand.
import { execFileSync } from 'node:child_process'
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

const EXAMPLES = 50
const DELAY_MS = 200
const CONCURRENCY = [1, 4, 8]

/** The client's load in a fresh process, as a run pays it (median of 5). */
function importMs(): number {
  const script =
    "const t = performance.now(); await import('langsmith/client'); process.stdout.write(String(performance.now() - t))"
  const times = Array.from({ length: 5 }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    )
  ).sort((a, b) => a - b)
  return times[2]!
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

async function once(concurrency: number): Promise<string[]> {
  const emu = await startEmulator({ port: 0 })
  try {
    const id = seeded(emu)
    emu.agents.scriptApp('*', { runs: { delayMs: DELAY_MS } })
    const judge = { key: 'judge', type: 'score' as const, score: 1 }
    await seedDataset(emu.url, {
      name: 'bench',
      examples: numberedExamples(EXAMPLES),
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
    const rounds = Math.ceil(EXAMPLES / concurrency)
    const limit = rounds * DELAY_MS
    const runs = emu.agents.probes().filter(p => p.path === '/runs/wait').length
    const ls = (await langsmithCalls(emu.url)).calls.length
    return [
      String(concurrency),
      facts.verdict,
      `${rounds} × ${DELAY_MS} ms = ${limit} ms`,
      `${Math.round(wall)} ms`,
      `${(wall / limit).toFixed(2)}×`,
      String(runs),
      String(ls)
    ]
  } finally {
    await emu.close()
  }
}

const rows: string[][] = []
for (const c of CONCURRENCY) rows.push(await once(c))
process.stdout.write(
  table(
    [
      'concurrency',
      'verdict',
      'limit (rounds × slowest)',
      'gate wall time',
      'over the limit',
      'runs sent',
      'LangSmith requests'
    ],
    rows
  ) +
    `\nLoading the official client (\`langsmith/client\`, once per run with a dataset): ${Math.round(importMs())} ms.\n`
)
