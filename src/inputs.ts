// The action's inputs -> one typed, validated `Options` object. Pure: no I/O, no `@actions/core`
// (the entry layer masks and logs).
//
// Every raw input goes into one record that one zod schema parses: each field's transform checks
// its own input, a final refinement checks how the inputs fit together, and every issue becomes
// an `InputProblem` naming its input. All problems are collected, never just the first, and no
// message ever repeats an input's value: a value may be the API key or a secret pasted into the
// wrong input. What may appear is the input's name, a secret's name, a line number or a key of a
// YAML/JSON document.
import { z } from 'zod'
import { isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml'
import type { Document } from 'yaml'
import {
  DEPLOYMENT_NAME_PATTERN,
  RESERVED_SECRET_NAMES,
  RESERVED_SECRET_NAMES_HOSTED,
  ResourceSpec,
  RevisionSource,
  SecretReference,
  SOURCES,
  Source,
  Uuid
} from './control-plane/schema.ts'
import type { Secret } from './control-plane/schema.ts'
import { formatDuration, parseDuration } from './duration.ts'
import type { EventDefaults } from './event.ts'
import type { InputProblem, Options, Target } from './options.ts'

/** Every input of the action, as users write them in workflow files. */
export const INPUT_NAMES = [
  'api-key',
  'tenant-id',
  'base-url',
  'name',
  'deployment-id',
  'source',
  'integration-id',
  'repository',
  'ref',
  'graph-config-path',
  'image-uri',
  'secrets',
  'secret-references',
  'resource-spec',
  'build-on-push',
  'custom-url',
  'listener-id',
  'k8s-namespace',
  'install-command',
  'build-command',
  'revision-source',
  'create',
  'wait',
  'timeout',
  'poll-interval',
  'dry-run',
  'github-token',
  'environment',
  'environment-url'
] as const
export type InputName = (typeof INPUT_NAMES)[number]
/** Inputs as the runner passes them: text, `''` when not set. */
export type RawInputs = Record<InputName, string>

export const DEFAULT_BASE_URL = 'https://api.host.langchain.com'
export const DEFAULT_GRAPH_CONFIG_PATH = 'langgraph.json'
export const DEFAULT_TIMEOUT = '30m'
export const DEFAULT_POLL_INTERVAL = '15s'
export const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000
export const MIN_POLL_INTERVAL_MS = 1000
export const MAX_NAME_LENGTH = 63
export const MAX_API_KEY_LENGTH = 1024
/** GitHub limits an environment name to 255 characters. */
export const MAX_ENVIRONMENT_LENGTH = 255
/** Size caps, in bytes of UTF-8. */
export const MAX_INPUT_BYTES = 64 * 1024
export const MAX_DOCUMENT_BYTES = 1024 * 1024
/** Deepest nesting of a YAML/JSON input (the top-level object or list is depth 1). */
export const MAX_DOCUMENT_DEPTH = 32
/** Aliases a YAML input may expand: a few are handy, thousands are an attack. */
export const MAX_YAML_ALIASES = 100

const DOCUMENT_INPUTS: ReadonlySet<InputName> = new Set([
  'secrets',
  'secret-references',
  'resource-spec'
])

/** The runner's environment variable for an input: `INPUT_` + upper case, hyphens kept. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/**
 * Every input from the runner's environment, trimmed at both ends like `core.getInput` (inner
 * lines of multi-line values are left as they are); `''` for inputs that are not set.
 */
export function readRawInputs(env: NodeJS.ProcessEnv): RawInputs {
  const raw = {} as RawInputs
  for (const name of INPUT_NAMES) raw[name] = (env[inputEnvName(name)] ?? '').trim()
  return raw
}

// ---------------------------------------------------------------------------------------------
// Masking

/** Lines of a multi-line secret shorter than this are not masked on their own (`}`, `--`). */
const MIN_MASKED_FRAGMENT = 4

const lines = (text: string): string[] => text.split(/\r\n|\n|\r/)

/** A value and, when it spans lines, each of its lines: the runner masks line by line. */
function withLines(value: string, into: Set<string>): void {
  if (value.trim() === '') return
  into.add(value)
  if (value.trim() !== value) into.add(value.trim())
  if (!/[\r\n]/.test(value)) return
  for (const line of lines(value)) {
    const t = line.trim()
    if (t.length >= MIN_MASKED_FRAGMENT) into.add(t)
  }
}

/** A value and its JSON-escaped form, as it appears in the raw input text. */
function withJsonForms(value: string, into: Set<string>): void {
  withLines(value, into)
  const escaped = JSON.stringify(value).slice(1, -1)
  if (escaped !== value) withLines(escaped, into)
}

/** The values of a JSON object that may be malformed: every string after a `:`, to line end. */
function scavengeJsonValues(text: string, into: Set<string>): void {
  for (const line of lines(text)) {
    for (const m of line.matchAll(/:\s*("(?:[^"\\]|\\.)*(?:"|$)|[^\s",}{][^,}]*)/g)) {
      const token = (m[1] ?? '').trim()
      if (!token.startsWith('"')) {
        withLines(token, into)
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

/**
 * Best effort, for masking before anything else is logged: the API key and every value found in
 * the `secrets` input (each `NAME=VALUE` line's value, a line that is not `NAME=VALUE` as a whole,
 * every JSON object value, also when the JSON is malformed), the `github-token`, plus a password
 * in `base-url`, `custom-url` or `environment-url`. Multi-line values come whole and line by line.
 * Longest first.
 */
export function secretValuesToMask(raw: Partial<RawInputs>): string[] {
  const found = new Set<string>()
  withLines(raw['api-key'] ?? '', found)
  withLines(raw['github-token'] ?? '', found)

  const secrets = raw.secrets ?? ''
  if (secrets.trim().startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(secrets)
    } catch {
      parsed = undefined
    }
    if (typeof parsed === 'object' && parsed !== null) {
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
  return [...found].sort((a, b) => b.length - a.length)
}

// ---------------------------------------------------------------------------------------------
// Field checks. Each returns the parsed value, or INVALID after reporting why through `fail`.

const INVALID: unique symbol = Symbol('invalid input')
type Invalid = typeof INVALID
type Fail = (message: string) => Invalid

const CONTROL = /[\u0000-\u001f\u007f]/
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/
const TRUE_VALUES = ['true', 'True', 'TRUE']
const FALSE_VALUES = ['false', 'False', 'FALSE']

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`
}

/**
 * A zod field for one input: caps its size, trims single-line inputs, passes `''` for an empty
 * input to `check`, and turns every `fail` into an issue at this input.
 */
function field<T>(input: InputName, check: (value: string, fail: Fail) => T | Invalid) {
  const cap = DOCUMENT_INPUTS.has(input) ? MAX_DOCUMENT_BYTES : MAX_INPUT_BYTES
  return z.string().transform((value, ctx): T | Invalid => {
    const bytes = Buffer.byteLength(value, 'utf8')
    if (bytes > cap) {
      ctx.addIssue({
        code: 'custom',
        message: `\`${input}\` is ${sizeText(bytes)}; at most ${sizeText(cap)} is accepted`
      })
      return INVALID
    }
    let failed = false
    const result = check(value.trim(), message => {
      failed = true
      ctx.addIssue({ code: 'custom', message })
      return INVALID
    })
    return failed ? INVALID : result
  })
}

