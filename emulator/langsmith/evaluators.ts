// The dataset evaluators as rules: the score a rule (model.ts, EvaluatorRule) gives a run of an
// example. Deterministic, so a test or the demo makes a revision pass or fail by what its agent
// server answers.
import { isDeepStrictEqual } from 'node:util'
import type { EvaluatorRule } from './model.ts'

/**
 * The value at `path` in `value`: keys by `.`, indices by `[n]` (negative from the end), e.g.
 * `messages[-1].content`; the empty path is the value itself; undefined where nothing is.
 */
export function valueAt(value: unknown, path: string): unknown {
  const steps = path.match(/[^.[\]]+|\[-?\d+\]/g) ?? []
  let here: unknown = value
  for (const step of steps) {
    if (here === null || typeof here !== 'object') return undefined
    const index = /^\[(-?\d+)\]$/.exec(step)
    if (index) {
      if (!Array.isArray(here)) return undefined
      const n = Number(index[1])
      here = here[n < 0 ? here.length + n : n]
    } else {
      here = (here as Record<string, unknown>)[step]
    }
  }
  return here
}

const text = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

/** What a comparing rule compares: 1 when it holds, else 0. */
function compare(type: EvaluatorRule['type'], actual: unknown, expected: unknown): number {
  if (actual === undefined) return 0
  if (type === 'equals') return isDeepStrictEqual(actual, expected) ? 1 : 0
  if (type === 'contains') {
    if (Array.isArray(actual)) return actual.some(a => isDeepStrictEqual(a, expected)) ? 1 : 0
    return text(actual).includes(text(expected)) ? 1 : 0
  }
  try {
    return new RegExp(text(expected)).test(text(actual)) ? 1 : 0
  } catch {
    return 0
  }
}

export interface Scored {
  outputs: Record<string, unknown> | null
  error: string | null
}

/** The score of `rule` for a run of example `exampleId` (its `index` in the dataset, from 0). */
export function scoreOf(
  rule: EvaluatorRule,
  run: Scored,
  example: { id: string; index: number; outputs: Record<string, unknown> | null }
): number {
  if (rule.type === 'score') {
    return rule.byExample[example.id] ?? rule.byExample[String(example.index)] ?? rule.score ?? 0
  }
  if (run.error !== null || run.outputs === null) return 0
  const expected =
    rule.reference !== undefined ? valueAt(example.outputs ?? {}, rule.reference) : rule.value
  return compare(rule.type, valueAt(run.outputs, rule.path), expected)
}
