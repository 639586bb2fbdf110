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