function optionalText(input: InputName, what: string) {
  return field(input, (v, fail) => {
    if (v === '') return undefined
    if (CONTROL.test(v)) return fail(`\`${input}\` must be ${what} on one line`)
    return v
  })
}

function optionalToken(input: InputName, what: string) {
  return field(input, (v, fail) => {
    if (v === '') return undefined
    if (WHITESPACE_OR_CONTROL.test(v)) {
      return fail(`\`${input}\` must be ${what}, without spaces or line breaks`)
    }
    return v
  })
}

function optionalUuid(input: InputName, what: string) {
  return field(input, (v, fail) => {
    if (v === '') return undefined
    if (!Uuid.safeParse(v).success) {
      return fail(`\`${input}\` must be ${what}: a uuid like 123e4567-e89b-12d3-a456-426614174000`)
    }
    return v.toLowerCase()
  })
}

function booleanInput(input: InputName, fallback: boolean | undefined) {
  return field(input, (v, fail) => {
    if (v === '') return fallback
    if (TRUE_VALUES.includes(v)) return true
    if (FALSE_VALUES.includes(v)) return false
    return fail(`\`${input}\` must be \`true\` or \`false\``)
  })
}

function durationInput(
  input: InputName,
  fallback: string,
  check: (ms: number) => string | undefined
) {
  return field(input, (v, fail) => {
    const ms = parseDuration(v === '' ? fallback : v)
    if (ms === undefined) {
      return fail(
        `\`${input}\` must be a duration like \`90s\`, \`15m\`, \`1h\`, \`1h30m\` or plain seconds (\`600\`)`
      )
    }
    const problem = check(ms)
    return problem === undefined ? ms : fail(`\`${input}\` ${problem}`)
  })
}

