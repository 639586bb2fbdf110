// Secret values never leave the process in text we write: every message, log line and debug dump
// built from a request or a response goes through a Redactor that knows the key and the secrets.
import { DEPLOYMENT_STATUSES, DEPLOYMENT_TYPES, REVISION_STATUSES, SOURCES } from './vocabulary.ts'

/**
 * Shorter values are neither masked nor redacted: `1`, `eu`, `dev` occur all through a log, which
 * masking would make unreadable, and are guessed anyway. The door warns of them by name.
 */
export const MIN_SECRET_LENGTH = 4

/**
 * Words a run prints on its own (statuses, booleans, levels, branches): a secret of that value
 * would turn the log into `Revision status ***` and hides nothing. Compared without case.
 */
const COMMON_WORDS: ReadonlySet<string> = new Set(
  [
    ...DEPLOYMENT_STATUSES,
    ...REVISION_STATUSES,
    ...DEPLOYMENT_TYPES,
    ...SOURCES,
    ...['true', 'false', 'yes', 'no', 'on', 'off', 'null', 'none', 'enabled', 'disabled'],
    ...['trace', 'debug', 'info', 'notice', 'warn', 'warning', 'error', 'fatal', 'critical'],
    ...['main', 'master', 'develop', 'development', 'dev', 'prod', 'production', 'staging'],
    ...['stage', 'test', 'testing', 'preview', 'local', 'deploy', 'delete', 'default']
  ].map(w => w.toLowerCase())
)

/** Whether a secret's value is a common word (see COMMON_WORDS), not worth masking. */
export function isCommonWord(value: string): boolean {
  return COMMON_WORDS.has(value.trim().toLowerCase())
}

export class Redactor {
  readonly #values = new Set<string>()

  constructor(values: Iterable<string | undefined> = []) {
    for (const v of values) this.add(v)
  }

  /** Adds a value and each of its lines (they leak one by one); returns the new ones, to mask. */
  add(value: string | undefined): string[] {
    const added: string[] = []
    if (!value) return added
    for (const part of [value, ...value.split(/\r?\n/)]) {
      const trimmed = part.trim()
      if (trimmed.length < MIN_SECRET_LENGTH || this.#values.has(trimmed)) continue
      this.#values.add(trimmed)
      added.push(trimmed)
    }
    return added
  }

  /** A secret value the control plane answered: added as the inputs' are (no common word). */
  learn(value: string): string[] {
    return isCommonWord(value) ? [] : this.add(value)
  }

  /** The values this redactor replaces, longest first: the ones to register as masks. */
  get values(): string[] {
    return [...this.#values].sort((a, b) => b.length - a.length)
  }

  redact(text: string): string {
    let out = text
    // Longest first, so a secret that contains another is replaced whole.
    for (const v of [...this.#values].sort((a, b) => b.length - a.length)) {
      if (out.includes(v)) out = out.split(v).join('***')
      const encoded = encodeURIComponent(v)
      if (encoded !== v && out.includes(encoded)) out = out.split(encoded).join('***')
      const json = JSON.stringify(v).slice(1, -1)
      if (json !== v && out.includes(json)) out = out.split(json).join('***')
    }
    return out
  }
}

// The sanitiser's home is src/inert.ts; its users here import it from this module.
