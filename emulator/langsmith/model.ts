// The LangSmith surface's shapes: what its admin API is seeded with (datasets, their examples and
// the evaluators bound to them, as deterministic rules) and the wire bodies the official
// `langsmith` client sends (sessions, runs, feedback). Unknown wire fields are dropped, as the
// service ignores what it does not know.
import { z } from 'zod'
import { matchFields } from '../faults/match.ts'

/** Ids as the client checks them (assertUuid): any RFC 4122 layout, any case. */
const Id = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
const Json = z.record(z.string(), z.unknown())

/** The longest wait a rule can be given (virtual ms): about 24 days, as a timer can keep. */
export const MAX_RULE_DELAY_MS = 2 ** 31 - 1

/**
 * A dataset evaluator, as a rule the emulator applies when a root run of an experiment of its
 * dataset ends: it writes feedback with `key` for that run, `delayMs` (virtual) later, or never.
 * `equals`, `contains` and `matches` compare the value at `path` in the run's outputs with
 * `value`, or with the value at `reference` in the example's outputs: 1 or 0. `score` gives a
 * fixed score; `byExample` overrides it per example id or index in the dataset (from 0).
 */
export const EvaluatorRule = z
  .object({
    key: z.string().min(1),
    type: z.enum(['equals', 'contains', 'matches', 'score']),
    /** A path into the run's outputs: `messages[-1].content`, `answer`; empty: the outputs. */
    path: z.string().default(''),
    value: z.unknown().optional(),
    /** A path into the example's outputs whose value is compared instead of `value`. */
    reference: z.string().optional(),
    score: z.number().min(0).max(1).optional(),
    byExample: z.record(z.string(), z.number().min(0).max(1)).default({}),
    delayMs: z
      .union([z.number().int().min(0).max(MAX_RULE_DELAY_MS), z.literal('never')])
      .default(0),
    /** The feedback's source type, as the service's own evaluators write it. */
    source: z.enum(['auto_eval', 'model']).default('auto_eval'),
    comment: z.string().optional()
  })
  .strict()
  .refine(r => r.type !== 'score' || r.score !== undefined || Object.keys(r.byExample).length > 0, {
    message: 'a `score` rule needs `score` or `byExample`'
  })
  .refine(r => r.type === 'score' || r.value !== undefined || r.reference !== undefined, {
    message: 'a comparing rule needs `value` or `reference`'
  })
export type EvaluatorRule = z.output<typeof EvaluatorRule>

export const ExampleSeed = z
  .object({
    id: Id.optional(),
    inputs: Json,
    outputs: Json.nullable().optional(),
    metadata: Json.nullable().optional(),
    split: z.string().optional()
  })
  .strict()

export const DatasetSeed = z
  .object({
    id: Id.optional(),
    name: z.string().min(1),
    description: z.string().nullable().optional(),
    examples: z.array(ExampleSeed).default([]),
    evaluators: z.array(EvaluatorRule).default([]),
    /** An experiment id the dataset names as its baseline. */
    baseline_experiment_id: Id.nullable().optional()
  })
  .strict()
export type DatasetSeed = z.input<typeof DatasetSeed>

/**
 * A failing answer of the LangSmith API (its own, apart from the control plane's faults): the
 * matching requests (path below the prefix, `/api/v1` left out, e.g. `/runs/*`) answer `status`.
 */
export const LangsmithFault = z
  .object({
    ...matchFields(),
    status: z.number().int().min(400).max(599),
    /** Seconds, sent as Retry-After. */
    retryAfter: z.number().int().min(0).optional(),
    detail: z.string().default('Fault injected by the emulator.')
  })
  .strict()
export type LangsmithFault = z.output<typeof LangsmithFault>

/** POST /_emulator/langsmith: datasets added (one of the same name in the tenant is replaced). */
export const LangsmithSeed = z
  .object({
    /** The tenant (workspace) they belong to; default: the fixture's first. */
    tenant_id: Id.optional(),
    datasets: z.array(DatasetSeed).default([]),
    /**
     * How `/info` tells the client to send runs: `batch` (`POST /runs/batch`, JSON) or
     * `multipart` (`POST /runs/multipart`, the client's default against the service).
     */
    ingest: z.enum(['batch', 'multipart']).optional(),
    /** Added to the surface's faults (DELETE clears them). */
    faults: z.array(LangsmithFault).default([])
  })
  .strict()
export type LangsmithSeed = z.input<typeof LangsmithSeed>

/** `POST /sessions`: a tracer session; an experiment when it names a reference dataset. */
export const SessionCreate = z.object({
  id: Id.optional(),
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  extra: Json.nullable().optional(),
  reference_dataset_id: Id.nullable().optional(),
  start_time: z.union([z.string(), z.number()]).nullable().optional(),
  end_time: z.union([z.string(), z.number()]).nullable().optional()
})

/** `PATCH /sessions/{id}`: the client sends every field, null for the ones left as they are. */
export const SessionPatch = z.object({
  name: z.string().min(1).nullable().optional(),
  description: z.string().nullable().optional(),
  extra: Json.nullable().optional(),
  end_time: z.union([z.string(), z.number()]).nullable().optional()
})

const Time = z.union([z.string(), z.number()]).nullable().optional()

/** A run as posted (`POST /runs`, a batch's `post`) or patched (`PATCH /runs/{id}`, `patch`). */
export const RunWrite = z.object({
  id: Id.optional(),
  name: z.string().optional(),
  run_type: z.string().optional(),
  inputs: Json.nullable().optional(),
  outputs: Json.nullable().optional(),
  error: z.string().nullable().optional(),
  start_time: Time,
  end_time: Time,
  extra: Json.nullable().optional(),
  tags: z.array(z.string()).nullable().optional(),
  events: z.array(z.unknown()).nullable().optional(),
  session_id: Id.nullable().optional(),
  session_name: z.string().nullable().optional(),
  reference_example_id: Id.nullable().optional(),
  parent_run_id: Id.nullable().optional(),
  trace_id: Id.nullable().optional(),
  dotted_order: z.string().nullable().optional()
})
export type RunWrite = z.output<typeof RunWrite>

export const RunBatch = z.object({
  post: z.array(RunWrite).default([]),
  patch: z.array(RunWrite).default([])
})

/** `POST /runs/query`, as `listRuns` sends it (the filters the emulator applies). */
export const RunQuery = z.object({
  session: z.array(Id).nullable().optional(),
  id: z.array(Id).nullable().optional(),
  reference_example: z.array(Id).nullable().optional(),
  is_root: z.boolean().nullable().optional(),
  error: z.boolean().nullable().optional(),
  limit: z.number().int().positive().nullable().optional(),
  cursor: z.string().nullable().optional()
})

/** `POST /feedback`. */
export const FeedbackCreate = z.object({
  id: Id.optional(),
  run_id: Id.nullable().optional(),
  trace_id: Id.nullable().optional(),
  session_id: Id.nullable().optional(),
  key: z.string().min(1),
  score: z.union([z.number(), z.boolean()]).nullable().optional(),
  value: z.unknown().optional(),
  comment: z.string().nullable().optional(),
  correction: z.unknown().optional(),
  feedback_source: z
    .object({ type: z.string().default('api'), metadata: Json.nullable().optional() })
    .nullable()
    .optional()
})
export type FeedbackCreate = z.output<typeof FeedbackCreate>
