// The emulator's LangSmith surface, through the official `langsmith` client, for every call an
// evaluation gate makes: datasets and examples read, an experiment created and found again by its
// metadata, runs with their reference examples (one by one, in a batch, multipart), feedback
// written and listed, the dataset's evaluator rules writing feedback on the virtual clock (a late
// one none), the key checked, an unknown dataset 404.
import { describe, expect, it, jest } from '@jest/globals'
import { randomUUID } from 'node:crypto'
import { evaluate } from 'langsmith/evaluation'
import * as fx from '../../builders/emulator.ts'
import {
  exampleId,
  langsmithCalls,
  langsmithClient,
  langsmithFaults,
  langsmithUrl,
  numberedExamples,
  resetLangsmith,
  seedDataset
} from '../../builders/langsmith.ts'

const { emu, clock } = fx.emulatorPerTest({}, { manualClock: true })

const client = () => langsmithClient(emu.url, fx.CLOUD_KEY)

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/** An experiment of `datasetId` with `metadata`, named `name`. */
const experiment = (datasetId: string, name: string, metadata: Record<string, unknown>) =>
  client().createProject({ projectName: name, referenceDatasetId: datasetId, metadata })

/** One root run of example `i` in experiment `projectId`, answered `answer`, ended now. */
async function runExample(projectId: string, i: number, answer: string, error?: string) {
  const id = randomUUID()
  const c = client()
  const start = clock.now()
  await c.createRun({
    id,
    name: 'agent',
    run_type: 'chain',
    inputs: { messages: [{ role: 'user', content: `question ${i}` }] },
    session_id: projectId,
    reference_example_id: exampleId(i),
    start_time: start
  } as never)
  await c.updateRun(id, {
    outputs: { messages: [{ role: 'assistant', content: answer }] },
    ...(error === undefined ? {} : { error }),
    end_time: start + 10
  })
  return id
}

describe('datasets and examples', () => {
  it('reads a dataset by name and by id, and lists its examples, page by page', async () => {
    const seeded = await seedDataset(emu.url, { name: 'support', examples: numberedExamples(120) })
    const byName = await client().readDataset({ datasetName: 'support' })
    expect(byName).toMatchObject({ id: seeded.id, name: 'support', example_count: 120 })
    expect((await client().readDataset({ datasetId: seeded.id })).name).toBe('support')
    const examples = await collect(client().listExamples({ datasetId: seeded.id }))
    expect(examples.map(e => e.id)).toEqual(seeded.example_ids)
    expect(examples[7]).toMatchObject({
      id: exampleId(7),
      dataset_id: seeded.id,
      inputs: { messages: [{ role: 'user', content: 'question 7' }] },
      outputs: { messages: [{ role: 'user', content: 'question 7' }] }
    })
    // 120 examples at 100 a page: two pages.
    const pages = (await langsmithCalls(emu.url)).calls.filter(c => c.path === '/examples')
    expect(pages.map(c => [c.query.offset, c.status])).toEqual([
      ['0', 200],
      ['100', 200]
    ])
  })

  it('an unknown dataset: 404 by id, not found by name', async () => {
    await expect(client().readDataset({ datasetId: randomUUID() })).rejects.toMatchObject({
      status: 404
    })
    await expect(client().readDataset({ datasetName: 'nowhere' })).rejects.toThrow(/not found/)
  })

  it('every call but /info needs a key of the fixture: 401 without one, or with another', async () => {
    await seedDataset(emu.url, { name: 'support' })
    for (const key of [null, 'not-a-key']) {
      const res = await fetch(`${langsmithUrl(emu.url)}/datasets?name=support`, {
        headers: key === null ? {} : { 'x-api-key': key }
      })
      expect(res.status).toBe(401)
    }
    const stranger = langsmithClient(emu.url, 'not-a-key')
    await expect(stranger.readDataset({ datasetName: 'support' })).rejects.toMatchObject({
      status: 401
    })
    expect((await fetch(`${langsmithUrl(emu.url)}/info`)).status).toBe(200)
  })

  it("a tenant's datasets are its own; /api/v1 paths answer the same", async () => {
    await seedDataset(emu.url, { name: 'theirs', tenantId: fx.OTHER })
    await expect(client().readDataset({ datasetName: 'theirs' })).rejects.toThrow(/not found/)
    const other = langsmithClient(emu.url, fx.OTHER_KEY)
    expect((await other.readDataset({ datasetName: 'theirs' })).tenant_id).toBe(fx.OTHER)
    const res = await fetch(`${langsmithUrl(emu.url)}/api/v1/datasets?name=theirs`, {
      headers: { 'x-api-key': fx.OTHER_KEY }
    })
    expect(((await res.json()) as { name: string }[]).map(d => d.name)).toEqual(['theirs'])
  })

  it('a fault answers the matching requests its status (after `skip`, `times` over), then the API answers', async () => {
    await seedDataset(emu.url, { name: 'support' })
    await langsmithFaults(emu.url, [
      { method: 'GET', path: '/datasets', status: 503, retryAfter: 2, skip: 1, times: 2 }
    ])
    const get = () =>
      fetch(`${langsmithUrl(emu.url)}/api/v1/datasets?name=support`, {
        headers: { 'x-api-key': fx.CLOUD_KEY }
      })
    const answers = []
    for (let i = 0; i < 4; i++) {
      const res = await get()
      answers.push([res.status, res.headers.get('retry-after')])
    }
    expect(answers).toEqual([
      [200, null],
      [503, '2'],
      [503, '2'],
      [200, null]
    ])
    expect((await langsmithCalls(emu.url)).faults).toEqual([])
  })

  it('bad seeds are refused with what is wrong; DELETE forgets everything', async () => {
    const res = await fetch(`${emu.url}/_emulator/langsmith`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        datasets: [{ name: 'd', evaluators: [{ key: 'k', type: 'equals' }] }]
      })
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { detail: string }).detail).toMatch(/`value` or `reference`/)
    await seedDataset(emu.url, { name: 'support', examples: numberedExamples(1) })
    await resetLangsmith(emu.url)
    expect(await langsmithCalls(emu.url)).toMatchObject({ datasets: [], calls: [] })
  })
})

