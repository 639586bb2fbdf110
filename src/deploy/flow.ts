// The deploy, in the order it runs: find the target, plan, write, wait. It fills a DeployState as
// it goes, so that the outputs and the summary can say what was known when something failed.
import type { ControlPlaneClient } from '../control-plane/client.ts'
import { ApiError } from '../control-plane/errors.ts'
import { sanitizeServerText } from '../control-plane/redact.ts'
import type { Deployment } from '../control-plane/schema.ts'
import { formatDuration } from '../duration.ts'
import type { Options } from '../inputs/options.ts'
import { awaitNewRevision, createOrAdopt, patchReconciled, revisionOf } from './apply.ts'
import { DeployError } from './deploy-error.ts'
import { findDeploymentByName } from './find-deployment.ts'
import { describePlan, planCreate, planUpdate, type Plan } from './plan.ts'
import { resolveRepository } from './resolve-repository.ts'
import type { FlowDeps } from './deps.ts'
import { afterFailure, describeRollback } from './after-failure.ts'
import type { FailureLog } from './failure-logs.ts'
import type { RollbackResult } from './rollback.ts'
import { waitForRevision, type TimelineEntry } from './wait.ts'

export type Outcome =
  | 'deployed'
  | 'accepted'
  | 'no-revision'
  /** The update asked for a revision and the control plane made none. */
  | 'revision-missing'
  /** `command: delete`: this run deleted the deployment. */
  | 'deleted'
  /** `command: delete`: there was nothing to delete. */
  | 'absent'
  | 'dry-run'
  | 'skipped'
  | 'failed'
  | 'timeout'
  | 'cancelled'
  | 'error'

export interface DeployState {
  name: string | undefined
  deploymentId: string | undefined
  created: boolean
  plan: Plan | undefined
  revisionId: string | undefined
  revisionStatus: string | undefined
  deploymentStatus: string | undefined
  url: string | undefined
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
  /** A write sent and not answered yet: on a cancel its outcome is unknown. */
  writing?: 'create' | 'update' | 'delete' | undefined
  /** `command: delete`: whether this run deleted the deployment. */
  deleted?: boolean
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
    expectedSha: o.expectedSha,
    ref: o.ref,
    newerRevisionId: undefined,
    timeline: [],
    outcome: undefined,
    writing: undefined
  }
}

export type { FlowDeps, FlowLog } from './deps.ts'

