// The run's outputs as the CLI writes them: `name=value` lines or one JSON object on stdout, and a
// dotenv file (`DEPLOYMENT_ID=...`) for GitLab's `artifacts:reports:dotenv` and `source`-ing.
// Outputs are structured values, written as they are (as the action writes them).
import type { OutputFormat } from './flags.ts'

/** One line per output, `name=value`, in the order given; nothing when there is no output. */
function outputLines(outputs: Record<string, string>): string {
  return Object.entries(outputs)
    .map(([name, value]) => `${name}=${value.replace(/\r?\n/g, ' ')}\n`)
    .join('')
}

/** The outputs in the chosen format, as stdout gets them. */
export function formatOutputs(outputs: Record<string, string>, format: OutputFormat): string {
  return format === 'json' ? `${JSON.stringify(outputs)}\n` : outputLines(outputs)
}

/** `deployment-id` -> `DEPLOYMENT_ID`. */
export function dotenvName(output: string): string {
  return output.toUpperCase().replace(/[^A-Z0-9]/g, '_')
}

// No reader expands a bare value made of these: sh and bash (`set -a; . file`), GitLab's
// `artifacts:reports:dotenv` (which keeps quotes as part of the value) and npm's dotenv all read
// it back as written. Every output the action writes is one (ids, words, booleans, most URLs).
const PLAIN = /^[A-Za-z0-9_.:/@+,%=-]*$/
// In single quotes sh, bash and npm's dotenv expand nothing (`$`, backtick, `\` stay); a single
// quote or a control character (a newline) cannot be carried inside them for every reader.
const QUOTABLE = /^[^'\u0000-\u001f\u007f]*$/

/**
 * A value as every reader reads it back: bare when plain, else in single quotes (GitLab then keeps
 * the quotes); undefined when no form is safe for all readers, and the value is not written.
 */
export function dotenvValue(value: string): string | undefined {
  if (PLAIN.test(value)) return value
  if (QUOTABLE.test(value)) return `'${value}'`
  return undefined
}

/** The dotenv file: `NAME=value` per output, and the outputs it could not carry safely. */
export function dotenv(outputs: Record<string, string>): { text: string; left: string[] } {
  const lines: string[] = []
  const left: string[] = []
  for (const [name, value] of Object.entries(outputs)) {
    const written = dotenvValue(value)
    if (written === undefined) left.push(name)
    else lines.push(`${dotenvName(name)}=${written}\n`)
  }
  return { text: lines.join(''), left }
}
