// The deploy, step by step (steps/): find the target, plan, write, wait, and conclude. Each step
// returns what it learned; this flow alone records it in the journal, so that the outputs and the
// summary say what was known when it stopped, and returns the ending.
import { progressLine, shownStatus } from '../../report/status-words.ts'
import { sanitizeServerText } from '../../inert.ts'
import type { Deployment } from '../../control-plane/schema.ts'
import { formatDuration } from '../../duration.ts'
import type { DeployOptions } from './options.ts'
import type { Learned } from '../../interface/journal.ts'
import { refuseHealthTarget, type Concluding } from './steps/after-deployed.ts'
import { conclude, firstLine, type Waited } from './steps/conclude.ts'
import { refuseCreateWithoutNeeds } from './refuse-create.ts'
import type { FlowDeps } from './deps.ts'
import { stop, stopped, type Ending, type Stop } from '../../interface/ending.ts'
import { journalledEnding } from './ending.ts'
import { record } from './facts.ts'
import { describePlan, planCreate, planShown, planUpdate, type Plan } from './steps/plan.ts'
import { resizeAfter, type Resized } from './steps/resize.ts'
import { resolveRepository } from './steps/resolve-repository.ts'
import { findTarget } from './steps/target.ts'
import {
  materialFacts,
  materialToWrite,
  prepareMaterial,
  releaseMaterial,
  type Material,
  type NamedMaterial,
  type UploadMaterial
} from './steps/material.ts'
import { promotedLine, refuseUnfitTarget } from './steps/promote.ts'
import { BuildLogFollower } from './steps/build-log.ts'
import { verifySource } from './steps/source-evidence.ts'
import { waitForRevision } from './steps/wait.ts'
import { previewPromotion } from '../check/against-source.ts'
import { noteRepository, writePlan } from './steps/write-revision.ts'

/** The deploy, to its ending; it throws only what nobody expected (a bug), journalled `error`. */
export function deploy(o: DeployOptions, journal: Learned, deps: FlowDeps): Promise<Ending> {
  return journalledEnding(journal, deps.signal, () => steps(o, journal, deps))
}

/** A step's value, its facts recorded in the journal and taken off it. */
function take<T extends object>(journal: Learned, x: T & { learned?: Learned }): T {
  if (!('learned' in x)) return x
  const { learned, ...value } = x
  record(journal, learned)
  return value as T
}

async function steps(o: DeployOptions, journal: Learned, deps: FlowDeps): Promise<Ending> {
  const material = take(journal, await prepareMaterial(o, deps))
  if (stopped(material)) return material
  record(journal, materialFacts(material))
  try {
    const promoted = material.kind === 'promoted' ? material : undefined
    const examined = promoted && (await verifySource(o, journal, deps, promoted))
    if (promoted && examined?.evidence)
      record(journal, { promotion: { ...promoted.promotion, evidence: examined.evidence } })
    if (examined?.ending) return examined.ending
    const ending = await planAndWrite(o, journal, deps, material)
    const done = ending.outcome === 'deployed' || ending.outcome === 'dry-run'
    if (promoted && done) deps.log.info(promotedLine(promoted.promotion, journal, o.dryRun))
    return ending
  } finally {
    await releaseMaterial(material)
  }
}

/** A promotion deploys as its source: the target keeps all that this run's inputs leave. */
async function planAndWrite(
  o: DeployOptions,
  journal: Learned,
  deps: FlowDeps,
  given: Material
): Promise<Ending> {
  const target = take(journal, await findTarget(o, journal, deps))
  if (stopped(target)) return target
  const current = target.current
  const unfit = given.kind === 'promoted' && refuseUnfitTarget(given.source, current, deps.say)
  if (unfit) return unfit
  const material = materialToWrite(given)
  const plan = await deps.log.group('Plan', () => makePlan(o, deps, current, material))
  if (stopped(plan)) return plan
  record(journal, { plan: planShown(plan), ...noteRepository(deps, plan) })
  const refused = refuseHealthTarget(o, current, deps.say)
  if (refused) return refused
  if (o.dryRun) {
    // What a promotion would change in what runs, as `command: check` reads it.
    if (given.kind === 'promoted' && current) await previewPromotion(deps, current, given)
    deps.log.info('Dry run: nothing was written.')
    return { outcome: 'dry-run' }
  }
  const wrote = take(journal, await writePlan(o, journal, deps, plan, current, material))
  if (stopped(wrote)) return wrote
  const resized = take(journal, await resizeAfter(o, journal, deps, wrote.written))
  const { plan: sent, previousActive } = wrote
  const after = { o, from: material, plan: sent, previousActive, journal, deps }
  return afterWrite(journal, after, resized)
}

/** What the steps after the write are given; they return what they learn. */
type After = Omit<Concluding, 'learned'>

