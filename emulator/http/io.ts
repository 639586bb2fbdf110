// HTTP plumbing shared by the request pipeline and the fault behaviours: reading and parsing a
// request body, writing a Reply, the base path.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'

/** An answer before it is written: `body` is sent as JSON unless `text` is given. */
export interface Reply {
  status: number
  body?: unknown
  text?: string
  headers?: Record<string, string>
}

export const detail = (status: number, text: string): Reply => ({ status, body: { detail: text } })

/** A request body as read by the server. */
export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid'; error: unknown; text: string }

/** Reads the whole body, or gives up (without buffering more) past `max` bytes. */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > max) {
        resolve('too-large')
        req.pause()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export function parseBody(raw: Buffer): Body {
  if (raw.length === 0) return { kind: 'none' }
  const text = raw.toString('utf8')
  try {
    return { kind: 'json', value: JSON.parse(text) }
  } catch (error) {
    return { kind: 'invalid', error, text }
  }
}

/** What the request log shows of a body: the JSON, the raw text, or null. */
export function loggedBody(body: Body): unknown {
  return body.kind === 'json' ? body.value : body.kind === 'invalid' ? body.text : null
}

export function serialize(reply: Reply): { headers: OutgoingHttpHeaders; payload: Buffer | null } {
  const headers: OutgoingHttpHeaders = { ...reply.headers }
  if (reply.status === 204 || (reply.body === undefined && reply.text === undefined)) {
    return { headers, payload: null }
  }
  const isText = reply.text !== undefined
  const payload = Buffer.from(isText ? reply.text! : JSON.stringify(reply.body), 'utf8')
  headers['content-type'] ??= isText ? 'text/plain; charset=utf-8' : 'application/json'
  headers['content-length'] = payload.length
  return { headers, payload }
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const { headers, payload } = serialize(reply)
  res.writeHead(reply.status, headers)
  res.end(payload ?? undefined)
}

/** What is wrong with a base path, or null: segments of URL-safe characters, no `.`, `..` or `//`. */
export function basePathProblem(basePath: string): string | null {
  const inner = basePath.replace(/^\//, '').replace(/\/$/, '')
  if (inner === '') return null
  for (const segment of inner.split('/')) {
    if (segment === '') return 'it has an empty segment (//)'
    if (segment === '.' || segment === '..') return `it has a dot segment (${segment})`
    if (!/^[A-Za-z0-9._~-]+$/.test(segment)) {
      return 'use letters, digits and - . _ ~ between single slashes, e.g. /api-host'
    }
  }
  return null
}

/** `api-host/` -> `/api-host`; empty or `/` -> '' (no base path). Throws for a bad one. */
export function normalizeBasePath(basePath: string | undefined): string {
  if (!basePath) return ''
  const problem = basePathProblem(basePath)
  if (problem) throw new Error(`invalid base path '${basePath}': ${problem}`)
  const p = `/${basePath.replace(/^\//, '').replace(/\/$/, '')}`
  return p === '/' ? '' : p
}

/** The path relative to the base path, or null when the request is outside it. */
export function stripBasePath(path: string, basePath: string): string | null {
  if (!basePath) return path
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return null
  return path.slice(basePath.length) || '/'
}
