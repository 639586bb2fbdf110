// The figures of one reliability case, as the table of docs/reliability.md counts them, and the
// results file the cases append them to when RELIABILITY_RESULTS names one (one JSON line per
// case): `npm run reliability:report` reads it to write the table.
import { appendFileSync, existsSync, readFileSync } from 'node:fs'

export interface Figures {
  group: string
  name: string
  passed: boolean
  problems: string[]
  /** Deployments with the case's name beyond the first. */
  duplicated: number
  /** |new revisions the emulator recorded - the revisions the case expects|. */
  revisionsOff: number
  /** Hits of the secret scan over stdout, stderr, outputs and summary. */
  leaked: number
  /** Wall time of the longest run of the bundle in the case. */
  longestMs: number
  runs: number
  /** Measurements worth showing beside the verdict (gaps, counts, memory). */
  notes: string[]
}

/** The groups of the table, in its order. */
export const GROUPS = {
  transient: 'Faults, transient (3x; delays 1x)',
  persistent: 'Faults, persistent',
  retryAfter: 'Retry-After and deadline',
  race: 'Create race (same new name)',
  matrix: 'Matrix of 20 under a rate limit',
  cancel: 'Cancel (SIGINT) and re-run',
  badInputs: 'Bad inputs (no request sent)',
  hostile: 'Hostile or broken server',
  revisionTrust: 'Revision answers and endless lists',
  failedDeploy: 'Failed deploy: log and rollback',
  delete: 'Delete (command: delete)',
  sweep: 'Sweep: only what it owns',
  health: 'Health gate: probe faults',
  keyRouting: 'Health gate: where the key goes',
  check: 'Check: the deployment as it is',
  upload: 'Upload: deadline and file set'
} as const

export type Group = (typeof GROUPS)[keyof typeof GROUPS]

export const RESULTS_ENV = 'RELIABILITY_RESULTS'

/** Appends the figures of one case to the results file, when there is one. */
export function recordFigures(f: Figures): void {
  const file = process.env[RESULTS_ENV]
  if (file) appendFileSync(file, `${JSON.stringify(f)}\n`)
}

export function readFigures(file: string): Figures[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as Figures)
}
