// The files an archive holds: every regular file under each included directory (root.ts) that the
// ignore rules keep (ignore-rules.ts), less what must never leave the runner. As the LangGraph
// CLI's remote build selects them (archive.py), with these departures (docs/upload.md):
//   - links are left out, each named: symlinks (to files or folders; a linked folder is not
//     entered) and every name of a file with more than one hard link (a hard link can hold the
//     bytes of a file outside the workspace; the CLI keeps the first name it meets and drops the
//     others silently);
//   - special files (FIFO, socket, device) are left out, each named (the CLI blocks on a FIFO);
//   - files that carry credentials by their names (credentials.ts) are left out, each named;
//   - what this run writes (`own`: the CLI's `--output-file`, the archive's temporary folder) is
//     left out, each named, so that the digest never depends on the run's own files;
//   - no directory members, no `..` member (a walk cannot make one; checked anyway);
//   - the members are sorted by their names' UTF-8 bytes, so the same files give the same
//     archive; a file under two included directories is held once.
import { lstatSync, realpathSync, statSync, type Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { credentialName } from './credentials.ts'
import { ArchiveError } from './errors.ts'
import {
  readNestedRules,
  readTopRules,
  type NestedRules,
  type RuleVerdict,
  type TopRules
} from './ignore-rules.ts'
import type { IncludedDir } from './root.ts'

export interface FileEntry {
  /** The member's name: its path from the archive's root, `/`-separated. */
  name: string
  /** Its absolute path on disk. */
  path: string
}

/** Why a file that no ignore rule names is left out. */
export type SkipReason =
  'symlink' | 'hard link' | 'fifo' | 'socket' | 'device' | 'credential' | 'written by this run'

export interface SkippedEntry {
  /** The member name it would have had; a folder's ends with `/`. */
  name: string
  reason: SkipReason
  /** The credential name it carries; the number of names of a hard-linked file. */
  detail?: string
}

/** A path the ignore rules leave out (a folder's name ends with `/`: nothing below it is read). */
export interface IgnoredEntry {
  name: string
  why: string
}

export interface FileSet {
  files: FileEntry[]
  skipped: SkippedEntry[]
  ignored: IgnoredEntry[]
}

export interface SelectOptions {
  /** Files this run writes (absolute): never archived. */
  ownFiles?: readonly string[]
  /** Folders whose absolute path starts with this are this run's (its temporary folders). */
  ownDirPrefix?: string
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
const lenient = new TextDecoder('utf-8')

interface Named {
  name: string
  entry: Dirent<Buffer>
  /** The name is not UTF-8: refused unless an ignore rule leaves it out. */
  notUtf8: boolean
}

/** A directory's entries, names decoded (the archive's names are UTF-8). */
async function entries(dir: string): Promise<Named[]> {
  let list: Dirent<Buffer>[]
  try {
    list = await readdir(dir, { withFileTypes: true, encoding: 'buffer' })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err)
    throw new ArchiveError(
      `The folder ${dir} cannot be read (${code}): make it readable or ignore it.`
    )
  }
  return list.map(entry => {
    try {
      return { name: utf8.decode(entry.name), entry, notUtf8: false }
    } catch {
      return { name: lenient.decode(entry.name), entry, notUtf8: true }
    }
  })
}

type Kind =
  'directory' | 'file' | Exclude<SkipReason, 'hard link' | 'credential' | 'written by this run'>

function kindOf(e: Dirent<Buffer>): Kind {
  if (e.isDirectory()) return 'directory'
  if (e.isFile()) return 'file'
  if (e.isSymbolicLink()) return 'symlink'
  if (e.isFIFO()) return 'fifo'
  if (e.isSocket()) return 'socket'
  return 'device'
}

/** A symlink is matched as the folder it points to, as the CLI's walk matches it. */
function pointsToDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

interface Walk {
  top: TopRules
  base: IncludedDir
  own: (path: string) => boolean
  found: Map<string, FileEntry>
  skipped: SkippedEntry[]
  ignored: IgnoredEntry[]
}

function verdictText(v: RuleVerdict): string {
  return v.always
    ? 'always left out, whatever the ignore files say'
    : `ignored by \`${v.rule.text}\` (${v.rule.where})`
}

async function walk(w: Walk, abs: string, rel: string, nested: NestedRules[]): Promise<void> {
  const list = await entries(abs)
  let chain = nested
  if (rel && list.some(e => e.name === '.gitignore' && !e.notUtf8)) {
    const member = [w.base.prefix, rel, '.gitignore'].filter(Boolean).join('/')
    const here = await readNestedRules(abs, rel, member)
    if (here) chain = [...nested, here]
  }
  for (const e of list) await visit(w, e, { abs, rel, nested: chain })
}

async function visit(
  w: Walk,
  { name, entry, notUtf8 }: Named,
  at: { abs: string; rel: string; nested: NestedRules[] }
): Promise<void> {
  const relPath = at.rel ? `${at.rel}/${name}` : name
  const member = w.base.prefix ? `${w.base.prefix}/${relPath}` : relPath
  const path = join(at.abs, name)
  const kind = kindOf(entry)
  const isDir = kind === 'directory' || (kind === 'symlink' && pointsToDirectory(path))
  const verdict = w.top.leftOutBy(relPath, isDir, at.nested)
  if (verdict) {
    w.ignored.push({ name: isDir ? `${member}/` : member, why: verdictText(verdict) })
    return
  }
  if (notUtf8)
    throw new ArchiveError(
      `The file name ${JSON.stringify(name)} in ${at.abs} is not UTF-8: rename it or ignore it.`
    )
  if (w.own(path)) {
    w.skipped.push({ name: isDir ? `${member}/` : member, reason: 'written by this run' })
    return
  }
  if (kind === 'directory') return walk(w, path, relPath, at.nested)
  if (kind !== 'file') {
    w.skipped.push({ name: isDir ? `${member}/` : member, reason: kind })
    return
  }
  const credential = credentialName(member)
  if (credential) w.skipped.push({ name: member, reason: 'credential', detail: credential })
  else if (!member.split('/').includes('..')) w.found.set(member, { name: member, path })
}

/** Sorts names by their UTF-8 bytes: the same order on every machine and in every locale. */
export function byName(a: { name: string }, b: { name: string }): number {
  return Buffer.compare(Buffer.from(a.name), Buffer.from(b.name))
}

/** Leaves out every name of a hard-linked file; blocking lstats (libuv trips took a tenth). */
function dropHardLinks(files: FileEntry[], skipped: SkippedEntry[]) {
  const kept: FileEntry[] = []
  for (const file of files) {
    const links = lstatSync(file.path, { bigint: true }).nlink
    if (links > 1n) skipped.push({ name: file.name, reason: 'hard link', detail: String(links) })
    else kept.push(file)
  }
  return kept
}

/** The real path of a file that may not exist yet: its folder's real path and its name. */
function real(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path))
    } catch {
      return path
    }
  }
}

