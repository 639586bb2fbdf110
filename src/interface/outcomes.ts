// The outcomes of a run in words, once: one row per outcome, read by the job summary's headline,
// the GitHub deployment's final status, the pull-request comment and the exit code. Adding an
// outcome is one row: `Outcome` is this table's keys, and every reader indexes it.
import { mdCode } from '../inert.ts'

/** The final states of a GitHub deployment this run writes (GitHub also has `queued`, `pending`). */
export type GitHubFinalState = 'success' | 'failure' | 'error' | 'inactive'

/** What the words of an outcome may name: what the run knew when it ended. */
export interface OutcomeFacts {
  revisionId?: string | undefined
  revisionStatus?: string | undefined
  newerRevisionId?: string | undefined
  /** `promote-from`: whose revision this run deployed. */
  promotion?: { fromName: string; revisionId: string; what: string } | undefined
  /** The run's error, redacted. */
  error?: string | undefined
  /** `command: delete`: whether the tracing project went too (undefined: not asked). */
  tracingProjectDeleted?: boolean | undefined
}

/** A pull-request comment's headline and the one sentence that says what happened. */
export interface CommentWords {
  title: string
  sentence: string | undefined
}

interface OutcomeRow {
  /** The job summary's headline. */
  headline: string
  /**
   * The run's exit code. An ending that carries a failure exits 1 at least (a superseded revision
   * whose successor failed, a delete applied but not seen gone), or 2 when nothing was sent.
   */
  exitCode: 0 | 1 | 3 | 130
  /** The GitHub deployment's final state (a deploy's: `environment` is not a delete's input)... */
  github: GitHubFinalState
  /** ...and its one-line description. */
  githubSays: (f: OutcomeFacts) => string
  /** The deploy's pull-request comment. */
  comment: (f: OutcomeFacts) => CommentWords
  /** The delete's pull-request comment. */
  removal: (f: OutcomeFacts) => CommentWords
}

/** `Revision r-1` or `The revision`: plain for GitHub... */
const revision = (f: OutcomeFacts) => (f.revisionId ? `Revision ${f.revisionId}` : 'The revision')
/** ...and in Markdown for the comment. */
const revisionMd = (f: OutcomeFacts) =>
  f.revisionId ? `Revision ${mdCode(f.revisionId, 200)}` : 'The revision'

const words = (title: string, sentence?: string): CommentWords => ({ title, sentence })
const FAILED = words('❌ Failed')
const REMOVAL_FAILED = words('❌ Removing the preview failed')
/** A delete's outcome that is not one (a deploy's), or an error: the removal failed. */
const removalFailed = () => REMOVAL_FAILED
/** The words of a delete that did its part, unless a failure came after. */
const unlessFailed = (w: (f: OutcomeFacts) => CommentWords) => (f: OutcomeFacts) =>
  f.error !== undefined ? REMOVAL_FAILED : w(f)
const failedSays = (f: OutcomeFacts) => f.error ?? 'The deploy failed.'
/**
 * A deploy's words for a delete's outcome, which no deploy ends with (and `environment` makes no
 * GitHub deployment for a delete): a failure, should one ever read them.
 */
const NOT_A_DEPLOY = {
  github: 'error',
  githubSays: failedSays,
  comment: () => FAILED
} as const
/** The sweep's and the check's: they make no GitHub deployment and post no comment. */
const UPKEEP = { github: 'success', removal: removalFailed } as const
const UP_TO_DATE = words('✅ Up to date', 'Updated; no new revision was needed.')

