// The plan's job summary: every agent, its deployment, its deployed commit, its verdict and why,
// as one table. Names and reasons carry the control plane's and git's text: inert Markdown.
import { mdCode, mdText } from '../../inert.ts'
import { OUTCOMES } from '../../interface/outcomes.ts'
import type { PlanRow } from './plan.ts'

export function renderPlanSummary(
  rows: readonly PlanRow[],
  environment: string,
  requests: number
): string {
  const count = rows.filter(r => r.deploy).length
  const out = [
    `### ${OUTCOMES.planned.headline}: ${count} of ${rows.length} to deploy to ${mdCode(environment)}`,
    ''
  ]
  if (!rows.length) out.push(`No agent of the manifest has the environment ${mdCode(environment)}.`)
  else {
    out.push('| Agent | Deployment | Deployed commit | Verdict | Why |', '|---|---|---|---|---|')
    for (const r of rows)
      out.push(
        `| ${mdCode(r.agent, 100, '\\|')} | ${mdCode(r.name, 100, '\\|')} | ${r.commit ? mdCode(r.commit.slice(0, 12), 40, '\\|') : '—'} | ${r.deploy ? '🚀 deploy' : '⏭️ skip'} | ${mdText(r.why, 500)} |`
      )
  }
  out.push('', `${requests} requests, nothing written.`)
  return out.join('\n') + '\n'
}
