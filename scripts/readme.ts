// `npm run readme`: writes the parts of README.md that have a source of their own, so that they
// cannot drift from it: the inputs and outputs tables (from action.yml, between `<!-- inputs:start -->`
// and `<!-- inputs:end -->`, and the same for outputs) and each example block (the yaml block after
// an `<!-- examples/NAME.yml -->` marker, copied from that file). `npm run readme -- --check` writes
// nothing and exits 1 when the README is out of date; `npm test` runs the same check.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse as parseYaml } from 'yaml'

/** The parts of action.yml the tables show. */
export interface ActionMetadata {
  inputs: Record<string, { description?: string; required?: boolean; default?: unknown }>
  outputs: Record<string, { description?: string }>
}

/** What the README's generated parts come from. */
export interface ReadmeSources {
  action: ActionMetadata
  /** The text of a file of the repository, by its path (`examples/push-main.yml`). */
  readFile(path: string): string
}

// Tables are written compact (prettier would pad every row to the widest one, which doubles the
// bytes of a table with long descriptions) and fenced off from prettier so it leaves them so.
const IGNORE_START = '<!-- prettier-ignore-start -->'
const IGNORE_END = '<!-- prettier-ignore-end -->'
const NOTE =
  '<!-- generated from action.yml by `npm run readme`: edit action.yml, not this table -->'

/** Description text as one table cell: one line, and no character that ends the cell or starts HTML. */
function cell(text: string): string {
  return text
    .trim()
    .replace(/\s*\n\s*/g, ' ')
    .replace(/([\\|<*])/g, '\\$1')
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

function generated(body: string): string {
  return [NOTE, IGNORE_START, body, IGNORE_END].join('\n')
}

/** The inputs table: name, default (or "required"), description, in action.yml's order. */
export function inputsTable(action: ActionMetadata): string {
  const rows = Object.entries(action.inputs).map(([name, input]) => {
    const fallback = input.required
      ? '**required**'
      : input.default === undefined || input.default === ''
        ? ''
        : `\`${String(input.default)}\``
    return [`\`${name}\``, fallback, cell(input.description ?? '')]
  })
  return generated(table(['input', 'default', 'description'], rows))
}

/** The outputs table: name and description, in action.yml's order. */
export function outputsTable(action: ActionMetadata): string {
  const rows = Object.entries(action.outputs).map(([name, output]) => [
    `\`${name}\``,
    cell(output.description ?? '')
  ])
  return generated(table(['output', 'description'], rows))
}

/** `text` with what lies between `<!-- NAME:start -->` and `<!-- NAME:end -->` replaced by `body`. */
function between(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from)
    throw new Error(`README.md: the markers ${start} and ${end} are missing or out of order.`)
  return `${text.slice(0, from + start.length)}\n\n${body}\n\n${text.slice(to)}`
}

const EXAMPLE_BLOCK = /<!-- (examples\/[\w.-]+\.ya?ml) -->\n\n```yaml\n[\s\S]*?```/g

/** The README with its generated parts rendered from their sources. */
export function renderReadme(readme: string, sources: ReadmeSources): string {
  let text = between(readme, 'inputs', inputsTable(sources.action))
  text = between(text, 'outputs', outputsTable(sources.action))
  return text.replace(
    EXAMPLE_BLOCK,
    (_, path: string) => `<!-- ${path} -->\n\n\`\`\`yaml\n${sources.readFile(path)}\`\`\``
  )
}

/** The sources as they are in the repository at `root`. */
export function repositorySources(root: string): ReadmeSources {
  const readFile = (path: string) => readFileSync(join(root, path), 'utf8')
  return { action: parseYaml(readFile('action.yml')) as ActionMetadata, readFile }
}

/** The first line where two texts differ, 1-based, for the check's message. */
function firstDifference(a: string, b: string): number {
  const x = a.split('\n')
  const y = b.split('\n')
  let i = 0
  while (i < x.length && i < y.length && x[i] === y[i]) i++
  return i + 1
}

function main(argv: string[]): number {
  const root = resolve(import.meta.dirname, '..')
  const path = join(root, 'README.md')
  const current = readFileSync(path, 'utf8')
  const rendered = renderReadme(current, repositorySources(root))
  if (rendered === current) {
    console.log('README.md is up to date with action.yml and examples/.')
    return 0
  }
  if (argv.includes('--check')) {
    console.error(
      `README.md is out of date (from line ${firstDifference(current, rendered)}): run npm run readme.`
    )
    return 1
  }
  writeFileSync(path, rendered)
  console.log('README.md: the inputs and outputs tables and the examples were rewritten.')
  return 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2))
