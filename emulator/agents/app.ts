// What an emulated agent server answers beyond its health: `/info` with the `host` block of the
// revision it serves (the previous one while that drains, or another as scripted), `/assistants/search`
// from the graphs of the deployed revision, and `/runs/wait` (echo, or scripted). Shapes follow a
// hosted agent server (docs/emulator.md says where the open-source JS server differs).
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { Context } from '../state/context.ts'
import type { Reply } from '../http/io.ts'
import { activeRevisionId, revisionState } from '../state/lifecycle.ts'
import type { DeploymentRecord, RevisionRecord } from '../state/store.ts'

export const AgentAppSpec = z
  .object({
    /** The first n `/info` answers show the previous revision (the drain, scripted by count). */
    previousFirst: z.number().int().min(0).default(0),
    /** Every `/info` answer shows the previous revision: the new one never serves. */
    previous: z.boolean().default(false),
    /** false: `/info` has no `host` block, as older servers and the JS server. */
    host: z.boolean().default(true),
    /** Only the first n `/info` answers have the `host` block (an older server then answers). */
    hostFirst: z.number().int().min(0).optional(),
    /** `host.host_revision_id` names this revision instead (a server that serves another one). */
    revisionId: z.string().min(1).optional(),
    /** `host.project_id` names this deployment instead (a server of another deployment). */
    projectId: z.string().min(1).optional(),
    /** The graphs served, instead of the deployed revision's. */
    graphs: z.array(z.string().min(1)).optional(),
    /** `/assistants/search` answers this status (e.g. 401 under custom auth). */
    assistantsStatus: z.number().int().min(400).max(599).optional(),
    /** The first n `/assistants/search` answers are `failStatus` (a server still warming up). */
    assistantsFailFirst: z.number().int().min(0).default(0),
    /** What a transient failure answers (`assistantsFailFirst`, `runs.failFirst`). */
    failStatus: z.number().int().min(500).max(599).default(503),
    runs: z
      .object({
        /** Run n answers `outputs[n - 1]`; past its end, the input echoed. */
        outputs: z.array(z.unknown()).default([]),
        /** Every run fails with this message (`{"__error__": …}`, as the server answers). */
        error: z.string().optional(),
        /** Each answer comes this late (real ms). */
        delayMs: z.number().int().min(0).max(600_000).default(0),
        /** `/runs/wait` answers this status (e.g. 401). */
        status: z.number().int().min(400).max(599).optional(),
        /** The first n `/runs/wait` answers are `failStatus`. */
        failFirst: z.number().int().min(0).default(0),
        /**
         * `/runs/wait` answers no run at all: a 302 to a sign-in page, a 204, or a 200 HTML page
         * (what a proxy or an auth layer before the server may answer).
         */
        answer: z.enum(['sign-in-redirect', 'no-content', 'html-page']).optional()
      })
      .strict()
      .default({ outputs: [], delayMs: 0, failFirst: 0 })
  })
  .strict()
export type AgentAppSpec = z.input<typeof AgentAppSpec>
export type AgentApp = z.output<typeof AgentAppSpec>

/** The graphs of a revision: the uploaded config's keys when recorded, else a fixture's one. */
export const graphsOf = (rev: RevisionRecord & { graphs?: string[] }): string[] =>
  rev.graphs ?? ['agent']

/** The build of the API that answers `/info` (`host.revision_id`: not the deployment's revision). */
const API_BUILD = 'b5e0c1f2-7a3d-4e9b-8c61-0f2a9d4e7b13'
const LANGGRAPH_VERSION = '1.0.3'

export interface Served {
  /** The revision whose code answers, and the one the deployment last deployed. */
  served: RevisionRecord
  active: RevisionRecord
}

/**
 * Which revision answers `/info` probe `n`: the active one, or the one before it while it drains
 * (`DRAIN` after the active one became DEPLOYED) or as scripted. Null when none is DEPLOYED.
 */
export function servedRevision(
  ctx: Context,
  dep: DeploymentRecord,
  app: AgentApp,
  n: number
): Served | null {
  const now = ctx.clock.now()
  const activeId = activeRevisionId(ctx.store, dep, ctx.durations, now)
  const active = activeId === null ? undefined : ctx.store.revisions.get(activeId)
  if (!active) return null
  const deployedAt = revisionState(ctx.store, active, ctx.durations, now).deployed_v ?? now
  const beforeId = activeRevisionId(ctx.store, dep, ctx.durations, deployedAt - 1)
  const before = beforeId === null ? undefined : ctx.store.revisions.get(beforeId)
  if (!before || before.id === active.id) return { served: active, active }
  const draining = !active.seeded && now < deployedAt + ctx.durations.DRAIN
  const stale = app.previous || n <= app.previousFirst || draining
  return { served: stale ? before : active, active }
}