describe('experiments', () => {
  it('creates an experiment with metadata and finds it again by dataset and metadata', async () => {
    const d = await seedDataset(emu.url, { name: 'support', examples: numberedExamples(2) })
    const first = await experiment(d.id, 'live r1', { revision_id: 'r1', verdict: 'passed' })
    clock.advance(1000)
    await experiment(d.id, 'live r2', { revision_id: 'r2', verdict: 'failed' })
    clock.advance(1000)
    const third = await experiment(d.id, 'live r3', { revision_id: 'r3', verdict: 'passed' })
    expect(first).toMatchObject({ reference_dataset_id: d.id, tenant_id: fx.CLOUD })
    const passed = await collect(
      client().listProjects({ referenceDatasetId: d.id, metadata: { verdict: 'passed' } })
    )
    // The newest first.
    expect(passed.map(p => p.name)).toEqual(['live r3', 'live r1'])
    expect(passed[0]!.extra).toEqual({ metadata: { revision_id: 'r3', verdict: 'passed' } })
    expect((await client().readProject({ projectId: first.id })).name).toBe('live r1')
    // The same name twice: 409, as the service answers.
    await expect(experiment(d.id, 'live r1', {})).rejects.toMatchObject({ status: 409 })
    await client().updateProject(third.id, { metadata: { revision_id: 'r3', verdict: 'failed' } })
    const still = await collect(
      client().listProjects({ referenceDatasetId: d.id, metadata: { verdict: 'passed' } })
    )
    expect(still.map(p => p.name)).toEqual(['live r1'])
  })

  it('the web page of an experiment names the tenant the client reads from /sessions', async () => {
    const d = await seedDataset(emu.url, { name: 'support' })
    const p = await experiment(d.id, 'live r1', {})
    const url = await client().getProjectUrl({ projectId: p.id })
    expect(url).toBe(`http://localhost:3000/o/${fx.CLOUD}/projects/p/${p.id}`)
    const recorded = await langsmithCalls(emu.url)
    expect(recorded.experiments).toMatchObject([{ id: p.id, reference_dataset_id: d.id }])
  })

  it('an experiment of an unknown dataset: 404', async () => {
    await expect(experiment(randomUUID(), 'lost', {})).rejects.toMatchObject({ status: 404 })
  })
})

