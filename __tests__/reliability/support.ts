// Shared machinery of the reliability suite: one case = one jest test = one or more runs of the
// bundle against an emulator, with every figure taken from what the emulator recorded (its state
// and its request log) or from the process itself (exit code, wall time, what it printed), never
// from the action's own account of itself. A case collects its problems and fails with all of them.
import { expect, test } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import type { Emulator, EmulatorOptions, RequestLogEntry } from '../../emulator/server.ts'
import { recordFigures, type Figures, type Group } from '../../scripts/reliability-results.ts'
import {
  bundlePath,
  leaks,
  mainAtPushCommit,
  runAction,
  uniqueName,
  withEmulator as withOwnEmulator,
  type RunOptions,
  type RunResult
} from '../e2e/harness.ts'

export type { Figures }

/** Secret values of one case: different per case, so a leak is traced to the case that made it. */
export interface CaseSecrets {
  openai: string
  /** With `"`, `\` and `=`: its JSON-escaped form differs, and it splits on `=` if parsed badly. */
  odd: string
  github: string
}

export function newSecrets(): CaseSecrets {
  const hex = () => randomBytes(8).toString('hex')
  return {
    openai: `sk-live-${hex()}`,
    odd: `p@ss"w0rd\\${hex()}=tail`,
    github: `ghs_${hex()}${hex()}`
  }
}

/** The `secrets` input carrying the case's values. */
export function secretsInput(s: CaseSecrets): string {
  return `OPENAI_API_KEY=${s.openai}\n# a comment\nOTHER_TOKEN=${s.odd}`
}

/**
 * The inputs every case starts from: the emulator's key and URL, and fresh secrets in `secrets` and
 * `github-token`. All of them, and `alsoSecret`, join the case's secret scan.
 */
export function caseInputs(
  c: Case,
  emu: Emulator,
  ...alsoSecret: string[]
): Record<string, string> {
  const { apiKey } = emu.credentials()
  const s = newSecrets()
  c.secrets.push(apiKey, s.openai, s.odd, s.github, ...alsoSecret)
  return {
    'api-key': apiKey,
    'base-url': emu.url,
    secrets: secretsInput(s),
    'github-token': s.github
  }
}

/**
 * The inputs that create `name` (or update it when it exists): `caseInputs` with the emulator's
 * integration, the name, a 2 s poll and a 60 s timeout, then `over`.
 */
export function deployInputs(
  c: Case,
  emu: Emulator,
  name: string,
  over: Record<string, string> = {},
  ...alsoSecret: string[]
): Record<string, string> {
  return {
    ...caseInputs(c, emu, ...alsoSecret),
    'integration-id': emu.credentials().integrationId!,
    name,
    'poll-interval': '2s',
    timeout: '60s',
    ...over
  }
}

export class Case {
  readonly problems: string[] = []
  readonly notes: string[] = []
  /** Values that must appear nowhere but in `::add-mask::` lines. */
  readonly secrets: string[] = []
  duplicated = 0
  revisionsOff = 0
  leaked = 0
  longestMs = 0
  runs = 0

  readonly group: Group
  readonly name: string

  constructor(group: Group, name: string) {
    this.group = group
    this.name = name
  }

  /** Records a problem unless `ok`; returns `ok`. */
  check(ok: boolean, what: string): boolean {
    if (!ok) this.problems.push(what)
    return ok
  }

  note(text: string): void {
    this.notes.push(text)
  }

  /** One run of the bundle, scanned for every secret of the case. */
  async run(opts: RunOptions): Promise<RunResult> {
    const r = await runAction({ timeoutMs: 90_000, ...opts })
    this.runs++
    this.longestMs = Math.max(this.longestMs, r.ms)
    const found = leaks(r, this.secrets)
    this.leaked += found.length
    for (const where of found.slice(0, 3)) this.problems.push(`secret leaked: ${where}`)
    this.check(r.code !== null, 'no exit code: the process was killed by a signal or the harness')
    this.check(!/^\s+at .+\(.+:\d+:\d+\)$/m.test(r.stdout + r.stderr), 'a stack trace was printed')
    return r
  }