/** The `/info` body of a hosted server that serves `rev`. */
export function infoBody(
  dep: DeploymentRecord,
  rev: RevisionRecord,
  app: AgentApp,
  n = 1
): unknown {
  const body: Record<string, unknown> = {
    version: dep.image_version ?? '0.4.12',
    langgraph_py_version: LANGGRAPH_VERSION,
    flags: { assistants: true, crons: true, langsmith: true, langsmith_tracing_replicas: true }
  }
  if (app.host && (app.hostFirst === undefined || n <= app.hostFirst)) {
    body.host = {
      kind: 'saas',
      project_id: app.projectId ?? dep.id,
      host_revision_id: app.revisionId ?? rev.id,
      revision_id: API_BUILD,
      tenant_id: dep.tenant_id
    }
  }
  return body
}

/** The default assistant the server creates for a graph at start (a stable id per graph). */
function assistant(dep: DeploymentRecord, rev: RevisionRecord, graph: string) {
  const h = createHash('sha1').update(`${dep.id}/${graph}`).digest('hex')
  const id = `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
  const at = new Date(rev.created_ms).toISOString()
  return {
    assistant_id: id,
    graph_id: graph,
    name: graph,
    description: null,
    version: 1,
    config: {},
    context: {},
    metadata: { created_by: 'system' },
    created_at: at,
    updated_at: at
  }
}

const SearchBody = z.object({
  graph_id: z.string().optional(),
  limit: z.number().int().min(1).max(1000).default(10),
  offset: z.number().int().min(0).default(0)
})

/** `POST /assistants/search`: the default assistants of the served graphs. */
export function searchAssistants(
  dep: DeploymentRecord,
  rev: RevisionRecord,
  app: AgentApp,
  body: unknown,
  n = Number.POSITIVE_INFINITY
): Reply {
  if (app.assistantsStatus !== undefined) return unauthorized(app.assistantsStatus)
  if (n <= app.assistantsFailFirst) return unavailable(app.failStatus)
  const parsed = SearchBody.safeParse(body ?? {})
  if (!parsed.success) return { status: 422, body: { detail: z.prettifyError(parsed.error) } }
  const { graph_id, limit, offset } = parsed.data
  const graphs = (app.graphs ?? graphsOf(rev)).filter(g => graph_id === undefined || g === graph_id)
  return {
    status: 200,
    body: graphs.slice(offset, offset + limit).map(g => assistant(dep, rev, g))
  }
}

const WaitBody = z.object({
  assistant_id: z.string().min(1),
  input: z.unknown().optional(),
  on_completion: z.enum(['delete', 'keep']).optional()
})

/** `POST /runs/wait` run number `n`: its final values (by default the input, echoed). */
export function runWait(
  dep: DeploymentRecord,
  rev: RevisionRecord,
  app: AgentApp,
  body: unknown,
  n: number
): Reply {
  if (app.runs.status !== undefined) return unauthorized(app.runs.status)
  if (n <= app.runs.failFirst) return unavailable(app.failStatus)
  if (app.runs.answer !== undefined) return NOT_A_RUN[app.runs.answer]
  const parsed = WaitBody.safeParse(body ?? {})
  if (!parsed.success) return { status: 422, body: { detail: z.prettifyError(parsed.error) } }
  const { assistant_id: id, input } = parsed.data
  const graphs = app.graphs ?? graphsOf(rev)
  if (!graphs.some(g => g === id || assistant(dep, rev, g).assistant_id === id)) {
    return {
      status: 404,
      text: `No assistant found for "${id}". Make sure the assistant ID is for a valid assistant or a valid graph ID.`
    }
  }
  if (app.runs.error !== undefined) {
    return { status: 200, body: { __error__: { error: 'Error', message: app.runs.error } } }
  }
  const scripted = n <= app.runs.outputs.length
  return { status: 200, body: scripted ? app.runs.outputs[n - 1] : (input ?? null) }
}

/** What answers in place of a run: an auth layer's sign-in redirect, nothing, or a web page. */
const NOT_A_RUN: Record<NonNullable<AgentApp['runs']['answer']>, Reply> = {
  'sign-in-redirect': {
    status: 302,
    headers: { location: 'https://login.example.invalid/sign-in?next=%2Fruns%2Fwait' },
    text: ''
  },
  'no-content': { status: 204, text: '' },
  'html-page': {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    text: '<!doctype html><html><head><title>Sign in</title></head><body>Please sign in</body></html>'
  }
}

/** A transient failure, as a server still starting (or a proxy before it) answers. */
function unavailable(status: number): Reply {
  return { status, body: { detail: 'Service temporarily unavailable, try again.' } }
}

function unauthorized(status: number): Reply {
  const text = status === 401 ? 'Missing authentication.' : 'Not authorized.'
  return { status, body: { detail: text } }
}