export const OUTCOMES = {
  deployed: {
    headline: '✅ Deployed',
    exitCode: 0,
    github: 'success',
    githubSays: f => {
      const p = f.promotion
      // What was promoted from where; GitHub clips it at 140 characters.
      const from = p ? `Promoted ${p.fromName} revision ${p.revisionId} (${p.what}): ` : ''
      return `${from}${revision(f)} is DEPLOYED.`
    },
    comment: f => words('✅ Deployed', `${revisionMd(f)} is live.`),
    removal: removalFailed
  },
  accepted: {
    headline: '📨 Accepted (not waited for)',
    exitCode: 0,
    github: 'success',
    githubSays: f => `${revision(f)} accepted (wait: false); not waited for.`,
    comment: f => words('🚀 Accepted', `${revisionMd(f)} was accepted; not waited for.`),
    removal: removalFailed
  },
  'no-revision': {
    headline: '✅ Updated (no new revision needed)',
    exitCode: 0,
    github: 'success',
    githubSays: () => 'Updated; no new revision was needed.',
    comment: () => UP_TO_DATE,
    removal: removalFailed
  },
  /** The update asked for a revision and the control plane made none. */
  'revision-missing': {
    headline: '⚠️ Updated, but the control plane made no new revision',
    exitCode: 0,
    github: 'inactive',
    githubSays: () => 'Updated, but the control plane made no new revision.',
    comment: () => UP_TO_DATE,
    removal: removalFailed
  },
  /** `command: delete`: this run deleted the deployment. */
  deleted: {
    headline: '🗑️ Deleted',
    exitCode: 0,
    ...NOT_A_DEPLOY,
    removal: unlessFailed(f => {
      const tracing =
        f.tracingProjectDeleted === true
          ? ' Its tracing project was deleted too.'
          : f.tracingProjectDeleted === false
            ? ' Its tracing project was kept, so the name stays taken.'
            : ''
      return words('🗑️ Preview removed', `The preview was deleted.${tracing}`)
    })
  },
  /** `command: delete`: there was nothing to delete. */
  absent: {
    headline: '✅ Nothing to delete',
    exitCode: 0,
    ...NOT_A_DEPLOY,
    removal: unlessFailed(() =>
      words(
        '🗑️ Nothing to remove',
        'No deployment of this name exists (already deleted, or never deployed).'
      )
    )
  },
  'dry-run': {
    headline: '📝 Dry run: nothing written',
    exitCode: 0,
    github: 'success',
    githubSays: () => 'Dry run: nothing was written.',
    comment: () => words('📝 Dry run', 'Nothing was written.'),
    removal: () => words('📝 Dry run', 'The preview would be deleted; nothing was deleted.')
  },
  skipped: {
    headline: '⏭️ Superseded by a newer revision',
    exitCode: 0,
    // This commit was not deployed: a newer revision (with its own run) superseded it.
    github: 'inactive',
    githubSays: f =>
      `${revision(f)} was superseded by ${f.newerRevisionId ? `revision ${f.newerRevisionId}` : 'a newer revision'}.`,
    comment: f =>
      words(
        '⏭️ Superseded',
        `${revisionMd(f)} was superseded by a newer revision, reported by its own run.`
      ),
    removal: removalFailed
  },
  failed: {
    headline: '❌ Revision failed',
    exitCode: 1,
    github: 'failure',
    githubSays: f => `${revision(f)} ended ${f.revisionStatus ?? 'failed'}.`,
    comment: f =>
      words(
        '❌ Failed',
        `${revisionMd(f)} ended ${f.revisionStatus ? mdCode(f.revisionStatus, 200) : 'failed'}.`
      ),
    removal: removalFailed
  },
  /** The revision is DEPLOYED and its agent server failed the health check. */
  unhealthy: {
    headline: '❌ Agent server unhealthy',
    exitCode: 1,
    github: 'failure',
    githubSays: f => `${revision(f)} is DEPLOYED, but its agent server is unhealthy.`,
    comment: f =>
      words('❌ Unhealthy', `${revisionMd(f)} is DEPLOYED, but its agent server is unhealthy.`),
    removal: removalFailed
  },
  /** `evaluate`: the revision is DEPLOYED and answers, but its evaluation failed... */
  'evaluation-failed': {
    headline: '❌ Evaluation failed',
    exitCode: 1,
    github: 'failure',
    githubSays: f => `${revision(f)} is DEPLOYED, but it failed its evaluation.`,
    comment: f =>
      words('❌ Evaluation failed', `${revisionMd(f)} is DEPLOYED, but it failed its evaluation.`),
    removal: removalFailed
  },
  /** ...or could not tell (examples errored, feedback late, no baseline). */
  'evaluation-inconclusive': {
    headline: '⚠️ Evaluation inconclusive',
    exitCode: 1,
    github: 'failure',
    githubSays: f => `${revision(f)} is DEPLOYED, but its evaluation was inconclusive.`,
    comment: f =>
      words(
        '⚠️ Evaluation inconclusive',
        `${revisionMd(f)} is DEPLOYED, but its evaluation could not tell whether it answers well.`
      ),
    removal: removalFailed
  },
  timeout: {
    headline: '⏱️ Timed out',
    exitCode: 1,
    github: 'failure',
    githubSays: f =>
      `Timed out while ${f.revisionStatus ?? 'waiting'}; ${revision(f).toLowerCase()} goes on.`,
    comment: f =>
      words(
        '⏱️ Timed out',
        `${revisionMd(f)} was not deployed within the timeout; it goes on on the control plane.`
      ),
    removal: () =>
      words(
        '⏱️ Removal not confirmed',
        'The deletion was requested but not confirmed within the timeout.'
      )
  },
  cancelled: {
    headline: '🛑 Cancelled',
    exitCode: 130,
    github: 'inactive',
    githubSays: f =>
      `Cancelled${f.revisionId ? `; revision ${f.revisionId} goes on on the control plane` : ''}.`,
    comment: () => words('🚫 Cancelled', 'The run was cancelled.'),
    removal: () => words('🚫 Cancelled', 'The run was cancelled before the removal was confirmed.')
  },
  /** `command: sweep`: the matching deployments judged, those that go deleted. */
  swept: {
    headline: '🧹 Swept',
    exitCode: 0,
    ...UPKEEP,
    githubSays: () => 'Swept.',
    comment: () => words('🧹 Swept')
  },
  /** `command: plan`: which agents need a deploy (it writes nothing, whatever it decides). */
  planned: {
    headline: '📋 Planned',
    exitCode: 0,
    ...UPKEEP,
    githubSays: () => 'Planned.',
    comment: () => words('📋 Planned')
  },
  /** `command: check`: the deployment is what the inputs describe. */
  'in-sync': {
    headline: '✅ In sync',
    exitCode: 0,
    ...UPKEEP,
    githubSays: () => 'In sync with its inputs.',
    comment: () => words('✅ In sync')
  },
  /** `command: check`: it differs, and the step fails (exit 3)... */
  drift: {
    headline: '⚠️ Drift',
    exitCode: 3,
    ...UPKEEP,
    github: 'failure',
    githubSays: () => 'Differs from its inputs.',
    comment: () => words('⚠️ Drift')
  },
  /** ...or passes, with `fail-on-drift: false`. */
  'drift-passed': {
    headline: '⚠️ Drift',
    exitCode: 0,
    ...UPKEEP,
    githubSays: () => 'Differs from its inputs (fail-on-drift: false).',
    comment: () => words('⚠️ Drift')
  },
  error: {
    headline: '❌ Failed',
    exitCode: 1,
    github: 'error',
    githubSays: failedSays,
    comment: () => FAILED,
    removal: removalFailed
  }
} as const satisfies Record<string, OutcomeRow>

export type Outcome = keyof typeof OUTCOMES

/** The outcomes that are not done: their ending always carries a failure. */
export type FailingOutcome = {
  [K in Outcome]: (typeof OUTCOMES)[K]['exitCode'] extends 0 ? never : K
}[Outcome]
