// What the emulated LangSmith API holds, per tenant: datasets with their examples and evaluator
// rules (seeded through the admin API), tracer sessions (an experiment is one that names a
// reference dataset), runs and feedback. Times are the emulator's virtual clock's.
import { randomUUID } from 'node:crypto'
import { matches } from '../faults/match.ts'
import { scoreOf } from './evaluators.ts'
import {
  DatasetSeed,
  LangsmithSeed,
  type EvaluatorRule,
  type LangsmithFault,
  type FeedbackCreate,
  type RunWrite
} from './model.ts'

type Json = Record<string, unknown>

export interface ExampleRecord {
  id: string
  dataset_id: string
  inputs: Json
  outputs: Json | null
  metadata: Json | null
  split: string | null
  created_at: number
}

export interface DatasetRecord {
  id: string
  tenant_id: string
  name: string
  description: string | null
  created_at: number
  examples: ExampleRecord[]
  evaluators: Array<EvaluatorRule & { rule_id: string }>
  baseline_experiment_id: string | null
}

export interface SessionRecord {
  id: string
  tenant_id: string
  name: string
  description: string | null
  extra: Json | null
  reference_dataset_id: string | null
  start_time: number
  end_time: number | null
}

export interface RunRecord {
  id: string
  tenant_id: string
  session_id: string
  name: string
  run_type: string
  inputs: Json | null
  outputs: Json | null
  error: string | null
  start_time: number
  end_time: number | null
  extra: Json | null
  tags: string[]
  reference_example_id: string | null
  parent_run_id: string | null
  trace_id: string
  dotted_order: string | null
  /** The dataset's evaluator rules were applied (once, when it ended). */
  evaluated: boolean
}

export interface FeedbackRecord {
  id: string
  tenant_id: string
  run_id: string | null
  session_id: string | null
  trace_id: string | null
  key: string
  score: number | boolean | null
  value: unknown
  comment: string | null
  correction: unknown
  feedback_source: { type: string; metadata: Json | null }
  created_at: number
  /** When it can be read (virtual ms); null: never (a rule that is always late). */
  visible_at: number | null
}

/** A request the surface answered, for the admin API (never a key). */
export interface LangsmithCall {
  time: string
  method: string
  path: string
  query: Record<string, string | string[]>
  status: number
}

/** A time as the client sends it (epoch ms or ISO text, UTC when it names no zone) -> epoch ms. */
export function toMs(t: string | number | null | undefined, fallback: number): number {
  if (typeof t === 'number' && Number.isFinite(t)) return t
  if (typeof t !== 'string' || t === '') return fallback
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(t) ? t : `${t}Z`
  const ms = Date.parse(zoned)
  return Number.isNaN(ms) ? fallback : ms
}

export class LangsmithRecords {
  readonly datasets = new Map<string, DatasetRecord>()
  readonly sessions = new Map<string, SessionRecord>()
  readonly runs = new Map<string, RunRecord>()
  readonly feedback = new Map<string, FeedbackRecord>()
  calls: LangsmithCall[] = []
  ingest: 'batch' | 'multipart' = 'batch'
  /** Each with the matching requests it has seen. */
  faults: Array<{ fault: LangsmithFault; seen: number }> = []

  /** The virtual clock. */
  readonly now: () => number
  /** The fixture's first tenant: where seeded datasets go unless told. */
  private readonly defaultTenant: () => string

  constructor(now: () => number, defaultTenant: () => string) {
    this.now = now
    this.defaultTenant = defaultTenant
  }

  clear(): void {
    for (const map of [this.datasets, this.sessions, this.runs, this.feedback]) map.clear()
    this.calls = []
    this.ingest = 'batch'
    this.faults = []
  }

  seed(input: LangsmithSeed): DatasetRecord[] {
    const seed = LangsmithSeed.parse(input)
    const tenant = (seed.tenant_id ?? this.defaultTenant()).toLowerCase()
    if (seed.ingest) this.ingest = seed.ingest
    this.faults.push(...seed.faults.map(fault => ({ fault, seen: 0 })))
    return seed.datasets.map(d => this.addDataset(tenant, d))
  }

