// The files an archive holds, as the LangGraph CLI's remote build selects them (archive.py):
// every regular file under each included directory (root.ts) that the directory's ignore rules
// keep (ignore-rules.ts). Like the CLI's archive:
//   - no directory members (an empty directory is not kept);
//   - no symlinks (to files or directories; a symlinked directory is not entered), no devices,
//     sockets or fifos;
//   - a file with other hard links is kept once: the first of its names (here in member order),
//     never as a tar hard link; its other names are left out (Python's tarfile makes them hard
//     link members, which the CLI's filter drops);
//   - no `..` member (a walk cannot make one; checked anyway).
// Unlike the CLI, the members are sorted (by their names' UTF-8 bytes) so the same files give the
// same archive; a file under two included directories (a dependency that contains the config's
// directory) is held once, where Python's tarfile would write it twice.
//
//   const set = await selectFiles(root.included)
//   set.files    // [{ name: 'apps/a/langgraph.json', path: '/w/apps/a/langgraph.json' }, ...]
//   set.skipped  // [{ name: 'link', reason: 'symlink' }, ...]: left out, though not ignored
import { lstatSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { ArchiveError } from './errors.ts'
import { readIgnoreRules, type IgnoreRules } from './ignore-rules.ts'
import type { IncludedDir } from './root.ts'

export interface FileEntry {
  /** The member's name: its path from the archive's root, `/`-separated. */
  name: string
  /** Its absolute path on disk. */
  path: string
}

export interface SkippedEntry {
  name: string
  reason: 'symlink' | 'hard link' | 'not a regular file'
}

export interface FileSet {
  files: FileEntry[]
  skipped: SkippedEntry[]
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A directory's entries with names that are UTF-8 (the archive's names are). */
async function entries(dir: string) {
  const list = await readdir(dir, { withFileTypes: true, encoding: 'buffer' })
  return list.map(entry => {
    let name: string
    try {
      name = utf8.decode(entry.name)
    } catch {
      throw new ArchiveError(
        `The file name ${JSON.stringify(entry.name.toString('latin1'))} in ${dir} is not UTF-8: rename it or ignore it.`
      )
    }
    return { name, entry }
  })
}

interface Walk {
  rules: IgnoreRules
  base: IncludedDir
  found: Map<string, FileEntry>
  skipped: SkippedEntry[]
}

async function walk(w: Walk, abs: string, rel: string): Promise<void> {
  for (const { name, entry } of await entries(abs)) {
    const relPath = rel ? `${rel}/${name}` : name
    const member = w.base.prefix ? `${w.base.prefix}/${relPath}` : relPath
    const path = join(abs, name)
    if (entry.isDirectory()) {
      if (!w.rules.ignores(relPath, true)) await walk(w, path, relPath)
      continue
    }
    if (w.rules.ignores(relPath, false)) continue
    if (entry.isSymbolicLink()) w.skipped.push({ name: member, reason: 'symlink' })
    else if (!entry.isFile()) w.skipped.push({ name: member, reason: 'not a regular file' })
    else if (!member.split('/').includes('..')) w.found.set(member, { name: member, path })
  }
}

/** Sorts names by their UTF-8 bytes: the same order on every machine and in every locale. */
export function byName(a: { name: string }, b: { name: string }): number {
  return Buffer.compare(Buffer.from(a.name), Buffer.from(b.name))
}

/**
 * Keeps the first name of each file that has other hard links; reports the rest. One blocking
 * lstat per file: nothing else runs meanwhile, and thousands of trips through libuv's threads
 * took a tenth of a large upload's time.
 */
function dropHardLinkRepeats(files: FileEntry[], skipped: SkippedEntry[]) {
  const seen = new Set<string>()
  const kept: FileEntry[] = []
  for (const file of files) {
    const info = lstatSync(file.path, { bigint: true })
    if (info.nlink > 1n) {
      const key = `${info.dev}:${info.ino}`
      if (seen.has(key)) {
        skipped.push({ name: file.name, reason: 'hard link' })
        continue
      }
      seen.add(key)
    }
    kept.push(file)
  }
  return kept
}

/** The files of the included directories, sorted, and what was left out though not ignored. */
export async function selectFiles(included: IncludedDir[]): Promise<FileSet> {
  const found = new Map<string, FileEntry>()
  const skipped: SkippedEntry[] = []
  for (const base of included) {
    const rules = await readIgnoreRules(base.dir)
    await walk({ rules, base, found, skipped }, base.dir, '')
  }
  const sorted = [...found.values()].sort(byName)
  const files = dropHardLinkRepeats(sorted, skipped)
  const once = [...new Map(skipped.map(e => [e.name, e])).values()]
  return { files, skipped: once.sort(byName) }
}
