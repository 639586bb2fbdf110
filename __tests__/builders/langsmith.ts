// The emulator's LangSmith surface from a test: datasets seeded with examples and evaluator rules,
// the official `langsmith` client pointed at it, and what it recorded (docs/emulator.md,
// "The LangSmith API").
import { Client } from 'langsmith'
import type { z } from 'zod'
import type {
  DatasetSeed,
  EvaluatorRule,
  LangsmithFault,
  LangsmithSeed
} from '../../emulator/langsmith/model.ts'
import type { LangsmithRecorded } from '../../emulator/langsmith/views.ts'
import { LANGSMITH_PREFIX } from '../../emulator/routes/langsmith.ts'

export type { LangsmithRecorded }
export type Example = NonNullable<DatasetSeed['examples']>[number]
export type Rule = z.input<typeof EvaluatorRule>
export type Fault = z.input<typeof LangsmithFault>

/** Where the emulator at `emulatorUrl` serves the LangSmith API (a gate's `langsmith-api-url`). */
export const langsmithUrl = (emulatorUrl: string): string => `${emulatorUrl}${LANGSMITH_PREFIX}`

async function admin(emulatorUrl: string, method: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emulatorUrl}/_emulator/langsmith`, {
    method,
    // The admin API takes only JSON writes (a web page cannot send them).
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const answer = await res.json()
  if (!res.ok)
    throw new Error(`${method} /_emulator/langsmith: ${res.status} ${JSON.stringify(answer)}`)
  return answer
}

export interface SeededDataset {
  id: string
  name: string
  tenant_id: string
  /** The examples' ids, in the order given. */
  example_ids: string[]
}

/**
 * Seeds one dataset (replacing one of the same name in its tenant): its examples and the
 * evaluator rules bound to it. `tenantId` defaults to the fixture's first tenant; `ingest` sets
 * how `/info` tells the client to send runs (default `batch`).
 */
export async function seedDataset(
  emulatorUrl: string,
  dataset: {
    name: string
    examples?: Example[]
    evaluators?: Rule[]
    id?: string
    baselineExperimentId?: string
    tenantId?: string
    ingest?: LangsmithSeed['ingest']
  }
): Promise<SeededDataset> {
  const seed: LangsmithSeed = {
    ...(dataset.tenantId === undefined ? {} : { tenant_id: dataset.tenantId }),
    ...(dataset.ingest === undefined ? {} : { ingest: dataset.ingest }),
    datasets: [
      {
        name: dataset.name,
        examples: dataset.examples ?? [],
        evaluators: dataset.evaluators ?? [],
        ...(dataset.id === undefined ? {} : { id: dataset.id }),
        ...(dataset.baselineExperimentId === undefined
          ? {}
          : { baseline_experiment_id: dataset.baselineExperimentId })
      }
    ]
  }
  const answer = (await admin(emulatorUrl, 'POST', seed)) as { datasets: SeededDataset[] }
  return answer.datasets[0]!
}

/** Adds failing answers of the LangSmith API (model.ts, LangsmithFault); DELETE clears them. */
export async function langsmithFaults(emulatorUrl: string, faults: Fault[]): Promise<void> {
  await admin(emulatorUrl, 'POST', { faults })
}

/** Everything the surface recorded: datasets, experiments (with metadata), runs, feedback, calls. */
export async function langsmithCalls(emulatorUrl: string): Promise<LangsmithRecorded> {
  return (await admin(emulatorUrl, 'GET')) as LangsmithRecorded
}

/** Forgets every dataset, experiment, run, feedback and call. */
export async function resetLangsmith(emulatorUrl: string): Promise<void> {
  await admin(emulatorUrl, 'DELETE')
}

/** The official client, pointed at the emulator's LangSmith API with `key`. */
export function langsmithClient(emulatorUrl: string, key: string): Client {
  return new Client({ apiUrl: langsmithUrl(emulatorUrl), apiKey: key, timeout_ms: 10_000 })
}

/** The id of numbered example `i` (from 0): stable, so a test can name it. */
export const exampleId = (i: number): string =>
  `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`

/**
 * `n` examples, numbered from 0: inputs `{messages: [{role: 'user', content: 'question <i>'}]}`,
 * reference outputs the same messages. The emulator's agent server echoes its input, so an
 * `equals` rule on `messages[-1].content` with `reference: 'messages[-1].content'` passes for
 * every example unless the agent server is scripted to answer otherwise.
 */
export function numberedExamples(n: number): Example[] {
  return Array.from({ length: n }, (_, i) => {
    const messages = [{ role: 'user', content: `question ${i}` }]
    return { id: exampleId(i), inputs: { messages }, outputs: { messages } }
  })
}
