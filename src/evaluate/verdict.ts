// The verdict of an evaluation ("Details, fixed" of the contract): `inconclusive` when more
// examples errored than `max-errors`, feedback did not come in time, a threshold had no score, or
// a baseline was asked for and none exists; else `passed` when every threshold holds and at most
// `max-regressions` examples score lower than in the baseline; else `failed`.
import type { Evaluation, Threshold } from './file.ts'
import type { KeyScores, Regression } from '../interface/journal.ts'

export type { KeyScores, Regression }

export type EvaluationVerdict = 'passed' | 'failed' | 'inconclusive'

/** Scores by example id, then by evaluator key. */
export type ScoreTable = ReadonlyMap<string, ReadonlyMap<string, number>>

export interface Judged {
  verdict: EvaluationVerdict
  /** Why it is not `passed`, in words, one per cause. */
  reasons: string[]
  scores: Record<string, KeyScores>
  regressions: Regression[]
}

export interface Judge {
  evaluation: Evaluation
  scores: ScoreTable
  /** Examples that errored, with why. */
  errors: readonly { exampleId: string; error: string }[]
  /** `type: langsmith` keys whose feedback did not come in time, with how many examples lack it. */
  late: readonly { key: string; missing: number }[]
  /** The baseline's scores; `none` when asked for and no passing experiment exists. */
  baseline?: ScoreTable | 'none'
}

const round = (x: number) => Math.round(x * 10_000) / 10_000
const mean = (xs: readonly number[]) =>
  xs.length === 0 ? null : round(xs.reduce((a, b) => a + b, 0) / xs.length)

function keyScores(j: Judge, key: string, pass: number): KeyScores {
  const values = [...j.scores.values()].flatMap(s => (s.has(key) ? [s.get(key)!] : []))
  const t = j.evaluation.thresholds.get(key)
  const base =
    j.baseline instanceof Map
      ? [...j.baseline.values()].flatMap(s => (s.has(key) ? [s.get(key)!] : []))
      : []
  return {
    mean: mean(values),
    pass_rate: mean(values.map(v => (v >= pass ? 1 : 0))),
    n: values.length,
    threshold: t
      ? {
          ...(t.mean === undefined ? {} : { mean: t.mean }),
          ...(t.passRate === undefined ? {} : { 'pass-rate': t.passRate })
        }
      : null,
    baseline: mean(base)
  }
}

/** The examples scoring lower than in the baseline, on any key both scored. */
export function regressionsOf(scores: ScoreTable, baseline: ScoreTable): Regression[] {
  const out: Regression[] = []
  for (const [exampleId, now] of scores) {
    const before = baseline.get(exampleId)
    if (!before) continue
    const keys = [...now].flatMap(([key, score]) => {
      const b = before.get(key)
      return b !== undefined && score < b ? [{ key, score, baseline: b }] : []
    })
    if (keys.length > 0) out.push({ exampleId, keys })
  }
  return out
}

/** Why a threshold does not hold, or undefined when it does. */
function missed(key: string, s: KeyScores, t: Threshold): string | undefined {
  if (s.n === 0) return undefined
  const low: string[] = []
  if (t.mean !== undefined && s.mean! < t.mean) low.push(`mean ${s.mean} < ${t.mean}`)
  if (t.passRate !== undefined && s.pass_rate! < t.passRate)
    low.push(`pass rate ${s.pass_rate} < ${t.passRate}`)
  return low.length > 0 ? `${key}: ${low.join(', ')}` : undefined
}

const listed = (ids: readonly string[]) =>
  ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '')

/** Why the evaluation cannot tell (each cause), or none. */
function unknowns(j: Judge, scores: Record<string, KeyScores>): string[] {
  const out: string[] = []
  const { maxErrors, baseline } = j.evaluation
  if (j.errors.length > maxErrors)
    out.push(
      `${j.errors.length} ${j.errors.length === 1 ? 'example' : 'examples'} errored (max-errors ${maxErrors}): ${listed(j.errors.map(e => `${e.exampleId} (${e.error})`))}`
    )
  for (const l of j.late)
    out.push(
      `the feedback ${l.key} did not come in time for ${l.missing} ${l.missing === 1 ? 'example' : 'examples'}`
    )
  for (const key of j.evaluation.thresholds.keys())
    if (scores[key]!.n === 0 && !j.late.some(l => l.key === key))
      out.push(`${key} has no score to hold to its threshold`)
  if (baseline && j.baseline === 'none')
    out.push(
      `no passing experiment of deployment "${baseline.deployment}" on this dataset to compare with (baseline)`
    )
  return out
}

/** The verdict of what the examples scored. */
export function judge(j: Judge): Judged {
  const scores = Object.fromEntries(
    j.evaluation.evaluators.map(e => [e.key, keyScores(j, e.key, e.pass)])
  )
  const regressions = j.baseline instanceof Map ? regressionsOf(j.scores, j.baseline) : []
  const unknown = unknowns(j, scores)
  if (unknown.length > 0) return { verdict: 'inconclusive', reasons: unknown, scores, regressions }
  const reasons = [...j.evaluation.thresholds].flatMap(
    ([key, t]) => missed(key, scores[key]!, t) ?? []
  )
  const max = j.evaluation.baseline?.maxRegressions ?? 0
  if (j.evaluation.baseline && regressions.length > max)
    reasons.push(
      `${regressions.length} ${regressions.length === 1 ? 'example' : 'examples'} regressed against the baseline (max-regressions ${max}): ${listed(regressions.map(r => `${r.exampleId} (${r.keys.map(k => `${k.key} ${k.baseline} → ${k.score}`).join(', ')})`))}`
    )
  return { verdict: reasons.length > 0 ? 'failed' : 'passed', reasons, scores, regressions }
}
