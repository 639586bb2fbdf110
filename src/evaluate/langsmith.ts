// The Recorder with the official `langsmith` client, loaded only when a dataset is evaluated. Its
// fetch is langsmith-fetch.ts (the LangSmith API's origin only, no redirect, the run's cancel);
// runs are sent one by one (no background batching to outlive the run), without runtime metadata.
import type { Client } from 'langsmith/client'
import { randomUUID } from 'node:crypto'
import { experimentUrl } from './langsmith-url.ts'
import { langsmithFetch } from './langsmith-fetch.ts'
import type { Example } from './examples.ts'
import type { Experiment, ExperimentMetadata, Recorder } from './recorder.ts'

export interface LangsmithOptions {
  apiUrl: string
  apiKey: string
  tenantId?: string | undefined
  /** The dataset's name or id. */
  dataset: string
  signal?: AbortSignal | undefined
  onRequest?: () => void
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The client, made to keep to the run's rules. */
async function clientOf(o: LangsmithOptions): Promise<Client> {
  const { Client } = await import('langsmith/client')
  return new Client({
    apiUrl: o.apiUrl,
    apiKey: o.apiKey,
    ...(o.tenantId ? { workspaceId: o.tenantId } : {}),
    autoBatchTracing: false,
    omitTracedRuntimeInfo: true,
    callerOptions: { maxRetries: 2 },
    fetchImplementation: langsmithFetch(o)
  })
}

export async function langsmithRecorder(o: LangsmithOptions): Promise<Recorder> {
  const client = await clientOf(o)
  let datasetId = ''
  let tenantId = o.tenantId
  const own = new Set<string>()
  const experimentOf = (s: {
    id: string
    name?: string | undefined
    extra?: unknown
    tenant_id?: string
  }): Experiment => {
    const extra = isObject(s.extra) ? s.extra : {}
    const metadata = isObject(extra.metadata) ? (extra.metadata as Partial<ExperimentMetadata>) : {}
    return {
      id: s.id,
      name: s.name ?? s.id,
      url: experimentUrl(o.apiUrl, {
        tenantId: s.tenant_id ?? tenantId,
        datasetId,
        experimentId: s.id
      }),
      metadata
    }
  }
  return {
    async examples() {
      const dataset = await client.readDataset(
        UUID.test(o.dataset) ? { datasetId: o.dataset } : { datasetName: o.dataset }
      )
      datasetId = dataset.id
      tenantId ??= dataset.tenant_id
      const examples: Example[] = []
      for await (const e of client.listExamples({ datasetId })) {
        examples.push({
          id: e.id,
          inputs: e.inputs,
          ...(isObject(e.outputs) ? { outputs: e.outputs } : {})
        })
      }
      return { datasetId, examples }
    },
    datasetId: () => datasetId,
    async start(name, metadata) {
      const s = await client.createProject({
        projectName: name,
        referenceDatasetId: datasetId,
        metadata: { ...metadata }
      })
      return experimentOf(s)
    },
    async record(e, runs) {
      const ids = new Map<string, string>()
      for (const r of runs) {
        const id = randomUUID()
        const outputs =
          r.status === 'ok' ? (isObject(r.output) ? r.output : { output: r.output }) : undefined
        await client.createRun({
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
    },
    async score(e, runIds, scores) {
      for (const [exampleId, byKey] of scores) {
        const runId = runIds.get(exampleId)
        if (runId === undefined) continue
        for (const [key, score] of byKey) {
          const feedbackId = randomUUID()
          own.add(feedbackId)
          await client.createFeedback(runId, key, {
            score,
            feedbackId,
            sessionId: e.id,
            feedbackSourceType: 'api'
          })
        }
      }
    },
    async feedback(runIds, keys) {
      const byRun = new Map([...runIds].map(([example, run]) => [run, example]))
      const table = new Map<string, Map<string, number>>()
      if (runIds.size === 0 || keys.length === 0) return table
      for await (const f of client.listFeedback({
        runIds: [...runIds.values()],
        feedbackKeys: [...keys]
      })) {
        const example = f.run_id ? byRun.get(f.run_id) : undefined
        if (
          example === undefined ||
          own.has(f.id) ||
          (typeof f.score !== 'number' && typeof f.score !== 'boolean')
        )
          continue
        const scores = table.get(example) ?? new Map<string, number>()
        scores.set(f.key, Number(f.score))
        table.set(example, scores)
      }
      return table
    },
    async finish(e, metadata) {
      await client.updateProject(e.id, { metadata: { ...metadata } })
    },
    async experiments(match) {
      const out: { e: Experiment; at: string }[] = []
      for await (const s of client.listProjects({ referenceDatasetId: datasetId })) {
        const e = experimentOf(s)
        const fits = Object.entries(match).every(
          ([k, v]) => (e.metadata as Record<string, unknown>)[k] === v
        )
        if (fits) out.push({ e, at: String(s.start_time ?? '') })
      }
      return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map(x => x.e)
    }
  }
}
