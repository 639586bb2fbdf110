// The deploy's write: create the deployment or update it, and name the revision the write made.
// Only a revision that this write produced is this run's: an answer that still names the revision
// from before is looked at again briefly, and otherwise reported as it is.
import type { Deployment, PatchDeploymentRequest } from '../../../control-plane/schema.ts'
import type { Options } from '../../../inputs/options.ts'
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
  o: Options,
  journal: Journal,
  deps: FlowDeps,
  plan: Plan,
  current: Deployment | undefined,
  material: NamedMaterial | UploadMaterial
): Promise<Wrote | (Stop & { learned: Learned })> {
  const learned: Learned = {}
  const write: Writes = { o, journal, deps, material, learned }
  try {
    const made =
      plan.kind === 'create'
        ? await createThenUpdate(write, plan)
        : ({
            plan,
            before: current?.latest_revision_id ?? null,
            previousActive: current?.active_revision_id ?? null,
            update: current as Deployment
          } satisfies Made)
    if (stopped(made)) return { ...made, learned }
    const written = await madeRevision(write, made)
    if (stopped(written)) return { ...written, learned }
    return { written, plan: made.plan, previousActive: made.previousActive, learned }
  } catch (err) {
    throw told(err, learned)
  }
}

/** What the steps of one write share: what it learned so far, for the flow to record. */
interface Writes {
  o: Options
  journal: Journal
  deps: FlowDeps
  material: NamedMaterial | UploadMaterial
  learned: Learned
}

/** The plan the write sends next, and the latest revision before it (what it must replace). */
interface Made {
  plan: Plan
  before: string | null
  previousActive: string | null
  /** The deployment to update; else the one the create made, ready as it is. */
  update?: Deployment
  ready?: Deployment
}

/** The create; an update of it when another run created it first, or for an upload's revision. */
async function createThenUpdate(
  w: Writes,
  plan: Extract<Plan, { kind: 'create' }>
): Promise<Made | Stop> {
  const { o, deps, material, learned } = w
  const result = await writing(deps, 'create', () => create(o, plan.body, deps))
  if (stopped(result)) return result
  Object.assign(learned, seen(result.deployment, deps.log, { ...w.journal, ...learned }))
  if (result.kind === 'created') learned.created = true
  if (result.kind === 'created' && material.kind !== 'upload')
    return { plan, before: null, previousActive: null, ready: result.deployment }
  // Another run created it first: this run's write becomes an update of theirs. An upload's
  // create makes no revision of the source: the PATCH that names the upload does.
  const replanned = planUpdate(o, result.deployment, material, deps.say)
  if (stopped(replanned)) return replanned
  // What the run did stays the create it made (the summary's changes); the upload's update
  // is its second step. A deployment another run created is this run's update.
  if (result.kind === 'taken')
    Object.assign(learned, { plan: planShown(replanned) }, noteRepository(deps, replanned))
  return {
    plan: replanned,
    before: result.deployment.latest_revision_id,
    previousActive: result.deployment.active_revision_id,
    update: result.deployment
  }
}

/** The update (unless the create was all), then the revision it made: this run's, to follow. */
async function madeRevision(w: Writes, made: Made): Promise<Written | Stop> {
  const { deps, learned } = w
  const know = (d: Deployment) =>
    Object.assign(learned, seen(d, deps.log, { ...w.journal, ...learned }))
  let written = made.ready
  if (!written) {
    const updated = await update(w, made.plan, made.update as Deployment)
    if (stopped(updated)) return updated
    written = updated
  }
  know(written)
  const plan = made.plan
  if (plan.kind === 'update' && !plan.newRevision)
    return { kind: 'no-revision', deployment: written }
  if (plan.kind === 'update' && written.latest_revision_id === made.before) {
    const late = await awaitNewRevision(deps.client, written.id, made.before, deps.log)
    if (!late) return { kind: 'revision-missing', deployment: written, before: made.before }
    written = late
    know(written)
  }
  const revisionId = await revisionOf(deps.client, written)
  if (stopped(revisionId)) return revisionId
  learned.revisionId = revisionId
  deps.log.info(`Revision ${revisionId}.`)
  return { kind: 'revision', deployment: written, revisionId }
}

function create(o: Options, body: Extract<Plan, { kind: 'create' }>['body'], deps: FlowDeps) {
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
  // The PATCH names only an object whose PUT was stored (upload.ts); its lost answer is then
  // reconciled like any other, with the same object.
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
