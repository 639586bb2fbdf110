// An upload deploy's source (`internal_source`). The workspace is archived before any request, so
// that a missing config or an archive too large is one error with nothing sent. At write time: an
// upload URL, the PUT, the object path the PATCH names. A PUT refused or whose answer is lost is
// never named in a PATCH: a new URL and PUT, up to UPLOAD_TRIES, all within `timeout` of the
// archive's start (the client's deadline is later: room for the look-ups around the wait).
import { isLoopbackUrl } from '../../../control-plane/base-url.ts'
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import { ControlPlaneError } from '../../../control-plane/errors.ts'
import { sanitizeServerText } from '../../../inert.ts'
import type { DeployOptions } from '../options.ts'
import { buildArchive, type BuiltArchive } from '../../../upload/archive.ts'
import { ArchiveError } from '../../../upload/errors.ts'
import {
  DEFAULT_PUT_TIMEOUT_MS,
  describeUploadUrl,
  putArchive,
  type PutResult
} from '../../../upload/put.ts'
import { dryRunLines, envFileHint, leftOutLines, untrackedLine } from '../../../upload/report.ts'
import {
  describeWorkspaceGit,
  readWorkspaceGit,
  untrackedMembers
} from '../../../upload/workspace-git.ts'
import { stop, type Stop } from '../../../interface/ending.ts'
import type { FlowDeps } from '../deps.ts'
import type { Journal, SourceFacts } from '../../../interface/journal.ts'

/** PUTs of one run in all, each to a new upload URL. */
const UPLOAD_TRIES = 3

export interface SourceUpload {
  archive: BuiltArchive
  facts: SourceFacts
  /** The facts as one line for the log and the plan. */
  described: string
  /** Uploads the archive for this deployment: the object path to name (uploadSource). */
  store(client: ControlPlaneClient, deploymentId: string, journal: Journal): Promise<string | Stop>
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
  o: DeployOptions,
  deps: FlowDeps
): Promise<SourceUpload | Stop> {
  const workspace = deps.workspace ?? '.'
  const inputName = deps.say('graph-config-path')
  // The upload's deadline: `timeout` from here, the first step of the run.
  const deadline = deps.clock.now() + o.timeoutMs
  return deps.log.group('Archive the source', async () => {
    let archive: BuiltArchive
    try {
      archive = await buildArchive({
        workspace,
        graphConfigPath: o.graphConfigPath,
        inputName,
        signal: deps.signal,
        ownFiles: deps.ownFiles
      })
    } catch (err) {
      if (!(err instanceof ArchiveError)) throw err
      return stop(
        `${err.message} Nothing was sent.`,
        err.hint ??
          'An upload deploy archives the workspace: run it where the project is checked out.',
        'Source not archived',
        { nothingSent: true }
      )
    }
    const commit = describeWorkspaceGit(await readWorkspaceGit(workspace))
    const facts: SourceFacts = {
      files: archive.files.length,
      size: archive.size,
      digest: archive.digest,
      ...(commit ? { commit } : {})
    }
    for (const w of archive.warnings) deps.log.warning(w, 'Large source archive')
    const described = describeSource(facts)
    deps.log.info(`Source archive: ${described}.`)
    deps.log.info(`  langgraph_config_path: ${archive.configPath}`)
    await reportFileSet(archive, o.dryRun, deps)
    const upload: SourceUpload = {
      archive,
      facts,
      described,
      store: (client, deploymentId, journal) =>
        uploadSource(client, deploymentId, upload, journal, {
          ...deps,
          baseUrl: o.baseUrl,
          deadline
        })
    }
    return upload
  })
}

/** What the archive left out unasked, a missing env file, untracked files; a dry run's all. */
async function reportFileSet(archive: BuiltArchive, dryRun: boolean, deps: FlowDeps) {
  for (const line of leftOutLines(archive)) deps.log.info(line)
  const hint = envFileHint(archive, deps.say('secrets'))
  if (hint) deps.log.warning(hint, 'Env file left out')
  const untracked = await untrackedMembers(archive.root, archive.files)
  const line = untracked && untrackedLine(untracked)
  if (line) deps.log.info(line)
  if (dryRun) for (const l of dryRunLines(archive)) deps.log.info(l)
}

/** Why a PUT did not store the object, for the log. */
function putFailure(r: Exclude<PutResult, { outcome: 'stored' }>): string {
  switch (r.outcome) {
    case 'refused':
      return `refused with HTTP ${r.status}${r.detail ? ` (${sanitizeServerText(r.detail, 200)})` : ''}`
    case 'lost':
      return `sent, but its answer was lost (${r.reason}): whether it was stored is unknown`
    case 'not-sent':
      return `not sent (${r.reason})`
    case 'unusable':
      return `not sent: ${r.reason}`
    case 'cancelled':
      return 'cancelled'
  }
}