const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname === '[::1]' ||
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)

function parseBaseUrl(v: string, fail: Fail): string | Invalid {
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
  let ok = true
  const problem = (message: string) => {
    ok = false
    fail(`\`${input}\` ${message}`)
  }
  if (url.protocol === 'http:') {
    if (!isLoopback(url.hostname)) {
      problem(
        'must use https: the API key travels in a header (http is accepted only for localhost, 127.0.0.0/8 and [::1])'
      )
    }
  } else if (url.protocol !== 'https:') {
    problem('must be an https:// URL')
  }
  if (url.username !== '' || url.password !== '') {
    problem('must not carry credentials (user:password@): the API key goes in `api-key`')
  }
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(v)) {
    problem(
      'must not have a query (?...) or fragment (#...); a path is fine (https://host/api-host)'
    )
  }
  if (!ok) return INVALID
  return url.origin + url.pathname.replace(/\/+$/, '')
}

function parseCustomUrl(v: string, fail: Fail): string | undefined | Invalid {
  const input = 'custom-url'
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
    return fail(`\`${input}\` must not carry credentials (user:password@)`)
  }
  return v
}

function parseName(v: string, fail: Fail): string | undefined | Invalid {
  const input = 'name'
  if (v === '') return undefined
  let ok = true
  if (!DEPLOYMENT_NAME_PATTERN.test(v)) {
    ok = false
    fail(
      `\`${input}\` must be lowercase letters, digits and hyphens, starting with a letter (like \`my-agent\`)`
    )
  }
  if (v.length > MAX_NAME_LENGTH) {
    ok = false
    fail(`\`${input}\` must be at most ${MAX_NAME_LENGTH} characters (it has ${v.length})`)
  }
  return ok ? v : INVALID
}

function parseApiKey(v: string, fail: Fail): string | Invalid {
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

function parseGithubToken(v: string, fail: Fail): string | undefined | Invalid {
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

function parseEnvironment(v: string, fail: Fail): string | undefined | Invalid {
  const input = 'environment'
  if (v === '') return undefined
  if (CONTROL.test(v)) return fail(`\`${input}\` must be a GitHub environment name on one line`)
  if (v.length > MAX_ENVIRONMENT_LENGTH) {
    return fail(`\`${input}\` must be at most ${MAX_ENVIRONMENT_LENGTH} characters`)
  }
  return v
}

function parseEnvironmentUrl(v: string, fail: Fail): string | undefined | Invalid {
  const input = 'environment-url'
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
      `\`${input}\` must not carry credentials (user:password@): GitHub shows it to everyone who can read the repository`
    )
  }
  return v
}

function parseRef(v: string, fail: Fail): string | undefined | Invalid {
  if (v === '') return undefined
  if (WHITESPACE_OR_CONTROL.test(v)) {
    return fail('`ref` must be a branch name or `refs/tags/<tag>`, without spaces or line breaks')
  }
  // `repo_ref` takes a branch name or a full tag ref: `refs/heads/main` means `main`.
  if (v.startsWith('refs/heads/') && v.length > 'refs/heads/'.length) return v.slice(11)
  return v
}

function parseGraphConfigPath(v: string, fail: Fail): string | Invalid {
  const input = 'graph-config-path'
  if (v === '') return DEFAULT_GRAPH_CONFIG_PATH
  if (CONTROL.test(v)) return fail(`\`${input}\` must be a path on one line`)
  if (v.startsWith('/')) {
    return fail(`\`${input}\` must be relative to the repository root (like \`langgraph.json\`)`)
  }
  return v
}

function parseRepository(v: string, fail: Fail): string | undefined | Invalid {
  if (v === '') return undefined
  const [, name] = v.split('/')
  if (!REPOSITORY.test(v) || name === '.' || name === '..') {
    return fail('`repository` must be `owner/name` (like `my-org/my-agent`)')
  }
  return v
}

function parseNamespace(v: string, fail: Fail): string | undefined | Invalid {
  const input = 'k8s-namespace'
  if (v === '') return undefined
  if (!DNS_LABEL.test(v) || v.length > 63) {
    return fail(
      `\`${input}\` must be a Kubernetes namespace name: at most 63 lowercase letters, digits and hyphens, starting and ending with a letter or digit`
    )
  }
  return v
}

