// `npm run action-metadata`: writes src/cli/action-metadata.ts, what the CLI knows of action.yml
// (its description, each input's name, description, default and whether it is a boolean, each
// output's name and description), so that the CLI's flags, `--help` and outputs come from the
// action's one declaration and the bundle needs no action.yml at runtime.
// `npm run action-metadata -- --check` writes nothing and exits 1 when the file is out of date;
// `npm test` runs the same check.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { parse as parseYaml } from 'yaml'

interface ActionYml {
  description: string
  inputs: Record<string, { description?: string; required?: boolean; default?: unknown }>
  outputs: Record<string, { description?: string }>
}

const ROOT = resolve(import.meta.dirname, '..')
export const METADATA_FILE = join(ROOT, 'src/cli/action-metadata.ts')

const HEADER = `// Generated from action.yml by \`npm run action-metadata\`: edit action.yml, then run it
// (a test fails when this file is out of date). What the CLI's flags, --help and outputs come from.
`

/** One line: action.yml's folded and quoted descriptions, spaces as they read. */
function oneLine(text: string | undefined): string {
  return (text ?? '').trim().replace(/\s*\n\s*/g, ' ')
}

/**
 * Whether an input takes `true` or `false`: its default is one of them, or its description starts
 * so. A test holds this to what the inputs' checks accept.
 */
function isBoolean(input: ActionYml['inputs'][string]): boolean {
  const d = input.default === undefined ? undefined : String(input.default)
  return d === 'true' || d === 'false' || /^true or false\b/i.test(oneLine(input.description))
}

/** The module's text for the action.yml `text`, formatted as the repository formats code. */
export async function renderMetadata(text: string): Promise<string> {
  const action = parseYaml(text) as ActionYml
  const inputs = Object.entries(action.inputs).map(([name, input]) => ({
    name,
    description: oneLine(input.description),
    // A default that is an expression (`${{ github.token }}`) is the runner's, not a value.
    ...(input.default !== undefined && !String(input.default).includes('${{')
      ? { default: String(input.default) }
      : {}),
    ...(input.required ? { required: true } : {}),
    ...(isBoolean(input) ? { boolean: true } : {})
  }))
  const outputs = Object.entries(action.outputs).map(([name, output]) => ({
    name,
    description: oneLine(output.description)
  }))
  const body =
    `${HEADER}\n` +
    `export interface InputMetadata { name: string; description: string; default?: string; required?: boolean; boolean?: boolean }\n` +
    `export interface OutputMetadata { name: string; description: string }\n\n` +
    `export const ACTION_DESCRIPTION: string = ${JSON.stringify(oneLine(action.description))}\n\n` +
    `export const INPUTS: readonly InputMetadata[] = ${JSON.stringify(inputs)}\n\n` +
    `export const OUTPUTS: readonly OutputMetadata[] = ${JSON.stringify(outputs)}\n`
  const options = (await resolveConfig(METADATA_FILE)) ?? {}
  return format(body, { ...options, parser: 'typescript' })
}

async function main(argv: string[]): Promise<number> {
  const rendered = await renderMetadata(readFileSync(join(ROOT, 'action.yml'), 'utf8'))
  let current = ''
  try {
    current = readFileSync(METADATA_FILE, 'utf8')
  } catch {
    // not written yet
  }
  if (rendered === current) {
    console.log('src/cli/action-metadata.ts is up to date with action.yml.')
    return 0
  }
  if (argv.includes('--check')) {
    console.error('src/cli/action-metadata.ts is out of date: run npm run action-metadata.')
    return 1
  }
  writeFileSync(METADATA_FILE, rendered)
  console.log('Wrote src/cli/action-metadata.ts from action.yml.')
  return 0
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2))
}
