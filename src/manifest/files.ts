// An agent's files, derived from its config as the vendor's LangGraph CLI reads it: the config
// itself; each local dependency (a `dependencies` entry that starts with `.`, a folder from the
// config's folder); each graph's module (`./src/agent.py:graph`, `./src/graph.ts:graph`, or an
// object's `path`); the `env` file when `env` is a path; `auth.path`, `http.app`,
// `checkpointer.path` and the `ui` modules, each a file when it starts with `.`; and the manifest's
// `paths` (globs from the manifest's folder). A Python graph named by module (`agent.graph:g`) lives
// in a dependency, which is named already.
import { posix } from 'node:path'

/** What an agent's files are: exact files, whole folders, and globs, as paths from the workspace. */
export interface AgentFiles {
  files: string[]
  folders: string[]
  globs: string[]
}

type Config = Record<string, unknown>

const isLocal = (spec: unknown): spec is string => typeof spec === 'string' && spec.startsWith('.')

/** `./src/agent.py:graph` -> `./src/agent.py`: the module's part of a `file:attribute` spec. */
function modulePart(spec: string): string {
  return spec.split(':')[0]!
}

/** The agent's files from its config's text (at `configPath`, from the workspace) and its `paths`. */
export function agentFiles(
  configPath: string,
  config: Config,
  paths: { from: string; globs: readonly string[] }
): AgentFiles {
  const base = posix.dirname(configPath)
  const at = (p: string) => posix.normalize(posix.join(base, p)).replace(/\/$/, '')
  const files = new Set([posix.normalize(configPath)])
  const folders = new Set<string>()
  const deps = Array.isArray(config.dependencies) ? config.dependencies : []
  for (const dep of deps) if (isLocal(dep)) folders.add(at(dep))
  const graphs = isObject(config.graphs) ? Object.values(config.graphs) : []
  for (const g of graphs) {
    const spec = isObject(g) ? g.path : g
    if (typeof spec === 'string' && isFilePath(modulePart(spec))) files.add(at(modulePart(spec)))
  }
  if (isLocal(config.env)) files.add(at(config.env))
  for (const spec of [
    field(config.auth, 'path'),
    field(config.http, 'app'),
    field(config.checkpointer, 'path'),
    ...(isObject(config.ui) ? Object.values(config.ui) : [])
  ])
    if (isLocal(spec)) files.add(at(modulePart(spec)))
  const globs = paths.globs.map(g => posix.normalize(posix.join(paths.from, g)))
  // The whole workspace as a folder is every file: '.' is kept as ''.
  return {
    files: [...files],
    folders: [...folders].map(f => (f === '.' ? '' : f)),
    globs
  }
}

/** A module given as a file (`./a.py`, `src/graph.ts`), not a Python module's dotted name. */
function isFilePath(module: string): boolean {
  return module.startsWith('.') || module.includes('/') || /\.[cm]?[jt]sx?$|\.py$/.test(module)
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const field = (v: unknown, key: string): unknown => (isObject(v) ? v[key] : undefined)

/** A glob as a test: `**` any run of folders, `*` and `?` within one name. */
export function globTest(glob: string): (path: string) => boolean {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` matches no folder too.
      const slash = glob[i + 2] === '/'
      re += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  const test = new RegExp(`^${re}$`)
  return path => test.test(path)
}

/** The files of `changed` (paths from the workspace) that are the agent's. */
export function agentsChanged(files: AgentFiles, changed: readonly string[]): string[] {
  const globs = files.globs.map(globTest)
  const exact = new Set(files.files)
  return changed.filter(
    path =>
      exact.has(path) ||
      files.folders.some(f => f === '' || path.startsWith(`${f}/`)) ||
      globs.some(g => g(path))
  )
}