function parseEnum<T extends string>(
  input: InputName,
  values: readonly T[],
  fallback: T | undefined
) {
  return field(input, (v, fail): T | undefined | Invalid => {
    if (v === '') return fallback
    if ((values as readonly string[]).includes(v)) return v as T
    return fail(`\`${input}\` must be one of ${values.map(s => `\`${s}\``).join(', ')}`)
  })
}

// ---------------------------------------------------------------------------------------------
// Secrets

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
function parseSecrets(v: string, fail: Fail): Secret[] | undefined | Invalid {
  if (v === '') return undefined
  let ok = true
  const problem: Fail = message => {
    ok = false
    return fail(message)
  }
  const secrets: Secret[] = []
  const add = (name: string, value: string, where: string) => {
    if (!checkSecretName(name, where, problem)) return
    if (value === '') {
      // On a `NAME=` line the "name" may be a pasted value with base64 padding: name the line.
      const which = where.startsWith('line') ? where : name
      problem(
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
      problem(
        `\`secrets\` starts with \`{\` but is not valid JSON${where}: use a JSON object {"NAME": "value"} or NAME=VALUE lines`
      )
      return INVALID
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problem('`secrets` must be a JSON object {"NAME": "value"} or NAME=VALUE lines')
      return INVALID
    }
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') {
        if (checkSecretName(name, 'in the JSON object', problem)) {
          problem(`\`secrets\`: the value of ${name} must be a string`)
        }
        continue
      }
      add(name, value, 'in the JSON object')
    }
    if (Object.values(parsed).every(value => typeof value === 'string')) {
      for (const name of duplicateJsonKeys(v, Object.keys(parsed).length)) {
        problem(`\`secrets\`: ${name} is set more than once`)
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
        problem(`\`secrets\` ${where} is not NAME=VALUE (or the whole input a JSON object)`)
        return
      }
      const name = line.slice(0, eq).trim()
      if (seen.has(name)) {
        problem(`\`secrets\`: ${name} is set more than once (${where})`)
        return
      }
      seen.add(name)
      // Trimmed: the runner trims the input's ends, so only trimming every value is consistent
      // (and a trailing space from YAML block text is never meant). JSON keeps values exact.
      add(name, line.slice(eq + 1).trim(), where)
    })
  }
  return ok ? secrets : INVALID
}

/** `line L, column C` of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset)
  const line = lines(before).length
  const column = offset - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'))
  return `line ${line}, column ${column}`
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

// ---------------------------------------------------------------------------------------------
// YAML/JSON documents

/**
 * Whether the nesting of a YAML/JSON text may exceed `limit`, by a linear scan that runs before
 * the parser: the parser recurses per level, and a megabyte of `[[[[...` takes it seconds and
 * gigabytes. It over-estimates a little (a later exact check enforces MAX_DOCUMENT_DEPTH), never
 * recurses, and what it misses the parser still stops (RESOURCE_EXHAUSTION) on its own.
 */
export function nestingMayExceed(text: string, limit: number): boolean {
  const indents: number[] = []
  let flow = 0
  let quote: '"' | "'" | undefined
  let blockScalarParent: number | undefined
  for (const line of lines(text)) {
    let p = 0
    let depth = indents.length
    if (quote === undefined && flow === 0) {
      while (line[p] === ' ') p++
      const rest = line.slice(p)
      if (rest.trim() === '' || rest.startsWith('#')) continue
      if (blockScalarParent !== undefined) {
        if (p > blockScalarParent) continue
        blockScalarParent = undefined
      }
      while (indents.length > 0 && (indents.at(-1) ?? 0) >= p) indents.pop()
      indents.push(p)
      depth = indents.length
      // Compact nested sequences on one line: `- - - x`.
      while (line[p] === '-' && (p + 1 === line.length || line[p + 1] === ' ')) {
        depth++
        p++
        while (line[p] === ' ') p++
      }
      if (depth > limit) return true
      if (/(^|[\s:-])[|>][-+0-9]*\s*(#.*)?$/.test(line)) {
        blockScalarParent = indents.at(-1)
      }
    }
    for (; p < line.length; p++) {
      const ch = line[p]
      if (quote === '"') {
        if (ch === '\\') p++
        else if (ch === '"') quote = undefined
        continue
      }
      if (quote === "'") {
        if (ch === "'") {
          if (line[p + 1] === "'") p++
          else quote = undefined
        }
        continue
      }
      const prev = p === 0 ? ' ' : line[p - 1]
      if (ch === '#' && (prev === ' ' || prev === '\t')) break
      if ((ch === '"' || ch === "'") && ' \t[{,:-?'.includes(prev ?? ' ')) {
        quote = ch
      } else if (ch === '[' || ch === '{') {
        flow++
        if (flow + depth > limit) return true
      } else if ((ch === ']' || ch === '}') && flow > 0) {
        flow--
      }
    }
  }
  return false
}

/** Depth of nested objects and lists, without recursion; stops counting past `limit`. */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]]
  let visited = 0
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number]
    if (typeof node !== 'object' || node === null) continue
    if (depth > limit || ++visited > 1_000_000) return true
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

