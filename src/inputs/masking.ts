// The values to mask in the job log before anything else is logged.
import { isCommonWord, MIN_SECRET_LENGTH } from '../control-plane/redact.ts'
import { parseDocumentInput } from './documents.ts'
import type { RawInputs } from '../interface/names.ts'
import { MAX_DOCUMENT_BYTES } from './problems.ts'
import { lines } from './text.ts'

/** Names of the secrets whose values are common words, left unmasked (warned once by the run). */
export function commonWordSecretNames(secrets: { name: string; value: string }[]): string[] {
  return secrets
    .filter(s => s.value.trim().length >= MIN_SECRET_LENGTH && isCommonWord(s.value))
    .map(s => s.name)
}

/** A value and, when it spans lines, each of its lines: the runner masks line by line. */
function withLines(value: string, into: Set<string>): void {
  if (value.trim() === '') return
  into.add(value)
  if (value.trim() !== value) into.add(value.trim())
  if (!/[\r\n]/.test(value)) return
  for (const line of lines(value)) {
    const t = line.trim()
    if (t.length >= MIN_SECRET_LENGTH) into.add(t)
  }
}

/** A value and its JSON-escaped form, as it appears in the raw input text. */
function withJsonForms(value: string, into: Set<string>): void {
  withLines(value, into)
  const escaped = JSON.stringify(value).slice(1, -1)
  if (escaped !== value) withLines(escaped, into)
}

/** The values of a JSON object that does not parse: every string after a `:`, to line end. */
function scavengeJsonValues(text: string, into: Set<string>): void {
  for (const line of lines(text)) {
    for (const m of line.matchAll(/:\s*("(?:[^"\\]|\\.)*(?:"|$)|[^\s",}{][^,}]*)/g)) {
      const token = (m[1] ?? '').trim()
      if (!token.startsWith('"')) {
        withLines(token, into)
        if (token.startsWith("'")) withLines(token.slice(1).replace(/'$/, ''), into)
        continue
      }
      const closed = token.length > 1 && token.endsWith('"')
      const body = closed ? token.slice(1, -1) : token.slice(1)
      withLines(body, into)
      try {
        const decoded: unknown = JSON.parse(`"${body}"`)
        if (typeof decoded === 'string') withLines(decoded, into)
      } catch {
        // the escaped form is masked already
      }
    }
  }
}

/** The values of `secrets`'s object form, read by the check's parser: masked as accepted. */
function parsedObject(text: string): object | undefined {
  if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES) return undefined
  const parsed = parseDocumentInput('secrets', text, () => undefined)
  return typeof parsed === 'object' && parsed !== null ? parsed : undefined
}

/**
 * Best effort, before anything is logged: the key, the token, every value found in `secrets`
 * (parsed or not) and a password in a URL input, whole and line by line, longest first.
 */
export function secretValuesToMask(raw: Partial<RawInputs>): string[] {
  const found = new Set<string>()
  withLines(raw['api-key'] ?? '', found)
  withLines(raw['github-token'] ?? '', found)

  // The key and the token are masked whatever they are; a secret's value is not when it is a
  // common word (see isCommonWord in control-plane/redact.ts).
  const keys = [...found]
  const secrets = raw.secrets ?? ''
  if (secrets.trim().startsWith('{')) {
    const parsed = parsedObject(secrets.trim())
    if (parsed !== undefined) {
      for (const value of Object.values(parsed)) {
        if (typeof value === 'string') withJsonForms(value, found)
        else if (value !== null && value !== undefined) withLines(JSON.stringify(value), found)
      }
    } else {
      scavengeJsonValues(secrets, found)
    }
  } else {
    for (const line of lines(secrets)) {
      const t = line.trim()
      if (t === '' || t.startsWith('#')) continue
      const eq = line.indexOf('=')
      withLines(eq < 0 ? t : line.slice(eq + 1), found)
    }
  }

  for (const input of ['base-url', 'custom-url', 'environment-url'] as const) {
    try {
      const url = new URL((raw[input] ?? '').trim())
      if (url.password !== '') {
        withLines(url.password, found)
        withLines(decodeURIComponent(url.password), found)
      }
    } catch {
      // not a URL: nothing to find
    }
  }
  return [...found]
    .filter(v => v.length >= MIN_SECRET_LENGTH && (keys.includes(v) || !isCommonWord(v)))
    .sort((a, b) => b.length - a.length)
}
