// The evaluation file (`evaluate`): YAML or JSON, checked whole by its zod model before any
// request, every problem at once with its line. Local examples (JSON Lines) are read and checked
// here too; a LangSmith dataset is only named (it is read after the health gate).
import { createHash } from 'node:crypto'
import { LineCounter, parseDocument, type Document } from 'yaml'
import { z } from 'zod'
import { parseDuration } from '../duration.ts'
import { nestingMayExceed } from '../inputs/nesting.ts'
import { readInside } from '../inputs/smoke-cases.ts'
import { parsePath, type Step } from './path.ts'
import { parseExamples, type Example } from './examples.ts'

export const SCORED_HERE = ['equals', 'contains', 'matches', 'latency'] as const
export type EvaluatorType = (typeof SCORED_HERE)[number] | 'langsmith'

export interface Evaluator {
  key: string
  type: EvaluatorType
  /** Where in the run's output the value is (the whole output when undefined). */
  path?: Step[]
  /** The value compared with, or the example's `outputs` path that gives it. */
  value?: unknown
  reference?: Step[]
  /** `latency`: the longest a run may take. */
  latencyMs?: number
  /** An example passes this key when its score is at least this (default 1). */
  pass: number
}

export interface Threshold {
  mean?: number
  passRate?: number
}

export type ExampleSource =
  { kind: 'dataset'; dataset: string } | { kind: 'examples'; path: string; examples: Example[] }

export interface Evaluation {
  source: ExampleSource
  assistant?: string
  evaluators: Evaluator[]
  thresholds: ReadonlyMap<string, Threshold>
  baseline?: { deployment: string; maxRegressions: number }
  maxErrors: number
  /** Examples in flight at once. */
  concurrency: number
  /** `sha256:<hex>` of the file's bytes: the `evaluation_digest` of its experiments. */
  digest: string
  /** The file as the user gave it, for messages. */
  file: string
}

export const DEFAULT_CONCURRENCY = 4
export const MAX_CONCURRENCY = 32

const text = z.string().trim().min(1)
const pathText = z
  .string()
  .refine(
    v => parsePath(v) !== undefined,
    'must be a path into the output such as messages[-1].content'
  )
const duration = z
  .union([z.number().positive(), z.string()])
  .refine(
    v => typeof v === 'number' || (parseDuration(v) ?? 0) > 0,
    'must be a duration such as 10s or 2m, or a number of seconds'
  )
const evaluatorModel = z
  .object({
    key: text,
    type: z.enum([...SCORED_HERE, 'langsmith']),
    path: pathText.optional(),
    value: z.unknown().optional(),
    reference: pathText.optional(),
    pass: z.number().min(0).max(1).optional()
  })
  .strict()
const thresholdModel = z
  .object({
    mean: z.number().min(0).max(1).optional(),
    'pass-rate': z.number().min(0).max(1).optional()
  })
  .strict()
  .refine(t => t.mean !== undefined || t['pass-rate'] !== undefined, 'needs mean or pass-rate')
const count = z.number().int().min(0)
export const evaluationModel = z
  .object({
    dataset: text.optional(),
    examples: text.optional(),
    assistant: text.optional(),
    evaluators: z.array(evaluatorModel).min(1),
    thresholds: z.record(z.string(), thresholdModel).optional(),
    baseline: z
      .object({ deployment: text, 'max-regressions': count.optional() })
      .strict()
      .optional(),
    'max-errors': count.optional(),
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional()
  })
  .strict()
type Raw = z.infer<typeof evaluationModel>
type RawEvaluator = z.infer<typeof evaluatorModel>

/** The file's text as YAML, or its syntax problems (each with its line). */
function parseYaml(
  source: string,
  at: (offset: number) => string
): { doc: Document } | { problems: string[] } {
  if (nestingMayExceed(source, 64)) return { problems: ['is nested too deeply'] }
  const doc = parseDocument(source, { uniqueKeys: true, prettyErrors: false })
  const errors = doc.errors.map(
    e =>
      `${at(e.pos[0])}: ${e.code === 'DUPLICATE_KEY' ? 'a key set twice' : 'not valid YAML or JSON'}`
  )
  return errors.length > 0 ? { problems: errors } : { doc }
}

