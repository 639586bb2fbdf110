// The operations of the production service beyond the interface (docs/control-plane.md, "Operations
// beyond the interface"): list revisions, redeploy a revision, delete a deployment, revision logs.
import type { z } from 'zod'
import {
  DeleteDeploymentQuery,
  ListRevisionsQuery,
  RevisionLogsQuery
} from '../../src/control-plane/schema.ts'
import type { Context } from '../state/context.ts'
import { detail, type Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'
import { revisionState } from '../state/lifecycle.ts'
import { deploymentDeployLog } from './deployment-logs.ts'
import { revisionLogs, type LogEntry } from '../builds/logs.ts'
import { addRevision, bodyPart, isReply, locate } from './requests.ts'
import type { RevisionRecord, TenantRecord } from '../state/store.ts'
import { deploymentView, revisionView } from '../state/views.ts'

export function listRevisions(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  query: Record<string, string>
): Reply {
  const found = locate(ctx, tenant, { deployment: deploymentId }, [
    { location: 'query', schema: ListRevisionsQuery, input: query }
  ])
  if (!found.ok) return found.reply
  const { dep } = found
  const q = found.values[0] as z.output<typeof ListRevisionsQuery>
  const statuses = q.status
    ?.split(',')
    .map(s => s.trim().toUpperCase())
    .filter(Boolean)
  const now = ctx.clock.now()
  const newestFirst = [...dep.revision_ids]
    .reverse()
    .map(id => ctx.store.revisions.get(id)!)
    .filter(
      r =>
        !statuses?.length ||
        statuses.includes(revisionState(ctx.store, r, ctx.durations, now).status)
    )
  const page = newestFirst.slice(q.offset, q.offset + q.limit)
  return {
    status: 200,
    body: { resources: page.map(r => revisionView(ctx, r)), offset: q.offset + page.length }
  }
}

/** A new revision with that revision's configuration and source; 200 with the deployment. */
export function redeployRevision(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  revisionId: string
): Reply {
  const found = locate(ctx, tenant, { deployment: deploymentId, revision: revisionId })
  if (!found.ok) return found.reply
  const { dep, rev } = found
  if (dep.deleted_v !== null) return detail(400, `Deployment ID ${deploymentId} is being deleted.`)
  addRevision(ctx, dep, rev.source, { ...rev.source_revision_config })
  dep.updated_ms = ctx.clock.real()
  return { status: 200, body: deploymentView(ctx, dep) }
}

/** 204; the deployment shows AWAITING_DELETE for a while, then reads answer 404. */
export function deleteDeployment(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  query: Record<string, string>
): Reply {
  const found = locate(ctx, tenant, { deployment: deploymentId }, [
    { location: 'query', schema: DeleteDeploymentQuery, input: query }
  ])
  if (!found.ok) return found.reply
  const { dep } = found
  const q = found.values[0] as z.output<typeof DeleteDeploymentQuery>
  // Without delete_tracing_project the project keeps the name; a later DELETE may still ask.
  if (q.delete_tracing_project) dep.keeps_tracing_project = false
  else if (dep.deleted_v === null) dep.keeps_tracing_project = true
  dep.deleted_v ??= ctx.clock.now()
  dep.updated_ms = ctx.clock.real()
  return { status: 204 }
}

/** The opaque cursor of the log pages: the index of the next line, in the requested order. */
const cursor = (index: number) => Buffer.from(`line:${index}`).toString('base64url')
function fromCursor(offset: string | undefined): number | null {
  if (offset === undefined || offset === '') return 0
  const m = /^line:(\d+)$/.exec(Buffer.from(offset, 'base64url').toString('utf8'))
  return m ? Number(m[1]) : null
}

type LogOptions = Omit<z.output<typeof RevisionLogsQuery>, 'type'>

/** One page of `lines` (null: no such log, 404 `missing`), filtered, ordered, from the cursor. */
function logPage(lines: LogEntry[] | null, missing: string, q: LogOptions): Reply {
  if (!lines) return detail(404, missing)
  const start = fromCursor(q.offset)
  if (start === null) {
    return {
      status: 422,
      body: {
        detail: [
          {
            loc: ['query', 'offset'],
            msg: 'Value error, not a cursor returned by this endpoint',
            type: 'value_error',
            input: q.offset
          }
        ]
      }
    }
  }
  const levels = q.level?.split(',').map(l => l.trim().toUpperCase())
  const text = q.query?.toLowerCase()
  const from = q.start_time ? Date.parse(q.start_time) : -Infinity
  const to = q.end_time ? Date.parse(q.end_time) : Infinity
  const matching = lines.filter((l: LogEntry) => {
    const t = Date.parse(l.timestamp)
    return (
      (!levels || levels.includes(l.level)) &&
      (!text || l.message.toLowerCase().includes(text)) &&
      t >= from &&
      t <= to
    )
  })
  const ordered = q.order === 'desc' ? matching.reverse() : matching
  const page = ordered.slice(start, start + q.limit)
  const next = start + page.length
  return {
    status: 200,
    body: { logs: page, next_offset: next < ordered.length ? cursor(next) : null }
  }
}

/** `GET .../revisions/{rid}/logs?type=build|deploy&order&limit&offset&level&query&...` */
export function getRevisionLogs(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  revisionId: string,
  query: Record<string, string>
): Reply {
  const found = locate(ctx, tenant, { deployment: deploymentId, revision: revisionId }, [
    { location: 'query', schema: RevisionLogsQuery, input: query }
  ])
  if (!found.ok) return found.reply
  const q = found.values[0] as z.output<typeof RevisionLogsQuery>
  return revisionLogPage(ctx, found.rev, revisionId, q.type, q)
}

function revisionLogPage(
  ctx: Context,
  rev: RevisionRecord,
  revisionId: string,
  type: 'build' | 'deploy',
  q: LogOptions
): Reply {
  // A build not started yet has an empty log, not none (`langgraph deploy logs --type build`
  // exits 1 on a 404); a deploy log that has not begun is still 404.
  const lines = revisionLogs(ctx, rev)[type] ?? (type === 'build' ? [] : null)
  return logPage(lines, `No ${type} logs found for revision ${revisionId}.`, q)
}

/** The v1 body: the query's fields but `type` (the path names it); an absent body is {}. */
const V1LogsBody = RevisionLogsQuery.omit({ type: true })

/** The older form: `POST /v1/projects/{id}/revisions/{rid}/build_logs` with `{order, limit, offset}`. */
export function postRevisionLogsV1(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  revisionId: string,
  type: 'build' | 'deploy',
  body: Body
): Reply {
  const part = body.kind === 'none' ? null : bodyPart(body, V1LogsBody)
  if (part && isReply(part)) return part
  const found = locate(
    ctx,
    tenant,
    { deployment: deploymentId, revision: revisionId },
    part ? [part] : []
  )
  if (!found.ok) return found.reply
  const opts = (part ? found.values[0] : V1LogsBody.parse({})) as LogOptions
  return revisionLogPage(ctx, found.rev, revisionId, type, opts)
}

/**
 * `POST /v1/projects/{id}/deploy_logs`: the deployment's deploy log (every revision's, then the
 * live server's), the default of `langgraph deploy logs`. Same body and answer as the revision
 * form; an empty log is an empty page, not a 404.
 */
export function postDeploymentDeployLogsV1(
  ctx: Context,
  tenant: TenantRecord,
  deploymentId: string,
  body: Body
): Reply {
  const part = body.kind === 'none' ? null : bodyPart(body, V1LogsBody)
  if (part && isReply(part)) return part
  const found = locate(ctx, tenant, { deployment: deploymentId }, part ? [part] : [])
  if (!found.ok) return found.reply
  const opts = (part ? found.values[0] : V1LogsBody.parse({})) as LogOptions
  return logPage(deploymentDeployLog(ctx, found.dep), '', opts)
}
