// The LangSmith API's operations, as the official `langsmith` client calls them: datasets and
// examples (read), sessions (experiments: created, listed with filters, read, patched), runs
// (one at a time, in a JSON batch or multipart), the runs' query, feedback (created, listed).
// Lists page by `offset` and `limit` (at most 100), as the client pages them.
import { z } from 'zod'
import { detail, type Reply } from '../http/io.ts'
import { ingestOf, parseMultipart } from './multipart.ts'
import {
  FeedbackCreate,
  RunBatch,
  RunQuery,
  RunWrite,
  SessionCreate,
  SessionPatch
} from './model.ts'
import { toMs, type LangsmithRecords, type SessionRecord } from './records.ts'
import { datasetView, exampleView, feedbackView, runView, sessionView } from './views.ts'

/** One request, once its tenant is known. */
export interface LangsmithRequest {
  tenant: string
  query: URLSearchParams
  /** The JSON body (undefined when there is none, or it is not JSON). */
  body: unknown
  raw: Buffer
  contentType: string | undefined
}

const ok = (body: unknown, status = 200): Reply => ({ status, body })
const accepted = (): Reply => ok({}, 202)

/** A body that is not the shape asked for: 422, as the service's validation answers. */
export function invalid(error: unknown): Reply {
  const text = error instanceof z.ZodError ? z.prettifyError(error) : String(error)
  return detail(422, text)
}

function page<T>(items: T[], query: URLSearchParams): T[] {
  const offset = Math.max(0, Number(query.get('offset')) || 0)
  const limit = Math.min(100, Math.max(1, Number(query.get('limit')) || 100))
  return items.slice(offset, offset + limit)
}

const all = (query: URLSearchParams, name: string) => query.getAll(name).map(v => v.toLowerCase())

/** `GET /info`: which ingest endpoint the client is to use, and its limits. */
export function info(ls: LangsmithRecords): Reply {
  return ok({
    version: '0.12.0',
    batch_ingest_config: {
      use_multipart_endpoint: ls.ingest === 'multipart',
      size_limit: 100,
      size_limit_bytes: 20 * 1024 * 1024,
      scale_up_qsize_trigger: 1000,
      scale_up_nthreads_limit: 16,
      scale_down_nempty_trigger: 4
    },
    instance_flags: {}
  })
}

export function listDatasets(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const ids = all(r.query, 'id')
  const name = r.query.get('name')
  const contains = r.query.get('name_contains')?.toLowerCase()
  const found = ls
    .datasetsOf(r.tenant)
    .filter(d => (ids.length === 0 || ids.includes(d.id)) && (name === null || d.name === name))
    .filter(d => contains === undefined || d.name.toLowerCase().includes(contains))
  return ok(page(found, r.query).map(d => datasetView(ls, d)))
}

export function readDataset(ls: LangsmithRecords, r: LangsmithRequest, id: string): Reply {
  const d = ls.datasets.get(id.toLowerCase())
  if (!d || d.tenant_id !== r.tenant) return detail(404, 'Dataset not found')
  return ok(datasetView(ls, d))
}

export function listExamples(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const dataset = r.query.get('dataset')?.toLowerCase()
  const ids = all(r.query, 'id')
  const splits = r.query.getAll('splits')
  const d = dataset === undefined ? undefined : ls.datasets.get(dataset)
  if (dataset !== undefined && (!d || d.tenant_id !== r.tenant)) {
    return detail(404, 'Dataset not found')
  }
  const examples = (d ? [d] : ls.datasetsOf(r.tenant)).flatMap(x => x.examples)
  const found = examples.filter(
    e =>
      (ids.length === 0 || ids.includes(e.id)) &&
      (splits.length === 0 || (e.split !== null && splits.includes(e.split)))
  )
  return ok(page(found, r.query).map(exampleView))
}

