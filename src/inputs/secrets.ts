// The `secrets` input: NAME=VALUE lines or a JSON object of strings.
import type { Secret } from '../control-plane/schema.ts'
import type { Fail } from './problems.ts'
import { lineColumn, lines } from './text.ts'

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

function checkSecretName(name: string, where: string, fail: Fail): boolean {
  if (!ENV_NAME.test(name)) {
    // The text in the name position may be a value pasted by mistake: do not repeat it.
    fail(
      `\`secrets\` ${where}: the name must look like an environment variable name (letters, digits and underscores, not starting with a digit)`
    )
    return false
  }
  return true
}

/**
 * Secrets as `NAME=VALUE` lines (values trimmed) or a JSON object of strings (values exact);
 * `undefined` when empty.
 */
export function parseSecrets(v: string, fail: Fail): Secret[] | undefined {
  if (v === '') return undefined
  const secrets: Secret[] = []
  const add = (name: string, value: string, where: string) => {
    if (!checkSecretName(name, where, fail)) return
    if (value === '') {
      // On a `NAME=` line the "name" may be a pasted value with base64 padding: name the line.
      const which = where.startsWith('line') ? where : name
      fail(
        `\`secrets\` ${which}: the value is empty (is the workflow secret that should fill it defined?)`
      )
      return
    }
    secrets.push({ name, value })
  }

  if (v.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(v)
    } catch (error) {
      const position = /position (\d+)/.exec(String(error))?.[1]
      const where = position === undefined ? '' : ` (${lineColumn(v, Number(position))})`
      return fail(
        `\`secrets\` starts with \`{\` but is not valid JSON${where}: use a JSON object {"NAME": "value"} or NAME=VALUE lines`
      )
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return fail('`secrets` must be a JSON object {"NAME": "value"} or NAME=VALUE lines')
    }
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') {
        if (checkSecretName(name, 'in the JSON object', fail)) {
          fail(`\`secrets\`: the value of ${name} must be a string`)
        }
        continue
      }
      add(name, value, 'in the JSON object')
    }
    if (Object.values(parsed).every(value => typeof value === 'string')) {
      for (const name of duplicateJsonKeys(v, Object.keys(parsed).length)) {
        fail(`\`secrets\`: ${name} is set more than once`)
      }
    }
  } else {
    const seen = new Set<string>()
    lines(v).forEach((line, index) => {
      const t = line.trim()
      if (t === '' || t.startsWith('#')) return
      const where = `line ${index + 1}`
      const eq = line.indexOf('=')
      if (eq < 0) {
        fail(`\`secrets\` ${where} is not NAME=VALUE (or the whole input a JSON object)`)
        return
      }
      const name = line.slice(0, eq).trim()
      if (seen.has(name)) {
        fail(`\`secrets\`: ${name} is set more than once (${where})`)
        return
      }
      seen.add(name)
      // Trimmed: the runner trims the input's ends, so only trimming every value is consistent
      // (and a trailing space from YAML block text is never meant). JSON keeps values exact.
      add(name, line.slice(eq + 1).trim(), where)
    })
  }
  // After any problem above the input counts as failed, whatever is returned (see problems.ts).
  return secrets
}

/**
 * Names set twice in a JSON object whose values are all strings (`JSON.parse` keeps the last one
 * silently). Its string literals then alternate key, value.
 */
function duplicateJsonKeys(text: string, distinct: number): string[] {
  const literals = [...text.matchAll(/"(?:[^"\\]|\\.)*"/g)].map(m => m[0])
  if (literals.length % 2 !== 0 || literals.length / 2 === distinct) return []
  const counts = new Map<string, number>()
  for (let i = 0; i < literals.length; i += 2) {
    const key = JSON.parse(literals[i] ?? '""') as string
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].filter(([, n]) => n > 1).map(([key]) => key)
}
