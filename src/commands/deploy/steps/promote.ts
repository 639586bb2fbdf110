// Promotion (`promote-from`): the material of another deployment's active revision, checked
// before any write. A codehost revision is rebuilt from its ref (`repo_ref` takes no commit) and
// must build the source's commit; an image is the same `image_uri`; an upload has the digest
// expected.
import { sanitizeServerText } from '../../../inert.ts'
import { revisionOutcome, UUID_PATTERN } from '../../../control-plane/vocabulary.ts'
import type { Deployment, Revision, Source } from '../../../control-plane/schema.ts'
import { optionalToken, parseGraphConfigPath, parseRef } from '../../../inputs/fields.ts'
import type { Say } from '../../../interface/naming.ts'
import type { Check } from '../../../inputs/problems.ts'
import type { DeployOptions } from '../options.ts'
import type { Origin } from './plan.ts'
import { stop, stopped, type Stop } from '../../../interface/ending.ts'
import type { FlowDeps } from '../deps.ts'
import type { Journal, Promotion } from '../../../interface/journal.ts'
import { deploymentById, findDeploymentByName } from './find-deployment.ts'

/** The source deployment and the revision whose material is promoted. */
export interface PromotionSource {
  deployment: Deployment
  revision: Revision
  /** The source's latest revision, when it is newer than the active one (and has ended). */
  newer?: Revision
}

/** A codehost or image source's material, as material.ts makes it named. */
export interface PromotedNamed extends Origin {
  ref: string | undefined
  imageUri: string | undefined
  graphConfigPath: string
  repoUrl: string | undefined
  expectedSha: string | undefined
  /** `commit <sha>` or `image <uri>`. */
  what: string
}

const shown = (text: string | null | undefined) => sanitizeServerText(text ?? '', 200)

/** The deployment `promote-from` names; an error naming it when there is none. */
async function findSource(
  o: DeployOptions,
  deps: FlowDeps,
  from: string
): Promise<Deployment | Stop> {
  const d = UUID_PATTERN.test(from)
    ? await deploymentById(deps.client, from)
    : await findDeploymentByName(deps.client, from, deps.say)
  if (stopped(d)) return d
  if (!d) {
    return refusal(
      `Deployment "${from}" (${deps.say('promote-from')}) was not found: there is nothing to promote.`,
      `Set ${deps.say('promote-from')} to the name or id of the deployment whose active revision this run deploys.`
    )
  }
  if (o.target.kind === 'id' ? d.id === o.target.deploymentId : d.name === o.name) {
    return refusal(
      `Deployment "${d.name}" is both ${deps.say('promote-from')} and this run's target: a deployment cannot be promoted to itself.`,
      `Set ${deps.say('name')} to the deployment that receives the promotion.`
    )
  }
  return d
}

function refusal(message: string, hint: string): Stop {
  return stop(message, hint, 'Promotion refused')
}

/** The source's active revision: refused when none, not DEPLOYED, or a newer one in progress. */
async function activeRevision(deps: FlowDeps, d: Deployment): Promise<PromotionSource | Stop> {
  const name = `Deployment "${d.name}" (${d.id})`
  const promote = 'Promote once the source is deployed and its health checks pass.'
  if (!d.active_revision_id) return refusal(`${name} has no active revision to promote.`, promote)
  const revision = await deps.client.getRevision(d.id, d.active_revision_id)
  if (revision.status !== 'DEPLOYED') {
    return refusal(
      `${name}: its active revision ${revision.id} is ${shown(revision.status)}, not DEPLOYED.`,
      promote
    )
  }
  const latest = d.latest_revision_id
  if (latest && latest !== revision.id) {
    const newer = await deps.client.getRevision(d.id, latest)
    if (revisionOutcome(newer.status) === 'in_progress') {
      return refusal(
        `${name}: a newer revision ${newer.id} is still in progress (${shown(newer.status)}), so what it will serve is not known yet.`,
        'Promote once that revision has ended.'
      )
    }
    return { deployment: d, revision, newer }
  }
  return { deployment: d, revision }
}