export function createSession(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const parsed = SessionCreate.safeParse(r.body)
  if (!parsed.success) return invalid(parsed.error)
  const s = parsed.data
  const made = ls.createSession(r.tenant, {
    id: s.id,
    name: s.name,
    description: s.description ?? null,
    extra: s.extra ?? null,
    reference_dataset_id: s.reference_dataset_id?.toLowerCase() ?? null,
    start_time: toMs(s.start_time, ls.now()),
    end_time: s.end_time == null ? null : toMs(s.end_time, ls.now())
  })
  if ('missing' in made) return detail(404, 'Dataset not found')
  if ('conflict' in made) {
    const existing = ls.sessionsOf(r.tenant).find(o => o.name === made.conflict)!
    if (r.query.get('upsert') === 'true') return ok(sessionView(ls, existing))
    return detail(409, 'Session already exists.')
  }
  return ok(sessionView(ls, made))
}

/** Whether a session's `extra.metadata` holds every key of `wanted` with the same value. */
function hasMetadata(s: SessionRecord, wanted: Record<string, unknown>): boolean {
  const metadata = (s.extra?.metadata ?? {}) as Record<string, unknown>
  return Object.entries(wanted).every(([k, v]) => JSON.stringify(metadata[k]) === JSON.stringify(v))
}

/** `GET /sessions`: by id, name, reference dataset, metadata; the newest first. */
export function listSessions(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const ids = all(r.query, 'id')
  const datasets = all(r.query, 'reference_dataset')
  const name = r.query.get('name')
  const contains = r.query.get('name_contains')?.toLowerCase()
  const free = r.query.get('reference_free')
  let metadata: Record<string, unknown> = {}
  try {
    metadata = z.record(z.string(), z.unknown()).parse(JSON.parse(r.query.get('metadata') ?? '{}'))
  } catch (error) {
    return invalid(error)
  }
  const found = ls
    .sessionsOf(r.tenant)
    .filter(s => (ids.length === 0 || ids.includes(s.id)) && (name === null || s.name === name))
    .filter(s => contains === undefined || s.name.toLowerCase().includes(contains))
    .filter(s => datasets.length === 0 || datasets.includes(s.reference_dataset_id ?? ''))
    .filter(s => free === null || (free === 'true') === (s.reference_dataset_id === null))
    .filter(s => hasMetadata(s, metadata))
    .sort((a, b) => b.start_time - a.start_time)
  return ok(page(found, r.query).map(s => sessionView(ls, s)))
}

function sessionOf(ls: LangsmithRecords, r: LangsmithRequest, id: string) {
  const s = ls.sessions.get(id.toLowerCase())
  return s && s.tenant_id === r.tenant ? s : undefined
}

export function readSession(ls: LangsmithRecords, r: LangsmithRequest, id: string): Reply {
  const s = sessionOf(ls, r, id)
  return s ? ok(sessionView(ls, s)) : detail(404, 'Session not found')
}

/** `PATCH /sessions/{id}`: a field given replaces it (`extra` whole); null leaves it. */
export function patchSession(ls: LangsmithRecords, r: LangsmithRequest, id: string): Reply {
  const s = sessionOf(ls, r, id)
  if (!s) return detail(404, 'Session not found')
  const parsed = SessionPatch.safeParse(r.body)
  if (!parsed.success) return invalid(parsed.error)
  const p = parsed.data
  if (p.name != null) s.name = p.name
  if (p.description != null) s.description = p.description
  if (p.extra != null) s.extra = p.extra
  if (p.end_time != null) s.end_time = toMs(p.end_time, ls.now())
  return ok(sessionView(ls, s))
}

export function postRun(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const parsed = RunWrite.safeParse(r.body)
  if (!parsed.success) return invalid(parsed.error)
  return ls.postRun(r.tenant, parsed.data) ? accepted() : detail(404, 'Session not found')
}

export function patchRun(ls: LangsmithRecords, r: LangsmithRequest, id: string): Reply {
  const parsed = RunWrite.safeParse(r.body)
  if (!parsed.success) return invalid(parsed.error)
  return ls.patchRun(r.tenant, id, parsed.data) ? accepted() : detail(404, 'Run not found')
}

