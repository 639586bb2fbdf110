// The job summary of a deploy or a delete, from its journal. Nothing masks a summary, so it passes
// the redactor; its markup is the run's own: every other text (a name, a case's output, an answer)
// goes in through mdText, mdCode or mdFenced, so that it shows as text and does nothing.
import { evaluationMarkdown } from './evaluation.ts'
import { deploymentStatusWord, revisionStatusWord } from './status-words.ts'
import type { Redactor } from '../control-plane/redact.ts'
import type {
  CaseResult,
  Evidence,
  Journal,
  TimelineEntry,
  Verified
} from '../interface/journal.ts'
import { OUTCOMES } from '../interface/outcomes.ts'
import { formatDuration } from '../duration.ts'
import { mdCode, mdFenced, mdText, mdUrl } from '../inert.ts'

export interface RunFacts {
  durationMs: number
  requests: number
  /** The failure, already written for the job log. */
  error: string | undefined
}

/** The summary's table: each fact of the run that is known, one row each. */
function summaryRows(journal: Journal, facts: RunFacts): [string, string][] {
  const rows: [string, string][] = []
  const add = (k: string, v: string | undefined) => {
    if (v !== undefined && v !== '') rows.push([k, v])
  }
  const created = journal.created ? ' (created by this run)' : ''
  add('Deployment', journal.deploymentId && `${mdCode(journal.deploymentId)}${created}`)
  const code = (v: string | undefined) => v && cellCode(v)
  add('Revision', code(journal.revisionId))
  add('Revision status', code(revisionStatusWord(journal.revisionStatus)))
  add('Newer revision', code(journal.newerRevisionId))
  add('Deployment status', code(deploymentStatusWord(journal.deploymentStatus)))
  add('Type and size', typeAndSize(journal))
  const p = journal.promotion
  add('Promoted from', p && `${p.fromName} revision ${cellCode(p.revisionId)} (${p.what})`)
  add('Source verified', p?.evidence && evidenceCell(p.evidence))
  add('Ref', code(journal.ref))
  if (journal.repoCommitSha || journal.expectedSha) {
    const built = code(journal.repoCommitSha) || 'not reported'
    const expected = code(journal.expectedSha) || 'not known'
    add('Commit built / expected', `${built} / ${expected}`)
  }
  add('URL', journal.url && mdUrl(journal.url))
  add('Deployment page', journal.statusUrl && mdUrl(journal.statusUrl))
  const src = journal.source
  if (src) {
    const git = src.commit ? `, git ${mdCode(src.commit)}` : ''
    add('Source archive', `${src.files} files, ${src.size} bytes, ${mdCode(src.digest)}${git}`)
  }
  add('Health', journal.health && mdText(journal.health))
  verifiedRows(journal.verified, add)
  add('Duration', formatDuration(facts.durationMs))
  add('Requests', String(facts.requests))
  return rows
}

/** What examined the promoted revision before any write, for the summary. */
function evidenceCell(e: Evidence): string {
  if (e.kind === 'verified') return `yes: ${mdText(e.checks.join(', '))}`
  if (e.kind === 'refused') return `no: it did not pass ${mdText(e.check)}; nothing was written`
  return 'no: `verify-source: false`, nothing verified what was promoted'
}