/** Reads the source and its active revision, and checks them; nothing is written. */
export async function readPromotionSource(
  o: DeployOptions,
  deps: FlowDeps
): Promise<PromotionSource | Stop> {
  const from = o.promoteFrom as string
  return deps.log.group(`Read the promotion's source "${from}"`, async () => {
    const d = await findSource(o, deps, from)
    if (stopped(d)) return d
    const s = await activeRevision(deps, d)
    if (stopped(s)) return s
    const asked = o.promoteRevisionId
    if (asked !== undefined && asked !== s.revision.id.toLowerCase()) {
      return refusal(
        `${deps.say('promote-revision-id')} is ${asked}, but the active revision of deployment "${d.name}" (${d.id}, ${deps.say('promote-from')}) is ${s.revision.id}: that revision is not what it serves now, so it is not promoted. Nothing was written.`,
        `Promote the revision the source runs: pass the revision-id output of the run that deployed "${d.name}", and promote before another deploy of it.`
      )
    }
    deps.log.info(
      `Deployment "${d.name}" (${d.id}), source ${d.source}: active revision ${s.revision.id} is DEPLOYED.`
    )
    return s
  })
}

/** What a promotion of a named material says of it: `commit <sha>` or `image <uri>`. */
function named(s: PromotionSource, o: DeployOptions, deps: FlowDeps): PromotedNamed | Stop {
  const { deployment: d, revision } = s
  const c = revision.source_revision_config ?? {}
  const name = `deployment "${d.name}" (${d.id})`
  const say = deps.say
  if (d.source === 'codehost') {
    const sha = c.repo_commit_sha
    const ref = c.repo_ref
    const bad = badMaterial(revision.id, name, codehostFields(c))
    if (bad) return bad
    if (!sha || !ref) {
      return refusal(
        `The active revision ${revision.id} of ${name} reports no ${sha ? 'ref' : 'built commit'}: what it built cannot be promoted.`,
        'Promote once the source reports the commit it built.'
      )
    }
    if (o.ref !== undefined && o.ref !== ref) {
      return refusal(
        `${say('ref')} is ${o.ref}, but deployment "${d.name}" (${say('promote-from')}) deploys ${shown(ref)}: a promotion deploys the source's ref.`,
        `Leave ${say('ref')} empty with ${say('promote-from')}.`
      )
    }
    const moved = refuseMovedRef(s, ref, sha, name)
    if (moved) return moved
    return {
      ...promotedOrigin(o, s),
      ref,
      imageUri: undefined,
      graphConfigPath: c.graph_config_path ?? o.graphConfigPath,
      repoUrl: d.source_config.repo_url ?? undefined,
      expectedSha: sha,
      what: `commit ${shown(sha)}`
    }
  }
  const image = c.image_uri
  if (!image) {
    return refusal(
      `The active revision ${revision.id} of ${name} (source ${d.source}) names no image: there is nothing to promote.`,
      'Promote a deployment whose revisions deploy an image, or a codehost or upload deployment.'
    )
  }
  const bad = badMaterial(revision.id, name, [['image_uri', image, parseImage]])
  if (bad) return bad
  if (o.imageUri !== undefined && o.imageUri !== image) {
    return refusal(
      `${say('image-uri')} is ${o.imageUri}, but deployment "${d.name}" (${say('promote-from')}) deploys ${shown(image)}: a promotion deploys the source's image.`,
      `Leave ${say('image-uri')} empty with ${say('promote-from')}.`
    )
  }
  return {
    ...promotedOrigin(o, s),
    ref: undefined,
    imageUri: image,
    graphConfigPath: o.graphConfigPath,
    repoUrl: undefined,
    expectedSha: undefined,
    what: `image ${shown(image)}`
  }
}

const parseImage = optionalToken(
  'image-uri',
  'an image reference like registry.example.com/agent@sha256:...'
)
const parseCommit: Check<string> = (v, fail) =>
  v === '' || /^[0-9a-f]{7,64}$/i.test(v) ? v : fail('a commit must be 7 to 64 hex digits')

/** A codehost revision's material, each with the check of the input that would name it. */
const codehostFields = (c: Revision['source_revision_config'] & object): Field[] => [
  ['repo_ref', c.repo_ref ?? '', parseRef],
  ['repo_commit_sha', c.repo_commit_sha ?? '', parseCommit],
  ['graph_config_path', c.graph_config_path ?? '', parseGraphConfigPath]
]

type Field = [string, string, Check<string>]

/** The source's material is the server's text, sent as an input would be: the same checks. */
function badMaterial(revisionId: string, name: string, fields: Field[]): Stop | undefined {
  for (const [field, value, check] of fields) {
    let problem: string | undefined
    check(value, message => {
      problem = message
      return undefined
    })
    if (problem === undefined) continue
    return refusal(
      `The active revision ${revisionId} of ${name} reports ${field} ${shown(JSON.stringify(value))}, which this run refuses as it would refuse it as an input: ${problem}. Nothing was written.`,
      'Check the source deployment on the control plane: its revision names material that cannot be deployed as it is.'
    )
  }
  return undefined
}