/** `line L` of a place in the file, for each problem. */
function placer(source: string) {
  const lines = new LineCounter()
  parseDocument(source, { lineCounter: lines })
  return (offset: number) => `line ${lines.linePos(offset).line}`
}

/** Where a zod issue's path is in the document: its node's line, else the top's. */
function lineOf(
  doc: Document,
  path: readonly PropertyKey[],
  at: (offset: number) => string
): string {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number] } | undefined
    const offset = n === 0 ? (doc.contents?.range?.[0] ?? 0) : node?.range?.[0]
    if (offset !== undefined) return at(offset)
  }
  return at(0)
}

const shownPath = (path: readonly PropertyKey[]) =>
  path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('')

/** The zod issues in words: `line 4: evaluators[0].type must be one of ...`. */
function issueTexts(error: z.ZodError, doc: Document, at: (offset: number) => string): string[] {
  return error.issues.map(issue => {
    const where = lineOf(doc, issue.path, at)
    const name = issue.path.length > 0 ? `${shownPath(issue.path)} ` : ''
    const what =
      issue.code === 'unrecognized_keys'
        ? `has a key it does not know (${issue.keys.map(k => JSON.stringify(k)).join(', ')})`
        : issue.code === 'invalid_value' && 'values' in issue
          ? `must be one of ${issue.values.map(String).join(', ')}`
          : /received undefined$/.test(issue.message)
            ? 'is required'
            : issue.message.replace(/^Invalid input: /, '')
    return `${where}: ${name}${what}`
  })
}

/** What the model cannot say: how the keys fit together. Each problem names its line. */
function ruleProblems(raw: Raw, doc: Document, at: (offset: number) => string): string[] {
  const out: string[] = []
  const say = (path: PropertyKey[], what: string) => out.push(`${lineOf(doc, path, at)}: ${what}`)
  if ((raw.dataset === undefined) === (raw.examples === undefined))
    say([], 'needs `dataset` (a LangSmith dataset) or `examples` (a JSON Lines file), one of them')
  const keys = new Map<string, number>()
  raw.evaluators.forEach((e, i) => {
    const first = keys.get(e.key)
    if (first !== undefined)
      say(
        ['evaluators', i, 'key'],
        `evaluators[${i}].key "${e.key}" is that of evaluators[${first}]; each needs its own`
      )
    else keys.set(e.key, i)
    const problem = evaluatorProblem(e, raw)
    if (problem) say(['evaluators', i], `evaluators[${i}] (${e.key}) ${problem}`)
  })
  for (const key of Object.keys(raw.thresholds ?? {}))
    if (!keys.has(key))
      say(
        ['thresholds', key],
        `thresholds.${key} names no evaluator (the keys are ${[...keys.keys()].join(', ')})`
      )
  if (raw.baseline && raw.dataset === undefined)
    say(['baseline'], 'baseline needs a LangSmith `dataset`: the baseline is an experiment of it')
  return out
}

function evaluatorProblem(e: RawEvaluator, raw: Raw): string | undefined {
  const given = (k: 'path' | 'value' | 'reference') => e[k] !== undefined
  if (e.type === 'langsmith') {
    if (raw.dataset === undefined)
      return "is type langsmith, which needs a LangSmith `dataset`: its feedback comes from the dataset's evaluators"
    return given('path') || given('value') || given('reference')
      ? 'is type langsmith: it takes no path, value or reference'
      : undefined
  }
  if (e.type === 'latency') {
    if (given('reference') || given('path'))
      return 'is type latency: it takes only `value` (the longest a run may take)'
    return duration.safeParse(e.value).success
      ? undefined
      : 'needs `value`: the longest a run may take, such as 30s'
  }
  if (given('value') === given('reference'))
    return "needs `value` or `reference: <path>` (into the example's outputs), one of them"
  if (e.type === 'contains' && given('value') && typeof e.value !== 'string')
    return 'is type contains: its `value` must be a text'
  if (e.type === 'matches' && given('value') && !isPattern(e.value))
    return 'is type matches: its `value` must be a regular expression'
  return undefined
}

