// Where the sweep reads whether a pull (merge) request is closed: GitHub (src/github/pull-state.ts)
// or GitLab (here, through `CI_API_V4_URL` with a token that may read merge requests). A state
// that cannot be read is never guessed: the deployment stays, and the log says why.
import { baseUrlProblem } from '../../control-plane/base-url.ts'
import { Redactor } from '../../control-plane/redact.ts'
import { sanitizeServerText } from '../../inert.ts'
import type { GitLabContext } from '../../runner/event.ts'
import { request } from '../../net/request.ts'
import {
  failedRead,
  PULL_READ_TIMEOUT_MS,
  type PullState,
  type PullStates
} from '../../github/pull-state.ts'

/** The start of a merge request's answer read at most: its `state` is near the top. */
const MAX_MERGE_REQUEST_BODY = 256 * 1024

/** Merge requests of the pipeline's project (or `project`, a path), through the one request. */
export function gitlabPullStates(
  context: GitLabContext & { token: string },
  project?: string,
  signal?: AbortSignal
): PullStates | string {
  const problem = baseUrlProblem(context.apiUrl)
  if (problem) return `CI_API_V4_URL is refused: ${problem}`
  const id = encodeURIComponent(project ?? context.projectId)
  const redactor = new Redactor([context.token])
  const root = context.apiUrl.replace(/\/+$/, '')
  return {
    where: `GitLab project ${sanitizeServerText(project ?? context.projectId, 200)}`,
    mark: '!',
    read: async iid => {
      try {
        const answer = await request({
          url: new URL(`${root}/projects/${id}/merge_requests/${iid}`),
          method: 'GET',
          headers: { 'PRIVATE-TOKEN': context.token, Accept: 'application/json' },
          timeoutMs: PULL_READ_TIMEOUT_MS,
          maxBody: MAX_MERGE_REQUEST_BODY,
          ...(signal ? { signal } : {})
        })
        if (answer.status === 404) return { kind: 'absent' }
        if (answer.status < 200 || answer.status > 299) {
          const said = sanitizeServerText(redactor.redact(answer.body), 200)
          return failedRead(`GitLab answered ${answer.status}: ${said}`)
        }
        const asked = project ? { path: project } : { id: context.projectId }
        return gitlabState(JSON.parse(answer.body), iid, asked)
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err)
        return failedRead(
          `GitLab could not be read: ${sanitizeServerText(redactor.redact(text), 200)}`
        )
      }
    }
  }
}

/** GitLab's merge request state, when the answer is the one asked for (iid, project or path). */
function gitlabState(
  body: unknown,
  iid: number,
  asked: { id: string } | { path: string }
): PullState {
  const mr = body as {
    iid?: unknown
    project_id?: unknown
    state?: unknown
    references?: { full?: unknown } | null
  } | null
  if (mr?.iid !== iid)
    return failedRead(`GitLab answered for merge request ${said(mr?.iid, '!')}, not !${iid}`)
  if ('id' in asked && String(mr.project_id) !== asked.id)
    return failedRead(`GitLab answered for project ${said(mr.project_id)}, not ${asked.id}`)
  const full = mr.references?.full
  if (
    'path' in asked &&
    (typeof full !== 'string' || full.toLowerCase() !== `${asked.path}!${iid}`.toLowerCase())
  )
    return failedRead(`GitLab answered for ${said(full)}, not ${asked.path}!${iid}`)
  const state = mr.state
  if (state === 'opened' || state === 'locked') return { kind: 'open' }
  if (state === 'closed' || state === 'merged')
    return { kind: 'closed', merged: state === 'merged' }
  return failedRead('GitLab answered without a merge request state')
}

/** A value of the answer in the log: `!8`, `41`, `"group/other!8"`, or `none`. */
function said(v: unknown, mark = ''): string {
  if (typeof v === 'number') return `${mark}${v}`
  return typeof v === 'string' ? `"${sanitizeServerText(v, 100)}"` : 'none'
}