describe('runs and feedback', () => {
  it('records runs with their reference examples, and lists them by experiment', async () => {
    const d = await seedDataset(emu.url, { name: 'support', examples: numberedExamples(2) })
    const p = await experiment(d.id, 'live r1', { revision_id: 'r1' })
    const run0 = await runExample(p.id, 0, 'question 0')
    const run1 = await runExample(p.id, 1, '', 'timeout')
    const runs = await collect(client().listRuns({ projectId: p.id, isRoot: true }))
    expect(runs.map(r => [r.id, r.reference_example_id, r.error ?? null])).toEqual([
      [run0, exampleId(0), null],
      [run1, exampleId(1), 'timeout']
    ])
    const recorded = await langsmithCalls(emu.url)
    expect(recorded.experiments[0]).toMatchObject({
      metadata: { revision_id: 'r1' },
      runs: [run0, run1]
    })
    expect(recorded.runs[0]).toMatchObject({
      session_id: p.id,
      outputs: { messages: [{ role: 'assistant', content: 'question 0' }] },
      status: 'success'
    })
  })

  it('creates feedback and lists it by run and key', async () => {
    const d = await seedDataset(emu.url, { name: 'support', examples: numberedExamples(2) })
    const p = await experiment(d.id, 'live r1', {})
    const [a, b] = [await runExample(p.id, 0, 'x'), await runExample(p.id, 1, 'y')]
    const c = client()
    await c.createFeedback(a, 'cites_source', { score: 1, sessionId: p.id })
    await c.createFeedback(b, 'cites_source', { score: 0, sessionId: p.id })
    await c.createFeedback(b, 'latency', { score: 0.5, sessionId: p.id })
    const cites = await collect(c.listFeedback({ runIds: [a, b], feedbackKeys: ['cites_source'] }))
    expect(cites.map(f => [f.run_id, f.score, f.feedback_source?.type])).toEqual([
      [a, 1, 'api'],
      [b, 0, 'api']
    ])
    expect(await collect(c.listFeedback({ runIds: [b] }))).toHaveLength(2)
  })

  it("the dataset's evaluator rules score each run as it ends; a late one's feedback comes later, a never one's never", async () => {
    const d = await seedDataset(emu.url, {
      name: 'support',
      examples: numberedExamples(2),
      evaluators: [
        {
          key: 'correctness',
          type: 'equals',
          path: 'messages[-1].content',
          reference: 'messages[-1].content'
        },
        {
          key: 'tone',
          type: 'contains',
          path: 'messages[-1].content',
          value: 'question',
          delayMs: 60_000
        },
        { key: 'judge', type: 'score', score: 0.7, byExample: { '1': 0.2 }, delayMs: 'never' }
      ]
    })
    const p = await experiment(d.id, 'live r1', {})
    const good = await runExample(p.id, 0, 'question 0')
    const bad = await runExample(p.id, 1, 'something else')
    const c = client()
    const scores = async (key: string) =>
      (await collect(c.listFeedback({ runIds: [good, bad], feedbackKeys: [key] }))).map(f => [
        f.run_id,
        f.score,
        f.feedback_source?.type
      ])
    expect(await scores('correctness')).toEqual([
      [good, 1, 'auto_eval'],
      [bad, 0, 'auto_eval']
    ])
    expect(await scores('tone')).toEqual([])
    clock.advance(59_999)
    expect(await scores('tone')).toEqual([])
    clock.advance(1)
    expect(await scores('tone')).toEqual([
      [good, 1, 'auto_eval'],
      [bad, 0, 'auto_eval']
    ])
    clock.advance(86_400_000)
    expect(await scores('judge')).toEqual([])
    // The admin API shows the pending ones, with when they come (never: null).
    const judged = (await langsmithCalls(emu.url)).feedback.filter(f => f.key === 'judge')
    expect(judged.map(f => [f.run_id, f.score, f.visible_at])).toEqual([
      [good, 0.7, null],
      [bad, 0.2, null]
    ])
  })

  it('a run not of an experiment, or one that has not ended, gets no evaluator feedback', async () => {
    const d = await seedDataset(emu.url, {
      name: 'support',
      examples: numberedExamples(1),
      evaluators: [{ key: 'judge', type: 'score', score: 1 }]
    })
    const plain = await client().createProject({ projectName: 'tracing' })
    await runExample(plain.id, 0, 'question 0')
    const p = await experiment(d.id, 'live r1', {})
    await client().createRun({
      name: 'agent',
      run_type: 'chain',
      inputs: {},
      session_id: p.id,
      reference_example_id: exampleId(0)
    } as never)
    expect((await langsmithCalls(emu.url)).feedback).toEqual([])
  })
})

