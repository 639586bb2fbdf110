// The pull-request comment's text: a hidden marker that finds it again, a headline, a table of what
// is known, the reason and a collapsed log excerpt. Every text the run did not write (an answer, a
// name, an error quoting the workspace) goes in through src/inert.ts and shows as text.
import { OUTCOMES, type CommentWords, type Outcome } from '../interface/outcomes.ts'
import { mdCode, mdFenced, mdText, SAFE_URL } from '../inert.ts'
import type { EvaluationFacts } from '../interface/journal.ts'
import { evaluationMarkdown } from '../report/evaluation.ts'

/** What one run has to say on the pull request, built from the run's journal. */
export interface PrCommentReport {
  /** The deployment name: one comment per pull request and name. */
  name: string
  /** The comment of a preview's removal (the delete's words), not of a deploy. */
  removal?: boolean
  /** The run's outcome; undefined is read as `error`. */
  outcome: Outcome | undefined
  deploymentId?: string | undefined
  revisionId?: string | undefined
  revisionStatus?: string | undefined
  url?: string | undefined
  /** The deployment's page in the service's web app. */
  statusUrl?: string | undefined
  /** The commit the revision built (or was expected to build). */
  commitSha?: string | undefined
  /** `promote-from`: `<source> revision <id> (<commit | image | digest>)`. */
  promotedFrom?: string | undefined
  /** The deployment's type and size as the service reports them (`serverless, medium (SERVERLESS_M)`). */
  tier?: string | undefined
  /** The run's error, already redacted; shown as the reason. */
  error?: string | undefined
  /** The last lines of the build or deploy log, when failure diagnostics exist. */
  logExcerpt?: string | undefined
  /** `command: delete`: whether the tracing project went too (undefined: not asked). */
  tracingProjectDeleted?: boolean | undefined
  /** `evaluate`: the verdict, its score table and regressed examples. */
  evaluation?: EvaluationFacts | undefined
}

/** Links the body may carry; both optional. */
export interface CommentLinks {
  /** This workflow run (with its attempt). */
  run?: string | undefined
  /** `https://github.com/owner/name`: commits link there. */
  repository?: string | undefined
}

const MAX_EXCERPT_LINES = 100
const MAX_EXCERPT_CHARS = 20_000

/** The hidden first line that identifies the comment of one deployment name. */
export function commentMarker(name: string): string {
  // Encoded, so that no name can close the HTML comment or look like another name's marker.
  return `<!-- control-plane-deploy:comment name=${encodeURIComponent(name)} -->`
}

/** Whether a comment's body is the one of this deployment name (the marker on its first line). */
export function isCommentFor(body: unknown, name: string): boolean {
  if (typeof body !== 'string') return false
  const marker = commentMarker(name)
  return body.startsWith(marker) && /^(\r?\n|$)/.test(body.slice(marker.length))
}

/** A link when it is a plain http(s) URL, else the text as code. */
function link(url: string, label = url): string {
  if (!SAFE_URL.test(url)) return mdCode(url)
  return `[${label === url ? url : mdText(label, 200)}](${url})`
}

/** The excerpt's last lines, without terminal codes, fenced so that nothing in it ends the fence. */
function excerpt(text: string): string {
  let lines = text.replace(/\r\n?/g, '\n').split('\n')
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop()
  lines = lines.slice(-MAX_EXCERPT_LINES)
  let body = lines.join('\n')
  if (body.length > MAX_EXCERPT_CHARS) body = `…${body.slice(-MAX_EXCERPT_CHARS)}`
  return mdFenced(body.split('\n'), 'text')
}

/** The headline and one sentence for the outcome (outcomes.ts), a deploy's or a delete's. */
function headline(r: PrCommentReport): CommentWords {
  const row = OUTCOMES[r.outcome ?? 'error']
  return r.removal ? row.removal(r) : row.comment(r)
}

/** The whole comment for one run; the marker is its first line. */
export function renderComment(r: PrCommentReport, links: CommentLinks = {}): string {
  const { title, sentence } = headline(r)
  const rows: Array<[string, string]> = []
  // A removed preview has no URL worth following.
  if (r.url && !r.removal) rows.push(['URL', link(r.url)])
  if (r.statusUrl && !r.removal) rows.push(['Deployment page', link(r.statusUrl)])
  const status = r.revisionStatus ? ` (${mdCode(r.revisionStatus)})` : ''
  if (r.revisionId) rows.push(['Revision', `${mdCode(r.revisionId)}${status}`])
  if (r.deploymentId) rows.push(['Deployment', mdCode(r.deploymentId)])
  if (r.promotedFrom) rows.push(['Promoted from', mdText(r.promotedFrom, 400)])
  if (r.tier && !r.removal) rows.push(['Type and size', mdText(r.tier, 200)])
  if (r.commitSha) {
    const short = r.commitSha.slice(0, 7)
    const sha = /^[0-9a-f]{7,64}$/i.test(r.commitSha) ? r.commitSha : undefined
    const repo = links.repository
    rows.push(['Commit', sha && repo ? link(`${repo}/commit/${sha}`, short) : mdCode(short)])
  }
  if (links.run) rows.push(['Run', link(links.run, 'workflow run')])

  const parts = [commentMarker(r.name), `### ${mdCode(r.name)}: ${title}`]
  if (sentence) parts.push(sentence)
  if (rows.length > 0)
    parts.push(['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n'))
  if (r.evaluation) parts.push(evaluationMarkdown(r.evaluation).join('\n'))
  if (r.error) parts.push(`**Reason:** ${mdText(r.error, 2000)}`)
  if (r.logExcerpt?.trim())
    parts.push(`<details><summary>Log excerpt</summary>\n\n${excerpt(r.logExcerpt)}\n\n</details>`)
  parts.push('<sub>Updated in place by control-plane-deploy on every run.</sub>')
  return `${parts.join('\n\n')}\n`
}