/** The first key set twice in one mapping (as the JS object would see it), without recursion. */
function firstDuplicateKey(doc: Document): { key: string; offset: number } | undefined {
  const stack: unknown[] = [doc.contents]
  while (stack.length > 0) {
    const node = stack.pop()
    if (isMap(node)) {
      const keys = new Set<string>()
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          const key = String(pair.key.value)
          if (keys.has(key)) return { key, offset: pair.key.range?.[0] ?? 0 }
          keys.add(key)
        }
        stack.push(pair.key, pair.value)
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(isPair(item) ? item.value : item)
    }
  }
  return undefined
}

/** A YAML (or JSON) document, with alias, depth and error checks; INVALID after failing. */
function parseDocumentInput(input: InputName, v: string, fail: Fail): unknown {
  if (nestingMayExceed(v, 2 * MAX_DOCUMENT_DEPTH)) {
    return fail(`\`${input}\` is nested too deeply: at most ${MAX_DOCUMENT_DEPTH} levels`)
  }
  let value: unknown
  try {
    // yaml's own unique-key check compares every pair of keys: a big map takes it many seconds.
    const doc = parseDocument(v, { uniqueKeys: false })
    const error = doc.errors[0]
    if (error !== undefined) {
      const position = error.linePos?.[0]
      const where = position ? ` at line ${position.line}, column ${position.col}` : ''
      const reason =
        error.code === 'RESOURCE_EXHAUSTION'
          ? 'it is too large or nested too deeply'
          : (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
      return fail(`\`${input}\` is not valid YAML or JSON${where}: ${reason}`)
    }
    const duplicate = firstDuplicateKey(doc)
    if (duplicate !== undefined) {
      return fail(
        `\`${input}\` has the key ${duplicate.key} twice (${lineColumn(v, duplicate.offset)}): a later value would silently replace the first`
      )
    }
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES })
  } catch (error) {
    const aliases = error instanceof ReferenceError && /alias/i.test(error.message)
    return fail(
      aliases
        ? `\`${input}\` expands too many YAML aliases (at most ${MAX_YAML_ALIASES})`
        : `\`${input}\` could not be read as YAML or JSON`
    )
  }
  if (depthExceeds(value, MAX_DOCUMENT_DEPTH)) {
    return fail(`\`${input}\` is nested too deeply: at most ${MAX_DOCUMENT_DEPTH} levels`)
  }
  return value
}

/** Keys that a zod object schema would silently drop, as paths (`sidecars[0].imge`). */
function unknownKeys(schema: z.ZodType, value: unknown, path: string, into: string[]): void {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    unknownKeys(schema.unwrap() as z.ZodType, value, path, into)
  } else if (schema instanceof z.ZodArray && Array.isArray(value)) {
    value.forEach((item, i) =>
      unknownKeys(schema.element as z.ZodType, item, `${path}[${i}]`, into)
    )
  } else if (
    schema instanceof z.ZodObject &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value)
  ) {
    const shape = schema.shape as Record<string, z.ZodType>
    for (const [key, child] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`
      const known = Object.hasOwn(shape, key) ? shape[key] : undefined
      if (known === undefined) into.push(at)
      else unknownKeys(known, child, at, into)
    }
  }
}

/** Zod issues of a document as `path: message` lines. */
function issuePaths(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map(issue => {
    const path = issue.path
      .map((key, i) =>
        typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`
      )
      .join('')
    return `${path === '' ? 'the document' : path}: ${issue.message}`
  })
}

/** A document that must match `schema`, its unknown keys rejected with their names. */
function parseWithSchema<T>(
  input: InputName,
  v: string,
  schema: z.ZodType<T>,
  shapeText: string,
  fail: Fail
): T | Invalid {
  const value = parseDocumentInput(input, v, fail)
  if (value === INVALID) return INVALID
  let ok = true
  const unknown: string[] = []
  unknownKeys(schema, value, '', unknown)
  if (unknown.length > 0) {
    ok = false
    fail(
      `\`${input}\` has unknown keys, which would be ignored: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', ...' : ''}`
    )
  }
  const result = schema.safeParse(value)
  if (!result.success) {
    const typeError = result.error.issues.find(i => i.path.length === 0)
    if (typeError !== undefined) {
      fail(`\`${input}\` must be ${shapeText}`)
      return INVALID
    }
    ok = false
    for (const line of issuePaths(result.error.issues).slice(0, 10)) fail(`\`${input}\` ${line}`)
  }
  return ok && result.success ? result.data : INVALID
}

