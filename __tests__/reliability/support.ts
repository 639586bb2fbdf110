// Shared machinery of the reliability suite: one case = one or more runs of the committed bundle
// against an emulator, with every figure taken from what the emulator recorded (its state and its
// request log) or from the process itself (exit code, wall time, what it printed), never from the
// action's own account of itself.
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import {
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type RequestLogEntry
} from '../../src/emulator/server.ts'
import { DIST, leaks, runAction, type RunOptions, type RunResult } from '../e2e/harness.ts'

/** The figures of one case, as the table counts them. */
export interface Figures {
  group: string
  name: string
  passed: boolean
  problems: string[]
  /** Deployments with the case's name beyond the first. */
  duplicated: number
  /** |new revisions the emulator recorded - the revisions the case expects|. */
  revisionsOff: number
  /** Hits of the secret scan over stdout, stderr, outputs and summary. */
  leaked: number
  /** Wall time of the longest run of the bundle in the case. */
  longestMs: number
  runs: number
  /** Measurements worth showing beside the verdict (gaps, counts, memory). */
  notes: string[]
}

/** Every case of the suite, in the order they finished: the table is built from this. */
export const figures: Figures[] = []

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

  readonly group: string
  readonly name: string

  constructor(group: string, name: string) {
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
    figures.push(f)
    return f
  }
}

/** Runs `body` as one case; an exception is a failed case, never a lost one. */
export async function runCase(
  group: string,
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

/** Runs the jobs, at most `n` at a time, and returns their results in order. */
export async function pool<T>(n: number, jobs: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(jobs.length)
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++
      out[i] = await jobs[i]!()
    }
  }
  await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, worker))
  return out
}

/** A fresh emulator for one case (faults apply to every request that matches, so one per case). */
export async function withEmulator<T>(
  options: EmulatorOptions,
  body: (emu: Emulator) => Promise<T>
): Promise<T> {
  const emu = await startEmulator({ port: 0, speed: 10, ...options })
  try {
    return await body(emu)
  } finally {
    await emu.close()
  }
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
  let peak = 0
  let pid: string | undefined
  let stop = false
  const sampler = (async () => {
    while (!stop) {
      try {
        pid ??= findProcess(probe)
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

function findProcess(probe: string): string | undefined {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(DIST)) continue
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
