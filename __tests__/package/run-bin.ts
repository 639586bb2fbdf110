// One run of a packed or installed bin as a user's job runs it: on the runner's Node 24, with only
// the given variables (and PATH, HOME) in its environment, stdout and stderr gathered whole. For
// the packed-package tests and the reliability suite's CLI cases.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { resolve as resolvePath } from 'node:path'
import { PUSH_MAIN } from '../../scripts/runner-env.ts'
import type { Emulator } from '../../emulator/server.ts'
import { NODE24 } from './package.ts'

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface BinOptions {
  /** The working directory, and HOME unless `home` is given. */
  cwd: string
  home?: string
  env?: Record<string, string>
  /** Sees stderr as it grows. */
  onStderr?: (stderr: string) => void
  /** Sends `signal` (SIGINT unless said) once stderr contains this. */
  interruptWhen?: string
  signal?: NodeJS.Signals
  /** Kills the run after this long (a hung run fails its case rather than the whole file). */
  killAfterMs?: number
  /** Sends `signal` once this (polled) is true, as `interruptWhen` does for stderr. */
  interruptIf?: () => boolean
  /** Run as this user: see __tests__/builders/upload.ts. */
  user?: { uid: number; gid: number }
}

/**
 * Node's own cache of compiled code, kept between runs (as the e2e harness keeps the bundle's):
 * a run from the sources would otherwise compile each module again, most of its CPU. What runs
 * is the same. Not for a run as another user, who could not write it.
 */
const COMPILE_CACHE = resolvePath('node_modules/.cache/cpd-node-compile')

/** Runs `node <script> ...args` and resolves with its exit code and whole output. */
export function runBin(script: string, args: string[], o: BinOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const cache = o.user ? {} : { NODE_COMPILE_CACHE: COMPILE_CACHE }
    const child = spawn(NODE24, [script, ...args], {
      cwd: o.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: o.home ?? o.cwd, ...cache, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...o.user
    })
    const run: CliRun = { code: null, stdout: '', stderr: '' }
    const killer = o.killAfterMs
      ? setTimeout(() => child.kill('SIGKILL'), o.killAfterMs)
      : undefined
    let interrupted = false
    const poll = o.interruptIf
      ? setInterval(() => {
          if (interrupted || !o.interruptIf!()) return
          interrupted = true
          child.kill(o.signal ?? 'SIGINT')
        }, 5)
      : undefined
    child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      run.stderr += d.toString()
      o.onStderr?.(run.stderr)
      if (o.interruptWhen && !interrupted && run.stderr.includes(o.interruptWhen)) {
        interrupted = true
        child.kill(o.signal ?? 'SIGINT')
      }
    })
    child.on('error', reject)
    child.on('close', code => {
      clearTimeout(killer)
      clearInterval(poll)
      resolve({ ...run, code })
    })
  })
}

/** The `name=value` lines of a run's stdout. */
export function outputsOf(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(line => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
  )
}

/** A deployment name no other case uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`
}

/** The variables that reach `emu`: its key, tenant and address. */
export function emulatorEnv(emu: Emulator) {
  const { apiKey, tenantId } = emu.credentials()
  return {
    CONTROL_PLANE_API_KEY: apiKey,
    CONTROL_PLANE_TENANT_ID: tenantId,
    CONTROL_PLANE_BASE_URL: emu.url
  }
}

/** `emulatorEnv` and its integration: what a codehost deploy to `emu` needs. */
export function codehostEnv(emu: Emulator) {
  return {
    ...emulatorEnv(emu),
    CONTROL_PLANE_INTEGRATION_ID: emu.credentials().integrationId ?? ''
  }
}

/** A GitLab job on main at `sha`, reaching `emu`, then `over`. */
function gitlabOnMain(emu: Emulator, sha: string, over: Record<string, string>) {
  return {
    ...emulatorEnv(emu),
    GITLAB_CI: 'true',
    CI_COMMIT_REF_NAME: 'main',
    CI_COMMIT_BRANCH: 'main',
    CI_COMMIT_SHA: sha,
    ...over
  }
}

/** A scheduled GitLab pipeline of project 42 on main (at PUSH_MAIN), reaching `emu`, then `over`. */
export const scheduledGitlabJob = (emu: Emulator, over: Record<string, string> = {}) =>
  gitlabOnMain(emu, PUSH_MAIN.sha!, {
    CI_API_V4_URL: 'http://127.0.0.1:9/api/v4',
    CI_PROJECT_ID: '42',
    ...over
  })

/** The variables of a GitLab job on `main` that uploads to `emu` (its key and address), then `over`. */
export const gitlabUploadJob = (emu: Emulator, over: Record<string, string> = {}) =>
  gitlabOnMain(emu, 'c0ffee'.padEnd(40, '0'), {
    CONTROL_PLANE_SOURCE: 'internal_source',
    CONTROL_PLANE_POLL_INTERVAL: '1s',
    CI: 'true',
    CI_PIPELINE_SOURCE: 'push',
    CI_PROJECT_PATH: 'acme/agent',
    ...over
  })