const SecretReferenceList = z.array(SecretReference)

function parseSecretReferences(v: string, fail: Fail): SecretReference[] | undefined | Invalid {
  const input = 'secret-references'
  if (v === '') return undefined
  const list = parseWithSchema(
    input,
    v,
    SecretReferenceList,
    'a YAML or JSON list of {name, secret_name, secret_key}',
    fail
  )
  if (list === INVALID) return INVALID
  let ok = true
  const seen = new Set<string>()
  list.forEach((ref, i) => {
    const problem = (message: string) => {
      ok = false
      fail(`\`${input}\` [${i}]: ${message}`)
    }
    if (!ENV_NAME.test(ref.name)) {
      problem(
        '`name` must look like an environment variable name (letters, digits and underscores, not starting with a digit)'
      )
    } else if (seen.has(ref.name)) {
      problem(`${ref.name} is listed more than once`)
    } else if ((RESERVED_SECRET_NAMES as readonly string[]).includes(ref.name)) {
      problem(`${ref.name} is reserved by the platform`)
    }
    seen.add(ref.name)
    if (ref.secret_name.trim() === '') problem('`secret_name` must not be empty')
    if (ref.secret_key.trim() === '') problem('`secret_key` must not be empty')
  })
  return ok ? list : INVALID
}

// ---------------------------------------------------------------------------------------------
// The schema

/** Each input on its own. */
const fieldsSchema = z.object({
  'api-key': field('api-key', parseApiKey),
  'tenant-id': optionalUuid('tenant-id', 'a workspace id'),
  'base-url': field('base-url', (v, fail) => parseBaseUrl(v === '' ? DEFAULT_BASE_URL : v, fail)),
  name: field('name', parseName),
  'deployment-id': optionalUuid('deployment-id', 'a deployment id'),
  source: parseEnum('source', SOURCES, 'codehost'),
  'integration-id': optionalUuid('integration-id', 'a forge integration id'),
  repository: field('repository', parseRepository),
  ref: field('ref', parseRef),
  'graph-config-path': field('graph-config-path', parseGraphConfigPath),
  'image-uri': optionalToken(
    'image-uri',
    'an image reference like registry.example.com/agent@sha256:...'
  ),
  secrets: field('secrets', parseSecrets),
  'secret-references': field('secret-references', parseSecretReferences),
  'resource-spec': field('resource-spec', (v, fail) =>
    v === ''
      ? undefined
      : parseWithSchema(
          'resource-spec',
          v,
          ResourceSpec,
          'a YAML or JSON object of resource settings (min_scale, cpu, memory_mb, ...)',
          fail
        )
  ),
  'build-on-push': booleanInput('build-on-push', undefined),
  'custom-url': field('custom-url', parseCustomUrl),
  'listener-id': optionalUuid('listener-id', 'a listener id'),
  'k8s-namespace': field('k8s-namespace', parseNamespace),
  'install-command': optionalText('install-command', 'a command'),
  'build-command': optionalText('build-command', 'a command'),
  'revision-source': parseEnum('revision-source', RevisionSource.options, undefined),
  create: booleanInput('create', true),
  wait: booleanInput('wait', true),
  timeout: durationInput('timeout', DEFAULT_TIMEOUT, ms =>
    ms <= 0
      ? 'must be longer than zero'
      : ms > MAX_TIMEOUT_MS
        ? `must be at most ${formatDuration(MAX_TIMEOUT_MS)} (the longest a job step should wait)`
        : undefined
  ),
  'poll-interval': durationInput('poll-interval', DEFAULT_POLL_INTERVAL, ms =>
    ms < MIN_POLL_INTERVAL_MS ? 'must be at least 1s' : undefined
  ),
  'dry-run': booleanInput('dry-run', false),
  'github-token': field('github-token', parseGithubToken),
  environment: field('environment', parseEnvironment),
  'environment-url': field('environment-url', parseEnvironmentUrl)
})
type Fields = z.output<typeof fieldsSchema>
type Valid<T> = { [K in keyof T]: Exclude<T[K], Invalid> }

/** All inputs: each on its own, then how they fit together, then the Options. */
function inputSchema(event: EventDefaults) {
  return fieldsSchema
    .superRefine(
      (f, ctx) => {
        for (const [input, message] of crossFieldProblems(f, event)) {
          ctx.addIssue({ code: 'custom', path: [input], message, input: undefined })
        }
      },
      // Run even when single inputs failed: every problem is reported at once.
      { when: () => true }
    )
    .transform(f => toOptions(f as Valid<Fields>, event))
}

