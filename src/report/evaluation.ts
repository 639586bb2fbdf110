// The evaluation gate's verdict as Markdown, for the job summary and the pull-request comment: the
// score table (each key's mean, pass rate, n, threshold, baseline and its delta), why it did not
// pass, the examples that regressed, and the experiment's link. Every text is made inert.
import { mdCode, mdText, SAFE_URL } from '../inert.ts'
import type { EvaluationFacts, KeyScores } from '../interface/journal.ts'

const num = (v: number | null) => (v === null ? '–' : String(v))

function thresholdCell(s: KeyScores): string {
  const t = s.threshold
  if (!t) return '–'
  const parts = [
    t.mean === undefined
      ? undefined
      : `mean ≥ ${t.mean}${s.mean !== null && s.mean < t.mean ? ' ❌' : ''}`,
    t['pass-rate'] === undefined
      ? undefined
      : `pass rate ≥ ${t['pass-rate']}${s.pass_rate !== null && s.pass_rate < t['pass-rate'] ? ' ❌' : ''}`
  ]
  return parts.filter(Boolean).join(', ')
}

function baselineCell(s: KeyScores): string {
  if (s.baseline === null) return '–'
  if (s.mean === null) return num(s.baseline)
  const delta = Math.round((s.mean - s.baseline) * 10_000) / 10_000
  return `${s.baseline} (${delta >= 0 ? '+' : ''}${delta})`
}

/** The verdict's lines of Markdown (a heading, the table, reasons, regressions). */
export function evaluationMarkdown(e: EvaluationFacts): string[] {
  const out = [
    `**Evaluation: ${e.verdict}**${e.of ? ` (${mdText(e.of, 300)})` : ''}, ${e.examples} examples${e.errors ? `, ${e.errors} errored` : ''}`
  ]
  if (e.url)
    out.push(
      '',
      SAFE_URL.test(e.url)
        ? `Experiment: [${mdText(e.experiment?.name ?? e.url, 200)}](${e.url})`
        : `Experiment: ${mdCode(e.url)}`
    )
  out.push(
    '',
    '| Key | Mean | Pass rate | n | Threshold | Baseline (delta) |',
    '|---|---|---|---|---|---|'
  )
  for (const [key, s] of Object.entries(e.scores))
    out.push(
      `| ${mdCode(key, 100, '\\|')} | ${num(s.mean)} | ${num(s.pass_rate)} | ${s.n} | ${thresholdCell(s)} | ${baselineCell(s)} |`
    )
  if (e.reasons.length > 0) out.push('', ...e.reasons.map(r => `- ${mdText(r, 1000)}`))
  if (e.regressions.length > 0) {
    out.push(
      '',
      '**Regressed examples**',
      '',
      '| Example | Key | Baseline | Now |',
      '|---|---|---|---|'
    )
    for (const r of e.regressions.slice(0, 50))
      for (const k of r.keys)
        out.push(
          `| ${mdCode(r.exampleId, 100, '\\|')} | ${mdCode(k.key, 100, '\\|')} | ${k.baseline} | ${k.score} |`
        )
  }
  return out
}
