// Where the archive is rooted, and what it takes in: the LangGraph CLI's rule (archive.py and
// config.py's _assemble_local_deps), with the workspace as an outer fence.
//   - The root is the config's directory, widened to the common ancestor of it and every local
//     dependency (an entry of the config's `dependencies` that starts with `.`) that resolves
//     outside it: `../shared-lib` in a monorepo.
//   - The included directories are the config's directory and each such dependency; each is
//     walked with its own ignore files (file-set.ts).
//   - `configPath` is the config's path relative to the root: `langgraph_config_path`.
// Refused, as ArchiveError naming the input: a config that is missing, not a regular file or not
// JSON; a config or dependency outside the workspace; a dependency that is missing or not a
// directory (the CLI refuses those too).
import { lstat, readFile, realpath, stat } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { ArchiveError } from './errors.ts'

export interface RootOptions {
  /** The workspace directory (absolute, or relative to the process's directory). */
  workspace: string
  /** The config's path relative to the workspace, as the user gave it. */
  graphConfigPath: string
  /** The config's path input as the run's door names it, for errors (`` `graph-config-path` ``). */
  inputName: string
}

export interface IncludedDir {
  /** Absolute real path of the directory. */
  dir: string
  /** Its path in the archive, `/`-separated; '' for the root itself. */
  prefix: string
}

export interface ArchiveRoot {
  /** Absolute real path of the archive's root. */
  root: string
  /** The config's path inside the archive: `langgraph_config_path`. */
  configPath: string
  /** The directories walked, the config's first. */
  included: IncludedDir[]
  /** The file the config's `env` names (a path, not values), as a member name; '' when none. */
  envFile: string
  /** The config as read (JSON): what its graphs name is checked against the archive. */
  config: unknown
}

/** Whether `child` is `parent` or below it (both absolute, normalised). */
function within(parent: string, child: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

function toPosix(p: string): string {
  return p.split(sep).join('/')
}

/** The common ancestor of two absolute paths. */
function commonAncestor(a: string, b: string): string {
  const pa = a.split(sep)
  const pb = b.split(sep)
  let n = 0
  while (n < pa.length && n < pb.length && pa[n] === pb[n]) n++
  return pa.slice(0, n).join(sep) || sep
}

const realOrUndefined = (p: string) => realpath(p).catch(() => undefined)

/** The config's absolute real path, checked to be a regular JSON file inside the workspace. */
async function locateConfig(
  workspace: string,
  o: RootOptions
): Promise<{ file: string; json: unknown }> {
  const name = o.inputName
  const given = o.graphConfigPath
  const lexical = resolve(workspace, given)
  if (!within(workspace, lexical))
    throw new ArchiveError(
      `${name}: '${given}' is outside the workspace (${workspace}); give a path inside it.`
    )
  const info = await lstat(lexical).catch(() => undefined)
  if (!info)
    throw new ArchiveError(`${name}: '${given}' does not exist in the workspace (${workspace}).`)
  if (!info.isFile())
    throw new ArchiveError(
      `${name}: '${given}' is not a regular file${info.isSymbolicLink() ? ' (a symlink, which the archive never holds)' : ''}.`
    )
  const dir = await realOrUndefined(dirname(lexical))
  if (dir === undefined || !within(workspace, dir))
    throw new ArchiveError(
      `${name}: '${given}' is outside the workspace (${workspace}) once its symlinks are followed.`
    )
  const file = resolve(dir, lexical.slice(dirname(lexical).length + 1))
  let json: unknown
  try {
    json = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    throw new ArchiveError(`${name}: '${given}' is not valid JSON.`)
  }
  return { file, json }
}

/** The local dependencies of the config that lie outside its directory (absolute real paths). */
async function outsideDependencies(
  workspace: string,
  configDir: string,
  json: unknown,
  o: RootOptions
) {
  const deps = (json as { dependencies?: unknown } | null)?.dependencies
  const out: string[] = []
  if (!Array.isArray(deps)) return out
  const name = o.inputName
  for (const dep of deps) {
    if (typeof dep !== 'string' || !dep.startsWith('.')) continue
    const where = `${name}: the dependency '${dep}' of '${o.graphConfigPath}'`
    const real = await realOrUndefined(resolve(configDir, dep))
    if (real === undefined) throw new ArchiveError(`${where} does not exist.`)
    if (!(await stat(real)).isDirectory()) throw new ArchiveError(`${where} is not a directory.`)
    if (!within(workspace, real))
      throw new ArchiveError(
        `${where} is outside the workspace (${workspace}): only the workspace is uploaded.`
      )
    if (!within(configDir, real)) out.push(real)
  }
  return out
}

/** The root, the config's path in the archive and the directories to walk. */
export async function resolveArchiveRoot(o: RootOptions): Promise<ArchiveRoot> {
  const workspace = await realOrUndefined(resolve(o.workspace))
  if (workspace === undefined)
    throw new ArchiveError(`The workspace ${o.workspace} does not exist.`)
  const { file, json } = await locateConfig(workspace, o)
  const configDir = dirname(file)
  const extra = await outsideDependencies(workspace, configDir, json, o)
  const root = extra.reduce(commonAncestor, configDir)
  const included: IncludedDir[] = []
  for (const dir of [configDir, ...extra]) {
    const prefix = toPosix(relative(root, dir))
    if (!included.some(d => d.prefix === prefix)) included.push({ dir, prefix })
  }
  const env = (json as { env?: unknown } | null)?.env
  const envFile = typeof env === 'string' ? toPosix(relative(root, resolve(configDir, env))) : ''
  return { root, configPath: toPosix(relative(root, file)), included, envFile, config: json }
}
