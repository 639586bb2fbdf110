// Runs the bundle exactly as the runner does: `node index.js` on the Node 24 from the npm registry,
// a clean environment, inputs as INPUT_<NAME> with hyphens kept, and the GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY and event files. Results are read from those files. The bundle is that of
// the working tree: dist/ when it was built from it, else one the jest global setup builds
// (see global-setup.ts).
import { beforeAll, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  PUSH_MAIN,
  parseOutputs,
  runnerEnv,
  runnerFiles,
  type GitHubEvent
} from '../../scripts/runner-env.ts'
import {
  demoFixture,
  startEmulator,
  type Emulator,
  type Fixture,
  type EmulatorOptions,
  type RequestLogEntry
} from '../../emulator/server.ts'
import type { FakeGitHub } from '../../scripts/fake-github.ts'
import { BUILD_WAIT_MS, BUNDLE_DIR_ENV, BUNDLE_ENV, waitForBuild } from './bundle.ts'

export { PUSH_MAIN, parseOutputs, type GitHubEvent }
import { loadSeeded, seededDeployment, withGitHub, type Seeded } from '../builders/in-process.ts'
export { DEPLOYS_AT_ONCE, expectRolledBackTo, pullRequest } from '../builders/in-process.ts'

/**
 * On the emulator's code host, main is at the default event's commit: a build of main reports it,
 * so the checks that need the workspace to be what was built (the graphs) run.
 */
export function mainAtPushCommit(emu: Emulator): Emulator {
  emu.configure({ repoCommits: MAIN_AT_PUSH })
  return emu
}

/** The demo fixture, its main at the default event's commit (a seeded deployment builds it). */
export function pushedFixture(): Fixture {
  const base = demoFixture()
  return { ...base, repo_commits: { ...base.repo_commits, ...MAIN_AT_PUSH } }
}

const MAIN_AT_PUSH = {
  [`${demoFixture().integrations![0]!.repositories![0]!.url}@main`]: PUSH_MAIN.sha!
}

// The bundle's build (started by the global setup) is waited for before a file's tests, not inside
// the first test's timeout: on a loaded machine the build alone takes longer than a test may.
beforeAll(async () => {
  await bundlePath()
}, BUILD_WAIT_MS + 10_000)

/**
 * Jest's timeout of one end-to-end test: generous against what such a test waits for (a run or two
 * of the bundle, each killed at `RunOptions.timeoutMs`, 60 s by default), so that a slow machine
 * fails a test by its own assertions or the run's kill, never by jest's clock.
 */
export const E2E_TEST_TIMEOUT_MS = 180_000

export const ROOT = resolve(import.meta.dirname, '../..')
export const NODE24 = join(ROOT, 'node_modules/node/bin/node')
/** The committed bundle. */
export const DIST = join(ROOT, 'dist/index.js')
const COMPILE_CACHE = join(ROOT, 'node_modules/.cache/cpd-node-compile')

let built: Promise<string> | undefined

/**
 * The bundle this jest run tests: `CPD_TEST_BUNDLE` when set (the global setup sets it to dist/
 * when dist/ was built from the sources as they are), else the one the global setup builds from
 * src/ (waited for), else (outside jest) the committed dist/.
 */
export function bundlePath(): Promise<string> {
  const given = process.env[BUNDLE_ENV]
  if (given) return Promise.resolve(resolve(ROOT, given))
  const dir = process.env[BUNDLE_DIR_ENV]
  if (!dir) return Promise.resolve(DIST)
  built ??= waitForBuild(dir)
  return built
}

export interface RunOptions {
  inputs: Record<string, string>
  event?: GitHubEvent
  env?: Record<string, string>
  /**
   * Send this signal once stdout contains `when`, or `when()` is true (polled): on an event of the
   * run, never after a time, which a loaded machine reaches at another point of the run.
   */
  cancel?: { signal: NodeJS.Signals; when: string | RegExp | (() => boolean) }
  /** Run as this user (its runner files made writable to it): see __tests__/builders/upload.ts. */
  user?: { uid: number; gid: number }
  /** Called once when stdout first contains `when`: to act on the emulator mid-run. */
  onStdout?: { when: string | RegExp; run: (stdout: string) => void | Promise<void> }
  timeoutMs?: number
}

