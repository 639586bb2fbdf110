// Field checks of single-line inputs (problems.ts). A check sees action.yml's default when the
// input is not set, so `''` reaches only the checks of inputs without one.
import { DEPLOYMENT_NAME_PATTERN, UUID_PATTERN } from '../control-plane/vocabulary.ts'
import { parseDuration } from '../duration.ts'
import { ACTION_INPUTS } from '../interface/action-yml.ts'
import type { InputName } from '../interface/names.ts'
import type { Check, Fail } from './problems.ts'
import { baseUrlProblem } from '../control-plane/base-url.ts'

const DEFAULT_BASE_URL = ACTION_INPUTS['base-url'].default
export const MAX_NAME_LENGTH = 63
export const MAX_API_KEY_LENGTH = 1024
/** GitHub limits an environment name to 255 characters. */
export const MAX_ENVIRONMENT_LENGTH = 255

const CONTROL = /[\u0000-\u001f\u007f]/
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/
/** Characters no one sees, or that turn the text around them (bidi, zero-width, other spaces). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}]/u
/** Fullwidth and halfwidth forms (`ｍａｉｎ`): another character that looks like an ASCII one. */
const WIDTH_FORMS = /[\uff00-\uffef]/

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/
export const TRUE_VALUES = ['true', 'True', 'TRUE']
export const FALSE_VALUES = ['false', 'False', 'FALSE']

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
    if (!UUID_PATTERN.test(v)) {
      return fail(`\`${input}\` must be ${what}: a uuid like 123e4567-e89b-12d3-a456-426614174000`)
    }
    return v.toLowerCase()
  }
}

export function booleanInput(input: InputName): Check<boolean> {
  return (v, fail) => {
    if (v === '') return undefined
    if (TRUE_VALUES.includes(v)) return true
    if (FALSE_VALUES.includes(v)) return false
    return fail(`\`${input}\` must be \`true\` or \`false\``)
  }
}

/** A whole number from `min` to `max`. */
export function integerInput(input: InputName, min: number, max: number): Check<number> {
  return (v, fail) => {
    if (v === '') return undefined
    const n = /^\d+$/.test(v) ? Number(v) : NaN
    if (Number.isInteger(n) && n >= min && n <= max) return n
    return fail(`\`${input}\` must be a whole number from ${min} to ${max}`)
  }
}

/** A duration in ms; `undefined` when the input is empty. */
export function durationInput(
  input: InputName,
  check: (ms: number) => string | undefined
): Check<number> {
  return (v, fail) => {
    if (v === '') return undefined
    const ms = parseDuration(v)
    if (ms === undefined) {
      return fail(
        `\`${input}\` must be a duration like \`90s\`, \`15m\`, \`1h\`, \`1h30m\` or plain seconds (\`600\`)`
      )
    }
    const problem = check(ms)
    return problem === undefined ? ms : fail(`\`${input}\` ${problem}`)
  }
}

/** A URL with a character no one sees: the URL parser drops or encodes it, so it is another URL. */
function invisibleProblem(v: string): string | undefined {
  const hidden = INVISIBLE.exec(v)?.[0]
  return hidden === undefined
    ? undefined
    : `must not contain invisible or direction-changing characters (it has ${codePoint(hidden)}): the URL used would not be the one shown`
}

/** A URL input's text as a URL: on one line, with no hidden characters, absolute like `example`. */
function urlOf(input: InputName, example: string, v: string, fail: Fail): URL | undefined {
  if (WHITESPACE_OR_CONTROL.test(v)) {
    return fail(`\`${input}\` must be a URL without spaces or line breaks`)
  }
  const hidden = invisibleProblem(v)
  if (hidden !== undefined) return fail(`\`${input}\` ${hidden}`)
  return URL.parse(v) ?? fail(`\`${input}\` must be an absolute URL like ${example}`)
}

export const parseBaseUrl = apiUrlInput('base-url', DEFAULT_BASE_URL)

/** `langsmith-api-url`: the LangSmith API the evaluation reads and writes; unset, the region's. */
export const parseLangsmithApiUrl = (v: string, fail: Fail): string | undefined =>
  v === ''
    ? undefined
    : apiUrlInput('langsmith-api-url', 'https://api.smith.langchain.com')(v, fail)

/** An API's URL that the key is sent to: the control plane's rule for it, whichever API it is. */
function apiUrlInput(input: 'base-url' | 'langsmith-api-url', example: string): Check<string> {
  return (v, fail) => apiUrlOf(input, example, v, fail)
}

