// The checks of the new revision against the real JS agent server (@langchain/langgraph-api, in
// memory, a graph with no model), and the emulator's agent server held to its answers where a
// hosted server answers alike. Run on its own: `npm run test:agent-server` (.ci/run runs it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { agentProbe } from '../../src/health/verify/agent-probe.ts'
import type { AgentCall } from '../../src/health/verify/agent-call.ts'
import { readGraphIds } from '../../src/health/verify/graph-config.ts'
import { checkGraphs } from '../../src/health/verify/graphs.ts'
import { runSmokeCases } from '../../src/health/verify/smoke.ts'
import type { SmokeCase } from '../../src/inputs/smoke-cases.ts'
import { agentOf, servedRevision, startAgents, testClock } from '../builders/agents.ts'
import { makeClock } from '../../src/clock.ts'
import { parseEvaluation } from '../../src/evaluate/file.ts'
import { evaluateRevision } from '../../src/evaluate/gate.ts'
import { FIXTURE, startRealServer, type RealServer } from './server.ts'

let server: RealServer
let real: AgentCall
let emu: Emulator
const signal = new AbortController().signal

beforeAll(async () => {
  server = await startRealServer()
  // The JS server has no auth of its own: the key is not needed (nor sent).
  real = agentProbe({ url: server.url, apiKey: '', vouched: [] })
  emu = await startAgents(testClock())
}, 120_000)
afterAll(async () => {
  await server?.stop()
  await emu?.close()
})

const get = (path: string, method = 'GET') =>
  fetch(`${server.url}${path}`, { method }).then(async r => ({
    status: r.status,
    type: r.headers.get('content-type') ?? '',
    body: await r.text()
  }))

describe('the real agent server’s answers', () => {
  it('/ok, HEAD /ok, /info without a host block, plain-text 404s', async () => {
    expect(await get('/ok')).toMatchObject({ status: 200, body: '{"ok":true}' })
    expect(await get('/ok', 'HEAD')).toMatchObject({ status: 200, body: '' })
    const info = JSON.parse((await get('/info')).body)
    expect(info).toMatchObject({ version: expect.any(String), flags: expect.any(Object) })
    expect(info).not.toHaveProperty('host')
    for (const [path, method] of [
      ['/nope', 'GET'],
      ['/ok', 'POST']
    ] as const) {
      const r = await get(path, method)
      expect(r).toMatchObject({ status: 404, body: '404 Not Found' })
      expect(r.type).toMatch(/^text\/plain/)
    }
  })

  it('the emulator answers alike: /ok, HEAD, 404s; the same keys in an assistant; the same error body', async () => {
    const emuAgent = agentOf(emu)
    /** The search for `graph`'s assistants (one at most) through `call`, as JSON. */
    const search = async (call: typeof real, graph: string) =>
      JSON.parse(
        (
          await call({
            method: 'POST',
            path: '/assistants/search',
            body: { graph_id: graph, limit: 1 },
            signal
          })
        ).body
      )
    const emuSearch = await search(emuAgent, 'agent')
    const realSearch = await search(real, 'echo')
    expect(Object.keys(emuSearch[0]).sort()).toEqual(Object.keys(realSearch[0]).sort())
    const run = (graph: string, text: string) => ({
      method: 'POST' as const,
      path: '/runs/wait',
      body: { assistant_id: graph, input: { text }, on_completion: 'delete' },
      signal
    })
    const realError = JSON.parse((await real(run('echo', 'fail'))).body)
    expect(Object.keys(realError)).toEqual(['__error__'])
    expect(Object.keys(realError.__error__).sort()).toEqual(['error', 'message'])
    const realUnknown = await real(run('nope', 'x'))
    const emuUnknown = await emuAgent(run('nope', 'x'))
    expect([realUnknown.status, emuUnknown.status]).toEqual([404, 404])
    expect(emuUnknown.body).toBe(realUnknown.body)
    const emuNotFound = await fetch(`${emu.url}/_agents/44444444-4444-4444-8444-444444444444/nope`)
    expect(await emuNotFound.text()).toBe((await get('/nope')).body)
  })
})

