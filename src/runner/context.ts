// The runner's `GITHUB_*` variables and the event payload, read once by a door into one typed
// value. Everything below the doors takes this value and never reads a `GITHUB_*` variable itself
// (nor imports `@actions/github`, whose import reads them again).
import { readFileSync, statSync } from 'node:fs'
import { proxyVariables, type ProxyVariables } from './proxy.ts'

export interface GitHubContext {
  /** REST API root without a trailing slash: `GITHUB_API_URL`, else `https://api.github.com`. */
  apiUrl: string
  /** Web root without a trailing slash: `GITHUB_SERVER_URL`, else `https://github.com`. */
  serverUrl: string
  /** `GITHUB_REPOSITORY` as given (trimmed), whatever its shape. */
  repository?: string
  /** The same, when it is `owner/name`. */
  repo?: { owner: string; repo: string }
  runId?: string
  /** A positive integer, as the runner counts attempts. */
  runAttempt?: string
  eventName?: string
  /** `GITHUB_SHA`: the commit the workflow runs on (the merge commit on a pull request). */
  sha?: string
  /** `GITHUB_REF`, `GITHUB_REF_NAME`, `GITHUB_HEAD_REF`. */
  ref?: string
  refName?: string
  headRef?: string
  /** `GITHUB_WORKSPACE`: the checkout that an upload deploy archives. */
  workspace?: string
  /** The event payload (`GITHUB_EVENT_PATH`); `{}` when there is none to read. */
  payload: Record<string, unknown>
  /** `https_proxy`, `no_proxy`...: what GitHub's API is reached through. */
  proxy?: ProxyVariables
}

/** What is missing from the context, said in the runner's words (the variables it comes from). */
export const CONTEXT_GAPS = {
  repository: 'GITHUB_REPOSITORY is not set to owner/name',
  sha: 'No commit is known (GITHUB_SHA is not set)',
  apiUrl: 'GITHUB_API_URL is not a URL',
  apiUrlNotHttps: 'GITHUB_API_URL must be https (the token travels with every request)'
} as const

/** Larger event files are ignored (the runner's payloads are far smaller). */
export const MAX_EVENT_PAYLOAD_BYTES = 25 * 1024 * 1024

/** A non-empty trimmed string, or undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

function root(value: string | undefined, fallback: string): string {
  return (text(value) ?? fallback).replace(/\/+$/, '')
}

function ownerAndName(repository: string | undefined): GitHubContext['repo'] {
  const [owner, repo, ...rest] = (repository ?? '').split('/')
  return owner && repo && rest.length === 0 ? { owner, repo } : undefined
}

/** The context of the run in `env` (the runner's variables); nothing absent is guessed. */
export function githubContext(
  env: NodeJS.ProcessEnv,
  payload: Record<string, unknown> = readEventPayload(env)
): GitHubContext {
  const repository = text(env.GITHUB_REPOSITORY)
  const attempt = text(env.GITHUB_RUN_ATTEMPT)
  const context: GitHubContext = {
    apiUrl: root(env.GITHUB_API_URL, 'https://api.github.com'),
    serverUrl: root(env.GITHUB_SERVER_URL, 'https://github.com'),
    repository,
    repo: ownerAndName(repository),
    runId: text(env.GITHUB_RUN_ID),
    runAttempt: attempt !== undefined && /^\d+$/.test(attempt) ? attempt : undefined,
    eventName: text(env.GITHUB_EVENT_NAME),
    sha: text(env.GITHUB_SHA),
    ref: text(env.GITHUB_REF),
    refName: text(env.GITHUB_REF_NAME),
    headRef: text(env.GITHUB_HEAD_REF),
    workspace: text(env.GITHUB_WORKSPACE),
    payload,
    proxy: proxyVariables(env)
  }
  // Only the keys that have a value, so that the context compares and prints cleanly.
  for (const key of Object.keys(context) as (keyof GitHubContext)[]) {
    if (context[key] === undefined) delete context[key]
  }
  return context
}

/** The event payload at `GITHUB_EVENT_PATH`; `{}` unless it is a JSON object of 25 MB at most. */
export function readEventPayload(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const path = text(env.GITHUB_EVENT_PATH)
  if (path === undefined) return {}
  try {
    const stat = statSync(path)
    if (!stat.isFile() || stat.size > MAX_EVENT_PAYLOAD_BYTES) return {}
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    // No payload, or not JSON: the defaults come from the environment alone.
    return {}
  }
}
