// The run's outputs as the CLI writes them: the command's, as lines or one JSON object on stdout,
// and a dotenv file for GitLab's `artifacts:reports:dotenv` and `source`-ing.
import type { ACTION_OUTPUTS } from '../interface/action-yml.ts'
import { REGISTRY } from '../run.ts'
import type { Command, OutputFormat } from './flags.ts'

type OutputName = keyof typeof ACTION_OUTPUTS

/** Outputs whose JSON is not a string: `--output json` writes them as JSON's own types. */
const JSON_TYPES: Partial<Record<OutputName, 'boolean' | 'number' | 'array'>> = {
  created: 'boolean',
  deleted: 'boolean',
  drift: 'boolean',
  'github-deployment-id': 'number',
  swept: 'array'
}

/** The outputs of `command`, in its table's order. */
export function commandOutputs(
  command: Command,
  outputs: Record<string, string>
): Record<string, string> {
  return Object.fromEntries(REGISTRY[command].outputs.map(name => [name, outputs[name] ?? '']))
}

/** An output as JSON: null when empty, else its type; text that is not of it stays text. */
function jsonValue(name: string, value: string): unknown {
  if (value === '') return null
  const type = JSON_TYPES[name as OutputName]
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true'
  if (type === 'number' && /^\d{1,15}$/.test(value)) return Number(value)
  return (type === 'array' && jsonArray(value)) || value
}

/** A JSON array's items; undefined when the value is no JSON array (it stays text). */
function jsonArray(value: string): unknown[] | undefined {
  try {
    const list: unknown = JSON.parse(value)
    return Array.isArray(list) ? list : undefined
  } catch {
    return undefined
  }
}

/** One line per output, `name=value`, in the order given; nothing when there is no output. */
function outputLines(outputs: Record<string, string>): string {
  return Object.entries(outputs)
    .map(([name, value]) => `${name}=${value.replace(/\r?\n/g, ' ')}\n`)
    .join('')
}

export function formatOutputs(outputs: Record<string, string>, format: OutputFormat): string {
  if (format === 'lines') return outputLines(outputs)
  const typed = Object.fromEntries(Object.entries(outputs).map(([n, v]) => [n, jsonValue(n, v)]))
  return `${JSON.stringify(typed)}\n`
}

/** `deployment-id` -> `DEPLOYMENT_ID`. */
export function dotenvName(output: string): string {
  return output.toUpperCase().replace(/[^A-Z0-9]/g, '_')
}

// The one form that sh and bash (`set -a; . file`), GitLab's `artifacts:reports:dotenv`,
// python-dotenv and npm's dotenv all read back exactly as written: a bare value of these
// characters. Quotes are no way out: GitLab keeps them as part of the value, python-dotenv expands
// `${NAME}` inside single quotes too and reads `\\` there as one backslash, and sh reads `&`, `;`,
// `$`, a backtick, a space or `~` bare. Every output the run writes is one (ids, words, booleans,
// and URLs, whose other characters the run percent-encodes), but for a URL with `&` or `#`.
const BARE = /^[A-Za-z0-9_.:/@+,%=?-]*$/

/** A value as every reader reads it back: bare; undefined when it is not, and not written. */
export function dotenvValue(value: string): string | undefined {
  return BARE.test(value) ? value : undefined
}

/**
 * Outputs that are JSON arrays of names: JSON's `"` sh takes away and GitLab keeps, so in the file
 * such a list is its names joined by `,`, which every reader reads back alike.
 */
const NAME_LISTS: ReadonlySet<string> = new Set(['swept'])

/** A JSON array of names, joined by `,`; undefined when the value is no such array. */
function joinedNames(value: string): string | undefined {
  const items = jsonArray(value)
  if (items === undefined) return undefined
  const names = items.filter((i): i is string => typeof i === 'string' && /^[a-z0-9-]+$/.test(i))
  return names.length === items.length ? names.join(',') : undefined
}

/** The dotenv file: `NAME=value` per output, and the outputs it could not carry safely. */
export function dotenv(outputs: Record<string, string>): { text: string; left: string[] } {
  const lines: string[] = []
  const left: string[] = []
  for (const [name, value] of Object.entries(outputs)) {
    const written = NAME_LISTS.has(name) ? joinedNames(value) : dotenvValue(value)
    if (written === undefined) left.push(name)
    else lines.push(`${dotenvName(name)}=${written}\n`)
  }
  return { text: lines.join(''), left }
}