describe('the checks against the real agent server', () => {
  it('served revision: unknown (no host block), after one probe', async () => {
    const clock = testClock()
    const result = await servedRevision(
      { url: server.url, apiKey: '', vouched: [] },
      {
        clock,
        signal,
        revisionId: '5d7c0a5e-0000-4000-8000-000000000001',
        deploymentId: '5d7c0a5e-0000-4000-8000-000000000002',
        deadline: clock.now() + 60_000,
        windowMs: 10_000,
        intervalMs: 1_000
      }
    )
    expect(result).toMatchObject({ verdict: 'unknown', probes: 1 })
  })

  it('graphs: every graph of the config in the workspace has its assistant; one it lacks is named', async () => {
    const ids = await readGraphIds(join(FIXTURE, 'langgraph.json'), 'langgraph.json')
    expect(ids).toEqual({ graphs: ['echo'] })
    const graphs = 'graphs' in ids ? ids.graphs : []
    expect(await checkGraphs({ call: real, graphs, signal })).toMatchObject({ verdict: 'passed' })
    const missing = await checkGraphs({ call: real, graphs: [...graphs, 'planner'], signal })
    expect(missing.verdict).toBe('failed')
    expect(missing.reason).toMatch(/graph "planner"/)
  })

  const aCase = (over: Partial<SmokeCase>): SmokeCase => ({
    name: 'echo',
    graph: 'echo',
    input: { text: 'hi' },
    expect: {},
    timeoutMs: 60_000,
    ...over
  })

  it('smoke: passing, failing and expected-error cases', async () => {
    const clock = testClock()
    clock.mode = 'manual'
    const result = await runSmokeCases({
      call: real,
      clock,
      signal,
      mask: t => t.replaceAll('hi', '**'),
      cases: [
        aCase({ expect: { contains: 'echo', path: 'reply', equals: 'echo: hi' } }),
        aCase({ name: 'wrong', expect: { path: 'reply', equals: 'bye' } }),
        aCase({ name: 'raises', input: { text: 'fail' } }),
        aCase({
          name: 'raises as expected',
          input: { text: 'fail' },
          expect: { status: 'error', contains: 'asked to fail' }
        })
      ]
    })
    expect(result.cases.map(c => [c.name, c.verdict])).toEqual([
      ['echo', 'passed'],
      ['wrong', 'failed'],
      ['raises', 'failed'],
      ['raises as expected', 'passed']
    ])
    expect(result.verdict).toBe('failed')
    expect(result.cases[0]!.excerpt).toBe('{"text":"**","reply":"echo: **"}')
  })

  it('smoke: a slow case times out at its timeout (on the clock)', async () => {
    const clock = testClock()
    clock.mode = 'manual'
    const running = runSmokeCases({
      call: real,
      clock,
      signal,
      mask: t => t,
      cases: [aCase({ name: 'slow', input: { text: 'slow' }, timeoutMs: 5_000 })]
    })
    while (clock.pending() === 0) await new Promise(r => setTimeout(r, 10))
    clock.advance(5_000)
    expect(await running).toMatchObject({
      verdict: 'failed',
      cases: [{ name: 'slow', verdict: 'timeout', elapsedMs: 5_000 }]
    })
  })
})

describe('the evaluation gate against the real agent server', () => {
  it('local examples: each run on the graph, scored by path and reference; one that raises is an error within max-errors', async () => {
    const file = [
      'examples: cases.jsonl',
      'assistant: echo',
      'max-errors: 1',
      'concurrency: 2',
      'evaluators:',
      '  - { key: replies, type: equals, path: reply, reference: reply }',
      '  - { key: echoes, type: matches, path: reply, value: "^echo: " }',
      'thresholds:',
      '  replies: { pass-rate: 0.5 }'
    ].join('\n')
    const lines = [
      { id: 'hi', inputs: { text: 'hi' }, outputs: { reply: 'echo: hi' } },
      { id: 'bye', inputs: { text: 'bye' }, outputs: { reply: 'echo: ciao' } },
      { id: 'raises', inputs: { text: 'fail' }, outputs: { reply: '' } }
    ]
    const parsed = await parseEvaluation(file, 'evaluate.yaml', async () => ({
      text: lines.map(l => JSON.stringify(l)).join('\n')
    }))
    if (!('evaluation' in parsed)) throw new Error(parsed.problems.join('\n'))
    const said: string[] = []
    const log = {
      info: (l: string) => void said.push(l),
      warning: (l: string) => void said.push(l),
      notice: (l: string) => void said.push(l),
      group: <T>(_: string, fn: () => Promise<T>) => fn()
    }
    const clock = makeClock()
    const facts = await evaluateRevision({
      evaluation: parsed.evaluation,
      call: real,
      assistant: 'echo',
      clock,
      deadline: clock.now() + 60_000,
      signal,
      intervalMs: 1_000,
      mask: t => t,
      log,
      judging: { deploymentId: 'd', deploymentName: 'real', revisionId: 'r' }
    })
    expect(facts).toMatchObject({ verdict: 'passed', examples: 3, errors: 1 })
    expect(facts.scores.replies).toMatchObject({ mean: 0.5, pass_rate: 0.5, n: 2 })
    expect(facts.scores.echoes).toMatchObject({ mean: 1, n: 2 })
    expect(said.join('\n')).toMatch(/\(raises\): error: the run raised: .*asked to fail/)
  })
})
