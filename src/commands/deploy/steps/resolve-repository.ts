// `owner/name` -> the integration's repository entry, whose `url` and `default_branch` feed the
// create request. The hosting service compares owner and name case-insensitively, so do we.
import type { Say } from '../../../interface/naming.ts'
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import type { RepositoryEntry } from '../../../control-plane/schema.ts'
import { stop, type Stop } from '../../../interface/ending.ts'

export async function resolveRepository(
  client: ControlPlaneClient,
  integrationId: string,
  repository: string,
  say: Say
): Promise<RepositoryEntry | Stop> {
  const entries = await client.listRepositories(integrationId)
  const wanted = repository.toLowerCase()
  const found = entries.find(e => `${e.owner}/${e.name}`.toLowerCase() === wanted)
  if (found) return found
  const close = closeNames(wanted, entries)
  return stop(
    `Repository ${repository} is not among the ${entries.length} repositories of forge integration ${integrationId}.`,
    (close.length ? `Close names: ${close.join(', ')}. ` : '') +
      `Check ${say('repository')}, or give the integration access to the repository on the hosting service.`,
    'Repository not found'
  )
}

/** Up to five `owner/name` that share the name, or are a couple of edits away. */
function closeNames(wanted: string, entries: RepositoryEntry[]): string[] {
  const [, wantedName = wanted] = wanted.split('/')
  const scored: { full: string; score: number }[] = []
  for (const e of entries) {
    const full = `${e.owner}/${e.name}`
    const lower = full.toLowerCase()
    const name = e.name.toLowerCase()
    let score = Infinity
    if (name === wantedName) score = 0
    else if (name.includes(wantedName) || wantedName.includes(name)) score = 1
    else if (Math.abs(lower.length - wanted.length) <= 2) score = 1 + editDistance(lower, wanted, 2)
    if (score <= 3) scored.push({ full, score })
  }
  return scored
    .sort((a, b) => a.score - b.score || a.full.localeCompare(b.full))
    .slice(0, 5)
    .map(s => s.full)
}

/** Levenshtein distance, giving up (returning max + 1) once it exceeds max. */
function editDistance(a: string, b: string, max: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + change)
      cur.push(v)
      best = Math.min(best, v)
    }
    if (best > max) return max + 1
    prev = cur
  }
  return prev[b.length]!
}