function ownPaths(o: SelectOptions): (path: string) => boolean {
  const files = new Set((o.ownFiles ?? []).map(real))
  const prefix = o.ownDirPrefix
  return path => files.has(path) || (prefix !== undefined && path.startsWith(prefix))
}

/** Entries once each, sorted; none for a name that another included directory archives. */
function leftOut<T extends { name: string }>(list: T[], kept: FileEntry[]): T[] {
  const names = new Set<string>()
  for (const { name } of kept)
    for (let i = name.indexOf('/'); ; i = name.indexOf('/', i + 1)) {
      names.add(i < 0 ? name : name.slice(0, i + 1))
      if (i < 0) break
    }
  const stillOut = list.filter(e => !names.has(e.name))
  return [...new Map(stillOut.map(e => [e.name, e])).values()].sort(byName)
}

/** The files of the included directories, sorted, and what was left out, with why. */
export async function selectFiles(
  included: IncludedDir[],
  o: SelectOptions = {}
): Promise<FileSet> {
  const found = new Map<string, FileEntry>()
  const skipped: SkippedEntry[] = []
  const ignored: IgnoredEntry[] = []
  const own = ownPaths(o)
  for (const base of included) {
    const top = await readTopRules(base.dir, base.prefix)
    await walk({ top, base, own, found, skipped, ignored }, base.dir, '', [])
  }
  const files = dropHardLinks([...found.values()].sort(byName), skipped)
  return { files, skipped: leftOut(skipped, files), ignored: leftOut(ignored, files) }
}