/** `value` unless it failed its own check. */
const known = <T>(value: T | Invalid): value is T => value !== INVALID

/** How the inputs fit together; only inputs that passed their own checks take part. */
function crossFieldProblems(f: Fields, event: EventDefaults): Array<[InputName, string]> {
  const problems: Array<[InputName, string]> = []
  const add = (input: InputName, message: string) => problems.push([input, message])
  const given = (input: InputName) => f[input] !== undefined && f[input] !== INVALID

  // Target.
  const byId = f['deployment-id'] !== undefined
  if (!byId && f.name === undefined) {
    add(
      'name',
      '`name` is required: the deployment name to find or create (or set `deployment-id` to update a deployment by id)'
    )
  }

  // GitHub deployments: `environment` turns them on and needs a token to write them.
  if (given('environment') && f['github-token'] === undefined) {
    add(
      'github-token',
      '`github-token` is required with `environment` to create a GitHub deployment: pass `${{ github.token }}` and grant the job `deployments: write`'
    )
  }
  if (given('environment-url') && f.environment === undefined) {
    add(
      'environment-url',
      '`environment-url` applies only with `environment` (the GitHub environment whose deployment shows that URL)'
    )
  }

  const source = known(f.source) ? f.source : undefined
  const revisionSource = known(f['revision-source']) ? f['revision-source'] : undefined
  if (source === undefined) return problems
  // Creating is only decided at run time; a name target with `create: true` may create.
  const mayCreate = !byId && typeof f.name === 'string' && f.create === true
  const usesCodehost =
    source === 'codehost' || (revisionSource === 'codehost' && source !== 'external_docker')

  // Inputs that belong to one kind of source.
  const onlyFor = (input: InputName, allowed: boolean, where: string) => {
    if (given(input) && !allowed)
      add(input, `\`${input}\` applies only to ${where}, not to source \`${source}\``)
  }
  onlyFor('integration-id', source === 'codehost', 'source `codehost`')
  onlyFor('build-on-push', source === 'codehost', 'source `codehost`')
  onlyFor('repository', usesCodehost, 'source `codehost` (or `revision-source: codehost`)')
  onlyFor('ref', usesCodehost, 'source `codehost` (or `revision-source: codehost`)')
  onlyFor('listener-id', source === 'external_docker', 'source `external_docker` (self-hosted)')
  onlyFor('k8s-namespace', source === 'external_docker', 'source `external_docker` (self-hosted)')
  onlyFor(
    'secret-references',
    source === 'external_docker',
    'source `external_docker` (self-hosted)'
  )
  onlyFor(
    'image-uri',
    source === 'external_docker' ||
      source === 'internal_docker' ||
      revisionSource === 'internal_docker',
    'sources `external_docker` and `internal_docker` (or `revision-source: internal_docker`)'
  )
  onlyFor('revision-source', source !== 'external_docker', 'cloud sources')

  // What each source needs.
  const missing = (input: InputName, why: string) => {
    if (f[input] === undefined) add(input, `\`${input}\` is required ${why}`)
  }
  if (source === 'codehost' && mayCreate) {
    const why = 'to create a `codehost` deployment (or set `create: false` to only update)'
    missing('integration-id', why)
    if (f.repository === undefined && event.repository === undefined) {
      add('repository', `\`repository\` is required ${why}: no workflow repository is known`)
    }
    if (f.ref === undefined && event.ref === undefined) {
      add('ref', `\`ref\` is required ${why}: the triggering event gives no branch or tag`)
    }
  }
  if (source === 'external_docker' && mayCreate) {
    const why = 'to create an `external_docker` deployment (or set `create: false` to only update)'
    missing('image-uri', why)
    missing('listener-id', why)
    missing('k8s-namespace', why)
  }
  if (source === 'internal_docker')
    missing('image-uri', 'with source `internal_docker`: the image to deploy')
  else if (revisionSource === 'internal_docker') {
    missing('image-uri', 'with `revision-source: internal_docker`: the image to deploy')
  }

  // build_on_push must be false when repo_ref is a tag.
  const ref = f.ref !== undefined ? f.ref : usesCodehost ? event.ref : undefined
  if (f['build-on-push'] === true && known(ref) && ref?.startsWith('refs/tags/')) {
    add(
      'build-on-push',
      '`build-on-push` cannot be `true` when the ref is a tag (`refs/tags/...`): a tag does not move on pushes'
    )
  }

  // Reserved secret names: hosted deployments reserve a few more.
  const reserved: readonly string[] =
    source === 'external_docker'
      ? RESERVED_SECRET_NAMES
      : [...RESERVED_SECRET_NAMES, ...RESERVED_SECRET_NAMES_HOSTED]
  if (known(f.secrets) && f.secrets !== undefined) {
    for (const { name } of f.secrets) {
      if (reserved.includes(name)) {
        add(
          'secrets',
          `\`secrets\`: ${name} is reserved by the platform${(RESERVED_SECRET_NAMES_HOSTED as readonly string[]).includes(name) ? ' on hosted deployments' : ''}; use another name`
        )
      }
    }
    if (known(f['secret-references']) && f['secret-references'] !== undefined) {
      const names = new Set(f.secrets.map(s => s.name))
      for (const { name } of f['secret-references']) {
        if (names.has(name)) {
          add('secret-references', `\`secret-references\`: ${name} is also set in \`secrets\``)
        }
      }
    }
  }

  if (known(f.timeout) && known(f['poll-interval']) && f['poll-interval'] > f.timeout) {
    add(
      'poll-interval',
      `\`poll-interval\` (${formatDuration(f['poll-interval'])}) must not be longer than \`timeout\` (${formatDuration(f.timeout)})`
    )
  }
  return problems
}

