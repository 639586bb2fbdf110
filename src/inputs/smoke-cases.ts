// The smoke-test file: a YAML or JSON list of cases that the health gate runs against the new
// revision (health/verify/smoke.ts), checked whole before any request: one error naming the input,
// the file and the place, never the text there. A regular file inside the workspace, of at most
// MAX_DOCUMENT_BYTES (not /proc/self/environ, /dev/zero or a fifo), read by the documents' parser.
import { checkoutHint } from './checkout-hint.ts'
import { open, realpath } from 'node:fs/promises'
import { relative, resolve, sep } from 'node:path'
import { parseDuration } from '../duration.ts'
import { itemPlaces, loadDocumentParser, parseDocumentInput } from './documents.ts'
import type { InputName } from '../interface/names.ts'
import type { Say } from '../interface/naming.ts'
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

/** The cases of a smoke-test file's text; undefined after one `fail` naming `label` and `file`. */
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
    notParsed: (at, reason) => `${where} is not valid YAML or JSON${at}${plainReason(reason)}`,
    duplicateKey: (_key, at) => `${where} has a key twice (${at})`
  })
  if (doc === undefined) return undefined
  if (!Array.isArray(doc) || doc.length === 0)
    return fail(`${where} must be ${EXPECTED_SHAPE}, with at least one case`)
  if (doc.length > MAX_CASES) return fail(`${where} has ${doc.length} cases: at most ${MAX_CASES}`)
  const cases: SmokeCase[] = []
  const names = new Map<string, number>()
  const at = (i: number) => {
    const place = itemPlaces(text)[i]
    return `${where}, case ${i + 1}${place ? ` (${place})` : ''}`
  }
  for (const [i, item] of doc.entries()) {
    const problem = caseProblem(item)
    if (problem !== undefined) return fail(`${at(i)}: ${problem}`)
    const c = toCase(item as Record<string, unknown>)
    const first = names.get(c.name)
    if (first !== undefined)
      return fail(`${at(i)}: its \`name\` is that of case ${first + 1}; each case needs its own`)
    names.set(c.name, i)
    cases.push(c)
  }
  return cases
}

/** The parser's reason, unless it may quote the file (a tag, a key): then the place alone. */
function plainReason(reason: string): string {
  return /^[A-Za-z][A-Za-z ,;()-]*$/.test(reason) && reason.length <= 120 ? `: ${reason}` : ''
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== ''

/** What is wrong with one case, or undefined. */
function caseProblem(item: unknown): string | undefined {
  if (!isObject(item)) return `expected {name, graph, input, expect?, timeout?}`
  const extra = Object.keys(item).some(k => !CASE_KEYS.includes(k))
  if (extra) return `a key that is none of ${CASE_KEYS.join(', ')}`
  if (!nonEmpty(item.name)) return '`name` must be a non-empty text'
  if (!nonEmpty(item.graph)) return '`graph` must be a graph id of the config (a non-empty text)'
  if (!('input' in item) || item.input === undefined) return '`input` is required (the run’s input)'
  if (item.timeout !== undefined && timeoutOf(item.timeout) === undefined)
    return '`timeout` must be a duration such as 60s or 2m (at most 30m)'
  if (item.expect === undefined) return undefined
  return expectProblem(item.expect)
}

function expectProblem(e: unknown): string | undefined {
  if (!isObject(e)) return '`expect` must be {status?, contains?, path?, equals?}'
  const extra = Object.keys(e).some(k => !EXPECT_KEYS.includes(k))
  if (extra) return `\`expect\` has a key that is none of ${EXPECT_KEYS.join(', ')}`
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
  // `equals` may be given as null; the others count when they have a value.
  const given = (k: string) => (k === 'equals' ? k in e : e[k] !== undefined)
  const expect = Object.fromEntries(EXPECT_KEYS.filter(given).map(k => [k, e[k]])) as SmokeExpect
  return {
    name: (item.name as string).trim(),
    graph: (item.graph as string).trim(),
    input: item.input,
    expect,
    timeoutMs: item.timeout === undefined ? DEFAULT_CASE_TIMEOUT_MS : timeoutOf(item.timeout)!
  }
}

/** The text of `path` (inside `workspace`), or why it may not be read; never more than the cap. */
export async function readInside(
  workspace: string,
  path: string
): Promise<{ text: string } | { why: string }> {
  let root: string
  let file: string
  try {
    root = await realpath(resolve(workspace))
    file = await realpath(resolve(root, path))
  } catch (error) {
    const code = (error as { code?: string }).code
    return {
      why: code === 'ENOENT' ? 'there is no such file' : `it cannot be opened (${code ?? 'error'})`
    }
  }
  const rel = relative(root, file)
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || resolve(root, rel) !== file)
    return { why: 'it leads outside the workspace (through a symlink)' }
  const fh = await open(file, 'r').catch(() => undefined)
  if (!fh) return { why: 'it cannot be opened' }
  try {
    const info = await fh.stat()
    if (info.isDirectory()) return { why: 'it is a directory' }
    if (!info.isFile()) return { why: 'it is not a regular file' }
    if (info.size > MAX_DOCUMENT_BYTES) return { why: tooLarge }
    // Read to one byte past the cap: a file that grows meanwhile is still bounded.
    const buffer = Buffer.alloc(MAX_DOCUMENT_BYTES + 1)
    const { bytesRead } = await fh.read(buffer, 0, buffer.length, 0)
    if (bytesRead > MAX_DOCUMENT_BYTES) return { why: tooLarge }
    return { text: buffer.subarray(0, bytesRead).toString('utf8') }
  } finally {
    await fh.close()
  }
}

const tooLarge = `it is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`

/** Reads and parses the smoke-test file at `path` (in `workspace`); undefined after `fail`. */
export async function readSmokeCases(
  workspace: string,
  path: string,
  label: string,
  fail: Fail
): Promise<SmokeCase[] | undefined> {
  const read = await readInside(workspace, path)
  if ('why' in read)
    return fail(
      `\`${label}\` (${path}) could not be read: ${read.why}; expected a YAML or JSON file of smoke cases inside the workspace`
    )
  return parseSmokeCases(read.text, label, path, fail)
}

/** The `smoke-test` input's cases, read before any request, or the one problem to report. */
export async function loadSmokeTest(
  path: string | undefined,
  workspace: string | undefined,
  say: Say
): Promise<{ cases: SmokeCase[] | undefined } | { problem: InputProblem }> {
  if (path === undefined) return { cases: undefined }
  let problem: string | undefined
  const fail: Fail = message => void (problem ??= message)
  const cases = await readSmokeCases(workspace ?? '.', path, say.bare('smoke-test'), fail)
  if (problem !== undefined || cases === undefined) {
    const message = problem ?? `\`${path}\` holds no case`
    const hint = checkoutHint(workspace, path)
    return { problem: { input: 'smoke-test', message: hint ? `${message}.${hint}` : message } }
  }
  return { cases }
}
