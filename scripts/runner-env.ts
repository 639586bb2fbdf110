// What the GitHub runner hands a JavaScript action: a clean environment with the inputs as
// INPUT_<NAME> (hyphens kept), the GITHUB_* variables of the triggering event, and the files the
// action writes its outputs and summary to. The demo, the end-to-end tests and the benchmark run
// the bundle in exactly this environment.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface GitHubEvent {
  name: string
  payload?: unknown
  ref?: string
  sha?: string
  headRef?: string
  refName?: string
}

export const PUSH_MAIN: GitHubEvent = {
  name: 'push',
  ref: 'refs/heads/main',
  refName: 'main',
  sha: '9f1c2e7a4b8d3f6e0a5c1b9d7e2f4a6c8b0d3e5f'
}

export interface RunnerFiles {
  output: string
  summary: string
  event: string
}

export function runnerFiles(dir: string): RunnerFiles {
  return {
    output: join(dir, 'output'),
    summary: join(dir, 'summary'),
    event: join(dir, 'event.json')
  }
}

/** The environment of one step in `dir` (its files created empty, the event payload written). */
export function runnerEnv(
  dir: string,
  inputs: Record<string, string>,
  event: GitHubEvent = PUSH_MAIN
): Record<string, string> {
  const files = runnerFiles(dir)
  writeFileSync(files.output, '')
  writeFileSync(files.summary, '')
  writeFileSync(files.event, JSON.stringify(event.payload ?? {}))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_REPOSITORY: 'acme/agent-server',
    GITHUB_SHA: event.sha ?? PUSH_MAIN.sha!,
    GITHUB_REF: event.ref ?? '',
    GITHUB_REF_NAME: event.refName ?? '',
    GITHUB_HEAD_REF: event.headRef ?? '',
    GITHUB_RUN_ID: '1',
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_TEMP: dir
  }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  return env
}

/** GITHUB_OUTPUT is `name<<DELIMITER\nvalue\nDELIMITER\n` per output. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!)
    if (!m) continue
    const [, name, delimiter] = m
    const value: string[] = []
    while (++i < lines.length && lines[i] !== delimiter) value.push(lines[i]!)
    out[name!] = value.join('\n')
  }
  return out
}