describe('how runs are sent', () => {
  const rules = [{ key: 'judge', type: 'score' as const, score: 1 }]

  /** A root run posted and patched through the client's queue, then every batch sent. */
  async function traced(projectName: string) {
    const c = client()
    const id = randomUUID()
    const start = clock.now()
    const dotted = `${new Date(start).toISOString().replace(/[-:.]/g, '').replace('Z', '000Z')}${id}`
    const common = { trace_id: id, dotted_order: dotted }
    await c.createRun({
      id,
      ...common,
      name: 'agent',
      run_type: 'chain',
      inputs: { messages: [] },
      project_name: projectName,
      reference_example_id: exampleId(0),
      start_time: start
    } as never)
    await c.updateRun(id, { ...common, outputs: { ok: true }, end_time: start + 5 } as never)
    await c.awaitPendingTraceBatches()
    return id
  }

  it.each([
    ['batch', '/runs/batch'],
    ['multipart', '/runs/multipart']
  ] as const)('queued runs go where /info says (%s), and are evaluated', async (ingest, path) => {
    const d = await seedDataset(emu.url, {
      name: 'support',
      examples: numberedExamples(1),
      evaluators: rules,
      ingest
    })
    await experiment(d.id, 'live r1', {})
    const id = await traced('live r1')
    const recorded = await langsmithCalls(emu.url)
    expect(
      recorded.calls.filter(c => c.path.startsWith('/runs')).map(c => [c.path, c.status])
    ).toEqual([[path, 202]])
    expect(recorded.runs).toMatchObject([
      { id, outputs: { ok: true }, reference_example_id: exampleId(0) }
    ])
    expect(recorded.feedback.map(f => [f.run_id, f.key, f.score])).toEqual([[id, 'judge', 1]])
  })

  it('batchIngestRuns and multipartIngestRuns, called directly', async () => {
    const d = await seedDataset(emu.url, {
      name: 'support',
      examples: numberedExamples(2),
      evaluators: rules
    })
    const p = await experiment(d.id, 'live r1', {})
    const c = client()
    const run = (i: number) => {
      const id = randomUUID()
      return {
        id,
        trace_id: id,
        dotted_order: `20261101T000000000000Z${id}`,
        name: 'agent',
        run_type: 'chain',
        inputs: { i },
        outputs: { i },
        session_id: p.id,
        reference_example_id: exampleId(i),
        start_time: clock.now(),
        end_time: clock.now() + 1
      }
    }
    const [a, b] = [run(0), run(1)]
    await c.batchIngestRuns({ runCreates: [a as never] })
    await c.multipartIngestRuns({ runCreates: [b as never] })
    const recorded = await langsmithCalls(emu.url)
    expect(recorded.runs.map(r => [r.id, r.outputs])).toEqual([
      [a.id, { i: 0 }],
      [b.id, { i: 1 }]
    ])
    expect(recorded.feedback.map(f => f.run_id)).toEqual([a.id, b.id])
  })
})

describe("the client's own evaluate()", () => {
  it("runs a dataset into an experiment: runs of its examples, its own scores and the rules'", async () => {
    const d = await seedDataset(emu.url, {
      name: 'support',
      examples: numberedExamples(2),
      evaluators: [{ key: 'judge', type: 'score', score: 1 }]
    })
    const c = client()
    // It prints where the results are; the test reads them from the emulator.
    const printed = jest.spyOn(console, 'log').mockImplementation(() => {})
    try {
      await evaluate(async (inputs: Record<string, unknown>) => ({ echoed: inputs }), {
        data: 'support',
        client: c,
        experimentPrefix: 'live-r1',
        metadata: { revision_id: 'r1' },
        evaluators: [() => ({ key: 'mine', score: 0.5 })]
      })
      await c.awaitPendingTraceBatches()
    } finally {
      printed.mockRestore()
    }
    const recorded = await langsmithCalls(emu.url)
    const exp = recorded.experiments.find(e => e.reference_dataset_id === d.id)!
    expect(exp.metadata).toMatchObject({ revision_id: 'r1' })
    const runs = recorded.runs.filter(r => r.session_id === exp.id)
    expect(runs.map(r => r.reference_example_id).sort()).toEqual(d.example_ids)
    const byKey = (key: string) =>
      recorded.feedback
        .filter(f => f.key === key)
        .map(f => [f.run_id, f.score])
        .sort()
    expect(byKey('mine')).toEqual(runs.map(r => [r.id, 0.5]).sort())
    expect(byKey('judge')).toEqual(runs.map(r => [r.id, 1]).sort())
  })
})
