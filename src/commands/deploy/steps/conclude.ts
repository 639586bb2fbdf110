// The deploy's last step: how the wait for this run's revision ended, turned into the run's
// ending; a failure's once its log is shown and any rollback made.
import { ApiError } from '../../../control-plane/errors.ts'
import { formatDuration } from '../../../duration.ts'
import type { Say } from '../../../interface/naming.ts'
import type { DeployOptions } from '../options.ts'
import { afterFailure, describeRollback } from '../after-failure/after-failure.ts'
import { sameCommit } from '../commits.ts'
import {
  checkDeployedHealth,
  known,
  type Concluding,
  type DeployedRevision
} from './after-deployed.ts'
import type { Ending, Failure } from '../../../interface/ending.ts'
import type { Revision } from '../../../control-plane/schema.ts'
import { deletedState } from './gone.ts'
import { seen, told } from '../facts.ts'
import type { Learned } from '../../../interface/journal.ts'
import type { WaitResult } from './wait.ts'
import { revisionStatusWord, shownStatus } from '../../../report/status-words.ts'

/** The wait's result, with the revision and deployment it was about. */
export interface Waited {
  result: WaitResult
  deploymentId: string
  revisionId: string
}

/** Waits for another revision of the deployment, for at most `timeoutMs`. */
export type Follow = (revisionId: string, timeoutMs: number) => Promise<Waited>

/** The run's ending, and what the conclusion learned for the flow to record. */
export async function conclude(
  after: Omit<Concluding, 'learned'>,
  w: Waited,
  follow?: Follow
): Promise<{ ending: Ending; learned: Learned }> {
  const { result } = w
  const sha = result.revision?.source_revision_config?.repo_commit_sha
  const learned: Learned = {
    timeline: result.timeline,
    revisionStatus: revisionStatusWord(result.status),
    ...(sha ? { repoCommitSha: sha } : {})
  }
  const c = { ...after, learned }
  try {
    return { ending: await ending(c, w, follow), learned: c.learned }
  } catch (err) {
    throw told(err, c.learned)
  }
}

async function ending(c: Concluding, w: Waited, follow: Follow | undefined): Promise<Ending> {
  const { o, deps } = c
  const { result } = w
  switch (result.outcome) {
    case 'deployed': {
      const refused = await deployed(c, w)
      if (refused) return rollBackUnverified(c, w.revisionId, refused)
      return checkDeployed(c, { ...w, waitedMs: result.elapsedMs })
    }
    case 'skipped':
      return superseded(c, w, follow)
    case 'failed':
      return { outcome: 'failed', failure: await failed(c, w) }
    case 'timeout':
      return { outcome: 'timeout', failure: timedOut(o, w, deps.say) }
    case 'cancelled': {
      const status = result.status !== undefined ? shownStatus(result.status) : 'no status seen'
      const message = `Cancelled while ${status}; revision ${w.revisionId} goes on on the control plane.`
      return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
    }
    case 'error':
      return { outcome: 'error', failure: await pollFailed(c, w) }
  }
}

/** The health gate, then with `evaluate` the evaluation gate (loaded only then). */
async function checkDeployed(c: Concluding, r: DeployedRevision): Promise<Ending> {
  // The run's timeout bounds both gates, as it bounds the wait for DEPLOYED.
  const deadline = c.deps.clock.now() - r.waitedMs + c.o.timeoutMs
  const health = await checkDeployedHealth(c, r)
  if (health.outcome !== 'deployed' || !c.deps.evaluation) return health
  return (await import('./evaluation.ts')).evaluateDeployed(c, r, deadline)
}