type UploadDeps = FlowDeps & { baseUrl: string; deadline: number }

/** PUTs the archive, each try to a new upload URL: the object path stored, or the run's failure. */
async function uploadSource(
  client: ControlPlaneClient,
  deploymentId: string,
  upload: SourceUpload,
  journal: Journal,
  deps: UploadDeps
): Promise<string | Stop> {
  // An upload URL on this machine is taken only from a control plane on this machine.
  const loopbackAllowed = isLoopbackUrl(deps.baseUrl)
  // `timeout` from the archive's start, or the client's deadline when sooner.
  const deadline = Math.min(client.deadline ?? Infinity, deps.deadline)
  return deps.log.group('Upload the source', async () => {
    const failures: string[] = []
    for (let attempt = 1; attempt <= UPLOAD_TRIES; attempt++) {
      const left = deadline - deps.clock.now()
      if (left <= 0) break
      // The PUT's time: the LangGraph CLIs' 300 s, or what is left before the deadline.
      const timeoutMs = Math.min(DEFAULT_PUT_TIMEOUT_MS, left)
      const slot = await uploadUrl(client, deploymentId, deadline, deps)
      if (slot === 'late') break
      const r = await putArchive({
        url: slot.upload_url,
        file: upload.archive.file,
        size: upload.archive.size,
        timeoutMs,
        clock: deps.clock,
        signal: deps.signal,
        loopbackAllowed
      })
      if (r.outcome === 'stored') {
        deps.log.info(
          `Uploaded ${describeSource(upload.facts)} to ${describeUploadUrl(slot.upload_url)}.`
        )
        return slot.object_path
      }
      const why = putFailure(r)
      failures.push(`try ${attempt}: ${why}`)
      if (r.outcome === 'unusable') return unusableUrl(journal, r.reason, deps)
      if (r.outcome === 'cancelled' || deps.signal?.aborted) break
      deps.log.warning(
        `The upload of the source (try ${attempt} of ${UPLOAD_TRIES}) failed: ${why}; that object is never deployed.` +
          (attempt < UPLOAD_TRIES ? ' Asking for a new upload URL.' : ''),
        'Upload failed'
      )
      if (attempt < UPLOAD_TRIES && !(await client.pause(attempt))) break
    }
    const late = deps.clock.now() >= deadline
    return uploadFailed(journal, failures, late ? deps.say('timeout') : undefined)
  })
}

/** A new upload URL, asked within the upload's deadline; 'late' when that deadline ended it. */
async function uploadUrl(
  client: ControlPlaneClient,
  deploymentId: string,
  deadline: number,
  deps: FlowDeps
) {
  try {
    return await client.requestUploadUrl(deploymentId, { deadline })
  } catch (err) {
    if (err instanceof ControlPlaneError && !deps.signal?.aborted && deps.clock.now() >= deadline)
      return 'late'
    throw err
  }
}

/** Where this run's deployment stands after an upload that stored nothing. */
function createdNote(journal: Journal): string {
  const name = journal.name ? `"${journal.name}"` : journal.deploymentId
  return journal.created
    ? ` Deployment ${name} (${journal.deploymentId}) was created by this run and has no revision with this source yet: a re-run finds it by name and uploads again.`
    : ''
}

/** The control plane answered an upload URL we refuse to send to: asking again would repeat it. */
function unusableUrl(journal: Journal, reason: string, deps: FlowDeps): Stop {
  return stop(
    `The source archive was not sent: ${sanitizeServerText(reason, 300)}. Nothing was sent to it and nothing was patched: no revision names it.${createdNote(journal)}`,
    `The control plane answered an upload URL that this run will not send the source to: check that ${deps.say('base-url')} names the right control plane, and report the URL it answers to its operators.`,
    'Upload URL refused'
  )
}

/** `timeout`: the input as the user set it, when the upload's deadline ended the tries. */
function uploadFailed(journal: Journal, failures: string[], timeout?: string): Stop {
  const tries = failures.length ? ` (${failures.join('; ')})` : ''
  const deadline = timeout ? ` The run reached its deadline (from ${timeout}).` : ''
  return stop(
    `The source archive could not be uploaded${tries}.${deadline} Nothing was patched: no revision names it.${createdNote(journal)}`,
    timeout
      ? `The upload host did not store the source within ${timeout}: check that this runner can reach it (a proxy, a firewall), or give the run a longer ${timeout}.`
      : 'The upload host is not the control plane: check that this runner can reach it (a proxy, a firewall), then re-run the job.',
    'Upload failed',
    timeout ? { outcome: 'timeout' } : {}
  )
}
