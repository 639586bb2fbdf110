// What the tests of the CLI's dotenv file share: the emulator's wire answers as the client reads
// them, a revision made to answer a hostile status once the run names it, and the file read back
// by each reader users have: sh and bash (`set -a; . file`), python-dotenv (Debian's
// python3-dotenv, the real one; .ci/run installs it), GitLab's dotenv report (by its documented
// rules) and npm's dotenv.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parse } from 'dotenv'
import type { Emulator } from '../../emulator/server.ts'

/** The wire answer of `GET path` on `emu`, as the client reads it. */
export async function answer(emu: Emulator, path: string): Promise<Record<string, unknown>> {
  const { apiKey, tenantId } = emu.credentials()
  const res = await fetch(`${emu.url}${path}`, {
    headers: { 'X-Api-Key': apiKey, 'X-Tenant-Id': tenantId }
  })
  return (await res.json()) as Record<string, unknown>
}

/** From now on the deployment `id` answers `status` (a status no model has) to a GET. */
export async function hostileDeploymentStatus(emu: Emulator, id: string, status: string) {
  const deployment = await answer(emu, `/v2/deployments/${id}`)
  emu.addFaults({
    kind: 'bad-schema',
    method: 'GET',
    path: `/v2/deployments/${id}`,
    body: { ...deployment, status }
  })
}

/**
 * A handler of the run's stderr: once the run names its revision (`Revision <id>.`), that revision
 * answers `status` (a status no model has) from then on. `done()` settles when the fault is set.
 */
export function hostileRevision(emu: Emulator, deploymentId: string, status: string) {
  let faulted: Promise<void> | undefined
  const onStderr = (stderr: string) => {
    const revisionId = /\nRevision ([0-9a-f-]{36})\.\n/.exec(stderr)?.[1]
    if (revisionId === undefined || faulted) return
    const path = `/v2/deployments/${deploymentId}/revisions/${revisionId}`
    faulted = answer(emu, path).then(revision => {
      emu.addFaults({ kind: 'bad-schema', method: 'GET', path, body: { ...revision, status } })
    })
  }
  return { onStderr, done: () => faulted }
}

/** Each name of `names` as sh or bash reads it after `set -a; . file`, run in `cwd`; null when unset. */
export function sourced(
  shell: string,
  file: string,
  names: string[],
  cwd: string,
  env: Record<string, string> = {}
): (string | null)[] {
  const script = `set -a; . '${file}'; exec node -e 'console.log(JSON.stringify(${JSON.stringify(names)}.map(n => process.env[n] ?? null)))'`
  return JSON.parse(
    execFileSync(shell, ['-c', script], {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env }
    })
  ) as (string | null)[]
}

/** The Python that has Debian's python3-dotenv (`CPD_PYTHON` to name another). */
export const PYTHON = process.env.CPD_PYTHON ?? '/usr/bin/python3'

/**
 * Each name of `names` as python-dotenv reads `file` (`dotenv_values`, its `${NAME}` expansion
 * on, as `load_dotenv` does), with `env` as the environment it expands from; null when unset.
 */
export function pythonDotenv(
  file: string,
  names: string[],
  env: Record<string, string> = {}
): (string | null)[] {
  const script = [
    'import json, sys',
    'from dotenv import dotenv_values',
    'values = dotenv_values(sys.argv[1])',
    'print(json.dumps([values.get(n) for n in json.loads(sys.argv[2])]))'
  ].join('\n')
  let out: string
  try {
    out = execFileSync(PYTHON, ['-c', script, file, JSON.stringify(names)], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env }
    })
  } catch (err) {
    throw new Error(
      `python-dotenv did not read ${file} (${String(err).slice(0, 300)}): run .ci/python-dotenv, which installs Debian's python3-dotenv, or set CPD_PYTHON to a Python that has it.`,
      { cause: err }
    )
  }
  return JSON.parse(out) as (string | null)[]
}

/**
 * Each name as GitLab's `artifacts:reports:dotenv` reads the file, by its documented rules:
 * `KEY=value` a line, the value trimmed, quotes kept as part of it, nothing expanded.
 */
export function gitlabDotenv(file: string, names: string[]): (string | null)[] {
  const vars = new Map<string, string>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^(.*?)=(.*)$/.exec(line)
    if (m) vars.set(m[1]!.trim(), m[2]!.trim())
  }
  return names.map(n => vars.get(n) ?? null)
}

/** Every reader of a dotenv file that the CLI writes for. */
export const READERS = ['sh', 'bash', 'python-dotenv', 'gitlab', 'dotenv'] as const

/**
 * What each reader reads back for `names` from `file` (sourced in `cwd`; `env` is what the
 * expanding readers could expand: the key, say), by reader.
 */
export function readBack(
  file: string,
  names: string[],
  cwd: string,
  env: Record<string, string> = {}
): Record<(typeof READERS)[number], (string | null)[]> {
  const npm = parse(readFileSync(file))
  return {
    sh: sourced('sh', file, names, cwd, env),
    bash: sourced('bash', file, names, cwd, env),
    'python-dotenv': pythonDotenv(file, names, env),
    gitlab: gitlabDotenv(file, names),
    dotenv: names.map(n => npm[n] ?? null)
  }
}

/** `readBack`'s answer when every reader reads `values`. */
export const readByAll = (values: (string | null)[]) =>
  Object.fromEntries(READERS.map(r => [r, values]))
