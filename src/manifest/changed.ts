// Whether an agent changed since the commit its deployment's active revision built: its files
// (files.ts) differ between that commit and the checkout's, or its manifest entry does (the
// agent's `config` and `paths` and that environment's settings, as the manifest at that commit had
// them). What cannot be compared (no checkout, a commit the checkout lacks) is unknown, said so.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { configPath } from './entry.ts'
import { agentFiles, agentsChanged } from './files.ts'
import { changedSince, fileAt, hasCommit, type Checkout } from './git.ts'
import { parseManifest, type Manifest } from './read.ts'

/** The verdict's grounds: what changed (none: nothing did), or why it cannot be known. */
export type Since = { changed: string[] } | { unknown: string }

/** JSON with its keys sorted, so that an entry's digest does not depend on their order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (typeof v === 'object' && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map(k => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(v)
}

/** The digest of an agent's entry and one environment's; undefined when the manifest has neither. */
export function entryDigest(m: Manifest, agent: string, environment: string): string | undefined {
  const a = m.agents[agent]
  const env = a?.environments[environment]
  if (!a || !env) return undefined
  const text = canonical({ config: a.config, paths: a.paths, environment: env })
  return createHash('sha256').update(text).digest('hex')
}

/** Where the agent is compared: the checkout, the manifest as it is now. */
export interface Compared {
  checkout: Checkout | undefined
  workspace: string
  manifest: Manifest
}

const short = (sha: string) => sha.slice(0, 12)

/** What of the agent changed between `commit` (its deployment's) and the checkout's HEAD. */
export async function changedSinceCommit(
  c: Compared,
  agent: string,
  environment: string,
  commit: string
): Promise<Since> {
  const checkout = c.checkout
  if (!checkout) return { unknown: 'the workspace is no git checkout, so nothing can be compared' }
  if (!(await hasCommit(checkout, commit)))
    return {
      unknown: `commit ${short(commit)} is not in this checkout${checkout.shallow ? ' (a shallow one: check out with fetch-depth: 0)' : ''}`
    }
  const entry = await entryChange(c, checkout, { agent, environment, commit })
  const files = await filesChanged(c, checkout, agent, commit)
  if ('unknown' in files) return files
  return { changed: [...entry, ...files.changed] }
}

/** The entry's change since `commit`, as a reason; none when it is the same. */
async function entryChange(
  c: Compared,
  checkout: Checkout,
  { agent, environment, commit }: { agent: string; environment: string; commit: string }
): Promise<string[]> {
  const text = await fileAt(checkout, commit, c.manifest.file)
  const then = text === undefined ? undefined : await parseManifest(text, c.manifest.file)
  const before =
    then && 'manifest' in then ? entryDigest(then.manifest, agent, environment) : undefined
  if (before === entryDigest(c.manifest, agent, environment)) return []
  return before === undefined
    ? [`its manifest entry is new since ${short(commit)}`]
    : [`its manifest entry changed since ${short(commit)}`]
}

/** The agent's files that changed since `commit`, each named (a few, then a count). */
async function filesChanged(
  c: Compared,
  checkout: Checkout,
  agent: string,
  commit: string
): Promise<Since> {
  const a = c.manifest.agents[agent]!
  const config = configPath(c.manifest, a.config)
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(await readFile(resolve(c.workspace, config), 'utf8')) as Record<
      string,
      unknown
    >
  } catch {
    return { unknown: `its config ${config} does not parse as JSON, so its files are not known` }
  }
  const files = agentFiles(config, parsed, { from: configPath(c.manifest, '.'), globs: a.paths })
  const changed = await changedSince(checkout, commit)
  if (changed === undefined) return { unknown: `git could not compare ${short(commit)} with HEAD` }
  const mine = agentsChanged(files, changed)
  if (!mine.length) return { changed: [] }
  const named =
    mine.slice(0, 3).join(', ') + (mine.length > 3 ? ` and ${mine.length - 3} more` : '')
  return {
    changed: [
      `${mine.length === 1 ? 'a file' : `${mine.length} files`} changed since ${short(commit)}: ${named}`
    ]
  }
}
