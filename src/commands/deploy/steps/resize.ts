// The resize: once this run's write is made, the asked sizes go through `PATCH .../resource-tiers`.
// The service rolls it out as a new revision: this run's, the one it waits for and gates (after a
// code change, the last one made, carrying both). An answer naming a revision older than the
// resize's is never waited on as this run's: the deployment is read again, else the run fails.
import type { Deployment } from '../../../control-plane/schema.ts'
import type { DeployOptions } from '../options.ts'
import type { FlowDeps } from '../deps.ts'
import { stop, stopped, type Stop } from '../../../interface/ending.ts'
import { seen, told, writing } from '../facts.ts'
import type { Journal, Learned } from '../../../interface/journal.ts'
import {
  awaitNewRevision,
  LATE_REVISION_PAUSES_MS,
  revisionOf,
  writeReconciled
} from './converging-writes.ts'
import { resizeOf, type Resize } from './tiers.ts'
import type { Written } from './write-revision.ts'

type ResizeOptions = Pick<DeployOptions, 'size' | 'databaseSize' | 'deploymentType'>

/** What the resize made (or the write as it was, without one), and what it learned. */
export type Resized = (Written | Stop) & { learned?: Learned }

export async function resizeAfter(
  o: ResizeOptions,
  journal: Journal,
  deps: FlowDeps,
  written: Written
): Promise<Resized> {
  if (written.kind === 'revision-missing') return written
  const d = written.deployment
  const resize = resizeOf(o, d, deps.say)
  if (stopped(resize)) return resize
  if (!resize) {
    if (o.size !== undefined || o.databaseSize !== undefined)
      deps.log.info('The deployment is already of the size asked for: no resize.')
    return written
  }
  const out = await deps.log.group('Resize the deployment', () => send(deps, d, resize))
  let learned = seen(out, deps.log, journal)
  try {
    const made = await resizeRevision(deps, d, out)
    if (stopped(made)) return { ...made, learned }
    if (!made)
      return { kind: 'revision-missing', deployment: out, before: d.latest_revision_id, learned }
    learned = { ...learned, ...seen(made, deps.log, { ...journal, ...learned }) }
    const revisionId = await revisionOf(deps.client, made)
    if (stopped(revisionId)) return { ...revisionId, learned }
    return { ...madeBy(deps, written, made, revisionId), learned: { ...learned, revisionId } }
  } catch (err) {
    throw told(err, learned)
  }
}

/** The deployment naming the resize's revision: the answer, or read again if it names an older. */
async function resizeRevision(
  deps: FlowDeps,
  d: Deployment,
  out: Deployment
): Promise<Deployment | undefined | Stop> {
  const before = d.latest_revision_id
  const named = out.latest_revision_id
  if (named === before) return awaitNewRevision(deps.client, d.id, before, deps.log, 'resize')
  if (!named || !(await madeBefore(deps, d.id, named, before))) return out
  deps.log.info(
    `The resize's answer names revision ${named}, made before revision ${before ?? ''} that came before the resize: not this run's. Reading the deployment again.`
  )
  for (let i = 0; i < LATE_REVISION_PAUSES_MS.length; i++) {
    if (!(await deps.client.pause(i + 1, LATE_REVISION_PAUSES_MS[i]))) break
    const again = await deps.client.getDeployment(d.id)
    const id = again.latest_revision_id
    if (!id || id === before || id === named || (await madeBefore(deps, d.id, id, before))) continue
    deps.log.info(`Revision ${id} appeared for this resize.`)
    return again
  }
  return stop(
    `The resize of "${d.name}" was answered with revision ${named}, which was made before this run's revision ${before ?? ''}, and ${LATE_REVISION_PAUSES_MS.length} more reads of the deployment named no revision of the resize: this run made no revision it can wait for, and does not report ${named} as its own.`,
    'Look at the deployment’s revisions on the control plane; run again once it shows the resize’s revision.',
    'Resize revision not this run’s'
  )
}

/** Whether revision `id` was created before revision `before` (the service's own times). */
async function madeBefore(
  deps: FlowDeps,
  deploymentId: string,
  id: string,
  before: string | null
): Promise<boolean> {
  if (!before) return false
  const [named, prior] = await Promise.all([
    deps.client.getRevision(deploymentId, id),
    deps.client.getRevision(deploymentId, before)
  ])
  // Either time unknown: not judged older (the wait that follows reads the revision anyway).
  return Date.parse(named.created_at ?? '') < Date.parse(prior.created_at ?? '')
}

async function send(deps: FlowDeps, d: Deployment, resize: Resize): Promise<Deployment> {
  const { client, log } = deps
  for (const input of resize.unreported)
    log.info(
      `The control plane does not report the deployment's ${input === 'size' ? 'compute' : 'database'} tier: ${deps.say(input)} is sent anyway.`
    )
  log.info(`Resize: ${resize.described.join(', ')}.`)
  const tiers = () => client.setResourceTiers(d.id, resize.body)
  const now = deps.clock.now
  return writing(deps, 'update', () => writeReconciled(client, d, tiers, true, 'resize', log, now))
}

/** The resize's revision, as this run's; the code revision it follows is named as superseded. */
function madeBy(
  deps: FlowDeps,
  written: Written,
  out: Deployment,
  revisionId: string
): Written | Stop {
  if (written.kind === 'revision') {
    const refused = refuseWithoutCode(written.deployment, out, revisionId)
    if (refused) return refused
    deps.log.info(
      `Revision ${revisionId} of the resize follows revision ${written.revisionId} of this run's change and carries both: this run waits for ${revisionId}.`
    )
  } else deps.log.info(`Revision ${revisionId} of the resize.`)
  return { kind: 'revision', deployment: out, revisionId }
}

const REVISION_FIELDS = ['repo_ref', 'image_uri', 'source_tarball_path'] as const

/** The resize's revision must build what this run's change asked for, or its verdict says nothing of it. */
function refuseWithoutCode(
  before: Deployment,
  after: Deployment,
  revisionId: string
): Stop | undefined {
  const asked = before.source_revision_config
  const built = after.source_revision_config
  const differs = REVISION_FIELDS.filter(k => asked[k] && built[k] && asked[k] !== built[k])
  if (!differs.length) return undefined
  return stop(
    `Revision ${revisionId} of the resize of "${after.name}" does not carry this run's change (${differs.join(', ')} differ): its verdict would not be on this run's code.`,
    'Check the deployment on the control plane; run again to deploy the change at the new size.',
    'Resize without the change'
  )
}
