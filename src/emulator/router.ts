// Maps a method and a path (relative to the base path) to one of the seven operations.
import type { IncomingHttpHeaders } from 'node:http'
import { authenticate } from './auth.ts'
import { detail, type Context, type Reply } from './context.ts'
import * as op from './operations.ts'
import type { Body } from './operations.ts'

export interface ApiRequest {
  method: string
  /** Path segments, URL-decoded, relative to the base path. */
  segments: string[]
  query: Record<string, string>
  headers: IncomingHttpHeaders
  body: Body
}

type Handler = (ctx: Context, req: ApiRequest, params: string[]) => Reply
type Route = { pattern: string[]; methods: Record<string, Handler> }

const withTenant =
  (
    fn: (
      ctx: Context,
      tenant: Parameters<typeof op.getDeployment>[1],
      req: ApiRequest,
      p: string[]
    ) => Reply
  ): Handler =>
  (ctx, req, params) => {
    const auth = authenticate(ctx.store, req.headers)
    return 'reply' in auth ? auth.reply : fn(ctx, auth.tenant, req, params)
  }

const ROUTES: Route[] = [
  {
    pattern: ['v2', 'listeners', ':'],
    methods: { DELETE: withTenant((c, t, _r, p) => op.deleteListener(c, t, p[0]!)) }
  },
  {
    pattern: ['v1', 'integrations', 'forge', 'codehost', ':', 'repos'],
    methods: { GET: withTenant((c, t, _r, p) => op.listRepositories(c, t, p[0]!)) }
  },
  {
    pattern: ['v2', 'deployments'],
    methods: {
      GET: withTenant((c, t, r) => op.listDeployments(c, t, r.query)),
      POST: withTenant((c, t, r) => op.createDeployment(c, t, r.body))
    }
  },
  {
    pattern: ['v2', 'deployments', ':'],
    methods: {
      GET: withTenant((c, t, _r, p) => op.getDeployment(c, t, p[0]!)),
      PATCH: withTenant((c, t, r, p) => op.patchDeployment(c, t, p[0]!, r.body))
    }
  },
  {
    pattern: ['v2', 'deployments', ':', 'revisions', ':'],
    methods: { GET: withTenant((c, t, _r, p) => op.getRevision(c, t, p[0]!, p[1]!)) }
  }
]

function match(pattern: string[], segments: string[]): string[] | null {
  if (pattern.length !== segments.length) return null
  const params: string[] = []
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === ':') params.push(segments[i]!)
    else if (pattern[i] !== segments[i]) return null
  }
  return params
}

/** Answers an interface request: 404/405 for unknown paths and methods, as FastAPI does. */
export function route(ctx: Context, req: ApiRequest): Reply {
  for (const r of ROUTES) {
    const params = match(r.pattern, req.segments)
    if (!params) continue
    const handler = r.methods[req.method]
    if (!handler) {
      return {
        ...detail(405, 'Method Not Allowed'),
        headers: { allow: Object.keys(r.methods).join(', ') }
      }
    }
    return handler(ctx, req, params)
  }
  return detail(404, 'Not Found')
}
