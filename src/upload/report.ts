// What the log says of an archive's file set, as plain lines that the deploy step logs.
import type { BuiltArchive } from './archive.ts'
import { skipReason } from './left-out.ts'

/** Untracked files named one by one in the log, at most; the dry run lists every file. */
const UNTRACKED_SHOWN = 20

/** One line per file left out though no ignore rule names it. */
export function leftOutLines(a: Pick<BuiltArchive, 'skipped'>): string[] {
  return a.skipped.map(e => `Left out: ${e.name}: ${skipReason(e)}.`)
}

/**
 * When the config's `env` names a file the archive lacks: the server would start without those
 * variables, so how to pass them (`secrets`: the input as the user sets it).
 */
export function envFileHint(
  a: Pick<BuiltArchive, 'envFile' | 'envFileLeftOut' | 'configPath'>,
  secrets: string
): string | undefined {
  if (!a.envFile || a.envFileLeftOut === undefined) return undefined
  return (
    `${a.configPath} names ${a.envFile} as its \`env\`, and it is not in the archive (${a.envFileLeftOut}): the agent server would start without those variables. ` +
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
