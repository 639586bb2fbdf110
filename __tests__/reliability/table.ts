// The figures of the run as one markdown table: printed at the end of the suite and written to
// the "Last run" section of docs/reliability.md (formatted by prettier, as `npm run lint` checks).
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import * as prettier from 'prettier'
import { ROOT } from '../e2e/harness.ts'
import type { Figures } from './support.ts'

export const DOC = join(ROOT, 'docs/reliability.md')
const BEGIN = '<!-- last-run:begin -->'
const END = '<!-- last-run:end -->'

export function renderTable(all: Figures[], groups: readonly string[]): string {
  const rows = [
    '| Scenario group | Cases run | Passed | Deployments duplicated | Revisions lost or doubled | Secrets leaked | Longest run |',
    '|---|---:|---:|---:|---:|---:|---:|'
  ]
  const line = (label: string, fs: Figures[]) =>
    `| ${label} | ${fs.length} | ${fs.filter(f => f.passed).length} | ${sum(fs, f => f.duplicated)} | ${sum(fs, f => f.revisionsOff)} | ${sum(fs, f => f.leaked)} | ${seconds(Math.max(0, ...fs.map(f => f.longestMs)))} |`
  for (const g of groups)
    rows.push(
      line(
        g,
        all.filter(f => f.group === g)
      )
    )
  rows.push(line('**All**', all))
  return rows.join('\n')
}

const sum = (fs: Figures[], pick: (f: Figures) => number) => fs.reduce((n, f) => n + pick(f), 0)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The failed cases, one line each, for the log. */
export function renderFailures(all: Figures[]): string {
  return all
    .filter(f => !f.passed)
    .map(f => `- [${f.group}] ${f.name}: ${f.problems.join('; ')}`)
    .join('\n')
}

/** The measurements of the cases that took some (times, memory, counts), one line each. */
export function renderNotes(all: Figures[]): string {
  return all
    .filter(f => f.notes.length > 0)
    .map(f => `- ${f.group}, ${f.name}: ${f.notes.join('; ')}`)
    .join('\n')
}

/** Replaces the "Last run" section of the document (between its markers) with this run's table. */
export async function writeLastRun(table: string, all: Figures[], wallMs: number): Promise<void> {
  const runs = sum(all, f => f.runs)
  const section = [
    BEGIN,
    '',
    `Run of ${new Date().toISOString().slice(0, 10)}: ${all.length} cases, ${runs} runs of the ` +
      `bundle, ${(wallMs / 1000).toFixed(0)} s in all on ${cpus().length} cores ` +
      `(Node ${process.versions.node} for jest, the bundle on the Node 24 of \`node_modules/node\`).`,
    '',
    table,
    '',
    'Measured in the same run:',
    '',
    renderNotes(all),
    '',
    END
  ].join('\n')
  let doc = readFileSync(DOC, 'utf8')
  const from = doc.indexOf(BEGIN)
  const to = doc.indexOf(END)
  doc =
    from >= 0 && to > from
      ? doc.slice(0, from) + section + doc.slice(to + END.length)
      : `${doc.trimEnd()}\n\n## Last run\n\n${section}\n`
  const config = (await prettier.resolveConfig(DOC)) ?? {}
  writeFileSync(DOC, await prettier.format(doc, { ...config, parser: 'markdown' }))
}
