// The `secrets` input: NAME=VALUE lines or a JSON object of strings, read by the document parser
// that masking.ts uses too, so the values checked here are exactly the values masked.
import type { Secret } from '../control-plane/schema.ts'
import { parseDocumentInput } from './documents.ts'
import type { SyntaxMessages } from './document-parser.ts'
import { ENV_NAME } from '../interface/names.ts'
import type { Fail } from './problems.ts'
import { lines } from './text.ts'

const FORMS = 'a JSON object {"NAME": "value"} or NAME=VALUE lines'

// Never the parser's reason: it may quote the text, and the text holds secret values.
const OBJECT_MESSAGES: SyntaxMessages = {
  notParsed: where => `\`secrets\` starts with \`{\` but is not valid JSON${where}: use ${FORMS}`,
  // A key that is no name may be a value pasted by mistake: do not repeat it.
  duplicateKey: (key, where) =>
    `\`secrets\`: ${ENV_NAME.test(key) ? key : 'a name'} is set more than once (${where})`
}

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

/** `NAME=VALUE` lines (values trimmed) or a JSON object of strings (exact; YAML flow too). */
export function parseSecrets(v: string, fail: Fail): Secret[] | undefined {
  if (v === '') return undefined
  const secrets: Secret[] = []
  const add = (name: string, value: string, where: string) => {
    if (!checkSecretName(name, where, fail)) return
    if (value === '') {
      // On a `NAME=` line the "name" may be a pasted value with base64 padding: name the line.
      const which = where.startsWith('line') ? where : name
      fail(
        `\`secrets\` ${which}: the value is empty (is the secret or variable that should fill it defined?)`
      )
      return
    }
    secrets.push({ name, value })
  }

  if (v.startsWith('{')) {
    const parsed = parseDocumentInput('secrets', v, fail, OBJECT_MESSAGES)
    if (parsed === undefined) return undefined
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return fail(`\`secrets\` must be ${FORMS}`)
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
