// Where the revision's material comes from, decided once before the plan: the inputs' ref or
// image, the workspace's archive, or a promotion's source's. The plan, the writes, the checks and
// `command: check` take it with its origin: none reads `source`, `ref` or `image-uri` itself.
import type { DeployOptions } from '../options.ts'
import { uploadsWorkspace } from '../../../inputs/resolved.ts'
import type { FlowDeps } from '../deps.ts'
import { stop, stopped, type Stop } from '../../../interface/ending.ts'
import type { Learned, Promotion } from '../../../interface/journal.ts'
import type { Origin } from './plan.ts'
import {
  promotedNamed,
  promotedOrigin,
  promotionOf,
  readPromotionSource,
  type PromotionSource
} from './promote.ts'
import type { SourceUpload } from './upload.ts'

/** Material named by the inputs: the ref a codehost revision builds, or the image deployed. */
export interface NamedMaterial extends Origin {
  kind: 'named'
  /** `repo_ref`; unset on a create, the repository's default branch is deployed. */
  ref: string | undefined
  imageUri: string | undefined
  graphConfigPath: string
  /** A promotion's repository (the source's), used when the target is created. */
  repoUrl?: string | undefined
  /** The commit the revision is expected to build (the event's), compared with `repo_commit_sha`. */
  expectedSha: string | undefined
}

/** The workspace's archive, uploaded at write time. */
export interface UploadMaterial extends Origin {
  kind: 'upload'
  /** The config's path in the archive: the revision's `graph_config_path`. */
  configPath: string
  upload: SourceUpload
}

/** A promotion (`promote-from`): the source's active revision's material, to deploy as ours. */
export interface PromotedMaterial {
  kind: 'promoted'
  source: PromotionSource
  promotion: Promotion
  of: NamedMaterial | UploadMaterial
}

export type Material = NamedMaterial | UploadMaterial | PromotedMaterial

/** The material the plan and the writes send. */
export const materialToWrite = (m: Material): NamedMaterial | UploadMaterial =>
  m.kind === 'promoted' ? m.of : m

/** Where the inputs' material comes from: their source, integration and repository. */
export function originOf(o: DeployOptions): Origin {
  return {
    source: o.source,
    integrationId: o.integrationId,
    repository: o.repository,
    repositoryExplicit: o.repositoryExplicit
  }
}

/** The material the inputs name (no upload). */
export function namedMaterial(o: DeployOptions): NamedMaterial {
  return {
    kind: 'named',
    ...originOf(o),
    ref: o.ref,
    imageUri: o.imageUri,
    graphConfigPath: o.graphConfigPath,
    expectedSha: o.expectedSha
  }
}

/** The run's material: an upload's archive before any request, its module (own chunk) only then. */
export async function prepareMaterial(
  o: DeployOptions,
  deps: FlowDeps
): Promise<Material | (Stop & { learned?: Learned })> {
  if (o.promoteFrom !== undefined) return preparePromotion(o, deps)
  if (!uploadsWorkspace(o.source, o.revisionSource)) return namedMaterial(o)
  return uploadMaterial(o, originOf(o), deps)
}

/** What the material tells the journal: the ref and commit expected, the archive, the promotion. */
export function materialFacts(m: Material): Learned {
  if (m.kind === 'promoted') return { ...materialFacts(m.of), promotion: m.promotion }
  if (m.kind === 'upload') return { source: m.upload.facts }
  return { ref: m.ref, expectedSha: m.expectedSha }
}

async function uploadMaterial(
  o: DeployOptions,
  origin: Origin,
  deps: FlowDeps
): Promise<UploadMaterial | (Stop & { learned?: Learned })> {
  const upload = await (await import('./upload.ts')).prepareUpload(o, deps)
  if (stopped(upload)) return upload
  const expected = o.expectedSourceDigest
  if (expected !== undefined && upload.facts.digest !== expected) {
    await upload.archive.cleanup()
    const files = `${upload.facts.files} ${upload.facts.files === 1 ? 'file' : 'files'}`
    const refused = stop(
      `The source archive is ${upload.facts.digest} (${files}), not ${expected} that ${deps.say('expected-source-digest')} asks for: nothing was written.`,
      'The workspace differs from the one whose archive was verified: check out the same commit (and the same files) as the run that gave that digest.',
      'Source digest differs',
      { nothingSent: true }
    )
    return { ...refused, learned: { source: upload.facts } }
  }
  return { kind: 'upload', ...origin, configPath: upload.archive.configPath, upload }
}

/** A promotion: the source read and checked, then its material (an upload archives the workspace). */
async function preparePromotion(
  o: DeployOptions,
  deps: FlowDeps
): Promise<PromotedMaterial | (Stop & { learned?: Learned })> {
  const source = await readPromotionSource(o, deps)
  if (stopped(source)) return source
  let of: NamedMaterial | UploadMaterial
  let what: string
  if (source.deployment.source === 'internal_source') {
    if (o.expectedSourceDigest === undefined) return digestNeeded(source, deps)
    const upload = await uploadMaterial(o, promotedOrigin(o, source), deps)
    if (stopped(upload)) return upload
    of = upload
    what = of.upload.facts.digest
  } else {
    const promoted = promotedNamed(source, o, deps)
    if (stopped(promoted)) return promoted
    const { what: said, ...named } = promoted
    what = said
    of = { kind: 'named', ...named }
  }
  return { kind: 'promoted', source, promotion: promotionOf(source, what), of }
}

/** The service keeps no archive another deployment can use: the workspace's must be the same. */
function digestNeeded(s: PromotionSource, deps: FlowDeps): Stop {
  const say = deps.say
  return stop(
    `Deployment "${s.deployment.name}" (${s.deployment.id}, ${say('promote-from')}) deploys uploads: its archive cannot be reused, so this run uploads the workspace, and ${say('expected-source-digest')} must say which archive that is.`,
    `Set ${say('expected-source-digest')} to the source-digest output of the run that deployed "${s.deployment.name}", and run from the same checkout.`,
    'Promotion refused'
  )
}

export async function releaseMaterial(m: Material): Promise<void> {
  const own = materialToWrite(m)
  if (own.kind === 'upload') await own.upload.archive.cleanup()
}
