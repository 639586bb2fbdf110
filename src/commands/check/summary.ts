// The check's job summary: in sync, or each difference, and what could not be judged. The lines
// carry the control plane's text: inert Markdown, the plan's lines in fences of their own.
import { mdFenced, mdText } from '../../inert.ts'
import { OUTCOMES, type Outcome } from '../../interface/outcomes.ts'
import type { CheckResult } from './check.ts'

const indented = (block: string) => block.replace(/^/gm, '  ')

export function renderCheckSummary(r: CheckResult, outcome: Outcome, error?: string): string {
  const name = r.name ? `\`${r.name}\`` : 'deployment'
  const out = [`### ${OUTCOMES[outcome].headline}: ${name}`, '']
  const runs = r.promoted ? `, and runs what its source runs: ${mdText(r.promoted)}` : ''
  if (!r.failure && !r.differences.length)
    out.push(`The deployment is what these inputs describe${runs}.`)
  for (const d of r.differences) {
    out.push(`- ${mdText(d.text)}`)
    if (d.details.length) out.push('', indented(mdFenced(d.details)))
  }
  if (r.skipped.length) {
    out.push('', '**Not compared**', '')
    for (const s of r.skipped) out.push(`- ${mdText(s)}`)
  }
  if (error) out.push('', '**What failed**', '', mdFenced(error.split('\n')))
  return out.join('\n') + '\n'
}
