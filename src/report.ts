// What the run leaves behind, rendered: step outputs (also on failure, as far as known) and the job
// summary. Pure: src/run.ts writes them through the port. Outputs are structured values the action
// produced or validated (ids, statuses, booleans, URLs, commits) and are written as they are:
// redacting them would corrupt them whenever a secret value happens to equal `true` or a fragment
// of an id. The summary carries free text (errors, the plan), so it passes the redactor: the runner
// masks the log, but nothing masks a summary. Its markup is the run's own: every other text (a
// name, a graph id, a case's output, a server's answer) goes in through mdText, mdCode or mdFenced,
// so that it shows as text and does nothing.
import { deploymentStatusWord, revisionStatusWord } from './commands/deploy/status-words.ts'
import type { Redactor } from './control-plane/redact.ts'
import type { DeployState } from './commands/deploy/flow.ts'
import type { Evidence } from './commands/deploy/state.ts'
import { OUTCOMES } from './interface/outcomes.ts'
import { describePlan } from './commands/deploy/steps/plan.ts'
import { ACTION_OUTPUTS } from './interface/action-yml.ts'
import { formatDuration } from './duration.ts'
import { mdCode, mdFenced, mdText, mdUrl } from './inert.ts'
import type { TimelineEntry } from './commands/deploy/steps/wait.ts'
import type { Verified } from './health/verified.ts'
import type { CaseResult } from './health/verify/smoke.ts'

export interface RunFacts {
  durationMs: number
  requests: number
  /** The failure, already written for the job log. */
  error: string | undefined
}

/** The step outputs, by name; undefined ones are not written. */
export function outputsOf(state: DeployState): Record<string, string | undefined> {
  const rollback = state.rollback?.kind === 'done' ? state.rollback : undefined
  return {
    'deployment-id': state.deploymentId,
    'revision-id': state.revisionId,
    'revision-status': revisionStatusWord(state.revisionStatus),
    'deployment-status': deploymentStatusWord(state.deploymentStatus),
    // A create cut off in flight may have landed: unknown, so not claimed either way.
    created: state.writing === 'create' ? undefined : String(state.created),
    url: state.url,
    'status-url': state.statusUrl,
    'repo-commit-sha': state.repoCommitSha,
    // A delete cut off in flight may have landed: unknown, so not claimed either way.
    deleted: state.writing === 'delete' ? undefined : String(state.deleted === true),
    'rollback-revision-id': rollback?.revisionId,
    'rollback-status': revisionStatusWord(rollback?.status),
    'served-revision': state.verified?.servedRevision,
    smoke: state.verified?.smoke,
    health: state.health,
    'source-digest': state.source?.digest,
    // Empty when the promotion was refused: nothing of the source was promoted.
    'promoted-from-revision-id':
      state.promotion?.evidence?.kind === 'refused' ? undefined : state.promotion?.revisionId,
    'deployment-type': state.deploymentType,
    size: state.size
  }
}

/** Every output declared in action.yml, '' where it has no value; before a run, only 'false's. */
export function allOutputs(
  state: DeployState | undefined,
  extra: Record<string, string | undefined>
): Record<string, string> {
  const known = state
    ? { ...outputsOf(state), ...extra }
    : { created: 'false', deleted: 'false', ...extra }
  const all: Record<string, string> = {}
  for (const name of Object.keys(ACTION_OUTPUTS)) {
    all[name] = (known as Record<string, string | undefined>)[name] ?? ''
  }
  return all
}

