// Fault kinds that answer something else than the normal answer: an error status, a body that
// is not JSON or does not fit the schema, a redirect, a custom detail, a 422 echoing its input.
import { STATUS_CODES } from 'node:http'
import { z } from 'zod'
import type { Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'
import { faultKind } from './kind.ts'
import { matchFields } from './match.ts'

/** 429 / 5xx (any status really); `retryAfter` in seconds for the `Retry-After` header. */
export const status = faultKind(
  z.object({
    ...matchFields(),
    kind: z.literal('status'),
    status: z.number().int().min(100).max(599),
    retryAfter: z.union([z.number(), z.string()]).optional(),
    /** `json` = FastAPI-ish `{detail}`; `text` = a plain text/HTML body as a proxy sends. */
    body: z.enum(['json', 'text']).default('json')
  }),
  (f, ex) => {
    const reason = STATUS_CODES[f.status] ?? 'Error'
    const headers: Record<string, string> = {}
    if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter)
    if (f.body === 'json') return ex.send({ status: f.status, body: { detail: reason }, headers })
    const text =
      f.status >= 500
        ? `<html>\r\n<head><title>${f.status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${f.status} ${reason}</h1></center>\r\n</body>\r\n</html>\r\n`
        : `${reason}`
    headers['content-type'] = f.status >= 500 ? 'text/html' : 'text/plain; charset=utf-8'
    ex.send({ status: f.status, text, headers })
  }
)

/** 200 with a body that is not JSON. */
export const nonJson = faultKind(
  z.object({
    ...matchFields(),
    kind: z.literal('non-json'),
    body: z.string().default('<html><body>Welcome to nginx!</body></html>')
  }),
  (f, ex) => ex.send({ status: 200, text: f.body, headers: { 'content-type': 'text/html' } })
)

function badSchemaBody(method: string, path: string): unknown {
  if (path === '/v2/deployments' && method === 'GET') {
    return { resources: [{ name: 'broken', status: 'READY' }], offset: 'next' }
  }
  if (path.endsWith('/repos')) return [{ name: 'agent-server', url: 42 }]
  if (path.includes('/revisions/')) return { status: 'DEPLOYED' }
  return { name: 'broken', status: 'READY', latest_revision_id: 'not-a-uuid' }
}

/** 200 JSON that does not fit the schema (default: a deployment without `id`). */
export const badSchema = faultKind(
  z.object({ ...matchFields(), kind: z.literal('bad-schema'), body: z.unknown().optional() }),
  (f, ex) => ex.send({ status: 200, body: f.body ?? badSchemaBody(ex.method, ex.path) })
)

/** 3xx with a `Location` on another origin. */
export const redirect = faultKind(
  z.object({
    ...matchFields(),
    kind: z.literal('redirect'),
    status: z.number().int().min(300).max(399).default(302),
    location: z.string().default('http://attacker.example.invalid/steal')
  }),
  (f, ex) => ex.send({ status: f.status, headers: { location: f.location } })
)

/** A custom status with `{detail: <text>}` (e.g. workflow commands or escape codes). */
export const detail = faultKind(
  z.object({
    ...matchFields(),
    kind: z.literal('detail'),
    status: z.number().int().min(100).max(599).default(400),
    detail: z.string()
  }),
  (f, ex) => ex.send({ status: f.status, body: { detail: f.detail } })
)

function echoInput422(body: Body): Reply {
  const input = body.kind === 'json' ? body.value : body.kind === 'invalid' ? body.text : null
  const entries: unknown[] = [
    { loc: ['body'], msg: 'Value error, the request is invalid', type: 'value_error', input }
  ]
  const secrets = (input as { secrets?: unknown } | null)?.secrets
  if (Array.isArray(secrets)) {
    secrets.forEach((s: { value?: unknown } | null, i) =>
      entries.push({
        loc: ['body', 'secrets', i, 'value'],
        msg: 'Value error, invalid secret value',
        type: 'value_error',
        input: s?.value ?? null
      })
    )
  }
  return { status: 422, body: { detail: entries } }
}

/** 422 whose entries' `input` echo the request body, secret values included. */
export const echoInput422Kind = faultKind(
  z.object({ ...matchFields(), kind: z.literal('echo-input-422') }),
  (_f, ex) => ex.send(echoInput422(ex.body))
)
