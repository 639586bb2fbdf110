// What the archive leaves out that the config needs, and why, in the words of the rule or reason
// that dropped it. A graph's file (its module) must be in the archive: the build imports it, so an
// archive without it is refused before anything is sent, naming the graph and the rule. The files
// a graph names are read as the LangGraph CLIs read them: the spec (`"./src/agent.py:graph"`, or
// `{"path": ...}`) up to its first `:`; a path (a `/` or `\` in it) or a JS or Python file name
// is a file, relative to the config's folder; a Python module path (`agent.graph:app`) is left to
// the build's import.
import { posix } from 'node:path'
import { ArchiveError } from './errors.ts'
import type { IgnoredEntry, SkippedEntry } from './file-set.ts'

/** The graph files the LangGraph CLIs take by their names alone, without a `/`. */
const FILE_SUFFIX = /\.(?:py|[cm]?[jt]s|[jt]sx)$/u

export interface GraphFile {
  /** The graph's id, as the config names it. */
  graph: string
  /** The file as the config writes it (`./src/agent.py`). */
  file: string
  /** Its member name in the archive; `../` at its start when it lies outside the root. */
  member: string
}

/** What the archive holds and what it left out, with why. */
export interface ArchivedSet {
  files: readonly string[]
  ignored: readonly IgnoredEntry[]
  skipped: readonly SkippedEntry[]
}

/** Why a file that no ignore rule names is left out, for the log. */
export function skipReason(e: SkippedEntry): string {
  switch (e.reason) {
    case 'symlink':
      return 'a symbolic link: links are never archived (copy the file in if the build needs it)'
    case 'hard link':
      return `a hard link (the file has ${e.detail ?? 'several'} names): links are never archived (copy it to give it one name)`
    case 'fifo':
    case 'socket':
    case 'device':
      return `a ${e.reason === 'fifo' ? 'FIFO' : e.reason}, not a regular file`
    case 'credential':
      return `it carries credentials by its name (\`${e.detail ?? e.name}\`): such files are never archived`
    case 'written by this run':
      return 'written by this run, never archived'
  }
}

/** The member `file` names from the config's folder; an absolute path is outside the root. */
function memberOf(file: string, configPath: string): string {
  const path = file.replaceAll('\\', '/')
  if (posix.isAbsolute(path)) return `..${posix.normalize(path)}`
  const dir = posix.dirname(configPath)
  return posix.normalize(posix.join(dir === '.' ? '' : dir, path))
}

/** The file a graph's spec names, or undefined for a module path (or a spec that is not one). */
function specFile(spec: unknown): string | undefined {
  const raw = typeof spec === 'string' ? spec : (spec as { path?: unknown } | null)?.path
  if (typeof raw !== 'string') return undefined
  const colon = raw.indexOf(':')
  const file = colon < 0 ? raw : raw.slice(0, colon)
  if (file === '') return undefined
  return /[/\\]/u.test(file) || FILE_SUFFIX.test(file) ? file : undefined
}

/** Each graph of `config` that names a file, with that file's member name. */
export function graphFiles(config: unknown, configPath: string): GraphFile[] {
  const graphs = (config as { graphs?: unknown } | null)?.graphs
  if (graphs === null || typeof graphs !== 'object' || Array.isArray(graphs)) return []
  const out: GraphFile[] = []
  for (const [graph, spec] of Object.entries(graphs as Record<string, unknown>)) {
    const file = specFile(spec)
    if (file !== undefined) out.push({ graph, file, member: memberOf(file, configPath) })
  }
  return out
}

/** The entry of `list` for `member` itself or for a folder above it. */
function entryFor<T extends { name: string }>(list: readonly T[], member: string): T | undefined {
  return list.find(e => e.name === member || (e.name.endsWith('/') && member.startsWith(e.name)))
}

/** Why `member` is not in the archive: what left it (or a folder above it) out, or where it is. */
export function whyLeftOut(
  member: string,
  set: Omit<ArchivedSet, 'files'>,
  exists: (member: string) => boolean
): string {
  if (member === '..' || member.startsWith('../'))
    return "it lies outside the archive's root (the config's folder and its local `dependencies`)"
  const ignored = entryFor(set.ignored, member)
  if (ignored) return `${ignored.name} is ${ignored.why}`
  const skipped = entryFor(set.skipped, member)
  if (skipped) return `${skipped.name} is left out: ${skipReason(skipped)}`
  return exists(member)
    ? "it lies outside the folders archived (the config's folder and its local `dependencies`)"
    : 'it does not exist'
}

/** The refusal of an archive that lacks a file a graph names: the first such, and why. */
export function graphFileLeftOut(
  config: unknown,
  configPath: string,
  set: ArchivedSet,
  at: { inputName: string; given: string; exists: (member: string) => boolean }
): ArchiveError | undefined {
  const files = new Set(set.files)
  const lacking = graphFiles(config, configPath).find(g => !files.has(g.member))
  if (!lacking) return undefined
  const why = whyLeftOut(lacking.member, set, at.exists)
  const inside = !lacking.member.startsWith('../') && lacking.member !== '..'
  const where =
    !inside || lacking.file === lacking.member ? '' : ` (${lacking.member} in the archive)`
  return new ArchiveError(
    `${at.inputName}: graph "${lacking.graph}" of '${at.given}' names ${lacking.file}${where}, which is not in the archive: ${why}. The build would fail to import it.`,
    "Keep the graph's file in the archive (change the rule that leaves it out, or move the file), or correct the graph's path in the config."
  )
}