const isPattern = (v: unknown): boolean => {
  if (typeof v !== 'string') return false
  try {
    new RegExp(v, 'u')
    return true
  } catch {
    return false
  }
}

const latencyOf = (v: unknown): number =>
  typeof v === 'number' ? v * 1000 : parseDuration(String(v))!

function toEvaluator(e: RawEvaluator): Evaluator {
  return {
    key: e.key,
    type: e.type,
    ...(e.path === undefined ? {} : { path: parsePath(e.path)! }),
    ...(e.type === 'latency'
      ? { latencyMs: latencyOf(e.value) }
      : 'value' in e && e.value !== undefined
        ? { value: e.value }
        : {}),
    ...(e.reference === undefined ? {} : { reference: parsePath(e.reference)! }),
    pass: e.pass ?? 1
  }
}

function toEvaluation(
  raw: Raw,
  file: string,
  digest: string,
  examples: Example[] | undefined
): Evaluation {
  const thresholds = new Map(
    Object.entries(raw.thresholds ?? {}).map(([k, t]) => [
      k,
      {
        ...(t.mean === undefined ? {} : { mean: t.mean }),
        ...(t['pass-rate'] === undefined ? {} : { passRate: t['pass-rate'] })
      }
    ])
  )
  return {
    source:
      raw.dataset !== undefined
        ? { kind: 'dataset', dataset: raw.dataset }
        : { kind: 'examples', path: raw.examples!, examples: examples! },
    ...(raw.assistant === undefined ? {} : { assistant: raw.assistant }),
    evaluators: raw.evaluators.map(toEvaluator),
    thresholds,
    ...(raw.baseline
      ? {
          baseline: {
            deployment: raw.baseline.deployment,
            maxRegressions: raw.baseline['max-regressions'] ?? 0
          }
        }
      : {}),
    maxErrors: raw['max-errors'] ?? 0,
    concurrency: raw.concurrency ?? DEFAULT_CONCURRENCY,
    digest,
    file
  }
}

export type Parsed = { evaluation: Evaluation } | { problems: string[] }

/** The evaluation of a file's text; `examplesText` reads a local examples file when it names one. */
export async function parseEvaluation(
  source: string,
  file: string,
  examplesText: (path: string) => Promise<{ text: string } | { why: string }>
): Promise<Parsed> {
  const at = placer(source)
  const parsed = parseYaml(source, at)
  if ('problems' in parsed) return parsed
  const { doc } = parsed
  const checked = evaluationModel.safeParse(doc.toJS({ maxAliasCount: 100 }))
  if (!checked.success) return { problems: issueTexts(checked.error, doc, at) }
  const problems = ruleProblems(checked.data, doc, at)
  let examples: Example[] | undefined
  if (checked.data.examples !== undefined && problems.length === 0) {
    const path = checked.data.examples
    const read = await examplesText(path)
    const ex =
      'why' in read
        ? { problems: [`examples (${path}) could not be read: ${read.why}`] }
        : parseExamples(read.text, path, checked.data.evaluators)
    if ('problems' in ex) problems.push(...ex.problems)
    else examples = ex.examples
  }
  if (problems.length > 0) return { problems }
  const digest = `sha256:${createHash('sha256').update(source).digest('hex')}`
  return { evaluation: toEvaluation(checked.data, file, digest, examples) }
}

/** Reads the `evaluate` file and its examples inside the workspace; its problems prefixed by `label`. */
export async function readEvaluation(
  workspace: string,
  file: string,
  label: string
): Promise<Parsed> {
  const read = await readInside(workspace, file)
  const where = `\`${label}\` (${file})`
  if ('why' in read)
    return {
      problems: [
        `${where} could not be read: ${read.why}; expected a YAML evaluation file inside the workspace`
      ]
    }
  const parsed = await parseEvaluation(read.text, file, path => readInside(workspace, path))
  return 'problems' in parsed ? { problems: parsed.problems.map(p => `${where}, ${p}`) } : parsed
}
