// Secret values never leave the process in text we write: every message, log line and debug dump
// built from a request or a response goes through a Redactor that knows the key and the secrets.

/**
 * Shorter values are neither masked nor redacted: one to three characters (`1`, `eu`, `dev`)
 * occur all through ordinary log text, so masking them would make the job's whole log unreadable,
 * and a value that short is guessed, not protected, anyway. The action never prints secret values
 * itself; the entry layer warns by name about the values this leaves unmasked.
 */
export const MIN_SECRET_LENGTH = 4

export class Redactor {
  readonly #values = new Set<string>()

  constructor(values: Iterable<string | undefined> = []) {
    for (const v of values) this.add(v)
  }

  /** Adds a value (and each of its lines: a multi-line secret leaks line by line too). */
  add(value: string | undefined): void {
    if (!value) return
    for (const part of [value, ...value.split(/\r?\n/)]) {
      const trimmed = part.trim()
      if (trimmed.length >= MIN_SECRET_LENGTH) this.#values.add(trimmed)
    }
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

// The sanitiser of text the run did not write has one home, src/inert.ts; its users here import
// it from this module as they always did.
export { capText, sanitizeServerText } from '../inert.ts'
