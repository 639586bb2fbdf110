// Injectable faults: which requests they hit and what they do instead of (or on top of) the
// normal answer. Applied by server.ts.
import { z } from 'zod'

const Match = {
  /** HTTP method, or `*` (default) for any. */
  method: z.string().default('*'),
  /** Path relative to the base path; exact, or a glob: `*` = one segment part, `**` = anything. */
  path: z.string().default('**'),
  /** Apply this many times, then remove it; omitted = persistent. */
  times: z.number().int().positive().optional(),
  /** Let this many matching requests through untouched first. */
  skip: z.number().int().nonnegative().default(0)
}

export const FaultSpec = z.discriminatedUnion('kind', [
  /** 429 / 5xx (any status really); `retryAfter` in seconds for the `Retry-After` header. */
  z.object({
    ...Match,
    kind: z.literal('status'),
    status: z.number().int().min(100).max(599),
    retryAfter: z.union([z.number(), z.string()]).optional(),
    /** `json` = FastAPI-ish `{detail}`; `text` = a plain text/HTML body as a proxy sends. */
    body: z.enum(['json', 'text']).default('json')
  }),
  /** Connection destroyed before the request is handled. */
  z.object({ ...Match, kind: z.literal('reset') }),
  /** The request is handled (writes applied), then the socket is destroyed without a response. */
  z.object({ ...Match, kind: z.literal('lost-response') }),
  /** Wait `ms`, then handle normally. */
  z.object({ ...Match, kind: z.literal('delay'), ms: z.number().int().nonnegative() }),
  /** 200 with a body that is not JSON. */
  z.object({
    ...Match,
    kind: z.literal('non-json'),
    body: z.string().default('<html><body>Welcome to nginx!</body></html>')
  }),
  /** 200 JSON that does not fit the schema (default: a deployment without `id`). */
  z.object({ ...Match, kind: z.literal('bad-schema'), body: z.unknown().optional() }),
  /** 3xx with a `Location` on another origin. */
  z.object({
    ...Match,
    kind: z.literal('redirect'),
    status: z.number().int().min(300).max(399).default(302),
    location: z.string().default('http://attacker.example.invalid/steal')
  }),
  /** 200 streaming `bytes` bytes (streamed with back-pressure, never buffered). */
  z.object({
    ...Match,
    kind: z.literal('huge-body'),
    bytes: z
      .number()
      .int()
      .positive()
      .default(300 * 1024 * 1024),
    /** Send a `Content-Length` header (default: chunked, no length). */
    contentLength: z.boolean().default(false)
  }),
  /** The normal answer, sent `chunkBytes` at a time with `intervalMs` pauses. */
  z.object({
    ...Match,
    kind: z.literal('trickle'),
    chunkBytes: z.number().int().positive().default(4),
    intervalMs: z.number().int().nonnegative().default(50)
  }),
  /** A custom status with `{detail: <text>}` (e.g. workflow commands or escape codes). */
  z.object({
    ...Match,
    kind: z.literal('detail'),
    status: z.number().int().min(100).max(599).default(400),
    detail: z.string()
  }),
  /** 422 whose entries' `input` echo the request body, secret values included. */
  z.object({ ...Match, kind: z.literal('echo-input-422') })
])
export type FaultSpec = z.input<typeof FaultSpec>
export type Fault = z.output<typeof FaultSpec> & { id: number; seen: number; applied: number }

export const FaultSpecs = z.union([FaultSpec, z.array(FaultSpec)])

function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return pattern === path
  const re = pattern
    .split(/(\*\*|\*)/)
    .map(part =>
      part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    )
    .join('')
  return new RegExp(`^${re}$`).test(path)
}

export class FaultSet {
  private faults: Fault[] = []
  private nextId = 1

  /** Validates (throws a ZodError on a bad spec) and appends; returns the added faults. */
  add(specs: FaultSpec | FaultSpec[]): Fault[] {
    const parsed = FaultSpecs.parse(specs)
    const list = Array.isArray(parsed) ? parsed : [parsed]
    const added = list.map(f => ({ ...f, id: this.nextId++, seen: 0, applied: 0 }))
    this.faults.push(...added)
    return added.map(f => ({ ...f }))
  }

  /** Replaces all faults (nothing changes if a spec is invalid). */
  replace(specs: FaultSpec | FaultSpec[]): Fault[] {
    FaultSpecs.parse(specs)
    this.faults = []
    return this.add(specs)
  }

  clear(): void {
    this.faults = []
  }

  list(): Fault[] {
    return this.faults.map(f => ({ ...f }))
  }

  /** The first fault for this request, counted as applied (and removed once used up). */
  take(method: string, path: string): Fault | null {
    for (const f of this.faults) {
      if (f.method !== '*' && f.method.toUpperCase() !== method.toUpperCase()) continue
      if (!pathMatches(f.path, path)) continue
      f.seen++
      if (f.seen <= f.skip) continue
      f.applied++
      if (f.times !== undefined && f.applied >= f.times) {
        this.faults = this.faults.filter(x => x !== f)
      }
      return f
    }
    return null
  }
}

export const RateLimit = z.object({
  /** Requests allowed per API key in any 1 s window. */
  rps: z.number().positive(),
  /** `Retry-After` seconds on the 429; null/omitted = no header. */
  retryAfter: z.number().nonnegative().nullish()
})
export type RateLimit = z.infer<typeof RateLimit>

/** Sliding 1 s window per API key; only admitted requests count. */
export class RateLimiter {
  private windows = new Map<string, number[]>()

  admit(limit: RateLimit, key: string, nowMs: number): boolean {
    const recent = (this.windows.get(key) ?? []).filter(t => t > nowMs - 1000)
    if (recent.length >= limit.rps) {
      this.windows.set(key, recent)
      return false
    }
    recent.push(nowMs)
    this.windows.set(key, recent)
    return true
  }

  clear(): void {
    this.windows.clear()
  }
}