  private addDataset(tenant: string, input: DatasetSeed): DatasetRecord {
    const d = DatasetSeed.parse(input)
    for (const old of this.datasetsOf(tenant)) {
      if (old.name === d.name) this.datasets.delete(old.id)
    }
    const id = (d.id ?? randomUUID()).toLowerCase()
    const now = this.now()
    const record: DatasetRecord = {
      id,
      tenant_id: tenant,
      name: d.name,
      description: d.description ?? null,
      created_at: now,
      examples: d.examples.map(e => ({
        id: (e.id ?? randomUUID()).toLowerCase(),
        dataset_id: id,
        inputs: e.inputs,
        outputs: e.outputs ?? null,
        metadata: e.metadata ?? null,
        split: e.split ?? null,
        created_at: now
      })),
      evaluators: d.evaluators.map(r => ({ ...r, rule_id: randomUUID() })),
      baseline_experiment_id: d.baseline_experiment_id?.toLowerCase() ?? null
    }
    this.datasets.set(id, record)
    return record
  }

  datasetsOf(tenant: string): DatasetRecord[] {
    return [...this.datasets.values()].filter(d => d.tenant_id === tenant)
  }

  sessionsOf(tenant: string): SessionRecord[] {
    return [...this.sessions.values()].filter(s => s.tenant_id === tenant)
  }

  /** A new session, or the reason there is none (a name taken, an unknown dataset). */
  createSession(
    tenant: string,
    s: Omit<SessionRecord, 'tenant_id' | 'id'> & { id?: string }
  ): SessionRecord | { conflict: string } | { missing: string } {
    if (this.sessionsOf(tenant).some(o => o.name === s.name)) return { conflict: s.name }
    const dataset = s.reference_dataset_id && this.datasets.get(s.reference_dataset_id)
    if (s.reference_dataset_id && (!dataset || dataset.tenant_id !== tenant)) {
      return { missing: s.reference_dataset_id }
    }
    const record: SessionRecord = {
      ...s,
      id: (s.id ?? randomUUID()).toLowerCase(),
      tenant_id: tenant
    }
    this.sessions.set(record.id, record)
    return record
  }

  /** The session a run names, by id or by name (a new plain one for an unknown name). */
  sessionFor(tenant: string, run: RunWrite): SessionRecord | null {
    if (run.session_id) {
      const s = this.sessions.get(run.session_id.toLowerCase())
      return s && s.tenant_id === tenant ? s : null
    }
    const name = run.session_name ?? 'default'
    const named = this.sessionsOf(tenant).find(s => s.name === name)
    if (named) return named
    const made = this.createSession(tenant, {
      name,
      description: null,
      extra: null,
      reference_dataset_id: null,
      start_time: this.now(),
      end_time: null
    })
    return 'id' in made ? made : null
  }

  /** Writes a posted run; null when its session is not the tenant's. */
  postRun(tenant: string, w: RunWrite): RunRecord | null {
    const session = this.sessionFor(tenant, w)
    if (!session) return null
    const id = (w.id ?? randomUUID()).toLowerCase()
    const run: RunRecord = {
      id,
      tenant_id: tenant,
      session_id: session.id,
      name: w.name ?? 'run',
      run_type: w.run_type ?? 'chain',
      inputs: w.inputs ?? null,
      outputs: w.outputs ?? null,
      error: w.error ?? null,
      start_time: toMs(w.start_time, this.now()),
      end_time: w.end_time == null ? null : toMs(w.end_time, this.now()),
      extra: w.extra ?? null,
      tags: w.tags ?? [],
      reference_example_id: w.reference_example_id?.toLowerCase() ?? null,
      parent_run_id: w.parent_run_id?.toLowerCase() ?? null,
      trace_id: (w.trace_id ?? id).toLowerCase(),
      dotted_order: w.dotted_order ?? null,
      evaluated: false
    }
    this.runs.set(id, run)
    this.evaluate(run)
    return run
  }

