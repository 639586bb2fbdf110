// Runs the committed bundle as the runner does (scripts/runner-env.ts: Node 24 from the npm registry, a
// clean environment, INPUT_<NAME> variables, the GITHUB_* files), with
// what the benchmark needs on top: a high-resolution start time on the same clock as the
// emulator's request log, the exit time, and the peak RSS through a preload that writes
// `process.resourceUsage().maxRSS` to a file when the process exits (never to stdout).
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseOutputs, runnerEnv } from '../scripts/runner-env.ts'

const ROOT = join(import.meta.dirname, '..')
export const DIST = join(ROOT, 'dist/index.js')
/** The Node 24 the runner uses, from the npm registry. */
export const NODE24 = join(ROOT, 'node_modules/node/bin/node')

/**
 * The bundle the runs use. `snapshotDist()` copies dist/ to a temporary directory first, so that
 * a rebuild by someone else in the same checkout cannot change the bundle half-way through a run.
 * All of dist/ is copied: index.js loads its other chunks (octokit, for runs with `environment`)
 * from its own directory.
 */
export const bundle = { path: DIST, snapshot: false }

export function snapshotDist(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-bench-dist-'))
  // Recursively: dist/ holds the CLI's and the emulator's bundles in folders of their own.
  cpSync(dirname(DIST), dir, { recursive: true })
  bundle.path = join(dir, 'index.js')
  bundle.snapshot = true
  return { path: bundle.path, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Epoch ms with sub-ms resolution; the emulator is started with the same clock. */
export const clock = (): number => performance.timeOrigin + performance.now()

/**
 * Writes the peak RSS in KiB to $BENCH_MAXRSS_FILE when the process exits: VmHWM of
 * /proc/self/status, which starts afresh at exec. (`process.resourceUsage().maxRSS` does not: Linux
 * keeps ru_maxrss across fork and exec, so a child would report at least the RSS of the bench
 * process that spawned it.) A data: URL rather than a file of bench/: a .ts preload would load
 * Node's TypeScript stripper and add tens of MiB.
 */
const MAXRSS_PRELOAD =
  'data:text/javascript,' +
  encodeURIComponent(
    "import { readFileSync, writeFileSync } from 'node:fs'\n" +
      'const file = process.env.BENCH_MAXRSS_FILE\n' +
      'const peak = () => {\n' +
      "  try { return /VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1] }\n" +
      '  catch { return `maxrss:${process.resourceUsage().maxRSS}` }\n' +
      '}\n' +
      "if (file) process.on('exit', () => writeFileSync(file, String(peak())))\n"
  )

/**
 * Writes the CPU time (user and system, all threads, in ms) the process has used when it opens its
 * first client socket, to $BENCH_CPU_FILE: the work before the first request, which other
 * processes on the machine stretch far less than they stretch the wall time.
 */
const CPU_PRELOAD =
  'data:text/javascript,' +
  encodeURIComponent(
    "import dc from 'node:diagnostics_channel'\n" +
      "import { writeFileSync } from 'node:fs'\n" +
      'const file = process.env.BENCH_CPU_FILE\n' +
      'let seen = false\n' +
      "dc.subscribe('net.client.socket', () => {\n" +
      '  if (seen || !file) return\n' +
      '  seen = true\n' +
      '  const u = process.cpuUsage()\n' +
      '  writeFileSync(file, String((u.user + u.system) / 1000))\n' +
      '})\n'
  )

export interface BundleOptions {
  inputs: Record<string, string>
  /** Measure the peak RSS (adds `--import` of a tiny preload). */
  rss?: boolean
  /** Measure the CPU time up to the first client socket (adds `--import` of a tiny preload). */
  cpu?: boolean
  /** Instead of the bundle, run these arguments (e.g. `['-e', '0']`), in the same environment. */
  args?: string[]
  /** Extra environment variables. */
  env?: Record<string, string>
  timeoutMs?: number
}

export interface BundleResult {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  /** `clock()` just before spawn and at the `exit` event. */
  startedAt: number
  exitedAt: number
  /** Peak resident set size in bytes, when `rss` was asked for. */
  maxRssBytes: number | undefined
  /** CPU ms up to the first client socket, when `cpu` was asked for and one was opened. */
  cpuMs: number | undefined
}

export async function runBundle(opts: BundleOptions): Promise<BundleResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-bench-'))
  const env = { ...runnerEnv(dir, opts.inputs), ...opts.env }
  const rssFile = join(dir, 'maxrss')
  const cpuFile = join(dir, 'cpu')
  const args = [
    ...(opts.rss ? ['--import', MAXRSS_PRELOAD] : []),
    ...(opts.cpu ? ['--import', CPU_PRELOAD] : []),
    ...(opts.args ?? [bundle.path])
  ]
  if (opts.rss) env.BENCH_MAXRSS_FILE = rssFile
  if (opts.cpu) env.BENCH_CPU_FILE = cpuFile

  const startedAt = clock()
  const child = spawn(NODE24, args, { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000)
  let exitedAt = 0
  child.once('exit', () => (exitedAt = clock()))
  const code = await new Promise<number | null>(res => child.on('close', c => res(c)))
  clearTimeout(killer)

  let maxRssBytes: number | undefined
  if (opts.rss) {
    try {
      // `maxrss:` marks the fallback where /proc is missing (an overestimate, see above).
      maxRssBytes = Number(readFileSync(rssFile, 'utf8').replace('maxrss:', '')) * 1024
    } catch {
      maxRssBytes = undefined
    }
  }
  const cpuMs = opts.cpu && existsSync(cpuFile) ? Number(readFileSync(cpuFile, 'utf8')) : undefined
  const outputs = parseOutputs(readFileSync(join(dir, 'output'), 'utf8'))
  rmSync(dir, { recursive: true, force: true })
  return { code, stdout, stderr, outputs, startedAt, exitedAt, maxRssBytes, cpuMs }
}

/** `node -e 0` in the same environment: the bare start the startup goal is measured against. */
export const runBare = (rss = false) => runBundle({ inputs: {}, args: ['-e', '0'], rss })

/** A short description of a failed run, for error messages. */
export function describeFailure(r: BundleResult): string {
  const errors = r.stdout.split('\n').filter(l => l.startsWith('::error'))
  return `exit ${r.code}: ${errors.join(' | ') || r.stderr.slice(0, 500) || r.stdout.slice(-500)}`
}
