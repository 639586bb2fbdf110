// `command: check`: writes nothing. It reads the deployment's own state, plans the deploy the
// inputs describe (as the dry run does) and reads its revisions, then lists each difference; with
// `promote-from` the target's material is compared with the source's instead of with the ref. At
// most three requests (the look-up, the newest and active revision), three more for a source.
import { ControlPlaneError } from '../../control-plane/errors.ts'
import type { Deployment } from '../../control-plane/schema.ts'
import type { Options } from '../../inputs/options.ts'
import type { DeployOptions } from '../deploy/options.ts'

/** What a check reads of the inputs: a deploy's (it plans that deploy), and `fail-on-drift`. */
export type CheckOptions = DeployOptions & Pick<Options, 'failOnDrift'>
import { uploadsWorkspace } from '../../inputs/resolved.ts'
import type { FlowDeps } from '../deploy/deps.ts'
import { stopped, type Failure, type Stop } from '../../interface/ending.ts'
import { shownStatus } from '../../report/status-words.ts'
import {
  materialToWrite,
  namedMaterial,
  prepareMaterial,
  releaseMaterial,
  type Material,
  type NamedMaterial
} from '../deploy/steps/material.ts'
import type { PlannedMaterial } from '../deploy/steps/plan.ts'
import { refuseUnfitTarget } from '../deploy/steps/promote.ts'
import { findNamed } from '../deploy/steps/find-deployment.ts'
import { materialDifference, type ActiveRevision } from './against-source.ts'
import { deleting, one, revisionsState, statusAndType, type Difference } from './own-state.ts'
import { plannedChanges } from './planned.ts'

export interface CheckResult {
  name: string | undefined
  deploymentId: string | undefined
  differences: Difference[]
  /** Criteria that could not be judged, and why. */
  skipped: string[]
  /** With `promote-from`: what the target was compared with (`commit <sha> of "staging" revision <id>`). */
  promoted?: string
  failure?: Failure
}

export async function check(o: CheckOptions, deps: FlowDeps): Promise<CheckResult> {
  const result: CheckResult = {
    name: o.name,
    deploymentId: undefined,
    differences: [],
    skipped: []
  }
  let material: Material | Stop | undefined
  try {
    // The deploy's material, as the deploy reads it (what it refuses, the check refuses); the
    // inputs' own upload is not archived: what runs is not compared with it.
    material =
      o.promoteFrom === undefined && uploadsWorkspace(o.source, o.revisionSource)
        ? namedMaterial(o)
        : await prepareMaterial(o, deps)
    if (stopped(material)) result.failure = material.failure
    else {
      if (material.kind === 'promoted')
        result.promoted = `${material.promotion.what} of "${material.source.deployment.name}" revision ${material.source.revision.id}`
      result.failure = await compare(o, deps, result, material)
    }
  } catch (err) {
    if (err instanceof ControlPlaneError)
      result.failure = { message: err.message, title: 'Check failed' }
    else throw err
  } finally {
    if (material && !stopped(material)) await releaseMaterial(material)
  }
  return result
}

async function compare(
  o: CheckOptions,
  deps: FlowDeps,
  result: CheckResult,
  material: Material
): Promise<Failure | undefined> {
  const current = await deps.log.group('Find the deployment', () => find(o, deps))
  if (stopped(current)) return current.failure
  if (!current) {
    const what =
      o.target.kind === 'id' ? `Deployment ${o.target.deploymentId}` : `Deployment "${o.name}"`
    result.differences.push(one('absent', `${what} does not exist: a deploy would create it.`))
    return undefined
  }
  result.name = current.name
  result.deploymentId = current.id
  const gone = deleting(o, current)
  if (gone) {
    result.differences.push(gone)
    return undefined
  }
  const unfit =
    material.kind === 'promoted' && refuseUnfitTarget(material.source, current, deps.say)
  if (unfit) return unfit.failure
  const own = statusAndType(o, current, deps.say)
  result.differences.push(...own.differences)
  result.skipped.push(...own.skipped)
  // Another type is drift already; the plan then lists what else differs.
  const typeOff = own.differences.some(d => d.kind === 'type')
  const planOptions = typeOff ? { ...o, deploymentType: undefined } : o
  const refused = planned(planOptions, deps, current, result, materialToWrite(material))
  if (refused) return refused
  await deps.log.group('Revisions', () => revisions(o, deps, current, result, material))
  return undefined
}