  /** Applies a patch to a run of the tenant; null when there is no such run. */
  patchRun(tenant: string, id: string, w: RunWrite): RunRecord | null {
    const run = this.runs.get(id.toLowerCase())
    if (!run || run.tenant_id !== tenant) return null
    if (w.outputs !== undefined) run.outputs = w.outputs
    if (w.error !== undefined) run.error = w.error
    if (w.inputs != null) run.inputs = w.inputs
    if (w.extra != null) run.extra = w.extra
    if (w.tags != null) run.tags = w.tags
    if (w.end_time != null) run.end_time = toMs(w.end_time, this.now())
    if (w.reference_example_id) run.reference_example_id = w.reference_example_id.toLowerCase()
    this.evaluate(run)
    return run
  }

  /**
   * The dataset's evaluators, once a root run of an experiment of it ends with a reference
   * example: each rule's feedback, written `delayMs` (virtual) later, or never.
   */
  private evaluate(run: RunRecord): void {
    if (run.evaluated || run.end_time === null || run.parent_run_id !== null) return
    const session = this.sessions.get(run.session_id)
    const dataset = session?.reference_dataset_id && this.datasets.get(session.reference_dataset_id)
    const index = dataset ? dataset.examples.findIndex(e => e.id === run.reference_example_id) : -1
    if (!dataset || index < 0) return
    run.evaluated = true
    const example = { ...dataset.examples[index]!, index }
    const now = this.now()
    for (const rule of dataset.evaluators) {
      this.addFeedback(run.tenant_id, {
        run_id: run.id,
        trace_id: run.trace_id,
        session_id: run.session_id,
        key: rule.key,
        score: scoreOf(rule, run, example),
        comment: rule.comment ?? null,
        feedback_source: { type: rule.source, metadata: { rule_id: rule.rule_id } },
        visible_at: rule.delayMs === 'never' ? null : now + rule.delayMs
      })
    }
  }

  addFeedback(
    tenant: string,
    f: Omit<FeedbackCreate, 'feedback_source'> & {
      feedback_source?: FeedbackCreate['feedback_source']
      visible_at?: number | null
    }
  ): FeedbackRecord {
    const now = this.now()
    const visible = f.visible_at === undefined ? now : f.visible_at
    const record: FeedbackRecord = {
      id: (f.id ?? randomUUID()).toLowerCase(),
      tenant_id: tenant,
      run_id: f.run_id?.toLowerCase() ?? null,
      session_id: f.session_id?.toLowerCase() ?? null,
      trace_id: f.trace_id?.toLowerCase() ?? null,
      key: f.key,
      score: f.score ?? null,
      value: f.value ?? null,
      comment: f.comment ?? null,
      correction: f.correction ?? null,
      feedback_source: {
        type: f.feedback_source?.type ?? 'api',
        metadata: f.feedback_source?.metadata ?? null
      },
      created_at: visible ?? now,
      visible_at: visible
    }
    this.feedback.set(record.id, record)
    return record
  }

  /** The tenant's feedback that can be read now (a late rule's is not yet, a `never` one's never). */
  visibleFeedback(tenant: string): FeedbackRecord[] {
    const now = this.now()
    return [...this.feedback.values()].filter(
      f => f.tenant_id === tenant && f.visible_at !== null && f.visible_at <= now
    )
  }

  /** The fault that answers this request, if one does (counted; spent ones removed). */
  takeFault(method: string, path: string): LangsmithFault | undefined {
    const held = this.faults.find(h => matches(h.fault, method, path) && ++h.seen > h.fault.skip)
    if (!held) return undefined
    const { times, skip } = held.fault
    if (times !== undefined && held.seen - skip >= times) {
      this.faults.splice(this.faults.indexOf(held), 1)
    }
    return held.fault
  }

  record(call: LangsmithCall): void {
    this.calls.push(call)
    if (this.calls.length > 10_000) this.calls.splice(0, this.calls.length - 10_000)
  }
}
