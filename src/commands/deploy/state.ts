// What a run knows as it goes: filled step by step by the deploy and delete flows, so that the
// outputs and the summary can say what was known when something failed.
import { deploymentStatusWord } from './status-words.ts'
import type { Deployment } from '../../control-plane/schema.ts'
import { kindOf, sizeOfTier, type Kind, type Size } from '../../control-plane/vocabulary.ts'
import type { Options } from '../../inputs/options.ts'
import type { FlowDeps } from './deps.ts'
import type { FlowLog } from '../../log.ts'
import type { Health } from '../../health/window.ts'
import type { FailureLog } from './after-failure/failure-logs.ts'
import type { Plan } from './steps/plan.ts'
import type { RollbackResult } from './after-failure/rollback.ts'
import type { TimelineEntry } from './steps/wait.ts'
import type { Verified } from '../../health/verified.ts'
import type { Outcome } from '../../interface/outcomes.ts'

export type { Outcome } from '../../interface/outcomes.ts'

/** What the log, the summary and the `source-digest` output say of an upload's archive. */
export interface SourceFacts {
  files: number
  size: number
  /** `sha256:<hex>` of the archive's bytes. */
  digest: string
  /** `3f2c1a9e0b7d (with uncommitted changes)`, when the workspace is a git checkout. */
  commit?: string
}

/** A promotion (`promote-from`): whose revision's material this run deploys. */
export interface Promotion {
  fromId: string
  fromName: string
  /** The source's active revision: the `promoted-from-revision-id` output. */
  revisionId: string
  /** `commit <sha>`, `image <uri>` or the archive's `sha256:` digest. */
  what: string
  /** The image promoted (an image source): a newer revision of another image is not it. */
  imageUri?: string | undefined
  /** What examined the source's revision before any write (source-evidence.ts). */
  evidence?: Evidence | undefined
}

/**
 * The source's checks before any write: those it passed on its agent server, none at all
 * (`verify-source: false`), or the one that refused the promotion.
 */
export type Evidence =
  { kind: 'verified'; checks: string[] } | { kind: 'skipped' } | { kind: 'refused'; check: string }

export interface DeployState {
  name: string | undefined
  deploymentId: string | undefined
  created: boolean
  plan: Plan | undefined
  revisionId: string | undefined
  revisionStatus: string | undefined
  deploymentStatus: string | undefined
  url: string | undefined
  /** The deployment's `custom_url` was not a well-formed URL (said once, then left out). */
  urlRefused?: boolean
  /** Why the deployment's `custom_url` is not used (never the URL itself: it may hold credentials). */
  urlProblem?: string
  repoCommitSha: string | undefined
  expectedSha: string | undefined
  ref: string | undefined
  newerRevisionId: string | undefined
  timeline: TimelineEntry[]
  outcome: Outcome | undefined
  /** The deployment's active revision before this run wrote: what a rollback restores. */
  previousActive?: string | null
  failureLog?: FailureLog | undefined
  rollback?: RollbackResult | undefined
  /** What the health check found; undefined when none ran to its end. */
  health?: Health | undefined
  /** The checks of the new revision (after-deployed.ts): outputs `served-revision`, `smoke`. */
  verified?: Verified | undefined
  /** A write sent and not answered yet: on a cancel its outcome is unknown. */
  writing?: 'create' | 'update' | 'delete' | undefined
  /** `command: delete`: whether this run deleted the deployment. */
  deleted?: boolean
  /** The workspace the deployment belongs to, as the control plane says. */
  tenantId?: string | undefined
  /** The deployment's page in the service's web app (status-url.ts); set by run() at the end. */
  statusUrl?: string | undefined
  /** An upload deploy's archive (`internal_source`): the `source-digest` output and the summary. */
  source?: SourceFacts | undefined
  /** `promote-from`: what this run promotes, known before any write. */
  promotion?: Promotion | undefined
  /** The deployment's type as the service reports it (a legacy word read as its type). */
  deploymentType?: Kind | undefined
  /** The compute tier the service reports (`SERVERLESS_M`), and its size. */
  tier?: string | undefined
  size?: Size | undefined
}

