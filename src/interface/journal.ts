// What a run learned, its journal: the facts the outputs, the summary, the pull request comment and
// the GitHub deployment read. Each command's flow writes it alone, from what its steps return
// (commands/deploy/flow.ts, commands/delete/delete.ts); everything else reads it. Its words are
// the public ones (the outputs'), so it sits below every writer and reader.
import type { Outcome } from './outcomes.ts'

export const KINDS = ['serverless', 'dedicated'] as const
/** A deployment's type (output `deployment-type`). */
export type Kind = (typeof KINDS)[number]
export const SIZES = ['small', 'medium', 'large'] as const
/** A compute size (output `size`). */
export type Size = (typeof SIZES)[number]

/** What the health check found (output `health`). */
export type Health = 'healthy' | 'unhealthy' | 'unavailable'

/** One status of a revision, and when it was first seen (ms into the wait). */
export interface TimelineEntry {
  status: string
  elapsedMs: number
}

export type CaseVerdict = 'passed' | 'failed' | 'timeout' | 'inconclusive' | 'cancelled'

export interface CaseResult {
  name: string
  graph: string
  verdict: CaseVerdict
  /** Why, for anything but `passed` (secret values masked). */
  reason?: string
  /** The run's output (or error) as text, masked, at most EXCERPT_CHARS. */
  excerpt: string
  elapsedMs: number
}

/** What the checks of the new revision found, as the outputs and the summary say it. */
export interface Verified {
  /** Output `served-revision`; undefined when not checked. */
  servedRevision?: 'this' | 'stale' | 'unknown'
  /** Graphs checked, and those without an assistant. */
  graphs?: { checked: string[]; missing: string[]; verdict: 'passed' | 'failed' | 'inconclusive' }
  /** Output `smoke`; undefined when no case ran. */
  smoke?: 'passed' | 'failed' | 'inconclusive'
  cases?: CaseResult[]
}

/** One evaluator key's figures: output `evaluation-scores`. */
export interface KeyScores {
  mean: number | null
  pass_rate: number | null
  n: number
  threshold: { mean?: number; 'pass-rate'?: number } | null
  /** The baseline experiment's mean of this key. */
  baseline: number | null
}

/** An example that scored lower than in the baseline, on the keys it did. */
export interface Regression {
  exampleId: string
  keys: { key: string; score: number; baseline: number }[]
}

/** What the evaluation gate found: outputs `evaluation`, `evaluation-url`, `evaluation-scores`. */
export interface EvaluationFacts {
  verdict: 'passed' | 'failed' | 'inconclusive'
  /** The experiment's page in the LangSmith web app. */
  url?: string | undefined
  scores: Record<string, KeyScores>
  /** Why it did not pass, one per cause. */
  reasons: string[]
  regressions: Regression[]
  examples: number
  errors: number
  /** The experiment recorded (a LangSmith dataset). */
  experiment?: { id: string; name: string } | undefined
  /** Whose revision it judged: a promotion's source, on a recorded experiment or a run of its own. */
  of?: string | undefined
}

export type LogType = 'build' | 'deploy'

/** The log of a failed revision, as the summary shows it. */
export interface FailureLog {
  type: LogType
  /** Oldest first, each cleaned. */
  lines: string[]
  /** The line most likely to say why: the last at ERROR level, or the last that says error. */
  telling: string | undefined
}

export type RollbackResult =
  /** Nothing was sent: why not. */
  | { kind: 'not-done'; reason: string }
  /** The redeploy could not be made (its request failed for good). */
  | { kind: 'failed'; restoredId: string; reason: string; notUndone: string[] }
  /** The redeploy was answered, but no revision of its own appeared: nothing to follow. */
  | { kind: 'unconfirmed'; restoredId: string; reason: string; notUndone: string[] }
  | {
      kind: 'done'
      /** The revision the redeploy started, followed to its end. */
      revisionId: string
      /** The revision whose configuration was redeployed. */
      restoredId: string
      status: string | undefined
      outcome: 'deployed' | 'failed' | 'skipped' | 'timeout' | 'cancelled' | 'error'
      timeline: TimelineEntry[]
      /** What this run changed that a redeploy does not put back (see RollbackInput). */
      notUndone: string[]
      /** The redeploy built another commit than the revision it restores (its branch moved on). */
      rebuilt?: { built: string; restored: string }
    }

/** What the log, the summary and the `source-digest` output say of an upload's archive. */
export interface SourceFacts {
  files: number
  size: number
  /** `sha256:<hex>` of the archive's bytes. */
  digest: string
  /** `3f2c1a9e0b7d (with uncommitted changes)`, when the workspace is a git checkout. */
  commit?: string
}

/**
 * The source's checks before any write: those it passed on its agent server, none at all
 * (`verify-source: false`), or the one that refused the promotion.
 */
export type Evidence =
  { kind: 'verified'; checks: string[] } | { kind: 'skipped' } | { kind: 'refused'; check: string }

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

/** A write sent and not answered yet: on a cancel its outcome is unknown. */
export type Writing = 'create' | 'update' | 'delete'

export interface Journal {
  readonly name?: string | undefined
  readonly deploymentId?: string | undefined
  readonly created?: boolean
  /** The plan as the summary shows it: its lines, and whether it changes any field. */
  readonly plan?: { lines: string[]; changed: boolean } | undefined
  readonly revisionId?: string | undefined
  readonly revisionStatus?: string | undefined
  readonly deploymentStatus?: string | undefined
  readonly url?: string | undefined
  /** The deployment's `custom_url` was not a well-formed URL (said once, then left out). */
  readonly urlRefused?: boolean
  /** Why the deployment's `custom_url` is not used (never the URL itself: it may hold credentials). */
  readonly urlProblem?: string | undefined
  readonly repoCommitSha?: string | undefined
  /** The commit the revision is expected to build (the material's). */
  readonly expectedSha?: string | undefined
  readonly ref?: string | undefined
  readonly newerRevisionId?: string | undefined
  readonly timeline?: readonly TimelineEntry[]
  readonly outcome?: Outcome | undefined
  readonly failureLog?: FailureLog | undefined
  readonly rollback?: RollbackResult | undefined
  /** What the health check found; undefined when none ran to its end. */
  readonly health?: Health | undefined
  /** The checks of the new revision (after-deployed.ts): outputs `served-revision`, `smoke`. */
  readonly verified?: Verified | undefined
  readonly writing?: Writing | undefined
  /** `command: delete`: whether this run deleted the deployment. */
  readonly deleted?: boolean
  /** The workspace the deployment belongs to, as the control plane says. */
  readonly tenantId?: string | undefined
  /** The deployment's page in the service's web app (status-url.ts), known at the end. */
  readonly statusUrl?: string | undefined
  /** An upload deploy's archive (`internal_source`): the `source-digest` output and the summary. */
  readonly source?: SourceFacts | undefined
  /** `promote-from`: what this run promotes, known before any write. */
  readonly promotion?: Promotion | undefined
  /** The deployment's type as the service reports it (a legacy word read as its type). */
  readonly deploymentType?: Kind | undefined
  /** The compute tier the service reports (`SERVERLESS_M`), and its size. */
  readonly tier?: string | undefined
  readonly size?: Size | undefined
  /** `evaluate`: the evaluation gate's verdict and scores. */
  readonly evaluation?: EvaluationFacts | undefined
}

/** What a step learned: the facts it returns for its flow to record. */
export type Learned = { -readonly [K in keyof Journal]?: Journal[K] }