/** Says the revision is DEPLOYED; a promotion's failure when it built another commit. */
async function deployed(c: Concluding, w: Waited): Promise<Failure | undefined> {
  const { deps } = c
  await refresh(c, w.deploymentId)
  const j = known(c)
  deps.log.info(`Revision ${w.revisionId} is DEPLOYED (${formatDuration(w.result.elapsedMs)}).`)
  const sha = j.repoCommitSha
  const expected = j.expectedSha
  const p = j.promotion
  if (!sha && expected && p) {
    // What runs now cannot be matched to what the source verified: not verified, so not kept.
    return {
      message: `Revision ${w.revisionId} reports no built commit: that it built ${expected}, the commit ${p.fromName} revision ${p.revisionId} built, cannot be confirmed, and this is not what was verified.`,
      hint: 'Check the revision on the control plane; promote again once the service reports the commit it built.',
      title: 'Built commit not reported'
    }
  }
  if (sha && expected && !sameCommit(sha, expected) && p) {
    // A promotion deploys what the source verified: another commit is not that.
    return {
      message: `Revision ${w.revisionId} built commit ${sha}, not ${expected} that ${p.fromName} revision ${p.revisionId} built: ${j.ref ?? 'the ref'} moved on, and this is not what was verified.`,
      hint: 'Promote a tag (refs/tags/...), which keeps pointing to the verified commit, or deploy the source again and promote once it is verified.',
      title: 'Built a different commit'
    }
  }
  if (sha && expected && !sameCommit(sha, expected)) {
    deps.log.warning(
      `Revision ${w.revisionId} built commit ${sha}, not ${expected} that triggered this run: ` +
        `${j.ref ?? 'the ref'} moved on before the build started.`,
      'Built a different commit'
    )
  }
  return undefined
}

/**
 * A promotion's target runs what the source did not verify: it goes back to its revision before
 * this run, whatever `on-failure` says (with the rollback's own checks); a created one cannot.
 */
async function rollBackUnverified(c: Concluding, live: string, f: Failure): Promise<Ending> {
  const { o, deps } = c
  const j = known(c)
  const previousActive = c.previousActive
  const runs = j.repoCommitSha ? `commit ${j.repoCommitSha}` : 'a commit it does not report'
  if (j.created || !previousActive) {
    const why = j.created ? 'was created by this run' : 'had no active revision before this run'
    const message = `${f.message} Deployment "${j.name ?? ''}" ${why}, so there is nothing to go back to: it runs unverified code (${runs}, revision ${live}). Delete it, or promote again once the source is verified.`
    return { outcome: 'error', failure: { ...f, message } }
  }
  deps.log.warning(
    `Revision ${live} of "${j.name ?? ''}" runs ${runs}, which ${j.promotion?.fromName ?? 'the source'} did not verify: going back to revision ${previousActive}, which it ran before this run (whatever ${deps.say('on-failure')} says).`,
    'Unverified code live'
  )
  const after = await afterFailure(
    { ...o, onFailure: 'rollback', failureLogs: 0 },
    { deploymentId: j.deploymentId ?? '', revisionId: live, status: 'DEPLOYED' },
    c,
    deps
  )
  c.learned.rollback = after.rollback
  const r = after.rollback
  // First what ran and where it went back to: GitHub shows a deployment's first 140 characters.
  const back =
    r?.kind === 'done' && r.outcome === 'deployed'
      ? `rolled back to revision ${r.restoredId}`
      : 'not rolled back'
  const short = runs.replace(/\b([0-9a-f]{12})[0-9a-f]{28}\b/, '$1') // the sha cut to 12
  const lead = `Unverified ${short} ran on "${j.name ?? ''}"; ${back}.`
  const message = `${lead} ${f.message} ${describeRollback(r) ?? ''}`.trim()
  return { outcome: 'error', failure: { ...f, message } }
}

/** The newer revision that superseded a promotion: the failure when it deploys other material. */
function otherMaterial(c: Concluding, r: Revision | undefined): Failure | undefined {
  const j = known(c)
  const p = j.promotion!
  const cfg = r?.source_revision_config ?? {}
  const sha = cfg.repo_commit_sha ?? undefined
  const image = cfg.image_uri ?? undefined
  const same = j.expectedSha
    ? sha !== undefined && sameCommit(sha, j.expectedSha)
    : p.imageUri !== undefined && image === p.imageUri
  if (same) return undefined
  const runs = sha ? `commit ${sha}` : image ? `image ${image}` : 'material it does not report'
  if (sha) c.learned.repoCommitSha = sha
  return {
    message: `Revision ${j.revisionId ?? ''} of this run was superseded by revision ${r?.id ?? 'unknown'}, which runs ${runs}, not ${p.what} that ${p.fromName} revision ${p.revisionId} verified.`,
    hint: 'Another run or a person deployed the target meanwhile: find who, and promote again once only one promotion deploys it.',
    title: 'Superseded by other material'
  }
}