export async function deploy(o: Options, state: DeployState, deps: FlowDeps): Promise<void> {
  const { client, log } = deps

  const current = await log.group('Find the deployment', async () => {
    const target = o.target
    const found =
      target.kind === 'id'
        ? await client.getDeployment(target.deploymentId)
        : await findDeploymentByName(client, target.name)
    if (found) {
      if (target.kind === 'id' && o.name !== undefined && found.name !== o.name) {
        throw new DeployError(
          `Deployment ${target.deploymentId} is named "${found.name}", not "${o.name}".`,
          'Set name and deployment-id to the same deployment, or only one of them.',
          'Name and deployment-id disagree'
        )
      }
      observe(state, found)
      log.info(`Found deployment "${found.name}" (${found.id}), status ${found.status}.`)
    } else log.info(`No deployment is named "${o.name}".`)
    return found
  })

  let plan = await log.group('Plan', async () => {
    let p: Plan
    if (current) p = planUpdate(o, current)
    else {
      // A deployment named by id is read, never created: not finding it was an error above.
      if (o.target.kind !== 'name')
        throw new DeployError(`Deployment ${o.target.deploymentId} was not found.`)
      const name = o.target.name
      if (!o.create) {
        throw new DeployError(
          `No deployment is named "${name}" and create is false.`,
          'Set create: true to create it, or check name, tenant-id and base-url.',
          'Deployment not found'
        )
      }
      const repo =
        o.source === 'codehost' && o.integrationId && o.repository
          ? await resolveRepository(client, o.integrationId, o.repository)
          : undefined
      if (repo)
        log.info(
          `Repository ${o.repository} -> ${repo.url} (default branch ${repo.default_branch})`
        )
      p = planCreate(o, name, repo)
    }
    for (const line of describePlan(p)) log.info(line)
    return p
  })
  state.plan = plan
  noteRepository(plan)

  if (o.dryRun) {
    state.outcome = 'dry-run'
    log.info('Dry run: nothing was written.')
    return
  }

  let written: Deployment
  /** The deployment's latest revision before this run's update: what the update must replace. */
  let before = current?.latest_revision_id ?? null
  state.previousActive = current?.active_revision_id ?? null
  if (plan.kind === 'create') {
    const body = plan.body
    const result = await writing('create', () =>
      log.group('Create the deployment', async () => {
        const r = await createOrAdopt(client, body, log, deps.now)
        if (r.kind === 'created')
          log.info(`Created deployment "${r.deployment.name}" (${r.deployment.id}).`)
        return r
      })
    )
    observe(state, result.deployment)
    if (result.kind === 'created') {
      state.created = true
      written = result.deployment
    } else {
      plan = planUpdate(o, result.deployment)
      state.plan = plan
      before = result.deployment.latest_revision_id
      state.previousActive = result.deployment.active_revision_id
      noteRepository(plan)
      written = await update(plan, result.deployment)
    }
  } else {
    written = await update(plan, current as Deployment)
  }
  observe(state, written)

  if (plan.kind === 'update' && !plan.newRevision) {
    state.outcome = 'no-revision'
    log.info('The change needs no new revision: nothing to wait for.')
    return
  }
  if (plan.kind === 'update') {
    // Only a revision that the write produced is this run's: an answer that still names the
    // revision from before is looked at again briefly, and otherwise reported as it is.
    if (written.latest_revision_id === before) {
      const late = await awaitNewRevision(client, written.id, before, log)
      if (!late) {
        state.outcome = 'revision-missing'
        log.warning(
          `The control plane made no new revision for this update of "${written.name}": its latest revision is still ${before ?? 'none'}. ` +
            'Nothing was deployed by this run; re-run the job, and check the deployment on the control plane if it happens again.',
          'No new revision'
        )
        return
      }
      written = late
      observe(state, written)
    }
  }
  const revisionId = await revisionOf(client, written)
  state.revisionId = revisionId
  log.info(`Revision ${revisionId}.`)

  if (!o.wait) {
    state.outcome = 'accepted'
    log.info('wait is false: the revision goes on on the control plane.')
    return
  }

  const deploymentId = written.id
  const result = await log.group(`Wait for revision ${revisionId}`, () =>
    waitForRevision({
      client,
      deploymentId,
      revisionId,
      timeoutMs: o.timeoutMs,
      pollIntervalMs: o.pollIntervalMs,
      cadence: deps.cadence,
      signal: deps.signal,
      now: deps.now,
      sleep: deps.sleep,
      onStatus: (status, ms) => log.info(`${status} after ${formatDuration(ms)}`),
      onUnknownStatus: status =>
        log.warning(
          `Revision ${revisionId} reports status ${status}, which the control plane does not document: ` +
            'taken as still in progress until DEPLOYED, a *_FAILED status or the timeout.',
          'Unknown revision status'
        ),
      // The hint of a cause is said once, with the final error; each poll gets one line.
      onPollError: (err, n) =>
        log.info(`Poll ${n} in a row failed, still waiting: ${firstLine(err)}`)
    })
  )
  state.timeline = result.timeline
  state.revisionStatus = result.status
  const sha = result.revision?.source_revision_config?.repo_commit_sha
  if (sha) state.repoCommitSha = sha
  const took = formatDuration(result.elapsedMs)
  const last = result.status ?? 'no status seen'
  const seen = result.status ? `last status ${result.status}` : 'before any status was read'

  switch (result.outcome) {
    case 'deployed': {
      state.outcome = 'deployed'
      await refresh(client, state, deploymentId)
      log.info(`Revision ${revisionId} is DEPLOYED (${took}).`)
      const expected = state.expectedSha
      if (sha && expected && !sameCommit(sha, expected)) {
        log.warning(
          `Revision ${revisionId} built commit ${sha}, not ${expected} that triggered this run: ` +
            `${state.ref ?? 'the ref'} moved on before the build started.`,
          'Built a different commit'
        )
      }
      return
    }
    case 'skipped': {
      state.outcome = 'skipped'
      await refresh(client, state, deploymentId)
      const newer = state.newerRevisionId
      log.warning(
        `Revision ${revisionId} was SKIPPED: a newer revision${newer ? ` (${newer})` : ''} superseded it, ` +
          'and goes on on the control plane.',
        'Superseded by a newer revision'
      )
      return
    }
    case 'failed': {
      state.outcome = 'failed'
      const after = await afterFailure(
        o,
        { deploymentId, revisionId, status: last, previousActive: state.previousActive ?? null },
        deps
      )
      state.failureLog = after.log
      state.rollback = after.rollback
      const why = after.log?.telling ? `: ${after.log.telling.replace(/[.\s]+$/, '')}.` : '.'
      const rolled = describeRollback(after.rollback)
      throw new DeployError(
        `Revision ${revisionId} of "${state.name}" ended ${last} after ${took}${why}` +
          (rolled ? ` ${rolled}` : ''),
        last === 'BUILD_FAILED'
          ? `The build failed: ${after.log ? 'its log is above and in the job summary' : 'read the build log of the revision on the control plane'}; fix, and push again.`
          : last === 'DEPLOY_FAILED'
            ? 'The deploy failed after a good build: read the revision’s deploy log and the deployment’s settings (resource-spec, secrets).'
            : 'The control plane could not create the revision: check the source settings and the deployment on the control plane.',
        `Revision ${last}`
      )
    }
    case 'timeout':
      state.outcome = 'timeout'
      throw new DeployError(
        (result.status
          ? `Timed out: still ${result.status} after ${formatDuration(o.timeoutMs)}; revision ${revisionId} goes on on the control plane.`
          : `Timed out after ${formatDuration(o.timeoutMs)} before any status of revision ${revisionId} was read; it may go on on the control plane.`) +
          (result.lastError ? ` Last poll error: ${firstLine(result.lastError)}` : '') +
          (result.lastApiError && result.lastApiError !== result.lastError
            ? ` Last answer: ${firstLine(result.lastApiError)}`
            : ''),
        'Raise timeout (a first deploy also provisions a database and can take 15 minutes or more), or use wait: false.',
        'Deploy timed out'
      )
    case 'cancelled':
      state.outcome = 'cancelled'
      throw new DeployError(
        `Cancelled while ${last}; revision ${revisionId} goes on on the control plane.`,
        undefined,
        'Deploy cancelled'
      )
    case 'error':
      state.outcome = 'error'
      throw new DeployError(
        `Polling revision ${revisionId} failed (${seen}): ${firstLine(result.lastError ?? 'unknown error')}`,
        `${hintOf(result.lastError) ?? 'Hint: the control plane could not be read reliably.'} The revision may still go on on the control plane.`,
        'Polling failed'
      )
  }

  async function update(p: Plan, d: Deployment): Promise<Deployment> {
    if (p.kind !== 'update') throw new Error('update needs an update plan')
    return log.group('Update the deployment', async () => {
      if (p.removedSecrets.length) {
        log.warning(
          `This update removes ${p.removedSecrets.length === 1 ? 'secret' : 'secrets'} ${p.removedSecrets.join(', ')} from deployment "${p.name}": ` +
            'the secrets input replaces the whole set. List every secret the deployment needs in secrets to keep it.',
          'Secrets removed'
        )
      }
      const out = await writing('update', () =>
        patchReconciled(client, d, p.body, p.newRevision, log, deps.now)
      )
      log.info(`Updated deployment "${out.name}" (${out.id}).`)
      return out
    })
  }

  /**
   * A write, marked as in flight while it runs: a cancel cuts it off with its outcome unknown,
   * whereas a write that ended (answered, or failed after reconciling) is known.
   */
  async function writing<T>(kind: 'create' | 'update', write: () => Promise<T>): Promise<T> {
    state.writing = kind
    try {
      return await write()
    } finally {
      if (!deps.signal?.aborted) state.writing = undefined
    }
  }

  /** The workflow's repository is not the deployment's: say so, and compare no commit. */
  function noteRepository(p: Plan): void {
    if (p.kind !== 'update' || !p.otherRepository) return
    state.expectedSha = undefined
    log.warning(
      `Deployment "${p.name}" builds ${p.otherRepository.deployment}, not this workflow's repository ${p.otherRepository.workflow}: ` +
        'it deploys its own repository at the ref, so the commit built is not compared with this run’s. Set repository to silence this.',
      'Another repository'
    )
  }
}

/** The first line of an error's message: the hint that follows is said once, at the end. */
function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return text.split('\n')[0] ?? text
}

function hintOf(err: unknown): string | undefined {
  if (err instanceof ApiError) return err.hint
  const lines = (err instanceof Error ? err.message : '').split('\n')
  return lines.length > 1 ? lines.slice(1).join(' ') : undefined
}

function observe(state: DeployState, d: Deployment): void {
  state.deploymentId = d.id
  state.name = d.name
  state.deploymentStatus = d.status
  const url = d.source_config.custom_url
  if (url) state.url = sanitizeServerText(url, 500)
}

/** One read at the end: the deployment's status, and the newer revision when ours was skipped. */
async function refresh(client: ControlPlaneClient, state: DeployState, id: string): Promise<void> {
  try {
    const d = await client.getDeployment(id)
    observe(state, d)
    if (d.latest_revision_id && d.latest_revision_id !== state.revisionId)
      state.newerRevisionId = d.latest_revision_id
  } catch {
    // The revision's own status is what decides the run; this read only adds detail.
  }
}

function sameCommit(a: string, b: string): boolean {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  return x.startsWith(y) || y.startsWith(x)
}
