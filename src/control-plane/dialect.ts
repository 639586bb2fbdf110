// The two wire dialects of the control plane: `interface`, this project's contract, and
// `langsmith`, the production service's words for the same things (docs/control-plane.md, "Two
// dialects"). The only place that knows both: the client and the emulator translate here.
// Each rename is a swap of two names, so translating is its own inverse, and a wrong word stays
// wrong: `codehost` sent to a `langsmith` server reads as `github`, which the interface model
// rejects as production rejects `codehost`; a stray `graph_config_path` becomes an unknown field.

export const DIALECTS = ['interface', 'langsmith'] as const
export type Dialect = (typeof DIALECTS)[number]

/** The one table of renames: interface name -> langsmith name. */
export const RENAMES = {
  /** Values of `source` and `revision_source`. */
  sourceValues: { codehost: 'github' },
  sourceRevisionConfigFields: { graph_config_path: 'langgraph_config_path' },
  pathPrefixes: {
    '/v1/integrations/forge/codehost/': '/v1/integrations/forge/github/',
    /** The older, non-forge integration paths (the list of integrations, their repositories). */
    '/v1/integrations/codehost/': '/v1/integrations/github/'
  }
} as const

/** The dialect whose own words `path` uses, for the paths the two name differently. */
export function dialectOfPath(path: string): Dialect | undefined {
  for (const [iface, langsmith] of Object.entries(RENAMES.pathPrefixes)) {
    if (path.startsWith(iface)) return 'interface'
    if (path.startsWith(langsmith)) return 'langsmith'
  }
  return undefined
}

/** The table as swaps in both directions, for the langsmith dialect. */
function swaps(table: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  const map = new Map<string, string>()
  for (const [a, b] of Object.entries(table)) map.set(a, b).set(b, a)
  return map
}
const SOURCE_VALUES = swaps(RENAMES.sourceValues)
const SRC_FIELDS = swaps(RENAMES.sourceRevisionConfigFields)
const PATH_PREFIXES = swaps(RENAMES.pathPrefixes)

const SOURCE_KEYS = new Set(['source', 'revision_source'])

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/** One resource or request body (a Deployment, a Revision, a create or patch request). */
function swapResource(value: unknown): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (SOURCE_KEYS.has(key) && typeof v === 'string') out[key] = SOURCE_VALUES.get(v) ?? v
    else if (key === 'source_revision_config' && isObject(v)) out[key] = renameKeys(v, SRC_FIELDS)
    else out[key] = v
  }
  return out
}

function renameKeys(obj: Record<string, unknown>, names: ReadonlyMap<string, string>) {
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(obj)) out[names.get(key) ?? key] = v
  return out
}

/**
 * A body's vocabulary swapped (a resource, a request, a list of them): only where the table names,
 * never secrets, labels or other free maps. Identity in `interface`; the input is not changed.
 */
function swapBody(dialect: Dialect, body: unknown): unknown {
  if (dialect === 'interface') return body
  if (Array.isArray(body)) return body.map(swapResource)
  if (isObject(body) && Array.isArray(body.resources))
    return { ...body, resources: body.resources.map(swapResource) }
  return swapResource(body)
}

// The four directions are one swap, named by who calls it.
export const requestToWire = swapBody
export const responseFromWire = swapBody
export const requestFromWire = swapBody
export const responseToWire = swapBody

/**
 * A request path between the vocabularies, its own inverse: a `langsmith` server routes
 * `/forge/github/` and answers 404 to `/forge/codehost/`.
 */
export function pathToWire(dialect: Dialect, path: string): string {
  if (dialect === 'interface') return path
  for (const [from, to] of PATH_PREFIXES) {
    if (path.startsWith(from)) return to + path.slice(from.length)
  }
  return path
}
export const pathFromWire = pathToWire

/** Whether two source names are one in the two dialects (read through the wrong one). */
export function isOtherDialectsWord(read: string, asked: string): boolean {
  return SOURCE_VALUES.get(read) === asked
}

/** One enum value (a source name) between the vocabularies; other values pass unchanged. */
export function valueToWire(dialect: Dialect, value: string): string {
  return dialect === 'interface' ? value : (SOURCE_VALUES.get(value) ?? value)
}
/** A validation error's `loc` between the vocabularies: `source_revision_config`'s fields. */
export function locToWire(
  dialect: Dialect,
  loc: readonly (string | number)[]
): (string | number)[] {
  if (dialect === 'interface') return [...loc]
  return loc.map((part, i) =>
    typeof part === 'string' && loc[i - 1] === 'source_revision_config'
      ? (SRC_FIELDS.get(part) ?? part)
      : part
  )
}
export const locFromWire = locToWire

const PRODUCTION_HOST = 'api.host.langchain.com'

/**
 * What `api-dialect: auto` speaks to `baseUrl`, and why, in words for the job log: `langsmith` for
 * the hosted service (`api.host.langchain.com` and its regions, `*.api.host.langchain.com`) and for
 * a self-hosted installation (a base-url path ending in `/api-host`), `interface` otherwise.
 */
export function autoDialect(baseUrl: string): { dialect: Dialect; reason: string } {
  const url = URL.parse(baseUrl)
  if (!url) return { dialect: 'interface', reason: 'the base URL could not be read' }
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  if (host === PRODUCTION_HOST || host.endsWith(`.${PRODUCTION_HOST}`))
    return { dialect: 'langsmith', reason: `${url.host} is the hosted service` }
  if (/\/api-host$/.test(url.pathname.replace(/\/+$/, '')))
    return {
      dialect: 'langsmith',
      reason: 'the base URL ends in /api-host, as a self-hosted installation does'
    }
  return {
    dialect: 'interface',
    reason: `${url.host} is neither the hosted service nor an /api-host path`
  }
}
