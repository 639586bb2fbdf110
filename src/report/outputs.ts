// The step outputs of a run (also on failure, as far as known). Written as they are: redacting
// would corrupt them whenever a secret equals `true` or part of an id.
import { ACTION_OUTPUTS } from '../interface/action-yml.ts'
import type { Journal } from '../interface/journal.ts'
import { deploymentStatusWord, revisionStatusWord } from './status-words.ts'

/** The step outputs, by name; undefined ones are not written. */
export function outputsOf(journal: Journal): Record<string, string | undefined> {
  const rollback = journal.rollback?.kind === 'done' ? journal.rollback : undefined
  return {
    'deployment-id': journal.deploymentId,
    'revision-id': journal.revisionId,
    'revision-status': revisionStatusWord(journal.revisionStatus),
    'deployment-status': deploymentStatusWord(journal.deploymentStatus),
    // A create or delete cut off in flight may have landed: unknown, so not claimed either way.
    created: journal.writing === 'create' ? undefined : String(journal.created === true),
    url: journal.url,
    'status-url': journal.statusUrl,
    'repo-commit-sha': journal.repoCommitSha,
    deleted: journal.writing === 'delete' ? undefined : String(journal.deleted === true),
    'rollback-revision-id': rollback?.revisionId,
    'rollback-status': revisionStatusWord(rollback?.status),
    'served-revision': journal.verified?.servedRevision,
    smoke: journal.verified?.smoke,
    health: journal.health,
    'source-digest': journal.source?.digest,
    // Empty when the promotion was refused: nothing of the source was promoted.
    'promoted-from-revision-id':
      journal.promotion?.evidence?.kind === 'refused' ? undefined : journal.promotion?.revisionId,
    'deployment-type': journal.deploymentType,
    size: journal.size,
    evaluation: journal.evaluation?.verdict,
    'evaluation-url': journal.evaluation?.url,
    'evaluation-scores': journal.evaluation ? JSON.stringify(journal.evaluation.scores) : undefined
  }
}

/** Every output declared in action.yml, '' where it has no value; before a run, only 'false's. */
export function allOutputs(
  journal: Journal | undefined,
  extra: Record<string, string | undefined>
): Record<string, string> {
  const known: Record<string, string | undefined> = journal
    ? { ...outputsOf(journal), ...extra }
    : { created: 'false', deleted: 'false', ...extra }
  return Object.fromEntries(Object.keys(ACTION_OUTPUTS).map(name => [name, known[name] ?? '']))
}
