// Fault kinds that lie about the model: an update answered with the old revision, a revision
// answer about another revision, a list that never ends. They need the state to lie believably.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { ListDeploymentsQuery } from '../../src/control-plane/schema.ts'
import { authenticate } from '../state/auth.ts'
import type { Context } from '../state/context.ts'
import { revisionState } from '../state/lifecycle.ts'
import type { DeploymentRecord } from '../state/store.ts'
import { deploymentView, revisionView } from '../state/views.ts'
import { faultKind } from './kind.ts'
import { matchFields } from './match.ts'

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * A PATCH answered with the deployment's previous `latest_revision_id` (`revision: oldest`: its
 * first revision instead). `write: applied` makes the update (a later GET shows the new
 * revision); `dropped` changes nothing and answers the deployment as it is.
 */
export const oldRevision = faultKind(
  z.object({
    ...matchFields({ method: 'PATCH', path: '/v2/deployments/*' }),
    kind: z.literal('old-revision'),
    write: z.enum(['applied', 'dropped']).default('applied'),
    revision: z.enum(['previous', 'oldest']).default('previous')
  }),
  (f, ex) => {
    if (f.write === 'dropped') return ex.send(ex.routeAs('GET'))
    const before = ex.ctx.store.deployments.get((ex.segments[2] ?? '').toLowerCase())
    const latest = before ? (ex.ctx.store.latestRevision(before)?.id ?? null) : null
    const previous = f.revision === 'oldest' ? (before?.revision_ids[0] ?? latest) : latest
    const reply = ex.normal()
    if (reply.status !== 200 || !isObject(reply.body)) return ex.send(reply)
    ex.send({ ...reply, body: { ...reply.body, latest_revision_id: previous } })
  }
)

function deployedOther(ctx: Context, dep: DeploymentRecord, askedId: string) {
  for (const id of [...dep.revision_ids].reverse()) {
    const rev = ctx.store.revisions.get(id)
    if (!rev || id === askedId) continue
    if (revisionState(ctx.store, rev, ctx.durations, ctx.clock.now()).status === 'DEPLOYED') {
      return revisionView(ctx, rev)
    }
  }
  return null
}

function previousOf(ctx: Context, dep: DeploymentRecord, askedId: string) {
  const id = dep.revision_ids[dep.revision_ids.indexOf(askedId) - 1]
  const rev = id === undefined ? undefined : ctx.store.revisions.get(id)
  return rev ? revisionView(ctx, rev) : null
}

/**
 * A revision GET answered 200 with another revision's body: `deployed` (default) the newest
 * other DEPLOYED revision of the deployment, `previous` the one created before it, `made-up` the
 * asked body under a random id. Without such a revision, a made-up one (DEPLOYED for `deployed`).
 * `status` overrides the status in the answer.
 */
export const otherRevision = faultKind(
  z.object({
    ...matchFields({ method: 'GET', path: '/v2/deployments/*/revisions/*' }),
    kind: z.literal('other-revision'),
    answer: z.enum(['deployed', 'previous', 'made-up']).default('deployed'),
    status: z.string().optional()
  }),
  (f, ex) => {
    const reply = ex.normal()
    if (reply.status !== 200 || !isObject(reply.body)) return ex.send(reply)
    const dep = ex.ctx.store.deployments.get((ex.segments[2] ?? '').toLowerCase())
    const askedId = (ex.segments[4] ?? '').toLowerCase()
    let body: Record<string, unknown> | null = null
    if (dep && f.answer === 'deployed') body = deployedOther(ex.ctx, dep, askedId)
    if (dep && f.answer === 'previous') body = previousOf(ex.ctx, dep, askedId)
    body ??= {
      ...reply.body,
      id: randomUUID(),
      ...(f.answer === 'deployed' ? { status: 'DEPLOYED' } : {})
    }
    if (f.status !== undefined) body = { ...body, status: f.status }
    ex.send({ ...reply, body })
  }
)

/** A stable, valid uuid for the n-th made-up deployment. */
const lookAlikeId = (n: number) =>
  `e0000000-0000-4000-8000-${n.toString(16).padStart(12, '0').slice(-12)}`

/**
 * A deployment list that never ends: every page is full (`limit` deployments whose names look
 * like the searched one), and the next `offset` advances for ever (`advance: false`: it stays the
 * requested offset).
 */
export const endlessList = faultKind(
  z.object({
    ...matchFields({ method: 'GET', path: '/v2/deployments' }),
    kind: z.literal('endless-list'),
    advance: z.boolean().default(true)
  }),
  (f, ex) => {
    const reply = ex.normal()
    const q = ListDeploymentsQuery.safeParse(ex.query)
    const auth = authenticate(ex.ctx.store, ex.req.headers)
    if (reply.status !== 200 || !q.success || !('tenant' in auth)) return ex.send(reply)
    const { limit, offset } = q.data
    const base = q.data.name_contains || 'agent'
    const now = ex.ctx.clock.real()
    const resources = Array.from({ length: limit }, (_, i) => {
      const record: DeploymentRecord = {
        id: lookAlikeId(offset + i),
        tenant_id: auth.tenant.id,
        name: `${base}-${offset + i + 1}`,
        source: 'codehost',
        source_config: {},
        secrets: [],
        secret_references: null,
        image_version: null,
        remote_reconciled: false,
        tag_value_ids: [],
        deployment_type: 'prod',
        compute_tier: 'DEDICATED_S',
        database_tier: 'DEDICATED_S',
        display_name: null,
        created_ms: now,
        updated_ms: now,
        created_v: ex.ctx.clock.now(),
        seeded: true,
        revision_ids: [],
        deleted_v: null,
        keeps_tracing_project: false,
        graphs: []
      }
      return deploymentView(ex.ctx, record)
    })
    ex.send({ status: 200, body: { resources, offset: f.advance ? offset + limit : offset } })
  }
)
