// The LangSmith API an evaluation gate calls, and its admin API. Served under
// `<emulator url>/_langsmith` (a gate's `langsmith-api-url`; `/_langsmith/api/v1/...` answers
// the same), with the control plane's keys checked in X-Api-Key (and X-Tenant-Id) as the service
// checks them. `GET /info` needs no key.
// Its admin API: POST /_emulator/langsmith seeds datasets (examples, evaluator rules), GET shows
// everything recorded, DELETE resets it.
import type { IncomingHttpHeaders } from 'node:http'
import { z } from 'zod'
import * as api from '../langsmith/api.ts'
import type { LangsmithRecords } from '../langsmith/records.ts'
import { recorded } from '../langsmith/views.ts'
import { detail, type Reply } from '../http/io.ts'
import { authenticate } from '../state/auth.ts'
import type { Store } from '../state/store.ts'
import { Router, segmentsOf } from './router.ts'

export const LANGSMITH_PREFIX = '/_langsmith'
const ADMIN_PATH = '/_emulator/langsmith'

type Handler = (ls: LangsmithRecords, r: api.LangsmithRequest, params: string[]) => Reply

const router = new Router<Handler>([
  { pattern: '/datasets', methods: { GET: api.listDatasets } },
  { pattern: '/datasets/:id', methods: { GET: (ls, r, [id]) => api.readDataset(ls, r, id!) } },
  { pattern: '/examples', methods: { GET: api.listExamples } },
  { pattern: '/sessions', methods: { GET: api.listSessions, POST: api.createSession } },
  {
    pattern: '/sessions/:id',
    methods: {
      GET: (ls, r, [id]) => api.readSession(ls, r, id!),
      PATCH: (ls, r, [id]) => api.patchSession(ls, r, id!)
    }
  },
  { pattern: '/runs', methods: { POST: api.postRun } },
  { pattern: '/runs/batch', methods: { POST: api.batchRuns } },
  { pattern: '/runs/multipart', methods: { POST: api.multipartRuns } },
  { pattern: '/runs/query', methods: { POST: api.queryRuns } },
  {
    pattern: '/runs/:id',
    methods: {
      GET: (ls, r, [id]) => api.readRun(ls, r, id!),
      PATCH: (ls, r, [id]) => api.patchRun(ls, r, id!)
    }
  },
  { pattern: '/feedback', methods: { GET: api.listFeedback, POST: api.createFeedback } },
  { pattern: '/feedback/:id', methods: { GET: (ls, r, [id]) => api.readFeedback(ls, r, id!) } }
])

export interface LangsmithHost {
  langsmith: LangsmithRecords
  store: Store
  realNow: () => number
}

export interface LangsmithCallIn {
  method: string
  /** The path below the prefix, e.g. `/datasets` or `/api/v1/datasets`. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  raw: Buffer
}

function route(host: LangsmithHost, call: LangsmithCallIn, path: string): Reply {
  const found = router.match(call.method, segmentsOf(path.replace(/\/$/, '')))
  if (found.kind === 'no-path') return detail(404, 'Not Found')
  if (found.kind === 'no-method') {
    return { ...detail(405, 'Method Not Allowed'), headers: { allow: found.allow.join(', ') } }
  }
  const auth = authenticate(host.store, call.headers)
  if ('reply' in auth) return auth.reply
  let body: unknown = undefined
  if (call.raw.length > 0 && !/^multipart\//i.test(String(call.headers['content-type']))) {
    try {
      body = JSON.parse(call.raw.toString('utf8'))
    } catch {
      return detail(422, 'The body is not JSON.')
    }
  }
  const request: api.LangsmithRequest = {
    tenant: auth.tenant.id,
    query: call.query,
    body,
    raw: call.raw,
    contentType: call.headers['content-type']
  }
  return found.handler(host.langsmith, request, found.params)
}

/** Answers a request under the prefix, and records it (method, path, query, status). */
export function serveLangsmith(host: LangsmithHost, call: LangsmithCallIn): Reply {
  const path = call.path.replace(/^\/api\/v1(?=\/|$)/, '') || '/'
  const method = call.method.toUpperCase()
  const fault = host.langsmith.takeFault(method, path)
  const reply = fault
    ? {
        ...detail(fault.status, fault.detail),
        headers: fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) }
      }
    : path === '/info' && (method === 'GET' || method === 'HEAD')
      ? api.info(host.langsmith)
      : route(host, { ...call, method }, path)
  const query: Record<string, string | string[]> = {}
  for (const key of new Set(call.query.keys())) {
    const values = call.query.getAll(key)
    query[key] = values.length === 1 ? values[0]! : values
  }
  host.langsmith.record({
    time: new Date(host.realNow()).toISOString(),
    method,
    path: call.path,
    query,
    status: reply.status
  })
  return reply
}

/** Answers an admin request under `/_emulator/langsmith`, or null when the path is another. */
export function handleLangsmithAdmin(
  ls: LangsmithRecords,
  method: string,
  path: string,
  raw: Buffer
): Reply | null {
  if (path.replace(/\/$/, '') !== ADMIN_PATH) return null
  const m = method.toUpperCase()
  if (m === 'GET') return { status: 200, body: recorded(ls) }
  if (m === 'DELETE') {
    ls.clear()
    return { status: 200, body: recorded(ls) }
  }
  if (m !== 'POST') return { ...detail(405, `${path} takes GET, POST, DELETE.`) }
  try {
    const seeded = ls.seed(raw.length ? JSON.parse(raw.toString('utf8')) : {})
    return {
      status: 200,
      body: {
        datasets: seeded.map(d => ({
          id: d.id,
          name: d.name,
          tenant_id: d.tenant_id,
          example_ids: d.examples.map(e => e.id)
        }))
      }
    }
  } catch (error) {
    const text = error instanceof z.ZodError ? z.prettifyError(error) : String(error)
    return detail(400, text)
  }
}
