// An upload deploy's source (`internal_source`, as source or revision source). The workspace is
// archived first, before any request, so that a config that is missing, a path outside the
// workspace or an archive too large is one error with nothing sent; the log (and a dry run) show
// its files, size, digest and git commit. At write time: an upload URL, the PUT, and the object
// path the PATCH names. A PUT refused or whose answer is lost is never named in a PATCH: a new
// URL and a new PUT, up to UPLOAD_TRIES, then the run stops with nothing patched.
import { isLoopbackUrl } from '../../control-plane/base-url.ts'
import type { ControlPlaneClient } from '../../control-plane/client.ts'
import { sanitizeServerText } from '../../control-plane/redact.ts'
import type { Options } from '../../inputs/options.ts'
import { buildArchive, type BuiltArchive } from '../../upload/archive.ts'
import { ArchiveError } from '../../upload/errors.ts'
import {
  describeUploadUrl,
  putArchive,
  uploadUrlProblem,
  type PutResult
} from '../../upload/put.ts'
import { describeWorkspaceGit, readWorkspaceGit } from '../../upload/workspace-git.ts'
import { DeployError } from '../deploy-error.ts'
import { sayOf } from '../say.ts'
import type { FlowDeps } from '../deps.ts'
import type { DeployState, SourceFacts } from '../state.ts'

/** PUTs of one run in all, each to a new upload URL. */
const UPLOAD_TRIES = 3

export interface SourceUpload {
  archive: BuiltArchive
  facts: SourceFacts
  /** The facts as one line for the log and the plan. */
  described: string
  /** Uploads the archive for this deployment: the object path to name (uploadSource). */
  store(client: ControlPlaneClient, deploymentId: string, state: DeployState): Promise<string>
}

/** `12 files, 3.4 KiB, sha256:...; git 3f2c1a9e0b7d (with uncommitted changes)`. */
function describeSource(f: SourceFacts): string {
  const git = f.commit ? `; workspace at git commit ${f.commit}` : ''
  return `${f.files} ${f.files === 1 ? 'file' : 'files'}, ${size(f.size)}, ${f.digest}${git}`
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1_048_576) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1_048_576).toFixed(1)} MiB`
}

/** Archives the workspace's project; an ArchiveError becomes the run's error, before any request. */
export async function prepareUpload(
  o: Options,
  state: DeployState,
  deps: FlowDeps
): Promise<SourceUpload> {
  const workspace = deps.workspace ?? '.'
  const inputName = deps.say ? deps.say('graph-config-path') : 'graph-config-path'
  return deps.log.group('Archive the source', async () => {
    let archive: BuiltArchive
    try {
      archive = await buildArchive({
        workspace,
        graphConfigPath: o.graphConfigPath,
        inputName,
        signal: deps.signal
      })
    } catch (err) {
      if (!(err instanceof ArchiveError)) throw err
      throw new DeployError(
        `${err.message} Nothing was sent.`,
        'An upload deploy archives the workspace: run it where the project is checked out.',
        'Source not archived'
      )
    }
    const commit = describeWorkspaceGit(await readWorkspaceGit(workspace))
    const facts: SourceFacts = {
      files: archive.files.length,
      size: archive.size,
      digest: archive.digest,
      ...(commit ? { commit } : {})
    }
    state.source = facts
    for (const w of archive.warnings) deps.log.warning(w, 'Large source archive')
    const described = describeSource(facts)
    deps.log.info(`Source archive: ${described}.`)
    deps.log.info(`  langgraph_config_path: ${archive.configPath}`)
    const upload: SourceUpload = {
      archive,
      facts,
      described,
      store: (client, deploymentId, st) =>
        uploadSource(client, deploymentId, upload, st, { ...deps, baseUrl: o.baseUrl })
    }
    return upload
  })
}

/** The control plane answered an upload URL the source may not go to: nothing was sent. */
function uploadRefused(problem: string, deps: FlowDeps): DeployError {
  const say = sayOf(deps)
  return new DeployError(
    `Refusing the upload URL: ${sanitizeServerText(problem, 300)}. Nothing was sent to it.`,
    `Check ${say('base-url')}: the control plane it names answered an upload URL that a control plane there cannot mean.`,
    'Upload refused'
  )
}

/** Why a PUT did not store the object, for the log. */
function putFailure(r: Exclude<PutResult, { outcome: 'stored' }>): string {
  switch (r.outcome) {
    case 'refused':
      return `refused with HTTP ${r.status}${r.detail ? ` (${sanitizeServerText(r.detail, 200)})` : ''}`
    case 'lost':
      return `its answer was lost (${r.reason}): whether it was stored is unknown`
    case 'not-sent':
      return `not sent (${r.reason})`
    case 'cancelled':
      return 'cancelled'
  }
}

/**
 * Asks for an upload URL and PUTs the archive there, each try with a new URL; the object path of
 * the PUT that was stored. Throws a DeployError when none was: nothing names an object then.
 */
async function uploadSource(
  client: ControlPlaneClient,
  deploymentId: string,
  upload: SourceUpload,
  state: DeployState,
  deps: FlowDeps & { baseUrl: string }
): Promise<string> {
  // An upload URL on this machine is taken only from a control plane on this machine.
  const loopbackAllowed = isLoopbackUrl(deps.baseUrl)
  return deps.log.group('Upload the source', async () => {
    const failures: string[] = []
    for (let attempt = 1; attempt <= UPLOAD_TRIES; attempt++) {
      const { upload_url: url, object_path: objectPath } =
        await client.requestUploadUrl(deploymentId)
      const refused = uploadUrlProblem(url, loopbackAllowed)
      if (refused) throw uploadRefused(refused, deps)
      const r = await putArchive({
        url,
        file: upload.archive.file,
        size: upload.archive.size,
        signal: deps.signal,
        loopbackAllowed
      })
      if (r.outcome === 'stored') {
        deps.log.info(`Uploaded ${describeSource(upload.facts)} to ${describeUploadUrl(url)}.`)
        return objectPath
      }
      const why = putFailure(r)
      failures.push(`try ${attempt}: ${why}`)
      if (r.outcome === 'cancelled' || deps.signal?.aborted) break
      deps.log.warning(
        `The upload of the source (try ${attempt} of ${UPLOAD_TRIES}) was ${why}; that object is never deployed.` +
          (attempt < UPLOAD_TRIES ? ' Asking for a new upload URL.' : ''),
        'Upload failed'
      )
      if (attempt < UPLOAD_TRIES && !(await client.pause(attempt))) break
    }
    throw uploadFailed(state, failures)
  })
}

function uploadFailed(state: DeployState, failures: string[]): DeployError {
  const name = state.name ? `"${state.name}"` : state.deploymentId
  const created = state.created
    ? ` Deployment ${name} (${state.deploymentId}) was created by this run and has no revision with this source yet: a re-run finds it by name and uploads again.`
    : ''
  return new DeployError(
    `The source archive could not be uploaded (${failures.join('; ')}). Nothing was patched: no revision names it.${created}`,
    'The upload host is not the control plane: check that this runner can reach it (a proxy, a firewall), then re-run the job.',
    'Upload failed'
  )
}
