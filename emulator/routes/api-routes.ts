// The interface's routes: a method and a path (relative to the base path) to an operation.
import type { IncomingHttpHeaders } from 'node:http'
import { authenticate } from '../state/auth.ts'
import type { Context } from '../state/context.ts'
import { detail, type Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'
import * as beyond from '../operations/beyond.ts'
import * as clients from '../operations/clients.ts'
import * as op from '../operations/interface.ts'
import { Router } from './router.ts'
import { setResourceTiers } from '../operations/tiers.ts'
import type { TenantRecord } from '../state/store.ts'

export interface ApiRequest {
  method: string
  /** Path segments, URL-decoded, relative to the base path. */
  segments: string[]
  query: Record<string, string>
  headers: IncomingHttpHeaders
  body: Body
  /** `http://<host the client used><base path>`: where URLs handed out point. */
  origin: string
}

type Handler = (ctx: Context, tenant: TenantRecord, req: ApiRequest, params: string[]) => Reply

const NOT_FOUND = detail(404, 'Not Found')

const router = new Router<Handler>([
  {
    pattern: '/v2/listeners/:listener_id',
    methods: { DELETE: (c, t, _r, p) => op.deleteListener(c, t, p[0]!) }
  },
  {
    pattern: '/v1/integrations/forge/codehost/:integration_id/repos',
    methods: { GET: (c, t, _r, p) => op.listRepositories(c, t, p[0]!) }
  },
  // The integration lists, and the older (non-forge) repository path; the langsmith dialect names
  // them `.../github/...` (dialect.ts).
  ...['/v1/integrations/forge/codehost/install', '/v1/integrations/codehost/install'].map(
    pattern => ({
      pattern,
      methods: { GET: ((c, t) => clients.listIntegrations(c, t)) as Handler }
    })
  ),
  {
    pattern: '/v1/integrations/codehost/:integration_id/repos',
    methods: { GET: (c, t, _r, p) => op.listRepositories(c, t, p[0]!) }
  },
  {
    pattern: '/v2/deployments',
    methods: {
      GET: (c, t, r) => op.listDeployments(c, t, r.query),
      POST: (c, t, r) => op.createDeployment(c, t, r.body)
    }
  },
  {
    pattern: '/v2/deployments/:deployment_id',
    methods: {
      GET: (c, t, _r, p) => op.getDeployment(c, t, p[0]!),
      PATCH: (c, t, r, p) => op.patchDeployment(c, t, p[0]!, r.body),
      DELETE: (c, t, r, p) => beyond.deleteDeployment(c, t, p[0]!, r.query)
    }
  },
  {
    pattern: '/v2/deployments/:deployment_id/revisions',
    methods: {
      GET: (c, t, r, p) => beyond.listRevisions(c, t, p[0]!, r.query),
      POST: (c, t, r, p) => clients.createRevision(c, t, p[0]!, r.body)
    }
  },
  {
    pattern: '/v2/deployments/:deployment_id/resource-tiers',
    methods: { PATCH: (c, t, r, p) => setResourceTiers(c, t, p[0]!, r.body) }
  },
  {
    pattern: '/v2/deployments/:deployment_id/push-token',
    methods: { POST: (c, t, _r, p) => clients.pushToken(c, t, p[0]!) }
  },
  {
    pattern: '/v2/deployments/:deployment_id/upload-url',
    methods: { POST: (c, t, r, p) => clients.uploadUrl(c, t, p[0]!, r.origin) }
  },
  {
    pattern: '/v2/deployments/:deployment_id/revisions/:revision_id',
    methods: { GET: (c, t, _r, p) => op.getRevision(c, t, p[0]!, p[1]!) }
  },
  {
    pattern: '/v2/deployments/:deployment_id/revisions/:revision_id/redeploy',
    methods: { POST: (c, t, _r, p) => beyond.redeployRevision(c, t, p[0]!, p[1]!) }
  },
  {
    pattern: '/v2/deployments/:deployment_id/revisions/:revision_id/logs',
    methods: {
      GET: (c, t, r, p) =>
        c.logsApi === 'v1' ? NOT_FOUND : beyond.getRevisionLogs(c, t, p[0]!, p[1]!, r.query)
    }
  },
  ...(['build', 'deploy'] as const).map(type => ({
    pattern: `/v1/projects/:deployment_id/revisions/:revision_id/${type}_logs`,
    methods: {
      POST: ((c, t, r, p) =>
        c.logsApi === 'v2'
          ? NOT_FOUND
          : beyond.postRevisionLogsV1(c, t, p[0]!, p[1]!, type, r.body)) as Handler
    }
  })),
  {
    pattern: '/v1/projects/:deployment_id/deploy_logs',
    methods: {
      POST: (c, t, r, p) =>
        c.logsApi === 'v2' ? NOT_FOUND : beyond.postDeploymentDeployLogsV1(c, t, p[0]!, r.body)
    }
  }
])

/** Answers an interface request: 404/405 for unknown paths and methods, as FastAPI does. */
export function routeApi(ctx: Context, req: ApiRequest): Reply {
  const found = router.match(req.method, req.segments)
  if (found.kind === 'no-path') return NOT_FOUND
  if (found.kind === 'no-method') {
    return { ...detail(405, 'Method Not Allowed'), headers: { allow: found.allow.join(', ') } }
  }
  // Auth comes before validation, and only for a known route.
  const auth = authenticate(ctx.store, req.headers)
  return 'reply' in auth ? auth.reply : found.handler(ctx, auth.tenant, req, found.params)
}
