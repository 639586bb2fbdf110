// The GitHub side of a deploy or a delete, where the door has one: the GitHub deployment that
// mirrors the outcome (with `environment`) and the pull request comment. Bounded, best effort:
// never the verdict. Their modules are loaded only for a run that makes them.
import type { Clock } from '../../clock.ts'
import type { Redactor } from '../../control-plane/redact.ts'
import type { GitHubDeployment, GitHubDeploymentDeps } from '../../github/deployment.ts'
import type { FlowOptions } from './options.ts'
import type { FlowLog } from '../../log.ts'
import type { RunPort } from '../../port.ts'
import { typeAndSize } from '../../report/summary.ts'
import type { Journal } from '../../interface/journal.ts'

/** The GitHub deployment of a run with `environment` on a door that has a GitHub side. */
export async function gitHubDeployment(
  port: RunPort,
  o: FlowOptions,
  deps: GitHubDeploymentDeps
): Promise<GitHubDeployment | undefined> {
  // No token: only with `manifest`, whose `environment` names its entry (the rule asks for one else).
  if (!port.github || o.environment === undefined || o.githubToken === undefined) return undefined
  const { startGitHubDeployment } = await import('../../github/deployment.ts')
  return startGitHubDeployment(o, port.github, deps)
}

export interface GitHubSideFacts {
  github: GitHubDeployment | undefined
  error: string | undefined
  redactor: Redactor
  log: FlowLog
  now: Clock['now']
  /** The comment speaks of a preview's removal (a delete), not of a deploy. */
  removal: boolean
}

/** The GitHub deployment's final status and the pull request comment, together. */
export async function githubSide(
  port: RunPort,
  o: FlowOptions,
  journal: Journal,
  { github, error, redactor, log, now, removal }: GitHubSideFacts
): Promise<void> {
  const cancelling = port.signal.aborted
  if (o.prComment && !port.github) {
    port.info(
      `${port.say('pr-comment')}: not running on GitHub Actions; no pull request comment is posted.`
    )
  }
  const comment =
    o.prComment && port.github ? await import('../../github/pr-comment.ts') : undefined
  // Together, so that a cancel's short exit covers both.
  await Promise.all([
    github?.finish(journal, error, cancelling),
    comment && port.github
      ? comment.postPrComment(
          {
            name: journal.name ?? o.name ?? journal.deploymentId ?? 'deployment',
            removal,
            outcome: journal.outcome,
            deploymentId: journal.deploymentId,
            revisionId: journal.revisionId,
            revisionStatus: journal.revisionStatus,
            url: journal.url,
            statusUrl: journal.statusUrl,
            commitSha: journal.repoCommitSha ?? journal.expectedSha,
            promotedFrom:
              journal.promotion &&
              `${journal.promotion.fromName} revision ${journal.promotion.revisionId} (${journal.promotion.what})`,
            tier: typeAndSize(journal)?.replace(/`/g, ''),
            error,
            logExcerpt: journal.failureLog?.lines.join('\n'),
            evaluation: journal.evaluation,
            tracingProjectDeleted: journal.deleted === true && o.deleteTracingProject
          },
          {
            token: o.githubToken,
            context: port.github,
            pullRequestNumber: port.event.pullRequestNumber,
            redactor,
            log,
            cancelling,
            now,
            dryRun: o.dryRun
          }
        )
      : undefined
  ])
}
