// The sweep's job summary: every matching deployment, its fate and why, as one table.
import { formatAge } from '../../duration.ts'
import { OUTCOMES, type Outcome } from '../../interface/outcomes.ts'
import type { Fate, SweepRow } from './choose.ts'
import type { SweepResult } from './sweep.ts'

const FATE: Record<Fate, string> = {
  deleted: '🗑️ deleted',
  'would-delete': '📝 would be deleted',
  kept: '✅ kept',
  'held-back': '⚠️ held back',
  gone: '✅ already gone',
  'being-deleted': '⏳ already being deleted',
  failed: '❌ delete failed'
}

/** The headline: the outcome's (outcomes.ts), with the counts. */
function headline(r: SweepResult, outcome: Outcome): string {
  const words = OUTCOMES[outcome].headline
  if (outcome === 'swept') return `${words} ${r.swept.length} of ${r.rows.length} matching`
  if (outcome === 'dry-run')
    return `${words}, ${r.rows.filter(x => x.fate === 'would-delete').length} would be deleted`
  return words
}

/** The summary as markdown: headline, the skipped criterion, the table, the failure. */
export function renderSweepSummary(
  r: SweepResult,
  o: { outcome: Outcome; pattern: string; now: number; error?: string }
): string {
  const out = [`### ${headline(r, o.outcome)}: \`${o.pattern}\``, '']
  if (r.closedSkipped) out.push(`Closed pull requests: not checked (${r.closedSkipped}).`, '')
  if (!r.rows.length) out.push('No deployment matches.')
  else {
    out.push('| Deployment | Last change | Fate | Why |', '|---|---|---|---|')
    for (const row of r.rows) out.push(line(row, o.now))
  }
  if (o.error) out.push('', '**What failed**', '', '```', o.error, '```')
  return out.join('\n') + '\n'
}

function line(row: SweepRow, now: number): string {
  const age = Number.isFinite(row.updatedMs)
    ? `${formatAge(Math.max(0, now - row.updatedMs))} ago`
    : cell(row.updatedAt)
  return `| \`${cell(row.name)}\` | ${age} | ${FATE[row.fate]} | ${cell(row.why.join('; '))} |`
}

function cell(v: string): string {
  return v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}
