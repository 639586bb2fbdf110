// The records as the LangSmith API answers them (the fields the official client reads), and as
// the admin API shows everything recorded.
import type {
  DatasetRecord,
  ExampleRecord,
  FeedbackRecord,
  LangsmithRecords,
  RunRecord,
  SessionRecord
} from './records.ts'

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

export function datasetView(records: LangsmithRecords, d: DatasetRecord) {
  const sessions = [...records.sessions.values()].filter(s => s.reference_dataset_id === d.id)
  const last = Math.max(...sessions.map(s => s.start_time))
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    tenant_id: d.tenant_id,
    data_type: 'kv',
    created_at: iso(d.created_at),
    modified_at: iso(d.created_at),
    example_count: d.examples.length,
    session_count: sessions.length,
    last_session_start_time: sessions.length ? iso(last) : null,
    inputs_schema_definition: null,
    outputs_schema_definition: null,
    metadata: null,
    baseline_experiment_id: d.baseline_experiment_id
  }
}

export function exampleView(e: ExampleRecord) {
  return {
    id: e.id,
    dataset_id: e.dataset_id,
    inputs: e.inputs,
    outputs: e.outputs,
    metadata: { ...e.metadata, ...(e.split === null ? {} : { dataset_split: [e.split] }) },
    created_at: iso(e.created_at),
    modified_at: iso(e.created_at),
    source_run_id: null,
    attachment_urls: null
  }
}

export function sessionView(records: LangsmithRecords, s: SessionRecord) {
  const runs = [...records.runs.values()].filter(r => r.session_id === s.id)
  return {
    id: s.id,
    tenant_id: s.tenant_id,
    name: s.name,
    description: s.description,
    extra: s.extra,
    reference_dataset_id: s.reference_dataset_id,
    start_time: iso(s.start_time),
    end_time: iso(s.end_time),
    run_count: runs.filter(r => r.parent_run_id === null).length,
    last_run_start_time: runs.length ? iso(Math.max(...runs.map(r => r.start_time))) : null
  }
}

export function runView(r: RunRecord) {
  const status = r.end_time === null ? 'pending' : r.error === null ? 'success' : 'error'
  return {
    id: r.id,
    session_id: r.session_id,
    name: r.name,
    run_type: r.run_type,
    inputs: r.inputs,
    outputs: r.outputs,
    error: r.error,
    status,
    start_time: iso(r.start_time),
    end_time: iso(r.end_time),
    extra: r.extra,
    tags: r.tags,
    reference_example_id: r.reference_example_id,
    parent_run_id: r.parent_run_id,
    trace_id: r.trace_id,
    dotted_order: r.dotted_order
  }
}

export function feedbackView(f: FeedbackRecord) {
  return {
    id: f.id,
    run_id: f.run_id,
    session_id: f.session_id,
    trace_id: f.trace_id,
    key: f.key,
    score: f.score,
    value: f.value,
    comment: f.comment,
    correction: f.correction,
    feedback_source: f.feedback_source,
    created_at: iso(f.created_at),
    modified_at: iso(f.created_at)
  }
}

/**
 * GET /_emulator/langsmith: every dataset (its examples and rules), experiment (session: its
 * metadata, its runs), run and feedback (pending too, with `visible_at`: null for never), and
 * the calls the surface answered.
 */
export function recorded(records: LangsmithRecords) {
  return {
    ingest: records.ingest,
    datasets: [...records.datasets.values()].map(d => ({
      ...datasetView(records, d),
      examples: d.examples.map(exampleView),
      evaluators: d.evaluators.map(r => ({ ...r }))
    })),
    experiments: [...records.sessions.values()].map(s => ({
      ...sessionView(records, s),
      metadata: (s.extra?.metadata as Record<string, unknown> | undefined) ?? null,
      runs: [...records.runs.values()].filter(r => r.session_id === s.id).map(r => r.id)
    })),
    runs: [...records.runs.values()].map(runView),
    feedback: [...records.feedback.values()].map(f => ({
      ...feedbackView(f),
      visible_at: iso(f.visible_at)
    })),
    faults: records.faults.map(h => ({ ...h.fault, seen: h.seen })),
    calls: records.calls.map(c => ({ ...c }))
  }
}
export type LangsmithRecorded = ReturnType<typeof recorded>