export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  ms: number
  /** ms from the cancel signal to the process exit, when one was sent. */
  exitAfterSignalMs: number | undefined
  /** The `::error` lines of stdout. */
  errors: string[]
}

export async function runAction(opts: RunOptions): Promise<RunResult> {
  const bundle = await bundlePath()
  const dir = mkdtempSync(join(tmpdir(), 'cpd-e2e-'))
  const files = runnerFiles(dir)
  const env = {
    ...runnerEnv(dir, opts.inputs, opts.event ?? PUSH_MAIN),
    // Node's own cache of the bundle's compiled code, kept between runs: each run would otherwise
    // parse and compile its 1.5 MB again (a tenth of what a run costs). What runs is the same.
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    ...opts.env
  }

  if (opts.user) {
    chmodSync(dir, 0o777)
    for (const f of Object.values(files)) chmodSync(f, 0o666)
  }
  const started = Date.now()
  const child = spawn(NODE24, [bundle], {
    env,
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...opts.user
  })
  let stdout = ''
  let stderr = ''
  let signalledAt: number | undefined
  let hooked = false
  const signal = () => {
    if (signalledAt !== undefined || !opts.cancel) return
    signalledAt = Date.now()
    child.kill(opts.cancel.signal)
  }
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
    const when = opts.cancel?.when
    if (when && typeof when !== 'function' && matches(stdout, when)) signal()
    const hook = opts.onStdout
    if (hook && !hooked && matches(stdout, hook.when)) {
      hooked = true
      void hook.run(stdout)
    }
  })
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const when = opts.cancel?.when
  const poll = typeof when === 'function' ? setInterval(() => when() && signal(), 5) : undefined
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000)
  const code = await new Promise<number | null>(res => child.on('close', c => res(c)))
  clearTimeout(killer)
  clearInterval(poll)
  const ended = Date.now()

  const result: RunResult = {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    ms: ended - started,
    exitAfterSignalMs: signalledAt === undefined ? undefined : ended - signalledAt,
    errors: stdout.split('\n').filter(l => l.startsWith('::error'))
  }
  rmSync(dir, { recursive: true, force: true })
  return result
}

function matches(text: string, when: string | RegExp): boolean {
  return typeof when === 'string' ? text.includes(when) : when.test(text)
}

/**
 * Every place a secret shows up: stdout and stderr (except the runner's `::add-mask::` lines,
 * the one place a secret may appear), the outputs and the summary.
 */
export function leaks(result: RunResult, secrets: string[]): string[] {
  const found: string[] = []
  const streams: [string, string][] = [
    ['stdout', result.stdout],
    ['stderr', result.stderr]
  ]
  for (const [where, text] of streams) {
    for (const line of text.split('\n')) {
      if (line.startsWith('::add-mask::')) continue
      for (const s of secrets) if (line.includes(s)) found.push(`${where}: ${line.slice(0, 200)}`)
    }
  }
  for (const [name, value] of Object.entries(result.outputs))
    for (const s of secrets) if (value.includes(s)) found.push(`output ${name}`)
  for (const s of secrets) if (result.summary.includes(s)) found.push('summary')
  return found
}

