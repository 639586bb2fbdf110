// What a remote build of an uploaded tarball (`internal_source`) finds, decided when its revision
// is made: the object's bytes unpacked, the config at `langgraph_config_path` read, and its
// `graphs` keys as the graphs the revision serves; or the reason its build fails.
import { posix } from 'node:path'
import { memberPath, TarballError, unpackTarball } from './tarball.ts'
import type { BuildStep, Store, Toolchain } from '../state/store.ts'

export type SourceBuild =
  | { ok: true; graphs: string[]; files: string[]; toolchain: Toolchain }
  | { ok: false; step: BuildStep; message: string }

const NODE_GRAPH = /\.[cm]?[jt]sx?(:|$)/

/** Python or Node, from the config (`node_version`, graph paths) and the lockfiles beside it. */
export function toolchainOf(config: Record<string, unknown>, files: string[]): Toolchain {
  const graphs = Object.values((config.graphs ?? {}) as Record<string, unknown>)
  const paths = graphs.map(g => (typeof g === 'string' ? g : '')).filter(Boolean)
  const node = typeof config.node_version === 'string' || paths.some(p => NODE_GRAPH.test(p))
  const version = (node ? config.node_version : config.python_version) as unknown
  const has = (name: string) => files.some(f => f === name || f.endsWith(`/${name}`))
  const install = !node
    ? 'pip install -e .'
    : has('pnpm-lock.yaml')
      ? 'pnpm install --frozen-lockfile'
      : has('yarn.lock')
        ? 'yarn install --frozen-lockfile'
        : has('package-lock.json')
          ? 'npm ci'
          : 'npm install'
  return {
    runtime: node ? 'node' : 'python',
    version: typeof version === 'string' ? version : null,
    install
  }
}

const failed = (step: BuildStep, message: string): SourceBuild => ({ ok: false, step, message })

/** The graphs an uploaded tarball's config declares, or why its build fails. */
export function buildFromUpload(
  store: Store,
  objectPath: string,
  configPath: string | null | undefined
): SourceBuild {
  const bytes = store.uploads.get(objectPath)?.data
  if (!bytes) {
    return failed(
      'fetch',
      `ERROR: no uploaded object at ${objectPath}: PUT the tarball to its upload_url before the PATCH`
    )
  }
  let files: Map<string, Buffer>
  try {
    files = unpackTarball(bytes).files
  } catch (error) {
    const why = error instanceof TarballError ? error.message : String(error)
    return failed('fetch', `ERROR: the source tarball could not be unpacked: ${why}`)
  }
  const wanted = configPath ?? 'langgraph.json'
  let path: string
  try {
    path = memberPath(wanted)
  } catch {
    return failed('config', `ERROR: ${wanted}: the config path must stay inside the archive`)
  }
  const raw = files.get(path)
  if (!raw) return failed('config', `ERROR: ${wanted} not found in the source tarball`)
  let config: unknown
  try {
    config = JSON.parse(raw.toString('utf8'))
  } catch (error) {
    return failed('config', `ERROR: ${wanted} is not valid JSON: ${(error as Error).message}`)
  }
  const graphs = (config as { graphs?: unknown } | null)?.graphs
  if (graphs === null || typeof graphs !== 'object' || Array.isArray(graphs)) {
    return failed('config', `ERROR: ${wanted} has no "graphs" object: nothing to serve`)
  }
  const names = Object.keys(graphs)
  if (names.length === 0) return failed('config', `ERROR: ${wanted} declares no graphs`)
  const lacking = missingGraphFile(graphs as Record<string, unknown>, path, files)
  if (lacking) return failed('config', lacking)
  const members = [...files.keys()].sort()
  return {
    ok: true,
    graphs: names,
    files: members,
    toolchain: toolchainOf(config as Record<string, unknown>, members)
  }
}

/** A graph spec's file (`./src/agent.py:graph`, or `{path}`), when it names one by its path. */
function graphFile(spec: unknown): string | undefined {
  const raw = typeof spec === 'string' ? spec : (spec as { path?: unknown } | null)?.path
  if (typeof raw !== 'string') return undefined
  const file = raw.includes(':') ? raw.slice(0, raw.lastIndexOf(':')) : raw
  // A Python module path (`agent.graph:app`) names no file: the build imports it.
  return file.includes('/') || /\.(?:py|[cm]?[jt]sx?)$/.test(file) ? file : undefined
}

/**
 * The first graph whose file, relative to the config's folder, is not in the upload: the build
 * would fail to import it, as the service's does.
 */
function missingGraphFile(
  graphs: Record<string, unknown>,
  configPath: string,
  files: Map<string, Buffer>
): string | undefined {
  const dir = configPath.includes('/') ? configPath.slice(0, configPath.lastIndexOf('/')) : ''
  for (const [name, spec] of Object.entries(graphs)) {
    const file = graphFile(spec)
    if (file === undefined) continue
    const member = posix.normalize(posix.join(dir, file))
    if (member.startsWith('../') || !files.has(member))
      return `ERROR: graph '${name}': ${file} (${member} in the upload) not found in the source tarball`
  }
  return undefined
}