/** The job summary as markdown. */
export function renderSummary(journal: Journal, facts: RunFacts): string {
  // Unhealthy with healthy probes: a check of the new revision failed (served, graphs, smoke).
  const checks = journal.outcome === 'unhealthy' && journal.health === 'healthy'
  const headline = checks
    ? '❌ New revision failed its checks'
    : journal.outcome
      ? OUTCOMES[journal.outcome].headline
      : facts.error
        ? '❌ Failed'
        : '…'
  const title = `${headline}: ${journal.name ? mdCode(journal.name) : 'deployment'}`
  const out = [`### ${title}`, '', '| | |', '|---|---|']
  // A row's value is Markdown of the run's making whose texts are inert: kept on its line.
  for (const [k, v] of summaryRows(journal, facts))
    out.push(`| ${k} | ${v.replace(/\r?\n/g, ' ')} |`)
  if (facts.error) out.push('', '**What failed**', '', mdFenced(facts.error.split(/\r?\n/)))
  if (journal.plan && (journal.outcome === 'dry-run' || journal.plan.changed)) {
    out.push('', `**${journal.outcome === 'dry-run' ? 'Plan' : 'Changes'}**`, '')
    out.push(mdFenced(journal.plan.lines))
  }
  smokeCases(out, journal.verified?.cases)
  if (journal.evaluation) out.push('', ...evaluationMarkdown(journal.evaluation))
  timeline(out, 'Status timeline', journal.timeline ?? [])
  const log = journal.failureLog
  if (log) {
    const head = `${log.type === 'build' ? 'Build' : 'Deploy'} log, last ${log.lines.length} lines`
    out.push('', '<details><summary>', head, '</summary>', '')
    out.push(mdFenced(log.lines), '', '</details>')
  }
  const rb = journal.rollback
  if (rb?.kind === 'done') {
    out.push(
      '',
      `**Rollback**: revision ${mdCode(rb.revisionId)} (a redeploy of ${mdCode(rb.restoredId)}) ended ${mdCode(revisionStatusWord(rb.status) ?? 'without a status')}`
    )
    timeline(out, 'Rollback timeline', rb.timeline)
  } else if (rb)
    out.push(
      '',
      `**Rollback**: ${rb.kind === 'failed' ? 'failed' : rb.kind === 'unconfirmed' ? 'not confirmed' : 'not done'}: ${mdText(rb.reason)}.`
    )
  return out.join('\n') + '\n'
}

/** `serverless, medium (\`SERVERLESS_M\`)`, as far as the service reports them. */
export function typeAndSize(journal: Pick<Journal, 'deploymentType' | 'size' | 'tier'>) {
  const tier = journal.tier ? `${journal.size ?? 'size'} (${mdCode(journal.tier)})` : undefined
  const parts = [journal.deploymentType, tier].filter(Boolean)
  return parts.length ? parts.join(', ') : undefined
}

function verifiedRows(v: Verified | undefined, add: (k: string, v?: string) => void): void {
  add('Served revision', v?.servedRevision && mdText(v.servedRevision))
  const g = v?.graphs
  const graph = (x: string) => `${cellCode(x)}${g?.missing.includes(x) ? ' (missing)' : ''}`
  add('Graphs', g && `${mdText(g.verdict)}: ${g.checked.map(graph).join(', ')}`)
  add('Smoke test', v?.smoke && mdText(v.smoke))
}

/** Each case's verdict and the start of its output (masked by the case, redacted with the rest). */
function smokeCases(out: string[], cases: CaseResult[] | undefined): void {
  if (!cases?.length) return
  out.push('', '**Smoke cases**', '', '| Case | Verdict | Output |', '|---|---|---|')
  for (const c of cases) {
    const why = c.reason ? `${c.reason}. ` : ''
    out.push(
      `| ${mdText(c.name, 200)} (${cellCode(c.graph)}) | ${mdText(c.verdict)} | ${mdText(why + c.excerpt)} |`
    )
  }
}

function timeline(out: string[], title: string, entries: readonly TimelineEntry[]): void {
  if (!entries.length) return
  out.push('', `**${title}**`, '', '| Status | After |', '|---|---|')
  for (const t of entries)
    out.push(`| \`${revisionStatusWord(t.status)}\` | ${formatDuration(t.elapsedMs)} |`)
}

/** Text as code in a table's cell, where `\|` reads back as `|`. */
const cellCode = (v: string): string => mdCode(v, 200, '\\|')

/** The job summary as it is written: nothing masks a summary, so it is redacted here. */
export function summaryText(journal: Journal, facts: RunFacts, redactor: Redactor): string {
  return redactor.redact(renderSummary(journal, facts))
}