async function afterWrite(journal: Learned, c: After, written: Resized): Promise<Ending> {
  const { o, deps } = c
  if (stopped(written)) return written
  if (written.kind === 'no-revision') {
    deps.log.info('The change needs no new revision: nothing to wait for.')
    return { outcome: 'no-revision' }
  }
  if (written.kind === 'revision-missing') {
    deps.log.warning(
      `The control plane made no new revision for this update of "${written.deployment.name}": its latest revision is still ${written.before ?? 'none'}. ` +
        'Nothing was deployed by this run; run it again, and check the deployment on the control plane if it happens again.',
      'No new revision'
    )
    return { outcome: 'revision-missing' }
  }
  if (!o.wait) {
    deps.log.info(`${deps.say.set('wait', false)}: the revision goes on on the control plane.`)
    return { outcome: 'accepted' }
  }
  const id = written.deployment.id
  // A superseded revision's successor is followed within what is left of the timeout.
  const follow = (revisionId: string, timeoutMs: number) =>
    waitFor({ ...o, timeoutMs }, deps, id, revisionId)
  const waited = await waitFor(o, deps, id, written.revisionId)
  const concluded = await conclude(c, waited, follow)
  record(journal, concluded.learned)
  return concluded.ending
}

async function makePlan(
  o: DeployOptions,
  deps: FlowDeps,
  current: Deployment | undefined,
  material: NamedMaterial | UploadMaterial
): Promise<Plan | Stop> {
  const p = current
    ? planUpdate(o, current, material, deps.say)
    : await planToCreate(o, deps, material)
  if (stopped(p)) return p
  for (const line of describePlan(p)) deps.log.info(line)
  if (material.kind === 'upload') {
    deps.log.info(`  source: ${material.upload.described}`)
    if (p.kind === 'create')
      deps.log.info(
        `  then upload the source and update it: source_revision_config.graph_config_path: ${material.configPath}`
      )
  }
  return p
}

/** The create of the deployment the inputs name, when it may be created. */
async function planToCreate(
  o: DeployOptions,
  deps: FlowDeps,
  material: NamedMaterial | UploadMaterial
): Promise<Plan | Stop> {
  // A deployment named by id is read, never created: not finding it was an error before.
  if (o.target.kind !== 'name')
    return stop(`Deployment ${o.target.deploymentId} was not found.`, undefined)
  const name = o.target.name
  const refused = refuseCreateWithoutNeeds(o, material, name, deps.say)
  if (refused) return refused
  // A promotion creates its target on the source's repository.
  const promoted = material.kind === 'named' ? material.repoUrl : undefined
  const { source, integrationId, repository } = material
  const repo = promoted
    ? { url: promoted, default_branch: '' }
    : source === 'codehost' && integrationId && repository
      ? await resolveRepository(deps.client, integrationId, repository, deps.say)
      : undefined
  if (stopped(repo)) return repo
  if (repo && !promoted) {
    deps.log.info(
      `Repository ${repository} -> ${sanitizeServerText(repo.url, 300)} (default branch ${sanitizeServerText(repo.default_branch, 200)})`
    )
  }
  return planCreate(o, name, repo, material, deps.say)
}

function waitFor(
  o: DeployOptions,
  deps: FlowDeps,
  deploymentId: string,
  revisionId: string
): Promise<Waited> {
  const { log } = deps
  const buildLog = new BuildLogFollower(deps.client, { deploymentId, revisionId }, deps.clock.now)
  return log.group(`Wait for revision ${revisionId}`, async () => {
    const result = await waitForRevision({
      ...deps,
      deploymentId,
      revisionId,
      timeoutMs: o.timeoutMs,
      pollIntervalMs: o.pollIntervalMs,
      onStatus: (status, ms) => log.info(`${shownStatus(status)} after ${formatDuration(ms)}`),
      onProgress: (status, ms) => log.info(progressLine(status, formatDuration(ms))),
      // `failure-logs: 0` shows no log line of the service's at all.
      afterPoll: async (status, deadline) => {
        if (o.failureLogs === 0) return
        const read = await buildLog.read(status, deadline)
        for (const line of read.lines) log.info(line)
        if (read.stopped) log.info(read.stopped)
      },
      onUnknownStatus: status =>
        log.warning(
          `Revision ${revisionId} reports status ${shownStatus(status)}, which the control plane does not document: ` +
            'taken as still in progress until DEPLOYED, a *_FAILED status or the timeout.',
          'Unknown revision status'
        ),
      // The hint of a cause is said once, with the final error; each poll gets one line.
      onPollError: (err, n) =>
        log.info(`Poll ${n} in a row failed, still waiting: ${firstLine(err)}`)
    })
    return { result, deploymentId, revisionId }
  })
}
