// One routing style for every route table (the interface's and the admin's): patterns such as
// `/v2/deployments/:id`, a handler per method, 404 for an unknown path and 405 for a known path
// asked with another method.

/** Splits a path into URL-decoded segments (a malformed escape stays as it is). */
export function segmentsOf(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map(s => {
      try {
        return decodeURIComponent(s)
      } catch {
        return s
      }
    })
}

export interface Route<H> {
  /** `/a/:name/b`: `:name` matches one segment, passed to the handler in order. */
  pattern: string
  methods: Record<string, H>
}

interface Compiled<H> {
  parts: string[]
  methods: Record<string, H>
}

export type Match<H> =
  | { kind: 'found'; handler: H; params: string[] }
  | { kind: 'no-path' }
  | { kind: 'no-method'; allow: string[] }

export class Router<H> {
  private readonly routes: Compiled<H>[]

  constructor(routes: Route<H>[]) {
    this.routes = routes.map(r => ({ parts: segmentsOf(r.pattern), methods: r.methods }))
  }

  match(method: string, segments: string[]): Match<H> {
    for (const route of this.routes) {
      const params = matchParts(route.parts, segments)
      if (!params) continue
      const handler = route.methods[method.toUpperCase()]
      if (!handler) return { kind: 'no-method', allow: Object.keys(route.methods) }
      return { kind: 'found', handler, params }
    }
    return { kind: 'no-path' }
  }
}

function matchParts(parts: string[], segments: string[]): string[] | null {
  if (parts.length !== segments.length) return null
  const params: string[] = []
  for (let i = 0; i < parts.length; i++) {
    if (parts[i]!.startsWith(':')) params.push(segments[i]!)
    else if (parts[i] !== segments[i]) return null
  }
  return params
}