/** Successors followed at most, one after another, each within what is left of the timeout. */
const MAX_SUCCESSORS = 5

/** Our revision was SKIPPED: the newer one is followed (green must mean this run's code runs). */
async function superseded(c: Concluding, w: Waited, follow: Follow | undefined): Promise<Ending> {
  const { o, deps } = c
  const notDone = (failure: Failure): Ending => ({ outcome: 'skipped', failure })
  let spent = w.result.elapsedMs
  let current = w
  for (let hop = 0; hop < MAX_SUCCESSORS; hop++) {
    c.learned.newerRevisionId = undefined
    await refresh(c, current.deploymentId, current.revisionId)
    const newer = c.learned.newerRevisionId
    const left = o.timeoutMs - spent
    if (newer === undefined || follow === undefined || left <= 0) {
      return notDone(
        notFollowed(w, current, newer, left <= 0 ? 'the timeout had passed' : undefined)
      )
    }
    deps.log.warning(
      `Revision ${current.revisionId} was SKIPPED: the newer revision ${newer} superseded it. ` +
        'Following it until DEPLOYED, failed or the timeout: only then is this run done.',
      'Superseded by a newer revision'
    )
    const next = await follow(newer, left)
    spent += next.result.elapsedMs
    const { outcome } = next.result
    if (outcome === 'deployed') {
      c.learned.newerRevisionId = newer
      deps.log.warning(
        `Revision ${w.revisionId} of this run was superseded; the newer revision ${newer} is DEPLOYED (${formatDuration(spent)}). ` +
          'It carries the code that superseded this run’s.',
        'Deployed by a newer revision'
      )
      const other = known(c).promotion && otherMaterial(c, next.result.revision)
      if (other) return rollBackUnverified(c, newer, other)
      const health = await checkDeployed(c, { ...next, waitedMs: spent })
      return health.outcome === 'deployed' ? { outcome: 'skipped' } : health
    }
    if (outcome !== 'skipped') {
      c.learned.newerRevisionId = newer
      return notDone(successorNotDeployed(o, w, newer, next, deps.say))
    }
    current = next
  }
  return notDone(
    notFollowed(w, current, undefined, `${MAX_SUCCESSORS} revisions in a row were skipped`)
  )
}

/** The newer revision this run followed ended other than DEPLOYED or SKIPPED. */
function successorNotDeployed(
  o: DeployOptions,
  w: Waited,
  newer: string,
  next: Waited,
  say: Say
): Failure {
  const { outcome, status } = next.result
  const how =
    outcome === 'timeout'
      ? `was still ${status === undefined ? 'without a status' : shownStatus(status)} at the timeout (${formatDuration(o.timeoutMs)})`
      : outcome === 'failed'
        ? `ended ${status ?? 'failed'}`
        : outcome === 'cancelled'
          ? 'was being awaited when the run was cancelled'
          : `could not be read: ${firstLine(next.result.lastError ?? 'unknown error')}`
  return {
    message: `Revision ${w.revisionId} of this run was SKIPPED for the newer revision ${newer}, which ${how}: nothing of this run is known to be deployed.`,
    hint:
      outcome === 'failed'
        ? 'Read the newer revision’s log on the control plane, fix, and push again.'
        : `Check the newer revision on the control plane, or raise ${say('timeout')}.`,
    title: outcome === 'cancelled' ? 'Deploy cancelled' : 'Superseded, not deployed'
  }
}

function notFollowed(
  w: Waited,
  current: Waited,
  newer: string | undefined,
  why: string | undefined
): Failure {
  const which = newer ? `the newer revision ${newer}` : 'a newer revision'
  return {
    message:
      `Revision ${current.revisionId} was SKIPPED for ${which}, which this run could not follow` +
      `${why ? ` (${why})` : ''}: nothing of revision ${w.revisionId} is known to be deployed.`,
    hint: 'Check the deployment’s latest revision on the control plane.',
    title: 'Superseded, not deployed'
  }
}

