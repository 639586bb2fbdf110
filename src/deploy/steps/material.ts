// Where the revision's material comes from, decided in one step before the plan: the inputs' ref
// (codehost) or image (docker sources), or the workspace's archive (an upload). The plan and the
// writes take this value; none of them reads `ref` or `image-uri` from the options.
import type { Options } from '../../inputs/options.ts'
import { uploadsWorkspace } from '../../inputs/resolved.ts'
import type { FlowDeps } from '../deps.ts'
import type { DeployState } from '../state.ts'
import type { SourceUpload } from './upload.ts'

/** Material named by the inputs: the ref a codehost revision builds, or the image deployed. */
export interface NamedMaterial {
  kind: 'named'
  /** `repo_ref`; unset on a create, the repository's default branch is deployed. */
  ref: string | undefined
  /** `image_uri`. */
  imageUri: string | undefined
  /** The commit the revision is expected to build (the event's), compared with `repo_commit_sha`. */
  expectedSha: string | undefined
}

/** The workspace's archive, uploaded at write time. */
export interface UploadMaterial {
  kind: 'upload'
  /** The config's path in the archive: the revision's `graph_config_path`. */
  configPath: string
  upload: SourceUpload
}

export type Material = NamedMaterial | UploadMaterial

/** The material the inputs name (no upload). */
export function namedMaterial(o: Options): NamedMaterial {
  return { kind: 'named', ref: o.ref, imageUri: o.imageUri, expectedSha: o.expectedSha }
}

/**
 * The run's material, with the state's ref and expected commit. An upload's archive is built here,
 * before any request (its errors send nothing); its module is loaded only for an upload (a chunk
 * of its own in the bundle), so other runs start as before. `releaseMaterial` removes it.
 */
export async function prepareMaterial(
  o: Options,
  state: DeployState,
  deps: FlowDeps
): Promise<Material> {
  if (!uploadsWorkspace(o.source, o.revisionSource)) {
    const named = namedMaterial(o)
    state.ref = named.ref
    state.expectedSha = named.expectedSha
    return named
  }
  const upload = await (await import('./upload.ts')).prepareUpload(o, state, deps)
  return { kind: 'upload', configPath: upload.archive.configPath, upload }
}

export async function releaseMaterial(m: Material): Promise<void> {
  if (m.kind === 'upload') await m.upload.archive.cleanup()
}
