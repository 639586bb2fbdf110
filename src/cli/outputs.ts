// The run's outputs as the CLI writes them: `name=value` lines or one JSON object on stdout, and a
// dotenv file (`DEPLOYMENT_ID=...`) for GitLab's `artifacts:reports:dotenv` and `source`-ing.
// Outputs are structured values, written as they are (as the action writes them).
import type { OutputFormat } from './flags.ts'

/** One line per output, `name=value`, in the order given; nothing when there is no output. */
export function outputLines(outputs: Record<string, string>): string {
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

// Values made of these need no quotes in any dotenv reader; GitLab keeps quotes as part of the
// value, so a value is quoted only when it must be (none of the action's outputs needs it).
const PLAIN = /^[A-Za-z0-9_.:/@+,%=-]*$/

/** A value as dotenv reads it back: bare when plain, else in double quotes with `\` escapes. */
export function dotenvValue(value: string): string {
  if (PLAIN.test(value)) return value
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\$/g, '\\$')
    .replace(/\r?\n/g, '\\n')
  return `"${escaped}"`
}

/** The dotenv file: `NAME=value` per output. */
export function dotenv(outputs: Record<string, string>): string {
  return Object.entries(outputs)
    .map(([name, value]) => `${dotenvName(name)}=${dotenvValue(value)}\n`)
    .join('')
}
