// Field checks of single-line inputs. Each returns the parsed value and reports every problem
// through `fail` (see problems.ts).
import { DEPLOYMENT_NAME_PATTERN, Uuid } from '../control-plane/schema.ts'
import { parseDuration } from '../duration.ts'
import type { InputName } from './names.ts'
import type { Check, Fail } from './problems.ts'
import { baseUrlProblem } from '../control-plane/base-url.ts'

export const DEFAULT_BASE_URL = 'https://api.host.langchain.com'
export const DEFAULT_GRAPH_CONFIG_PATH = 'langgraph.json'
export const MAX_NAME_LENGTH = 63
export const MAX_API_KEY_LENGTH = 1024
/** GitHub limits an environment name to 255 characters. */
export const MAX_ENVIRONMENT_LENGTH = 255

const CONTROL = /[\u0000-\u001f\u007f]/
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/
const TRUE_VALUES = ['true', 'True', 'TRUE']
const FALSE_VALUES = ['false', 'False', 'FALSE']

export function optionalText(input: InputName, what: string): Check<string> {
  return (v, fail) => {
    if (v === '') return undefined
    if (CONTROL.test(v)) return fail(`\`${input}\` must be ${what} on one line`)
    return v
  }
}

export function optionalToken(input: InputName, what: string): Check<string> {
  return (v, fail) => {
    if (v === '') return undefined
    if (WHITESPACE_OR_CONTROL.test(v)) {
      return fail(`\`${input}\` must be ${what}, without spaces or line breaks`)
    }
    return v
  }
}

export function optionalUuid(input: InputName, what: string): Check<string> {
  return (v, fail) => {
    if (v === '') return undefined
    if (!Uuid.safeParse(v).success) {
      return fail(`\`${input}\` must be ${what}: a uuid like 123e4567-e89b-12d3-a456-426614174000`)
    }
    return v.toLowerCase()
  }
}

export function booleanInput(input: InputName, fallback: boolean | undefined): Check<boolean> {
  return (v, fail) => {
    if (v === '') return fallback
    if (TRUE_VALUES.includes(v)) return true
    if (FALSE_VALUES.includes(v)) return false
    return fail(`\`${input}\` must be \`true\` or \`false\``)
  }
}

/** A whole number from `min` to `max`; the fallback when empty. */
export function integerInput(
  input: InputName,
  fallback: number,
  min: number,
  max: number
): Check<number> {
  return (v, fail) => {
    if (v === '') return fallback
    const n = /^\d+$/.test(v) ? Number(v) : NaN
    if (Number.isInteger(n) && n >= min && n <= max) return n
    return fail(`\`${input}\` must be a whole number from ${min} to ${max}`)
  }
}

/** A duration in ms; `undefined` when the input is empty and there is no fallback. */
export function durationInput(
  input: InputName,
  fallback: string | undefined,
  check: (ms: number) => string | undefined
): Check<number> {
  return (v, fail) => {
    const text = v === '' ? fallback : v
    if (text === undefined) return undefined
    const ms = parseDuration(text)
    if (ms === undefined) {
      return fail(
        `\`${input}\` must be a duration like \`90s\`, \`15m\`, \`1h\`, \`1h30m\` or plain seconds (\`600\`)`
      )
    }
    const problem = check(ms)
    return problem === undefined ? ms : fail(`\`${input}\` ${problem}`)
  }
}

export function parseBaseUrl(v: string, fail: Fail): string | undefined {
  const input = 'base-url'
  if (WHITESPACE_OR_CONTROL.test(v)) {
    return fail(`\`${input}\` must be a URL without spaces or line breaks`)
  }
  let url: URL
  try {
    url = new URL(v)
  } catch {
    return fail(`\`${input}\` must be an absolute URL like ${DEFAULT_BASE_URL}`)
  }
  const problem = (message: string) => fail(`\`${input}\` ${message}`)
  // The client's own rule for where the key may go: https, or http to a loopback host only.
  const refused = baseUrlProblem(url.href)
  if (refused) problem(`is refused: ${refused}`)
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(v)) {
    problem(
      'must not have a query (?...) or fragment (#...); a path is fine (https://host/api-host)'
    )
  }
  // After a problem above, the input counts as failed whatever is returned.
  return url.origin + url.pathname.replace(/\/+$/, '')
}

/**
 * An http(s) URL that people will open (`custom-url`, `environment-url`): absolute, on one line,
 * without credentials, which would be shown to everyone who can read the deployment or the run.
 */