export function newState(o: Options): DeployState {
  return {
    name: o.name,
    deploymentId: o.target.kind === 'id' ? o.target.deploymentId : undefined,
    created: false,
    plan: undefined,
    revisionId: undefined,
    revisionStatus: undefined,
    deploymentStatus: undefined,
    url: undefined,
    repoCommitSha: undefined,
    // The material's step (steps/material.ts) sets them.
    expectedSha: undefined,
    ref: undefined,
    newerRevisionId: undefined,
    timeline: [],
    outcome: undefined,
    writing: undefined
  }
}

/** What a read of the deployment tells the state. */
export function observe(state: DeployState, d: Deployment, log: Pick<FlowLog, 'warning'>): void {
  state.deploymentId = d.id
  state.name = d.name
  state.tenantId = d.tenant_id
  state.deploymentStatus = deploymentStatusWord(d.status)
  state.deploymentType = kindOf(d.source_config.deployment_type)
  state.tier = d.deployment_tier ?? undefined
  state.size = sizeOfTier(d.deployment_tier)
  // The service's newer top-level `url` where it gives one; else the custom_url, as before.
  const url = d.url || d.source_config.custom_url
  const field = d.url ? 'url' : 'custom_url'
  state.urlProblem = undefined
  if (!url) return
  if (isWellFormedUrl(url)) {
    state.url = outputUrl(url)
    return
  }
  state.url = undefined
  const credentials = credentialsIn(url)
  state.urlProblem = credentials
    ? `its ${field} for ${credentials} carries credentials (user:password@), which are never sent or shown`
    : `its ${field} is not a well-formed http(s) URL`
  if (state.urlRefused) return
  state.urlRefused = true
  log.warning(
    credentials
      ? `Deployment "${d.name}" has a ${field} for ${credentials} that carries credentials (user:password@): the url output is left empty, and they are never sent or shown.`
      : `Deployment "${d.name}" has a ${field} that is not a well-formed http(s) URL: the url output is left empty.`,
    'URL not used'
  )
}

// What a URL's path, query and fragment keep as they are: letters, digits and `- . _ / : @ + , % =
// ? & #`. Anything else (`$`, a backtick, `(`, `)`, `{`, `}`, quotes, `;`, `!`, `*`, `~`, `\`...)
// is percent-encoded: it names the same resource, and a workflow that writes the output into a
// `run:` line or a dotenv reader finds nothing in it to expand or run.
const URL_KEPT = /[^A-Za-z0-9\-._/:@+,%=?&#]/g

/**
 * The `url` output of a well-formed http(s) URL: normalised (`new URL`: the host in lower case or
 * punycode, non-ASCII and spaces percent-encoded), then every character outside URL_KEPT
 * percent-encoded too. A bare origin stays as it was given (`https://a.example`, no `/` added).
 */
export function outputUrl(text: string): string {
  const u = new URL(text)
  const tail = `${u.pathname}${u.search}${u.hash}`.replace(
    URL_KEPT,
    c => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
  )
  const out = `${u.origin}${tail}`
  return out === `${text}/` ? text : out
}

/** The host of a URL that carries user:password@, or undefined. */
function credentialsIn(text: string): string | undefined {
  const u = URL.parse(text)
  return u && (u.username || u.password) ? u.host.replace(/[^\x21-\x7e]/g, '?') : undefined
}

/**
 * The `url` output is the server's text, written as it is: only a plain http(s) URL, with no
 * whitespace, control characters or workflow-command markers, where anything may read it.
 */
function isWellFormedUrl(text: string): boolean {
  if (text.length > 2000 || /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text)) return false
  if (text.includes('##[') || /^[^:]*::/.test(text)) return false
  const u = URL.parse(text)
  return !!u && (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password
}

/**
 * A write, marked as in flight while it runs: a cancel cuts it off with its outcome unknown,
 * whereas a write that ended (answered, or failed after reconciling) is known.
 */
export async function writing<T>(
  state: DeployState,
  deps: FlowDeps,
  kind: NonNullable<DeployState['writing']>,
  write: () => Promise<T>
): Promise<T> {
  state.writing = kind
  try {
    return await write()
  } finally {
    if (!deps.signal?.aborted) state.writing = undefined
  }
}
