// What the log says of an archive's file set: each file left out though no ignore rule names it,
// with why (links, special files, credentials, the run's own files), what to do when the config's
// `env` names a credential file, the untracked files it holds, and, for a dry run, every file in
// it and every file left out. Plain lines; the deploy step logs them.
//
//   leftOutLines(archive)  // ['Left out: .env: it carries credentials by its name (`.env`)', ...]
import type { BuiltArchive } from './archive.ts'
import type { SkippedEntry } from './file-set.ts'

/** Untracked files named one by one in the log, at most; the dry run lists every file. */
const UNTRACKED_SHOWN = 20

/** Why a file that no ignore rule names is left out, for the log. */
export function skipReason(e: SkippedEntry): string {
  switch (e.reason) {
    case 'symlink':
      return 'a symbolic link: links are never archived (copy the file in if the build needs it)'
    case 'hard link':
      return `a hard link (the file has ${e.detail ?? 'several'} names): links are never archived (copy it to give it one name)`
    case 'fifo':
      return 'a FIFO, not a regular file'
    case 'socket':
      return 'a socket, not a regular file'
    case 'device':
      return 'a device, not a regular file'
    case 'credential':
      return `it carries credentials by its name (\`${e.detail ?? e.name}\`): such files are never archived`
    case 'written by this run':
      return 'written by this run, never archived'
  }
}

/** One line per file left out though no ignore rule names it. */
export function leftOutLines(a: Pick<BuiltArchive, 'skipped'>): string[] {
  return a.skipped.map(e => `Left out: ${e.name}: ${skipReason(e)}.`)
}

/**
 * When the config's `env` names a file left out for its credentials: how to pass its values.
 * `secrets` is how the user sets the input (`secrets` in the action, `--secrets` in the CLI).
 */
export function envFileHint(
  a: Pick<BuiltArchive, 'skipped' | 'envFile' | 'configPath'>,
  secrets: string
): string | undefined {
  const left = a.skipped.find(e => e.name === a.envFile && e.reason === 'credential')
  if (!left) return undefined
  return (
    `${a.configPath} names ${left.name} as its \`env\`, and ${left.name} is left out of the archive (it carries credentials by its name). ` +
    `Give its values to ${secrets} instead (NAME=VALUE lines, from your CI's secret store): they become the deployment's secrets, which the server has as its environment.`
  )
}

/** The untracked files the archive holds, named (the first UNTRACKED_SHOWN). */
export function untrackedLine(untracked: readonly string[]): string | undefined {
  if (untracked.length === 0) return undefined
  const shown = untracked.slice(0, UNTRACKED_SHOWN).join(', ')
  const more =
    untracked.length > UNTRACKED_SHOWN ? `, and ${untracked.length - UNTRACKED_SHOWN} more` : ''
  const count = `${untracked.length} ${untracked.length === 1 ? 'file' : 'files'}`
  return `Not tracked by git, but in the archive: ${count}: ${shown}${more}.`
}

/** For a dry run: every file in the archive, then every file or folder left out, with why. */
export function dryRunLines(a: Pick<BuiltArchive, 'files' | 'skipped' | 'ignored'>): string[] {
  const out = [`Files in the archive (${a.files.length}):`, ...a.files.map(f => `  ${f}`)]
  const left = [
    ...a.skipped.map(e => ({ name: e.name, why: skipReason(e) })),
    ...a.ignored.map(e => ({ name: e.name, why: e.why }))
  ].sort((x, y) => Buffer.compare(Buffer.from(x.name), Buffer.from(y.name)))
  out.push(`Left out (${left.length}):`, ...left.map(e => `  ${e.name}: ${e.why}`))
  return out
}