export function uniqueName(prefix = 'e2e'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`
}

/**
 * A fresh emulator for one test, closed after `body`: its faults, state and request log are the
 * test's own, so tests can run concurrently (`test.concurrent`).
 */
export async function withEmulator<T>(
  options: EmulatorOptions,
  body: (emu: Emulator) => Promise<T>
): Promise<T> {
  const emu = await startEmulator({ port: 0, ...options })
  try {
    return await body(emu)
  } finally {
    await emu.close()
  }
}

/** The inputs that reach `emu`: its key, URL and integration, then `over`. */
export function emulatorInputs(
  emu: Emulator,
  over: Record<string, string> = {}
): Record<string, string> {
  const { apiKey, integrationId } = emu.credentials()
  return { 'api-key': apiKey, 'base-url': emu.url, 'integration-id': integrationId!, ...over }
}

/** The inputs of an upload deploy (`source: internal_source`, no integration), then `over`. */
export function uploadInputs(t: E2E, over: Record<string, string> = {}): Record<string, string> {
  const { 'integration-id': _none, ...rest } = t.inputs({ source: 'internal_source', ...over })
  return rest
}

/** Names of the deployments still there, in every tenant (one being deleted is as good as gone). */
export function namesLeft(emu: Emulator): string[] {
  return emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .filter(d => d.status !== 'AWAITING_DELETE')
    .map(d => d.name)
}

/** The `::warning` lines of a run's stdout. */
export function warnings(stdout: string): string[] {
  return stdout.split('\n').filter(l => l.startsWith('::warning'))
}

/** What an end-to-end test works with: its own emulator and helpers bound to it. */
export interface E2E {
  emu: Emulator
  key: string
  integration: string
  /** The inputs that reach this emulator, polling every 2 s at most, then `over`. */
  inputs(over?: Record<string, string>): Record<string, string>
  /** The deployments of that exact name, in every tenant. */
  named(name: string): ReturnType<Emulator['state']>['tenants'][number]['deployments']
  /** The POST and PATCH requests this emulator received. */
  writes(): RequestLogEntry[]
  /**
   * A deployment that exists before the run, READY with one DEPLOYED revision of `main` from
   * acme/agent-server (what a first good deploy leaves), without running the bundle for it;
   * `over` sets more of it (its type, its tiers). Returns its id.
   */
  seed(name: string, secrets?: Record<string, string>, over?: Partial<Seeded>): string
}

export function e2eContext(emu: Emulator): E2E {
  const c = emu.credentials()
  const seeded: Seeded[] = []
  return {
    emu,
    key: c.apiKey,
    integration: c.integrationId!,
    inputs: (over = {}) => emulatorInputs(emu, { 'poll-interval': '2s', ...over }),
    named: name =>
      emu
        .state()
        .tenants.flatMap(t => t.deployments)
        .filter(d => d.name === name),
    writes: () => emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH'),
    seed: (name, secrets = {}, over = {}) => {
      seeded.push(seededDeployment(emu, name, secrets, over))
      return loadSeeded(emu, seeded, MAIN_AT_PUSH)
    }
  }
}

/**
 * Stage durations of an emulator whose revisions are BUILDING as soon as they exist and for a day:
 * a run against it can only end by its timeout (or a failure), however slow the machine.
 */
export const BUILDS_FOR_A_DAY = {
  CREATING: 0,
  QUEUED: 0,
  AWAITING_BUILD: 0,
  BUILDING: 24 * 3600_000
} as const

/**
 * A test with its own emulator (speed 4 unless `emulator` says otherwise), its main at the
 * default event's commit (mainAtPushCommit: the emulator reports a commit for every build, and a
 * push builds what it pushed), run concurrently with the others of its file. Jest runs the concurrent tests of each describe block one block after
 * the other, so an end-to-end file groups its tests by title prefix, not by describe block.
 */
export function e2e(
  title: string,
  body: (t: E2E) => Promise<void>,
  emulator: EmulatorOptions = {}
): void {
  test.concurrent(
    title,
    () => withEmulator({ speed: 4, ...emulator }, emu => body(e2eContext(mainAtPushCommit(emu)))),
    E2E_TEST_TIMEOUT_MS
  )
}

/** `e2e` with a fake GitHub of its own besides its emulator (see scripts/fake-github.ts). */
export function e2eWithGitHub(
  title: string,
  body: (t: E2E, github: FakeGitHub) => Promise<void>,
  emulator: EmulatorOptions = {}
): void {
  e2e(title, t => withGitHub(github => body(t, github)), emulator)
}

/** A pull_request event of `n` from `headRef` (at `head`), as merged at `sha`. */
export const pullRequestFrom = (
  n: number,
  headRef: string,
  head: string,
  sha: string
): GitHubEvent => ({
  name: 'pull_request',
  ref: `refs/pull/${n}/merge`,
  refName: `${n}/merge`,
  headRef,
  sha,
  payload: { pull_request: { number: n, head: { ref: headRef, sha: head } } }
})

/** The redeploys the emulator was asked for: a rollback's one write. */
export const redeploys = (emu: Emulator) => emu.requests().filter(r => r.path.endsWith('/redeploy'))
