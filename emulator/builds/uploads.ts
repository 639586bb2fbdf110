// The emulator's stand-in for the signed storage URL that `upload-url` hands out: one PUT of a
// gzip tarball to `<base>/_uploads/<object path>?signature=<token>`. Like a signed URL it needs
// no API key, only the signature; a path it did not hand out is refused. The bytes are kept
// (state/store.ts bounds them) for the build that a PATCH naming the path starts (source-build.ts).
import type { IncomingHttpHeaders } from 'node:http'
import type { Reply } from '../http/io.ts'
import { detail } from '../http/io.ts'
import type { Store } from '../state/store.ts'

export const UPLOADS_PREFIX = '/_uploads/'
/** The largest tarball the LangGraph CLI's signed URL allows (its content-length range): 200 MiB. */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024

const GZIP_MAGIC = [0x1f, 0x8b]

export function handleUpload(
  store: Store,
  method: string,
  path: string,
  url: URL,
  raw: Buffer,
  headers: IncomingHttpHeaders = {}
) {
  const objectPath = decodeURIComponent(path.slice(UPLOADS_PREFIX.length))
  const upload = store.uploads.get(objectPath)
  // What reached the upload host, for tests (the API key must never be among them).
  if (upload) (upload.put_headers ??= []).push(flatHeaders(headers))
  if (!upload || url.searchParams.get('signature') !== upload.token) {
    return detail(403, 'The upload URL is not valid: ask POST .../upload-url for one.')
  }
  if (method.toUpperCase() !== 'PUT') {
    return { ...detail(405, 'Method Not Allowed'), headers: { allow: 'PUT' } } satisfies Reply
  }
  if (raw.length < 2 || raw[0] !== GZIP_MAGIC[0] || raw[1] !== GZIP_MAGIC[1]) {
    return detail(400, 'The upload is not a gzip tarball.')
  }
  store.keepUpload(upload, raw)
  return { status: 200 } satisfies Reply
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = String(v)
  return out
}

const UPLOAD_FAULTS = ['status', 'lost-response', 'reset', 'redirect', 'delay'] as const

/**
 * A fault on the upload route (`PUT /_uploads/**`): `status` answers its status and stores
 * nothing; `lost-response` stores the upload, then drops the connection unanswered; `reset` drops
 * it before anything is stored; `redirect` answers its 3xx and `Location` (any text) and stores
 * nothing; `delay` answers only after its `ms` (real time: a host that never answers). Other kinds
 * do not apply here (the upload is handled normally).
 */
export function uploadFault(kind: string): (typeof UPLOAD_FAULTS)[number] | undefined {
  return UPLOAD_FAULTS.find(k => k === kind)
}