async function find(o: CheckOptions, deps: FlowDeps): Promise<Deployment | undefined | Stop> {
  const d = await findNamed(o, deps)
  // What was found, as a deploy says it: the fold is not left empty.
  if (d && !stopped(d))
    deps.log.info(`Found deployment "${d.name}" (${d.id}), status ${shownStatus(d.status)}.`)
  return d
}

/** The planned changes, as differences; the deploy's failure when it would refuse. */
function planned(
  o: CheckOptions,
  deps: FlowDeps,
  current: Deployment,
  result: CheckResult,
  material: PlannedMaterial
): Failure | undefined {
  const plan = plannedChanges(o, current, deps.say, material)
  if (stopped(plan)) return plan.failure
  if (plan.unread.length)
    result.skipped.push(
      `secret values of ${plan.unread.join(', ')}: the control plane does not return them, so only their names are compared`
    )
  if (plan.lines.length) {
    result.differences.push({
      kind: 'planned',
      text: `A deploy with these inputs would change "${current.name}":`,
      details: plan.lines
    })
  }
  return undefined
}

/** The revisions' state; the active one's material against the promotion's, else the ref's. */
async function revisions(
  o: CheckOptions,
  deps: FlowDeps,
  d: Deployment,
  result: CheckResult,
  material: Material
): Promise<void> {
  const promoted = material.kind === 'promoted' ? material : undefined
  const named = material.kind === 'named' ? material : undefined
  // The commit the ref names now is known for a codehost deploy of the event's ref.
  const wantsCommit = named?.source === 'codehost' && named.expectedSha !== undefined
  const read = await revisionsState(deps.client, d, promoted !== undefined || wantsCommit)
  result.differences.push(...read.differences)
  if (promoted) {
    const m = materialDifference(d, read.active, promoted, deps)
    if (m) result.differences.push(m)
  } else if (named) commit(o, named, read.active, d.active_revision_id, result)
  const built = read.active?.source_revision_config?.repo_commit_sha
  deps.log.info(
    `Latest revision ${d.latest_revision_id ?? 'none'}${read.latest ? ` (${shownStatus(read.latest.status)})` : ''}, active ${d.active_revision_id ?? 'none'}${built ? `, built ${built}` : ''}.`
  )
}

function commit(
  o: CheckOptions,
  m: NamedMaterial,
  active: ActiveRevision | undefined,
  activeId: string | null,
  result: CheckResult
): void {
  const skip = (why: string) => void result.skipped.push(why)
  if (uploadsWorkspace(o.source, o.revisionSource) && activeId !== null)
    return skip(
      'the source: the control plane keeps no digest of an uploaded archive, so what runs is not compared with the workspace'
    )
  if (m.source !== 'codehost' || activeId === null) return
  if (m.expectedSha === undefined)
    return skip(
      `the commit built: the ref ${m.ref ?? '(none)'} is not the event's or the checkout's, so the commit it names now is not known here`
    )
  const built = active?.source_revision_config?.repo_commit_sha
  if (!built)
    return skip(`the commit built: the control plane does not report it for revision ${activeId}`)
  if (built.toLowerCase() === m.expectedSha.toLowerCase()) return
  const text = `The active revision ${activeId} built commit ${built}, but ${m.ref} names ${m.expectedSha} now.`
  result.differences.push(one('commit', text))
}