/** The summary's table: each fact of the run that is known, one row each. */
function summaryRows(state: DeployState, facts: RunFacts): [string, string][] {
  const rows: [string, string][] = []
  const add = (k: string, v: string | undefined) => {
    if (v !== undefined && v !== '') rows.push([k, v])
  }
  add(
    'Deployment',
    state.deploymentId
      ? `${mdCode(state.deploymentId)}${state.created ? ' (created by this run)' : ''}`
      : undefined
  )
  const code = (v: string | undefined) => v && cellCode(v)
  add('Revision', code(state.revisionId))
  add('Revision status', code(revisionStatusWord(state.revisionStatus)))
  add('Newer revision', code(state.newerRevisionId))
  add('Deployment status', code(deploymentStatusWord(state.deploymentStatus)))
  add('Type and size', typeAndSize(state))
  const p = state.promotion
  add('Promoted from', p && `${p.fromName} revision ${cellCode(p.revisionId)} (${p.what})`)
  add('Source verified', p?.evidence && evidenceCell(p.evidence))
  add('Ref', code(state.ref))
  if (state.repoCommitSha || state.expectedSha) {
    const built = code(state.repoCommitSha) || 'not reported'
    const expected = code(state.expectedSha) || 'not known'
    add('Commit built / expected', `${built} / ${expected}`)
  }
  add('URL', state.url && mdUrl(state.url))
  add('Deployment page', state.statusUrl && mdUrl(state.statusUrl))
  const src = state.source
  if (src) {
    const git = src.commit ? `, git ${mdCode(src.commit)}` : ''
    add('Source archive', `${src.files} files, ${src.size} bytes, ${mdCode(src.digest)}${git}`)
  }
  add('Health', state.health && mdText(state.health))
  verifiedRows(state.verified, add)
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
export function renderSummary(state: DeployState, facts: RunFacts): string {
  // Unhealthy with healthy probes: a check of the new revision failed (served, graphs, smoke).
  const checks = state.outcome === 'unhealthy' && state.health === 'healthy'
  const headline = checks
    ? '❌ New revision failed its checks'
    : state.outcome
      ? OUTCOMES[state.outcome].headline
      : facts.error
        ? '❌ Failed'
        : '…'
  const title = `${headline}: ${state.name ? mdCode(state.name) : 'deployment'}`
  const out = [`### ${title}`, '', '| | |', '|---|---|']
  for (const [k, v] of summaryRows(state, facts)) out.push(`| ${k} | ${cell(v)} |`)
  if (facts.error) out.push('', '**What failed**', '', mdFenced(facts.error.split(/\r?\n/)))
  if (state.plan && (state.outcome === 'dry-run' || state.plan.changes.length)) {
    out.push('', `**${state.outcome === 'dry-run' ? 'Plan' : 'Changes'}**`, '')
    out.push(mdFenced(describePlan(state.plan)))
  }
  smokeCases(out, state.verified?.cases)
  timeline(out, 'Status timeline', state.timeline)
  const log = state.failureLog
  if (log) {
    out.push(
      '',
      '<details><summary>',
      `${log.type === 'build' ? 'Build' : 'Deploy'} log, last ${log.lines.length} lines`,
      '</summary>',
      ''
    )
    out.push(mdFenced(log.lines), '', '</details>')
  }
  const rb = state.rollback
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
export function typeAndSize(state: Pick<DeployState, 'deploymentType' | 'size' | 'tier'>) {
  const tier = state.tier ? `${state.size ?? 'size'} (${mdCode(state.tier)})` : undefined
  const parts = [state.deploymentType, tier].filter(Boolean)
  return parts.length ? parts.join(', ') : undefined
}

function verifiedRows(v: Verified | undefined, add: (k: string, v?: string) => void): void {
  add('Served revision', v?.servedRevision && mdText(v.servedRevision))
  const g = v?.graphs
  if (g)
    add(
      'Graphs',
      `${mdText(g.verdict)}: ${g.checked.map(x => `${cellCode(x)}${g.missing.includes(x) ? ' (missing)' : ''}`).join(', ')}`
    )
  add('Smoke test', v?.smoke && mdText(v.smoke))
}

/**
 * Each case's verdict and the start of its output (masked by the case, redacted with the rest):
 * the case's name and graph come from the workspace, its output from the agent server.
 */
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

function timeline(out: string[], title: string, entries: TimelineEntry[]): void {
  if (!entries.length) return
  out.push('', `**${title}**`, '', '| Status | After |', '|---|---|')
  for (const t of entries)
    out.push(`| \`${revisionStatusWord(t.status)}\` | ${formatDuration(t.elapsedMs)} |`)
}

/** Text as code in a table's cell, where `\|` reads back as `|`. */
const cellCode = (v: string): string => mdCode(v, 200, '\\|')

/** A row's value, Markdown of the run's making whose texts are inert: kept on its line. */
function cell(v: string): string {
  return v.replace(/\r?\n/g, ' ')
}

/** The job summary as it is written: nothing masks a summary, so it is redacted here. */
export function summaryText(state: DeployState, facts: RunFacts, redactor: Redactor): string {
  return redactor.redact(renderSummary(state, facts))
}
