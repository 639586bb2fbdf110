// The triggering event -> the default `ref`, the commit the revision is expected to build, and the
// repository (the "default ref" table of the action's interface). Pure apart from
// `readEventPayload`, which reads the event file the runner writes.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

/** What the triggering event implies when the `ref` and `repository` inputs are empty. */
export interface EventDefaults {
  /** A branch name (`main`) or a full tag ref (`refs/tags/v1.2.0`), as `repo_ref` takes it. */
  ref?: string
  /** The commit the revision is expected to build. */
  expectedSha?: string
  /** `owner/name` of the workflow's repository. */
  repository?: string
}

/** Larger event files are ignored (the runner's payloads are far smaller). */
export const MAX_EVENT_PAYLOAD_BYTES = 25 * 1024 * 1024

const TAG_PREFIX = 'refs/tags/'
const BRANCH_PREFIX = 'refs/heads/'
const PULL_PREFIX = 'refs/pull/'
const ZERO_SHA = /^0+$/

/** A non-empty string or undefined. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** `payload.a.b.c` without trusting the payload's shape. */
function at(payload: unknown, ...path: string[]): unknown {
  let node = payload
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** A commit id, or undefined for none or the all-zero id of a deleted ref. */
function sha(value: unknown): string | undefined {
  const s = text(value)
  return s !== undefined && !ZERO_SHA.test(s) ? s : undefined
}

/** `refs/tags/x` as is, `refs/heads/x` -> `x`; `refNameFallback` when the ref is neither. */
function refFromGithubRef(ref: string | undefined, refName: string | undefined) {
  if (ref?.startsWith(TAG_PREFIX) && ref.length > TAG_PREFIX.length) return ref
  if (ref?.startsWith(BRANCH_PREFIX) && ref.length > BRANCH_PREFIX.length) {
    return refName ?? ref.slice(BRANCH_PREFIX.length)
  }
  return refName
}

/**
 * The default `ref`, expected commit and repository for the triggering event:
 * - push: the branch name, or `refs/tags/<tag>` for a tag; expected `GITHUB_SHA`;
 * - release: `refs/tags/<release.tag_name>` from the payload; expected `GITHUB_SHA`;
 * - pull_request, pull_request_target (and any event that runs on `refs/pull/...`): the head
 *   branch (`GITHUB_HEAD_REF`); expected the head commit of the pull request from the payload, not
 *   the merge commit in `GITHUB_SHA`;
 * - anything else (workflow_dispatch, schedule, ...): `GITHUB_REF_NAME` as a branch, or
 *   `refs/tags/...` when `GITHUB_REF` is a tag; expected `GITHUB_SHA`.
 * A push that deletes its ref (all-zero commit) has no expected commit.
 */
export function eventDefaults(env: NodeJS.ProcessEnv, payload: unknown): EventDefaults {
  const eventName = text(env.GITHUB_EVENT_NAME)
  const githubRef = text(env.GITHUB_REF)
  const refName = text(env.GITHUB_REF_NAME)
  const githubSha = sha(env.GITHUB_SHA)
  const repository = text(env.GITHUB_REPOSITORY)
  const result: EventDefaults = {}
  if (repository !== undefined) result.repository = repository

  let ref: string | undefined
  let expectedSha: string | undefined
  if (
    eventName === 'pull_request' ||
    eventName === 'pull_request_target' ||
    githubRef?.startsWith(PULL_PREFIX)
  ) {
    ref = text(env.GITHUB_HEAD_REF) ?? text(at(payload, 'pull_request', 'head', 'ref'))
    expectedSha = sha(at(payload, 'pull_request', 'head', 'sha'))
  } else if (eventName === 'release') {
    const tag = text(at(payload, 'release', 'tag_name'))
    ref = tag !== undefined ? TAG_PREFIX + tag : refFromGithubRef(githubRef, undefined)
    expectedSha = githubSha
  } else {
    ref = refFromGithubRef(githubRef, refName)
    expectedSha = eventName === 'push' && at(payload, 'deleted') === true ? undefined : githubSha
  }
  if (ref !== undefined) result.ref = ref
  if (expectedSha !== undefined) result.expectedSha = expectedSha
  return result
}

/**
 * The event payload at `GITHUB_EVENT_PATH` as an object; `{}` when the variable is unset or the
 * file is missing, unreadable, larger than 25 MB, not JSON, or not a JSON object.
 */
export function readEventPayload(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const path = text(env.GITHUB_EVENT_PATH)
  if (path === undefined) return {}
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    if (!fstatSync(fd).isFile()) return {}
    // Read at most one byte past the cap: the size from fstat may change under us.
    const buffer = Buffer.alloc(Math.min(fstatSync(fd).size, MAX_EVENT_PAYLOAD_BYTES) + 1)
    let length = 0
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null)
      if (n === 0) break
      length += n
    }
    if (length > MAX_EVENT_PAYLOAD_BYTES) return {}
    const parsed: unknown = JSON.parse(buffer.toString('utf8', 0, length))
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd)
      } catch {
        // nothing to do: the payload is read or given up already
      }
    }
  }
}