function webUrl(input: 'custom-url' | 'environment-url') {
  return (v: string, fail: Fail): string | undefined => {
    if (v === '') return undefined
    if (WHITESPACE_OR_CONTROL.test(v)) {
      return fail(`\`${input}\` must be a URL without spaces or line breaks`)
    }
    let url: URL
    try {
      url = new URL(v)
    } catch {
      return fail(`\`${input}\` must be an absolute URL like https://agent.example.com`)
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return fail(`\`${input}\` must be an http:// or https:// URL`)
    }
    if (url.username !== '' || url.password !== '') {
      return fail(
        `\`${input}\` must not carry credentials (user:password@): it is shown to everyone who can read the deployment and the run`
      )
    }
    return v
  }
}

export const parseCustomUrl = webUrl('custom-url')

export function parseName(v: string, fail: Fail): string | undefined {
  const input = 'name'
  if (v === '') return undefined
  if (!DEPLOYMENT_NAME_PATTERN.test(v)) {
    fail(
      `\`${input}\` must be lowercase letters, digits and hyphens, starting with a letter (like \`my-agent\`)`
    )
  }
  if (v.length > MAX_NAME_LENGTH) {
    fail(`\`${input}\` must be at most ${MAX_NAME_LENGTH} characters (it has ${v.length})`)
  }
  return v
}

export function parseApiKey(v: string, fail: Fail): string | undefined {
  const input = 'api-key'
  if (v === '') {
    return fail(`\`${input}\` is required: pass the control plane API key from a secret`)
  }
  if (v.length > MAX_API_KEY_LENGTH) {
    return fail(`\`${input}\` is too long: at most ${MAX_API_KEY_LENGTH} characters`)
  }
  if (!/^[\x21-\x7e]+$/.test(v)) {
    return fail(
      `\`${input}\` must be one line of printable ASCII without spaces or control characters (it is sent as an HTTP header)`
    )
  }
  return v
}

export function parseGithubToken(v: string, fail: Fail): string | undefined {
  const input = 'github-token'
  if (v === '') return undefined
  if (v.length > MAX_API_KEY_LENGTH) {
    return fail(`\`${input}\` is too long: at most ${MAX_API_KEY_LENGTH} characters`)
  }
  if (!/^[\x21-\x7e]+$/.test(v)) {
    return fail(
      `\`${input}\` must be one line of printable ASCII without spaces (pass \`\${{ github.token }}\` or a token from a secret)`
    )
  }
  return v
}

export function parseEnvironment(v: string, fail: Fail): string | undefined {
  const input = 'environment'
  if (v === '') return undefined
  if (CONTROL.test(v)) return fail(`\`${input}\` must be a GitHub environment name on one line`)
  if (v.length > MAX_ENVIRONMENT_LENGTH) {
    return fail(`\`${input}\` must be at most ${MAX_ENVIRONMENT_LENGTH} characters`)
  }
  return v
}

export const parseEnvironmentUrl = webUrl('environment-url')

export function parseRef(v: string, fail: Fail): string | undefined {
  if (v === '') return undefined
  if (WHITESPACE_OR_CONTROL.test(v)) {
    return fail('`ref` must be a branch name or `refs/tags/<tag>`, without spaces or line breaks')
  }
  // `repo_ref` takes a branch name or a full tag ref: `refs/heads/main` means `main`.
  if (v.startsWith('refs/heads/') && v.length > 'refs/heads/'.length) return v.slice(11)
  return v
}

export function parseGraphConfigPath(v: string, fail: Fail): string | undefined {
  const input = 'graph-config-path'
  if (v === '') return DEFAULT_GRAPH_CONFIG_PATH
  if (CONTROL.test(v)) return fail(`\`${input}\` must be a path on one line`)
  if (v.startsWith('/')) {
    return fail(`\`${input}\` must be relative to the repository root (like \`langgraph.json\`)`)
  }
  return v
}

export function parseRepository(v: string, fail: Fail): string | undefined {
  if (v === '') return undefined
  const [, name] = v.split('/')
  if (!REPOSITORY.test(v) || name === '.' || name === '..') {
    return fail('`repository` must be `owner/name` (like `my-org/my-agent`)')
  }
  return v
}

export function parseNamespace(v: string, fail: Fail): string | undefined {
  const input = 'k8s-namespace'
  if (v === '') return undefined
  if (!DNS_LABEL.test(v) || v.length > 63) {
    return fail(
      `\`${input}\` must be a Kubernetes namespace name: at most 63 lowercase letters, digits and hyphens, starting and ending with a letter or digit`
    )
  }
  return v
}

export function parseEnum<T extends string>(
  input: InputName,
  values: readonly T[],
  fallback: T | undefined
): Check<T> {
  return (v, fail) => {
    if (v === '') return fallback
    if ((values as readonly string[]).includes(v)) return v as T
    return fail(`\`${input}\` must be one of ${values.map(s => `\`${s}\``).join(', ')}`)
  }
}