/** A ref is built as it points when the build starts: a newer commit of it shows it moved. */
function refuseMovedRef(
  s: PromotionSource,
  ref: string,
  sha: string,
  name: string
): Stop | undefined {
  const newer = s.newer
  const c = newer?.source_revision_config
  if (!newer || c?.repo_ref !== ref || !c.repo_commit_sha || c.repo_commit_sha === sha)
    return undefined
  return refusal(
    `The ref ${shown(ref)} of ${name} now points to ${shown(c.repo_commit_sha)} (its newer revision ${newer.id}), not ${shown(sha)} that its active revision built: a promotion would build the new commit.`,
    'Promote a tag (refs/tags/...): deploy the source from a tag, so that the ref keeps pointing to what was verified.'
  )
}

/** The named material of a codehost or image source (an upload's is the workspace's archive). */
export function promotedNamed(
  s: PromotionSource,
  o: DeployOptions,
  deps: FlowDeps
): PromotedNamed | Stop {
  const m = named(s, o, deps)
  if (stopped(m)) return m
  if (m.imageUri && !m.imageUri.includes('@sha256:')) {
    deps.log.warning(
      `Image ${shown(m.imageUri)} of deployment "${s.deployment.name}" is a tag, without an @sha256: digest: a tag can move, so the image promoted may not be the one verified. Deploy images by digest to promote exactly what was checked.`,
      'Promoting an image tag'
    )
  }
  return m
}

/** The promotion as the journal keeps it: the output, the log and the summary say it. */
export function promotionOf(s: PromotionSource, what: string): Promotion {
  return {
    fromId: s.deployment.id,
    fromName: s.deployment.name,
    revisionId: s.revision.id,
    what,
    imageUri: s.revision.source_revision_config?.image_uri ?? undefined
  }
}

/** A promotion's origin: the source's, and what a create needs of it the inputs leave out. */
export function promotedOrigin(o: DeployOptions, s: PromotionSource): Origin {
  const c = s.deployment.source_config
  const repository = /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/([^/]+\/[^/]+?)(?:\.git)?\/*$/i.exec(
    c.repo_url ?? ''
  )?.[1]
  return {
    source: s.deployment.source as Source,
    integrationId: o.integrationId ?? c.integration_id ?? undefined,
    repository: repository ?? o.repository,
    repositoryExplicit: false
  }
}

/** The target must take the source's material: the same source, and for codehost one repository. */
export function refuseUnfitTarget(
  s: PromotionSource,
  target: Deployment | undefined,
  say: Say
): Stop | undefined {
  if (!target) return undefined
  const from = s.deployment
  if (target.source !== from.source) {
    return refusal(
      `Deployment "${target.name}" has source ${shown(target.source)}, but deployment "${from.name}" (${say('promote-from')}) has source ${from.source}: a promotion deploys the source's material to a deployment of the same source.`,
      'Promote between deployments of one source (codehost, an image source, or uploads).'
    )
  }
  const theirs = from.source_config.repo_url
  const ours = target.source_config.repo_url
  if (from.source !== 'codehost' || !theirs || !ours || sameRepository(theirs, ours))
    return undefined
  return refusal(
    `Deployment "${target.name}" builds ${shown(ours)}, but deployment "${from.name}" (${say('promote-from')}) builds ${shown(theirs)}: a promotion deploys one repository's commit to a deployment of the same repository.`,
    'Promote between deployments of one repository.'
  )
}

function sameRepository(a: string, b: string): boolean {
  const norm = (u: string) =>
    u
      .trim()
      .toLowerCase()
      .replace(/\.git$/, '')
      .replace(/\/+$/, '')
  return norm(a) === norm(b)
}

/** `Promoted <source> revision <id> (<what>) to <target>: revision <id>`. */
export function promotedLine(p: Promotion, journal: Journal, dryRun: boolean): string {
  const target = journal.name ?? journal.deploymentId ?? 'the target'
  return dryRun
    ? `Would promote ${p.fromName} revision ${p.revisionId} (${p.what}) to ${target}.`
    : `Promoted ${p.fromName} revision ${p.revisionId} (${p.what}) to ${target}: revision ${journal.revisionId ?? 'none'}`
}