  /**
   * Counts what the emulator holds under `name`: `deployments` expected (0 or 1) and `revisions`
   * new ones expected since `before` (the revisions that name had before the case).
   */
  tally(
    emu: Emulator,
    name: string,
    expect: { deployments: number; revisions: number },
    before = 0
  ) {
    const ds = deploymentsNamed(emu, name)
    this.duplicated += Math.max(0, ds.length - 1)
    const revisions = ds.reduce((n, d) => n + d.revisions.length, 0) - before
    this.revisionsOff += Math.abs(revisions - expect.revisions)
    this.check(
      ds.length === expect.deployments,
      `${ds.length} deployments named ${name}, expected ${expect.deployments}`
    )
    this.check(
      revisions === expect.revisions,
      `${revisions} new revisions, expected ${expect.revisions}`
    )
  }

  finish(): Figures {
    const f: Figures = {
      group: this.group,
      name: this.name,
      passed: this.problems.length === 0,
      problems: this.problems,
      duplicated: this.duplicated,
      revisionsOff: this.revisionsOff,
      leaked: this.leaked,
      longestMs: this.longestMs,
      runs: this.runs,
      notes: this.notes
    }
    return f
  }
}

/** Runs `body` as one case; an exception is a failed case, never a lost one. */
export async function runCase(
  group: Group,
  name: string,
  body: (c: Case) => Promise<void>
): Promise<Figures> {
  const c = new Case(group, name)
  try {
    await body(c)
  } catch (err) {
    c.problems.push(`threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  }
  return c.finish()
}

/** Runs the jobs given to it at most `n` at a time, in the order given. */
export type Lane = <T>(job: () => Promise<T>) => Promise<T>

export function lane(n: number): Lane {
  let running = 0
  const waiting: Array<() => void> = []
  return async job => {
    if (running >= n) await new Promise<void>(resolve => waiting.push(resolve))
    running++
    try {
      return await job()
    } finally {
      running--
      waiting.shift()?.()
    }
  }
}

/**
 * Generous: jest starts every concurrent case of a file at once and a lane holds most of them
 * back, so a case's time includes its wait. Each run of the bundle has its own kill timer.
 */
const CASE_TIMEOUT_MS = 15 * 60_000

export interface CaseOptions {
  /** Run within this lane (concurrently with the file's other cases, within the lane's bound). */
  lane?: Lane
  /** Run alone, after the file's concurrent cases (one at a time). */
  serial?: boolean
}

/**
 * One case as one jest test, titled by what it shows: runs `body`, appends its figures to the
 * results file (for `npm run reliability:report`), and fails with every problem it found.
 */
export function reliabilityCase(
  group: Group,
  title: string,
  body: (c: Case) => Promise<void>,
  opts: CaseOptions = {}
): void {
  const declare = opts.serial ? test : test.concurrent
  declare(
    title,
    async () => {
      const run = () => runCase(group, title, body)
      const f = await (opts.lane ? opts.lane(run) : run())
      recordFigures(f)
      expect(f.problems).toEqual([])
    },
    CASE_TIMEOUT_MS
  )
}

/** A case in both log modes: the runner's debug logging (`RUNNER_DEBUG=1`) or not. */
export function inBothLogModes(
  group: Group,
  title: string,
  body: (c: Case, debug: boolean) => Promise<void>,
  opts: CaseOptions = {}
): void {
  for (const debug of [false, true])
    reliabilityCase(group, withDebug(title, debug), c => body(c, debug), opts)
}

/** `inBothLogModes` with an emulator of its own for each run of the case (the suite's settings). */
export function inBothLogModesWithEmulator(
  group: Group,
  title: string,
  body: (c: Case, emu: Emulator, debug: boolean) => Promise<void>,
  opts: CaseOptions = {}
): void {
  inBothLogModes(group, title, (c, debug) => withEmulator({}, emu => body(c, emu, debug)), opts)
}

export const withDebug = (title: string, debug: boolean) =>
  `${title}${debug ? ' (RUNNER_DEBUG)' : ''}`

/** A fresh emulator for one case at 10x speed (faults apply to every request that matches). */
export function withEmulator<T>(
  options: EmulatorOptions,
  body: (emu: Emulator) => Promise<T>
): Promise<T> {
  // Main at the pushed commit, as a push finds it on the code host (the emulator now reports a
  // commit for every build: without a pin, one of its own, which would read as "main moved on").
  return withOwnEmulator({ speed: 10, ...options }, emu => body(mainAtPushCommit(emu)))
}

export function deploymentsNamed(emu: Emulator, name: string) {
  return emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .filter(d => d.name === name)
}

/** The fixture's pre-existing deployment (READY, one DEPLOYED revision, one secret). */
export function existingDeployment(emu: Emulator) {
  const d = emu.state().tenants.flatMap(t => t.deployments)[0]
  if (!d) throw new Error('the fixture has no deployment')
  return d
}

/** The value of the fixture deployment's one secret: no run may print it. */
export const FIXTURE_SECRET = 'sk-demo-not-a-real-key'
/** The fixture deployment's repository: an explicit one that differs is an error before any write. */
export const FIXTURE_REPOSITORY = 'acme/support-bot'
/** Any revision of any deployment (a fault's path). */
export const REVISIONS = '/v2/deployments/*/revisions/*'

/** What a run deploys: a new name (created), or the fixture's deployment by name or by id. */
export type Target = 'new' | 'existing' | 'id'

export interface Targeted {
  name: string
  /** Revisions the name had before the run. */
  before: number
  /** The name's latest revision before the run (the fixture's), or null for a new name. */
  previous: string | null
  inputs: Record<string, string>
}

/**
 * `deployInputs` for a target (a new name starts with `prefix`); the fixture's secret joins the
 * case's secret scan.
 */
export function targetInputs(
  c: Case,
  emu: Emulator,
  target: Target,
  prefix: string,
  over: Record<string, string> = {}
): Targeted {
  const existing = existingDeployment(emu)
  const name = target === 'new' ? uniqueName(prefix) : existing.name
  const inputs = deployInputs(c, emu, name, over, FIXTURE_SECRET)
  if (target === 'existing') inputs.repository = FIXTURE_REPOSITORY
  if (target === 'id') {
    delete inputs.name
    delete inputs['integration-id']
    inputs['deployment-id'] = existing.id
  }
  if (target === 'new') return { name, before: 0, previous: null, inputs }
  return { name, before: existing.revisions.length, previous: existing.latest_revision_id, inputs }
}

export const isWrite = (r: RequestLogEntry) => r.method === 'POST' || r.method === 'PATCH'

/**
 * Waits until every request the emulator is still holding back (a `delay` fault) has been
 * handled: a write that lands after the run ended still counts, so the figures wait for it.
 */
export async function settled(emu: Emulator, maxMs = 45_000): Promise<void> {
  const until = Date.now() + maxMs
  for (;;) {
    const pending = emu.requests().some(r => r.fault === 'delay' && r.status === null)
    if (!pending || Date.now() > until) return
    await sleep(100)
  }
}

export const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms))

/** `::error` lines decoded as the runner shows them (`%0A` is a line break, `%25` a percent). */
export function errorText(r: RunResult): string {
  return r.errors
    .join('\n')
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%')
}

/**
 * Peak resident memory (VmHWM) of the bundle's process whose environment carries `probe`,
 * sampled while `body` runs. Read from /proc, so it is the process's own figure, not an estimate.
 */
export async function peakRss<T>(
  probe: string,
  body: () => Promise<T>
): Promise<{ result: T; peakBytes: number }> {
  const bundle = await bundlePath()
  let peak = 0
  let pid: string | undefined
  let stop = false
  const sampler = (async () => {
    while (!stop) {
      try {
        pid ??= findProcess(bundle, probe)
        if (pid) {
          const status = readFileSync(`/proc/${pid}/status`, 'utf8')
          const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
          peak = Math.max(peak, kb * 1024)
        }
      } catch {
        // the process ended between two reads
      }
      await sleep(10)
    }
  })()
  try {
    const result = await body()
    return { result, peakBytes: peak }
  } finally {
    stop = true
    await sampler
  }
}

function findProcess(bundle: string, probe: string): string | undefined {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(bundle)) continue
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(probe)) return pid
    } catch {
      // not ours, or gone
    }
  }
  return undefined
}

export const MiB = 1024 * 1024

/** The runner's debug logging (`RUNNER_DEBUG=1`), or not. */
export function debugEnv(debug: boolean): Record<string, string> {
  return debug ? { RUNNER_DEBUG: '1' } : {}
}

/** The `::warning` lines of stdout, each one warning as the runner shows it. */
export function warningLines(r: RunResult): string[] {
  return r.stdout.split('\n').filter(l => l.startsWith('::warning'))
}