async function failed(c: Concluding, w: Waited): Promise<Failure> {
  const { o, deps } = c
  const last = w.result.status ?? 'no status seen'
  const ids = { deploymentId: w.deploymentId, revisionId: w.revisionId, status: last }
  const after = await afterFailure(o, ids, c, deps)
  Object.assign(c.learned, { failureLog: after.log, rollback: after.rollback })
  const why = after.log?.telling ? `: ${after.log.telling.replace(/[.\s]+$/, '')}.` : '.'
  // Why the revision failed, where the control plane says (`status_message`).
  const said = w.result.revision?.status_message?.trim()
  const says = said ? ` The control plane says: ${said.replace(/[.\s]+$/, '')}.` : ''
  const rolled = describeRollback(after.rollback)
  return {
    message:
      `Revision ${w.revisionId} of "${known(c).name}" ended ${last} after ${formatDuration(w.result.elapsedMs)}${why}${says}` +
      (rolled ? ` ${rolled}` : ''),
    hint:
      last === 'BUILD_FAILED'
        ? `The build failed: ${after.log ? 'its log is above' : 'read the build log of the revision on the control plane'}; fix, and push again.`
        : last === 'DEPLOY_FAILED'
          ? 'The deploy failed after a good build: read the revision’s deploy log and the deployment’s settings (resource-spec, secrets).'
          : 'The control plane could not create the revision: check the source settings and the deployment on the control plane.',
    title: `Revision ${last}`
  }
}

/** The title says it timed out; the message says where the revision was (the CLI shows both). */
function timedOut(o: DeployOptions, w: Waited, say: Say): Failure {
  const { result } = w
  return {
    message:
      (result.status
        ? `Still ${shownStatus(result.status)} after ${formatDuration(o.timeoutMs)}; revision ${w.revisionId} goes on on the control plane.`
        : `No status of revision ${w.revisionId} was read in ${formatDuration(o.timeoutMs)}; it may go on on the control plane.`) +
      (result.lastError ? ` Last poll error: ${firstLine(result.lastError)}` : '') +
      (result.lastApiError && result.lastApiError !== result.lastError
        ? ` Last answer: ${firstLine(result.lastApiError)}`
        : ''),
    hint: `Raise ${say('timeout')} (a first deploy also provisions a database and can take 15 minutes or more), or use ${say.set('wait', false)}.`,
    title: 'Deploy timed out'
  }
}

/** Polling failed for good; a deployment deleted meanwhile is said as that, not as a wrong id. */
async function pollFailed(c: Concluding, w: Waited): Promise<Failure> {
  const { result } = w
  // After a 404 on the revision: whether the deployment itself is gone or going.
  const notFound = result.lastError instanceof ApiError && result.lastError.status === 404
  const deleted = notFound && (await deletedState(c.deps.client, w.deploymentId))
  if (deleted) {
    c.learned.deploymentStatus = deleted === 'gone' ? undefined : deleted
    return {
      message: `Deployment "${known(c).name}" (${w.deploymentId}) was deleted while this run waited for revision ${w.revisionId} (${deleted === 'gone' ? 'reads answer 404' : deleted}); nothing is deployed.`,
      hint: 'Another run or a person deleted it: deploy again to create it anew, once that was intended.',
      title: 'Deployment deleted'
    }
  }
  const seen = result.status
    ? `last status ${shownStatus(result.status)}`
    : 'before any status was read'
  return {
    message: `Polling revision ${w.revisionId} failed (${seen}): ${firstLine(result.lastError ?? 'unknown error')}`,
    hint: `${hintOf(result.lastError) ?? 'Hint: the control plane could not be read reliably.'} The revision may still go on on the control plane.`,
    title: 'Polling failed'
  }
}

/** One read at the end: the deployment's status, and the newer revision when ours was skipped. */
async function refresh(c: Concluding, id: string, skipped = known(c).revisionId): Promise<void> {
  try {
    const d = await c.deps.client.getDeployment(id)
    Object.assign(c.learned, seen(d, c.deps.log, known(c)))
    if (d.latest_revision_id && d.latest_revision_id !== skipped)
      c.learned.newerRevisionId = d.latest_revision_id
  } catch {
    // The revision's own status is what decides the run; this read only adds detail.
  }
}

/** The first line of an error's message: the hint that follows is said once, at the end. */
export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return text.split('\n')[0] ?? text
}

function hintOf(err: unknown): string | undefined {
  if (err instanceof ApiError) return err.hint
  const lines = (err instanceof Error ? err.message : '').split('\n')
  return lines.length > 1 ? lines.slice(1).join(' ') : undefined
}
