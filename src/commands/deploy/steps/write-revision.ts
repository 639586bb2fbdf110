// The deploy's write: create the deployment or update it, and name the revision the write made.
// Only a revision that this write produced is this run's: an answer that still names the revision
// from before is looked at again briefly, and otherwise reported as it is.
import type { Deployment, PatchDeploymentRequest } from '../../../control-plane/schema.ts'
import type { DeployOptions } from '../options.ts'
import {
  awaitNewRevision,
  createOrAdopt,
  patchReconciled,
  revisionOf
} from './converging-writes.ts'
import type { FlowDeps } from '../deps.ts'
import { awaitAgentEnvironment } from './agent-environment.ts'
import { stopped, type Stop } from '../../../interface/ending.ts'
import { planShown, planUpdate, type Plan } from './plan.ts'
import { seen, told, writing } from '../facts.ts'
import type { Journal, Learned } from '../../../interface/journal.ts'
import type { NamedMaterial, UploadMaterial } from './material.ts'

export type Written =
  /** The write made revision `revisionId` of `deployment`: this run's, to follow. */
  | { kind: 'revision'; deployment: Deployment; revisionId: string }
  /** An update that needs no new revision. */
  | { kind: 'no-revision'; deployment: Deployment }
  /** The update asked for a revision and none appeared. */
  | { kind: 'revision-missing'; deployment: Deployment; before: string | null }

/** What the write made, the plan it sent (replanned when another run created the deployment first). */
export interface Wrote {
  written: Written
  plan: Plan
  /** The deployment's active revision before this run wrote: what a rollback restores. */
  previousActive: string | null
  learned: Learned
}

export async function writePlan(
  o: DeployOptions,
  journal: Journal,
  deps: FlowDeps,
  plan: Plan,
  current: Deployment | undefined,
  material: NamedMaterial | UploadMaterial
): Promise<Wrote | (Stop & { learned: Learned })> {
  const learned: Learned = {}
  const w: Writes = { o, journal, deps, material, learned }
  const made = await write(w, plan, current).catch((err: unknown) => {
    throw told(err, learned)
  })
  return { ...made, learned }
}

/** What one write works with, and what it learned so far (returned for the flow to record). */
interface Writes {
  o: DeployOptions
  journal: Journal
  deps: FlowDeps
  material: NamedMaterial | UploadMaterial
  learned: Learned
}

async function write(
  w: Writes,
  plan: Plan,
  current: Deployment | undefined
): Promise<Omit<Wrote, 'learned'> | Stop> {
  const { o, deps, material, learned } = w
  const know = (d: Deployment) =>
    Object.assign(learned, seen(d, deps.log, { ...w.journal, ...learned }))
  // The deployment to update; the latest revision before the update (what it must replace).
  let target = current
  let before = current?.latest_revision_id ?? null
  let previousActive = current?.active_revision_id ?? null
  let written: Deployment | undefined
  if (plan.kind === 'create') {
    const body = plan.body
    const result = await writing(deps, 'create', () => create(o, body, deps))
    if (stopped(result)) return result
    know(result.deployment)
    if (result.kind === 'created') learned.created = true
    if (result.kind === 'created' && material.kind !== 'upload') written = result.deployment
    else {
      // Another run created it first (an update of theirs), or an upload's (its PATCH makes it).
      const replanned = planUpdate(o, result.deployment, material, deps.say)
      if (stopped(replanned)) return replanned
      plan = replanned
      // The summary's changes stay the create's; an update of another run's is this run's plan.
      if (result.kind === 'taken')
        Object.assign(learned, { plan: planShown(plan) }, noteRepository(deps, plan))
      target = result.deployment
      before = result.deployment.latest_revision_id
      previousActive = result.deployment.active_revision_id
    }
  }
  if (!written) {
    const updated = await update(w, plan, target as Deployment)
    if (stopped(updated)) return updated
    written = updated
  }
  know(written)
  const made = (x: Written) => ({ written: x, plan, previousActive })
  if (plan.kind === 'update' && !plan.newRevision)
    return made({ kind: 'no-revision', deployment: written })
  if (plan.kind === 'update' && written.latest_revision_id === before) {
    const late = await awaitNewRevision(deps.client, written.id, before, deps.log)
    if (!late) return made({ kind: 'revision-missing', deployment: written, before })
    know((written = late))
  }
  const revisionId = await revisionOf(deps.client, written)
  if (stopped(revisionId)) return revisionId
  learned.revisionId = revisionId
  deps.log.info(`Revision ${revisionId}.`)
  return made({ kind: 'revision', deployment: written, revisionId })
}

function create(o: DeployOptions, body: Extract<Plan, { kind: 'create' }>['body'], deps: FlowDeps) {
  const { client, log } = deps
  // Another deployment holding the agent environment is waited for while it is being deleted,
  // twice at most (a third hold is named, not waited for).
  let holds = 0
  const onHeld = (detail: string) =>
    awaitAgentEnvironment(o, deps, body.name, detail, { wait: ++holds <= 2 })
  return log.group('Create the deployment', async () => {
    const r = await createOrAdopt(client, body, log, deps.clock.now, deps.say, onHeld)
    if (!stopped(r) && r.kind === 'created')
      log.info(`Created deployment "${r.deployment.name}" (${r.deployment.id}).`)
    return r
  })
}

async function update(w: Writes, p: Plan, d: Deployment): Promise<Deployment | Stop> {
  if (p.kind !== 'update') throw new Error('update needs an update plan')
  const { deps, material } = w
  const { client, log } = deps
  // The PATCH names only an object whose PUT was stored (upload.ts), kept when it is sent again.
  const object =
    material.kind === 'upload' &&
    (await material.upload.store(client, d.id, { ...w.journal, ...w.learned }))
  if (stopped(object)) return object
  const body = object === false ? p.body : withObject(p.body, object)
  return log.group('Update the deployment', async () => {
    if (p.removedSecrets.length) {
      log.warning(
        `This update removes ${p.removedSecrets.length === 1 ? 'secret' : 'secrets'} ${p.removedSecrets.join(', ')} from deployment "${p.name}": ` +
          `${deps.say('secrets')} replaces the whole set. List every secret the deployment needs in ${deps.say('secrets')} to keep it.`,
        'Secrets removed'
      )
    }
    const out = await writing(deps, 'update', () =>
      patchReconciled(client, d, body, p.newRevision, log, deps.clock.now)
    )
    log.info(`Updated deployment "${out.name}" (${out.id}).`)
    return out
  })
}

/** The patch with the uploaded object in place of the plan's placeholder. */
function withObject(body: PatchDeploymentRequest, objectPath: string): PatchDeploymentRequest {
  return {
    ...body,
    source_revision_config: { ...body.source_revision_config, source_tarball_path: objectPath }
  }
}

/** The workflow's repository is not the deployment's: say so, and compare no commit. */
export function noteRepository(deps: FlowDeps, p: Plan): Learned {
  if (p.kind !== 'update' || !p.otherRepository) return {}
  deps.log.warning(
    `Deployment "${p.name}" builds ${p.otherRepository.deployment}, not ${p.otherRepository.workflow}, the repository this run started from: ` +
      `it deploys its own repository at the ref, so the commit built is not compared with this run’s. Set ${deps.say('repository')} to silence this.`,
    'Another repository'
  )
  return { expectedSha: undefined }
}