function apiUrlOf(
  input: 'base-url' | 'langsmith-api-url',
  example: string,
  v: string,
  fail: Fail
): string | undefined {
  const url = urlOf(input, example, v, fail)
  if (!url) return undefined
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

/** An http(s) URL people will open: without credentials, which everyone would see. */
function webUrl(input: 'custom-url' | 'environment-url') {
  return (v: string, fail: Fail): string | undefined => {
    if (v === '') return undefined
    const url = urlOf(input, 'https://agent.example.com', v, fail)
    if (!url) return undefined
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

/** A key or token, sent in a header: printable ASCII of a bounded length. */
function headerSecret(input: InputName, required: string | undefined, printable: string) {
  return (v: string, fail: Fail): string | undefined => {
    if (v === '') return required === undefined ? undefined : fail(`\`${input}\` ${required}`)
    if (v.length > MAX_API_KEY_LENGTH) {
      return fail(`\`${input}\` is too long: at most ${MAX_API_KEY_LENGTH} characters`)
    }
    if (!/^[\x21-\x7e]+$/.test(v)) {
      return fail(`\`${input}\` must be one line of printable ASCII without spaces${printable}`)
    }
    return v
  }
}

export const parseApiKey = headerSecret(
  'api-key',
  'is required: pass the control plane API key from a secret',
  ' or control characters (it is sent as an HTTP header)'
)

export const parseGithubToken = headerSecret(
  'github-token',
  undefined,
  ' (pass `${{ github.token }}` or a token from a secret)'
)

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

const BRANCH_PREFIX = 'refs/heads/'

/**
 * Why a name is refused that would read as another: letters of any script are fine, characters
 * that hide, reverse what follows or mimic ASCII are not (a reviewer would read another name).
 */
function unicodeProblem(text: string): string | undefined {
  const hidden = INVISIBLE.exec(text)?.[0]
  if (hidden !== undefined && hidden !== ' ') {
    return `must not contain invisible or direction-changing characters (it has ${codePoint(hidden)}): they make it read as another name`
  }
  const wide = WIDTH_FORMS.exec(text)?.[0]
  if (wide !== undefined) {
    return `must not contain fullwidth or halfwidth forms (it has ${codePoint(wide)}): they look like ASCII letters and are not; write the ASCII characters`
  }
  return undefined
}

/** `U+202E`: a character named without printing it. */
function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/** What `git check-ref-format --allow-onelevel` refuses in `ref` (late, in the integration). */
export function refFormatProblem(ref: string): string | undefined {
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(ref)) {
    return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\'
  }
  const unicode = unicodeProblem(ref)
  if (unicode !== undefined) return unicode
  if (ref.includes('..')) return 'must not contain `..`'
  if (ref.includes('@{')) return 'must not contain `@{`'
  if (ref === '@') return 'must not be `@` alone'
  if (ref.startsWith('/') || ref.endsWith('/') || ref.includes('//')) {
    return 'must not start or end with `/` nor contain `//`'
  }
  if (ref.endsWith('.')) return 'must not end with `.`'
  for (const part of ref.split('/')) {
    if (part.startsWith('.')) return 'must not have a part (between slashes) that starts with `.`'
    if (part.endsWith('.lock'))
      return 'must not have a part (between slashes) that ends with `.lock`'
  }
  return undefined
}

/** A branch name or `refs/tags/<tag>`, as git allows ref names; `refs/heads/X` is `X`. */
export function parseRef(v: string, fail: Fail): string | undefined {
  if (v === '') return undefined
  const problem = refFormatProblem(v)
  if (problem !== undefined) {
    return fail(
      `\`ref\` must be a branch name or \`refs/tags/<tag>\` as git allows it: it ${problem}`
    )
  }
  // `repo_ref` takes a branch name or a full tag ref (see parseInputs' notice for refs/heads/).
  if (v.startsWith(BRANCH_PREFIX) && v.length > BRANCH_PREFIX.length) {
    return v.slice(BRANCH_PREFIX.length)
  }
  return v
}

/** Whether `..` parts climb above where the path starts (`a/../../b`); `/` and `\\` both part it. */
function escapesRoot(path: string): boolean {
  let depth = 0
  for (const part of path.split(/[/\\]/)) {
    if (part === '..') depth--
    else if (part !== '' && part !== '.') depth++
    if (depth < 0) return true
  }
  return false
}

/** A path relative to the workspace that stays inside it: `graph-config-path`, `smoke-test`. */
export function workspacePath(input: InputName, example: string, deeper: string): Check<string> {
  return (v, fail) => {
    if (v === '') return undefined
    if (CONTROL.test(v)) return fail(`\`${input}\` must be a path on one line`)
    if (v.startsWith('/') || v.startsWith('\\') || /^[A-Za-z]:/.test(v)) {
      return fail(`\`${input}\` must be relative to the repository root (like \`${example}\`)`)
    }
    if (escapesRoot(v)) {
      return fail(
        `\`${input}\` must stay inside the repository: its \`..\` parts lead above the repository root (write the path from the root, like \`${deeper}\`)`
      )
    }
    const hidden = unicodeProblem(v)
    if (hidden !== undefined) return fail(`\`${input}\` ${hidden}`)
    return v
  }
}

export const parseGraphConfigPath = workspacePath(
  'graph-config-path',
  'langgraph.json',
  'apps/agent/langgraph.json'
)

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

export function parseEnum<T extends string>(input: InputName, values: readonly T[]): Check<T> {
  return (v, fail) => {
    if (v === '') return undefined
    if ((values as readonly string[]).includes(v)) return v as T
    return fail(`\`${input}\` must be one of ${values.map(s => `\`${s}\``).join(', ')}`)
  }
}

/** `promote-from`: another deployment's name, or its id (a uuid). */
export function parsePromoteFrom(v: string, fail: Fail): string | undefined {
  if (v === '') return undefined
  if (UUID_PATTERN.test(v)) return v.toLowerCase()
  if (!DEPLOYMENT_NAME_PATTERN.test(v) || v.length > MAX_NAME_LENGTH) {
    return fail(
      '`promote-from` must be a deployment name (lowercase letters, digits and hyphens, like `my-agent-staging`) or a deployment id'
    )
  }
  return v
}

/** `expected-source-digest`: `sha256:<64 hex>`, as the `source-digest` output gives it. */
export function parseSourceDigest(v: string, fail: Fail): string | undefined {
  if (v === '') return undefined
  const d = v.toLowerCase()
  if (!/^sha256:[0-9a-f]{64}$/.test(d)) {
    return fail(
      '`expected-source-digest` must be `sha256:` and 64 hex digits, as the `source-digest` output gives it'
    )
  }
  return d
}