export function readRun(ls: LangsmithRecords, r: LangsmithRequest, id: string): Reply {
  const run = ls.runs.get(id.toLowerCase())
  return run && run.tenant_id === r.tenant ? ok(runView(run)) : detail(404, 'Run not found')
}

/** Posts, then patches (a patch of a run not posted is dropped, as the service drops it). */
function ingest(ls: LangsmithRecords, tenant: string, body: unknown): Reply {
  const parsed = RunBatch.safeParse(body)
  if (!parsed.success) return invalid(parsed.error)
  for (const run of parsed.data.post) ls.postRun(tenant, run)
  for (const run of parsed.data.patch) if (run.id) ls.patchRun(tenant, run.id, run)
  return accepted()
}

export function batchRuns(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  return ingest(ls, r.tenant, r.body)
}

export function multipartRuns(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const parts = parseMultipart(r.raw, r.contentType)
  if (!parts) return detail(422, 'The body is not multipart/form-data.')
  const found = ingestOf(parts)
  if ('error' in found) return detail(422, found.error)
  const feedback = z.array(FeedbackCreate).safeParse(found.feedback)
  if (!feedback.success) return invalid(feedback.error)
  const reply = ingest(ls, r.tenant, { post: found.post, patch: found.patch })
  if (reply.status === 202) for (const f of feedback.data) ls.addFeedback(r.tenant, f)
  return reply
}

/** `POST /runs/query`, as `listRuns` sends it: one page holds every match. */
export function queryRuns(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const parsed = RunQuery.safeParse(r.body ?? {})
  if (!parsed.success) return invalid(parsed.error)
  const q = parsed.data
  const low = (ids: string[] | null | undefined) => ids?.map(i => i.toLowerCase())
  const [sessions, ids, examples] = [low(q.session), low(q.id), low(q.reference_example)]
  const runs = [...ls.runs.values()].filter(
    run =>
      run.tenant_id === r.tenant &&
      (!sessions || sessions.includes(run.session_id)) &&
      (!ids || ids.includes(run.id)) &&
      (!examples || examples.includes(run.reference_example_id ?? '')) &&
      (q.is_root == null || q.is_root === (run.parent_run_id === null)) &&
      (q.error == null || q.error === (run.error !== null))
  )
  return ok({ runs: runs.slice(0, q.limit ?? undefined).map(runView), cursors: { next: null } })
}

export function createFeedback(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const parsed = FeedbackCreate.safeParse(r.body)
  if (!parsed.success) return invalid(parsed.error)
  if (!parsed.data.run_id && !parsed.data.session_id) {
    return detail(422, 'Feedback needs a run_id or a session_id.')
  }
  return ok(feedbackView(ls.addFeedback(r.tenant, parsed.data)))
}

/** `GET /feedback`: what can be read now, by run, key, source type, session. */
export function listFeedback(ls: LangsmithRecords, r: LangsmithRequest): Reply {
  const runs = all(r.query, 'run')
  const keys = r.query.getAll('key')
  const sources = r.query.getAll('source')
  const sessions = all(r.query, 'session')
  const found = ls
    .visibleFeedback(r.tenant)
    .filter(f => runs.length === 0 || runs.includes(f.run_id ?? ''))
    .filter(f => keys.length === 0 || keys.includes(f.key))
    .filter(f => sources.length === 0 || sources.includes(f.feedback_source.type))
    .filter(f => sessions.length === 0 || sessions.includes(f.session_id ?? ''))
  return ok(page(found, r.query).map(feedbackView))
}

export function readFeedback(ls: LangsmithRecords, r: LangsmithRequest, id: string): Reply {
  const f = ls.visibleFeedback(r.tenant).find(x => x.id === id.toLowerCase())
  return f ? ok(feedbackView(f)) : detail(404, 'Feedback not found')
}
