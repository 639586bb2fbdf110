// The smoke-test file: a YAML or JSON list of cases `{name, graph, input, expect?, timeout?}` that
// the health gate runs against the new revision (src/health/verify/smoke.ts). Read and checked
// whole before any request: a bad file is one error naming the input, the file and what is
// expected. Parsed with the document inputs' parser (limits on size, nesting, aliases, duplicates).
import { checkoutHint } from './checkout-hint.ts'
import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { parseDuration } from '../duration.ts'
import { loadDocumentParser, parseDocumentInput } from './documents.ts'
import type { InputName } from './names.ts'
import type { InputNaming } from './naming.ts'
import { MAX_DOCUMENT_BYTES, type Fail, type InputProblem } from './problems.ts'

export interface SmokeExpect {
  /** Default `success`: the run must end without an error. */
  status?: 'success' | 'error'
  /** Text the output must contain. */
  contains?: string
  /** Where in the output `equals` is compared (`a.b[0]`); alone, that the value is there. */
  path?: string
  /** The value the output (at `path`, or whole) must equal. */
  equals?: unknown
}

export interface SmokeCase {
  name: string
  graph: string
  input: unknown
  expect: SmokeExpect
  timeoutMs: number
}

export const DEFAULT_CASE_TIMEOUT_MS = 60_000
export const MAX_CASE_TIMEOUT_MS = 30 * 60_000
export const MAX_CASES = 50
/** `a`, `a.b`, `a[0]`, `a.b[2].c`, `[0]`: keys are any text but `.` and `[`. */
const PATH = /^(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*$/

const CASE_KEYS = ['name', 'graph', 'input', 'expect', 'timeout']
const EXPECT_KEYS = ['status', 'contains', 'path', 'equals']
const EXPECTED_SHAPE =
  'a list of {name, graph, input, expect?: {status: success|error, contains, path, equals}, timeout?}'

/**
 * The cases of a smoke-test file's text; undefined after one `fail` naming `label` (the input as the
 * user set it: `smoke-test`, `--smoke-test`, `CONTROL_PLANE_SMOKE_TEST`) and `file`.
 */
export async function parseSmokeCases(
  text: string,
  label: string,
  file: string,
  fail: Fail
): Promise<SmokeCase[] | undefined> {
  // The YAML/JSON parser is the document inputs' (one chunk of the bundle, loaded once).
  await loadDocumentParser()
  const where = `\`${label}\` (${file})`
  const doc = parseDocumentInput(label as InputName, text, fail, {
    notParsed: (at, reason) => `${where} is not valid YAML or JSON${at}: ${reason}`,
    duplicateKey: (key, at) => `${where} has the key ${key} twice (${at})`
  })
  if (doc === undefined) return undefined
  if (!Array.isArray(doc) || doc.length === 0)
    return fail(`${where} must be ${EXPECTED_SHAPE}, with at least one case`)
  if (doc.length > MAX_CASES) return fail(`${where} has ${doc.length} cases: at most ${MAX_CASES}`)
  const cases: SmokeCase[] = []
  const names = new Set<string>()
  for (const [i, item] of doc.entries()) {
    const problem = caseProblem(item)
    if (problem !== undefined) return fail(`${where}, case ${i + 1}: ${problem}`)
    const c = toCase(item as Record<string, unknown>)
    if (names.has(c.name))
      return fail(`${where}, case ${i + 1}: the name "${c.name}" is used twice`)
    names.add(c.name)
    cases.push(c)
  }
  return cases
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== ''

/** What is wrong with one case, or undefined. */
function caseProblem(item: unknown): string | undefined {
  if (!isObject(item)) return `expected {name, graph, input, expect?, timeout?}`
  const extra = Object.keys(item).find(k => !CASE_KEYS.includes(k))
  if (extra !== undefined) return `unknown key "${extra}" (expected ${CASE_KEYS.join(', ')})`
  if (!nonEmpty(item.name)) return '`name` must be a non-empty text'
  if (!nonEmpty(item.graph)) return '`graph` must be a graph id of the config (a non-empty text)'
  if (!('input' in item) || item.input === undefined) return '`input` is required (the run’s input)'
  if (item.timeout !== undefined && timeoutOf(item.timeout) === undefined)
    return `\`timeout\` must be a duration such as 60s or 2m (at most 30m), not ${JSON.stringify(item.timeout)}`
  if (item.expect === undefined) return undefined
  return expectProblem(item.expect)
}

function expectProblem(e: unknown): string | undefined {
  if (!isObject(e)) return '`expect` must be {status?, contains?, path?, equals?}'
  const extra = Object.keys(e).find(k => !EXPECT_KEYS.includes(k))
  if (extra !== undefined)
    return `unknown key "expect.${extra}" (expected ${EXPECT_KEYS.join(', ')})`
  if (e.status !== undefined && e.status !== 'success' && e.status !== 'error')
    return '`expect.status` must be success or error'
  if (e.contains !== undefined && !nonEmpty(e.contains))
    return '`expect.contains` must be a non-empty text'
  if (e.path !== undefined && !(typeof e.path === 'string' && PATH.test(e.path)))
    return '`expect.path` must be a path into the output such as a.b[0].c'
  return undefined
}

/** Milliseconds of a case's timeout: a duration text (`90s`, `2m`) or a number of seconds. */
function timeoutOf(v: unknown): number | undefined {
  const ms =
    typeof v === 'number' && Number.isInteger(v)
      ? v * 1000
      : typeof v === 'string'
        ? parseDuration(v)
        : undefined
  return ms !== undefined && ms > 0 && ms <= MAX_CASE_TIMEOUT_MS ? ms : undefined
}

function toCase(item: Record<string, unknown>): SmokeCase {
  const e = (item.expect ?? {}) as Record<string, unknown>
  const expect: SmokeExpect = {}
  if (e.status !== undefined) expect.status = e.status as 'success' | 'error'
  if (e.contains !== undefined) expect.contains = e.contains as string
  if (e.path !== undefined) expect.path = e.path as string
  if ('equals' in e) expect.equals = e.equals
  return {
    name: (item.name as string).trim(),
    graph: (item.graph as string).trim(),
    input: item.input,
    expect,
    timeoutMs: item.timeout === undefined ? DEFAULT_CASE_TIMEOUT_MS : timeoutOf(item.timeout)!
  }
}

/** Reads and parses the smoke-test file at `path` (shown as `file`); undefined after `fail`. */
export async function readSmokeCases(
  path: string,
  label: string,
  file: string,
  fail: Fail
): Promise<SmokeCase[] | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: string }).code
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : String(code ?? error)
    return fail(
      `\`${label}\` (${file}) could not be read: ${why}; expected a YAML or JSON file of smoke cases`
    )
  }
  if (Buffer.byteLength(text) > MAX_DOCUMENT_BYTES)
    return fail(`\`${label}\` (${file}) is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`)
  return parseSmokeCases(text, label, file, fail)
}

/**
 * The `smoke-test` input's cases, read relative to `workspace` before any request: the cases
 * (none when the input is not set), or the one problem to report, naming the input as set.
 */
export async function loadSmokeTest(
  path: string | undefined,
  workspace: string | undefined,
  naming: InputNaming
): Promise<{ cases: SmokeCase[] | undefined } | { problem: InputProblem }> {
  if (path === undefined) return { cases: undefined }
  let problem: string | undefined
  const fail: Fail = message => void (problem ??= message)
  const full = isAbsolute(path) ? path : resolve(workspace ?? '.', path)
  const cases = await readSmokeCases(full, naming.name('smoke-test'), path, fail)
  if (problem !== undefined || cases === undefined) {
    const message = problem ?? `\`${path}\` holds no case`
    const hint = checkoutHint(workspace, full)
    return { problem: { input: 'smoke-test', message: hint ? `${message}.${hint}` : message } }
  }
  return { cases }
}
