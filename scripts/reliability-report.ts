// `npm run reliability:report [-- jest args]`: runs the reliability suite with a results file, prints
// the table of its figures (with the measurements and the failed cases), and, when every case ran,
// writes the table into the "Last run" section of docs/reliability.md (formatted by prettier, as
// `npm run lint` checks). Exits with jest's exit code.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as prettier from 'prettier'
import { GROUPS, readFigures, RESULTS_ENV, type Figures } from './reliability-results.ts'

const ROOT = resolve(import.meta.dirname, '..')
const DOC = join(ROOT, 'docs/reliability.md')
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
    .sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name))
    .map(f => `- ${f.group}, ${f.name}: ${f.notes.join('; ')}`)
    .join('\n')
}

const GROUP_ORDER: readonly string[] = Object.values(GROUPS)
const order = (f: Figures) => GROUP_ORDER.indexOf(f.group)

/** Replaces the "Last run" section of the document (between its markers) with this run's table. */
async function writeLastRun(all: Figures[], wallMs: number): Promise<void> {
  const runs = sum(all, f => f.runs)
  const section = [
    BEGIN,
    '',
    `Run of ${new Date().toISOString().slice(0, 10)}: ${all.length} cases, ${runs} runs of the ` +
      `bundle, ${(wallMs / 1000).toFixed(0)} s in all on ${cpus().length} cores ` +
      `(Node ${process.versions.node} for jest, the bundle on the Node 24 of \`node_modules/node\`).`,
    '',
    renderTable(all, GROUP_ORDER),
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

interface JestSummary {
  numTotalTests: number
  numPendingTests: number
  numTodoTests: number
  numRuntimeErrorTestSuites: number
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-reliability-'))
  const results = join(dir, 'figures.jsonl')
  const summaryFile = join(dir, 'jest.json')
  try {
    const started = Date.now()
    const jest = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        '--config',
        'jest.reliability.config.js',
        '--json',
        `--outputFile=${summaryFile}`,
        ...process.argv.slice(2)
      ],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
          [RESULTS_ENV]: results
        }
      }
    )
    const wallMs = Date.now() - started
    const figures = readFigures(results)
    const failures = renderFailures(figures)
    console.log(
      `\n${renderTable(figures, GROUP_ORDER)}\n\nMeasurements:\n${renderNotes(figures)}\n` +
        (failures ? `\nFailed cases:\n${failures}\n` : '')
    )
    let summary: JestSummary | undefined
    try {
      summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as JestSummary
    } catch {
      // jest did not get as far as its summary
    }
    const complete =
      summary !== undefined &&
      summary.numRuntimeErrorTestSuites === 0 &&
      summary.numPendingTests + summary.numTodoTests === 0 &&
      figures.length === summary.numTotalTests
    if (complete) {
      await writeLastRun(figures, wallMs)
      console.log(`Wrote the table of ${figures.length} cases to docs/reliability.md.`)
    } else
      console.log(
        `docs/reliability.md left alone: ${figures.length} cases recorded` +
          (summary
            ? ` of ${summary.numTotalTests}: a file failed to run, or cases were skipped.`
            : '.')
      )
    return jest.status ?? 1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
