// The check's job summary: in sync, or each difference (the plan's lines as the dry run shows
// them, secrets by name only), and what could not be judged.
import type { CheckResult } from './check.ts'

export function renderCheckSummary(r: CheckResult, error: string | undefined): string {
  const name = r.name ? `\`${r.name}\`` : 'deployment'
  const headline = r.failure ? '❌ Check failed' : r.differences.length ? '⚠️ Drift' : '✅ In sync'
  const out = [`### ${headline}: ${name}`, '']
  if (!r.failure && !r.differences.length)
    out.push(
      r.promoted
        ? `The deployment is what these inputs describe, and runs what its source runs: ${r.promoted}.`
        : 'The deployment is what these inputs describe.'
    )
  for (const d of r.differences) {
    out.push(`- ${d.text}`)
    if (d.details.length) out.push('', '  ```', ...d.details.map(l => `  ${l}`), '  ```')
  }
  if (r.skipped.length) {
    out.push('', '**Not compared**', '')
    for (const s of r.skipped) out.push(`- ${s}`)
  }
  if (error) out.push('', '**What failed**', '', '```', error, '```')
  return out.join('\n') + '\n'
}