/** The Options of inputs that passed every check. */
function toOptions(f: Valid<Fields>, event: EventDefaults): Options {
  const byId = f['deployment-id'] !== undefined
  const target: Target = byId
    ? { kind: 'id', deploymentId: f['deployment-id'] as string }
    : { kind: 'name', name: f.name as string }
  const usesCodehost = f.source === 'codehost' || f['revision-source'] === 'codehost'
  const ref = f.ref ?? (usesCodehost ? event.ref : undefined)
  // The event's commit is expected only when the event's ref is the one deployed.
  const expectedSha =
    usesCodehost && ref !== undefined && ref === event.ref ? event.expectedSha : undefined
  return {
    apiKey: f['api-key'],
    tenantId: f['tenant-id'],
    baseUrl: f['base-url'],
    target,
    name: f.name,
    source: f.source as Source,
    integrationId: f['integration-id'],
    repository: f.repository ?? (usesCodehost ? event.repository : undefined),
    ref,
    expectedSha,
    graphConfigPath: f['graph-config-path'],
    imageUri: f['image-uri'],
    secrets: f.secrets,
    secretReferences: f['secret-references'],
    resourceSpec: f['resource-spec'],
    buildOnPush: f['build-on-push'],
    customUrl: f['custom-url'],
    listenerId: f['listener-id'],
    k8sNamespace: f['k8s-namespace'],
    installCommand: f['install-command'],
    buildCommand: f['build-command'],
    revisionSource: f['revision-source'],
    create: f.create as boolean,
    wait: f.wait as boolean,
    timeoutMs: f.timeout,
    pollIntervalMs: f['poll-interval'],
    dryRun: f['dry-run'] as boolean,
    githubToken: f['github-token'],
    environment: f.environment,
    environmentUrl: f['environment-url']
  }
}

// ---------------------------------------------------------------------------------------------
// Entry

export type ParseResult = { ok: true; options: Options } | { ok: false; problems: InputProblem[] }

/** Sensitive strings shorter than this are not redacted from messages (they would hit words). */
const MIN_REDACTED_LENGTH = 4

/**
 * The validated Options, or every problem found. `raw` misses no input it does not need (missing
 * ones count as not set); `event` gives the defaults of `ref`, the expected commit and
 * `repository`. No problem message contains the API key or a secret value.
 */
export function parseInputs(raw: Partial<RawInputs>, event: EventDefaults): ParseResult {
  const record = {} as RawInputs
  for (const name of INPUT_NAMES) {
    const value: unknown = raw[name]
    record[name] = typeof value === 'string' ? value : ''
  }
  const result = inputSchema(event).safeParse(record)
  if (result.success) return { ok: true, options: result.data }

  // Messages never quote values; redacting what might be sensitive anyway is the second lock.
  const sensitive = secretValuesToMask(record).filter(s => s.length >= MIN_REDACTED_LENGTH)
  const redact = (message: string) =>
    sensitive.reduce((text, value) => text.split(value).join('***'), message)
  const problems = result.error.issues.map(issue => ({
    input: typeof issue.path[0] === 'string' ? issue.path[0] : 'inputs',
    message: redact(issue.message)
  }))
  return { ok: false, problems }
}
