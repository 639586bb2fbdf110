// The scores of the evaluators scored here: 0 or 1 per example, from the run's output (its value
// at `path`) against `value` or the example's reference outputs; `latency` from the run's time.
import { isDeepStrictEqual } from 'node:util'
import type { Example } from './examples.ts'
import type { Evaluator } from './file.ts'
import { valueAtPath } from './path.ts'

/** One example run on the revision: its output, or the error that left it without one. */
export interface ExampleRun {
  example: Example
  /** `error`: no output (no answer, a persisting 5xx, the run raised): not scored. */
  status: 'ok' | 'error'
  output?: unknown
  /** Why it errored, in words (masked). */
  error?: string
  /** Epoch ms on the run's clock. */
  startedAt: number
  endedAt: number
}

/** The score of one evaluator scored here, for one example that ran. */
export function scoreHere(e: Evaluator, run: ExampleRun): number {
  if (e.type === 'latency') return run.endedAt - run.startedAt <= (e.latencyMs ?? 0) ? 1 : 0
  const actual = e.path === undefined ? { value: run.output } : valueAtPath(run.output, e.path)
  const expected =
    e.reference !== undefined
      ? valueAtPath(run.example.outputs ?? {}, e.reference)
      : { value: e.value }
  if (actual === undefined || expected === undefined) return 0
  return compare(e.type, actual.value, expected.value) ? 1 : 0
}

/** A value as text: a text as it is, anything else as JSON. */
const textOf = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

function compare(type: Evaluator['type'], actual: unknown, expected: unknown): boolean {
  if (type === 'equals') return isDeepStrictEqual(actual, expected)
  if (type === 'contains') {
    if (Array.isArray(actual)) return actual.some(item => isDeepStrictEqual(item, expected))
    return textOf(actual).includes(textOf(expected))
  }
  try {
    return new RegExp(textOf(expected), 'u').test(textOf(actual))
  } catch {
    return false
  }
}
