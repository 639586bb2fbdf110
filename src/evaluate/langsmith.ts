// The Recorder with the official `langsmith` client, loaded only when a dataset is evaluated. Its
// fetch is langsmith-fetch.ts (the LangSmith API's origin only, no redirect, the run's cancel);
// runs are sent one by one (no background batching to outlive the run), without runtime metadata.
import type { Client } from 'langsmith/client'
import { randomUUID } from 'node:crypto'
import { experimentUrl } from './langsmith-url.ts'
import { langsmithFetch, type LangsmithFetchOptions } from './langsmith-fetch.ts'
import type { Example } from './examples.ts'
import type { Experiment, ExperimentMetadata, Recorder } from './recorder.ts'
import type { ExampleRun } from './score.ts'
import type { ScoreTable } from './verdict.ts'

export interface LangsmithOptions extends LangsmithFetchOptions {
  apiKey: string
  tenantId?: string | undefined
  /** The dataset's name or id. */
  dataset: string
}

/** Run ids per feedback read: each is a query parameter. */
const FEEDBACK_RUNS_PER_READ = 100
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The client, made to keep to the run's rules. Its fetch retries (langsmith-fetch.ts); its own
 * retries are off: they pause on real time, past the run's deadline, and read no Retry-After.
 * Its main caller sets 4 retries over `callerOptions`, so that one is turned off on the caller.
 */
async function clientOf(o: LangsmithOptions): Promise<Client> {
  const { Client } = await import('langsmith/client')
  const client = new Client({
    apiUrl: o.apiUrl,
    apiKey: o.apiKey,
    ...(o.tenantId ? { workspaceId: o.tenantId } : {}),
    autoBatchTracing: false,
    omitTracedRuntimeInfo: true,
    callerOptions: { maxRetries: 0 },
    fetchImplementation: langsmithFetch(o)
  })
  const caller = (client as unknown as { caller?: { maxRetries?: number } }).caller
  if (caller && typeof caller.maxRetries === 'number') caller.maxRetries = 0
  return client
}

type Session = { id: string; name?: string | undefined; extra?: unknown; tenant_id?: string }

export async function langsmithRecorder(o: LangsmithOptions): Promise<Recorder> {
  return new LangsmithRecorder(o, await clientOf(o))
}

/** The gate's calls, each one or a few of the client's. */
class LangsmithRecorder implements Recorder {
  #datasetId = ''
  #tenantId: string | undefined
  /** The feedback this run wrote: never read back as the dataset evaluators'. */
  readonly #own = new Set<string>()
  readonly #o: LangsmithOptions
  readonly #client: Client

  constructor(o: LangsmithOptions, client: Client) {
    this.#o = o
    this.#client = client
    this.#tenantId = o.tenantId
  }

  #experimentOf(s: Session): Experiment {
    const extra = isObject(s.extra) ? s.extra : {}
    const metadata = isObject(extra.metadata) ? (extra.metadata as Partial<ExperimentMetadata>) : {}
    const ids = {
      tenantId: s.tenant_id ?? this.#tenantId,
      datasetId: this.#datasetId,
      experimentId: s.id
    }
    return { id: s.id, name: s.name ?? s.id, url: experimentUrl(this.#o.apiUrl, ids), metadata }
  }

  datasetId(): string {
    return this.#datasetId
  }

  async examples() {
    const name = this.#o.dataset
    const dataset = await this.#client.readDataset(
      UUID.test(name) ? { datasetId: name } : { datasetName: name }
    )
    this.#datasetId = dataset.id
    this.#tenantId ??= dataset.tenant_id
    const examples: Example[] = []
    for await (const e of this.#client.listExamples({ datasetId: dataset.id }))
      examples.push({
        id: e.id,
        inputs: e.inputs,
        ...(isObject(e.outputs) ? { outputs: e.outputs } : {})
      })
    return { datasetId: dataset.id, examples }
  }

  async start(name: string, metadata: ExperimentMetadata) {
    const s = await this.#client.createProject({
      projectName: name,
      referenceDatasetId: this.#datasetId,
      metadata: { ...metadata }
    })
    return this.#experimentOf(s)
  }

  async record(e: Experiment, runs: readonly ExampleRun[]) {
    const ids = new Map<string, string>()
    for (const r of runs) {
      const id = randomUUID()
      const outputs =
        r.status === 'ok' ? (isObject(r.output) ? r.output : { output: r.output }) : undefined
      await this.#client.createRun({
        id,
        name: 'evaluate',
        run_type: 'chain',
        inputs: r.example.inputs,
        ...(outputs ? { outputs } : {}),
        ...(r.error === undefined ? {} : { error: r.error }),
        start_time: r.startedAt,
        end_time: r.endedAt,
        reference_example_id: r.example.id,
        project_name: e.name
      })
      ids.set(r.example.id, id)
    }
    return ids
  }

  async score(e: Experiment, runIds: ReadonlyMap<string, string>, scores: ScoreTable) {
    for (const [exampleId, byKey] of scores) {
      const runId = runIds.get(exampleId)
      if (runId === undefined) continue
      for (const [key, score] of byKey) {
        const feedbackId = randomUUID()
        this.#own.add(feedbackId)
        await this.#client.createFeedback(runId, key, {
          score,
          feedbackId,
          sessionId: e.id,
          feedbackSourceType: 'api'
        })
      }
    }
  }

  async feedback(runIds: ReadonlyMap<string, string>, keys: readonly string[]) {
    const byRun = new Map([...runIds].map(([example, run]) => [run, example]))
    const table = new Map<string, Map<string, number>>()
    if (runIds.size === 0 || keys.length === 0) return table
    const ids = [...runIds.values()]
    for (let i = 0; i < ids.length; i += FEEDBACK_RUNS_PER_READ)
      await this.#read(ids.slice(i, i + FEEDBACK_RUNS_PER_READ), keys, byRun, table)
    return table
  }

  /** One read of the feedback of some runs (a query of a hundred run ids at most). */
  async #read(
    runIds: string[],
    keys: readonly string[],
    byRun: ReadonlyMap<string, string>,
    table: Map<string, Map<string, number>>
  ): Promise<void> {
    const listed = this.#client.listFeedback({ runIds, feedbackKeys: [...keys] })
    for await (const f of listed) {
      const example = f.run_id ? byRun.get(f.run_id) : undefined
      const scored = typeof f.score === 'number' || typeof f.score === 'boolean'
      if (example === undefined || this.#own.has(f.id) || !scored) continue
      const row = table.get(example) ?? new Map<string, number>()
      row.set(f.key, Number(f.score))
      table.set(example, row)
    }
  }

  async finish(e: Experiment, metadata: ExperimentMetadata) {
    await this.#client.updateProject(e.id, { metadata: { ...metadata } })
  }

  async experiments(match: Partial<ExperimentMetadata>) {
    const out: { e: Experiment; at: string }[] = []
    for await (const s of this.#client.listProjects({
      referenceDatasetId: this.#datasetId,
      metadata: { ...match }
    })) {
      const e = this.#experimentOf(s)
      const meta = e.metadata as Record<string, unknown>
      if (Object.entries(match).every(([k, v]) => meta[k] === v))
        out.push({ e, at: String(s.start_time ?? '') })
    }
    return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map(x => x.e)
  }
}
