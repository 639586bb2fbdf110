// The upload deploy's archive and PUT (src/upload/) on a generated tree, beside the shell's
// `tar -czf` + `curl -T` of the same tree to the same loopback PUT target, each in a child
// process: wall time from the parent, peak RSS from /usr/bin/time -v (of the largest process, for
// the shell pipeline). Ours runs as a
// bundle (esbuild, as ncc bundles the action): run from the TypeScript sources, Node's type
// stripping alone adds about 20 MB of RSS that the action never has.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { startEmulator } from '../emulator/server.ts'
import { table } from './markdown.ts'
import { quantile } from './stats.ts'

export interface TreeSpec {
  label: string
  bytes: number
  files: number
}

export const TREES: TreeSpec[] = [
  { label: '150 MB, 5,000 files', bytes: 150e6, files: 5000 },
  { label: '10 MB, 350 files', bytes: 10e6, files: 350 }
]

/** A deterministic stream of pseudo-random numbers (xorshift32). */
function prng(seed: number) {
  let x = seed || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}

/** Text of pseudo-random words: compresses about 3:1 with gzip -6, like source and data files. */
function textPool(bytes: number, rand: () => number): Buffer {
  const words = Array.from({ length: 4000 }, (_, i) =>
    Array.from({ length: 3 + (i % 9) }, () =>
      String.fromCharCode(97 + Math.floor(rand() * 26))
    ).join('')
  )
  const parts: string[] = []
  let n = 0
  while (n < bytes) {
    const w = words[Math.floor(rand() * words.length)]! + (rand() < 0.1 ? '\n' : ' ')
    parts.push(w)
    n += w.length
  }
  return Buffer.from(parts.join('')).subarray(0, bytes)
}

/** A tree of `files` files (sizes between 0.2x and 1.8x the mean) in 100-file folders. */
export function generateTree(spec: TreeSpec, seed = 26): string {
  const rand = prng(seed)
  const dir = mkdtempSync(join(tmpdir(), 'bench-upload-tree-'))
  const pool = textPool(4 * 1024 * 1024, rand)
  const weights = Array.from({ length: spec.files }, () => 0.2 + 1.6 * rand())
  const total = weights.reduce((a, b) => a + b, 0)
  writeFileSync(
    join(dir, 'langgraph.json'),
    '{"dependencies": ["."], "graphs": {"agent": "./pkg0/file0.py:graph"}}\n'
  )
  for (let i = 0; i < spec.files; i++) {
    const sub = join(dir, `pkg${Math.floor(i / 100)}`)
    if (i % 100 === 0) mkdirSync(sub)
    const size = Math.round((weights[i]! / total) * spec.bytes)
    const at = Math.floor(rand() * (pool.length - size))
    writeFileSync(join(sub, `file${i}.py`), pool.subarray(at, at + size))
  }
  return dir
}

/** A loopback PUT target that reads and drops the body, then answers 200. */
export async function putTarget(): Promise<{
  url: string
  received: number[]
  close(): Promise<void>
}> {
  const received: number[] = []
  const server = http.createServer((req, res) => {
    let n = 0
    req.on('data', (c: Buffer) => (n += c.length))
    req.on('end', () => {
      received.push(n)
      res.writeHead(200).end()
    })
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bucket/source.tar.gz?sig=x`
  return {
    url,
    received,
    close: () => new Promise(r => server.close(() => r()))
  }
}

export interface RunResult {
  wallMs: number
  maxRssBytes: number
  archiveBytes: number
  /** Ours with UPLOAD_RUN_SAMPLE=1 (bench/upload-run.ts): memoryUsage() at its peak, and maxima. */
  memory?: MemorySample
}

export interface MemorySample {
  atPeak: NodeJS.MemoryUsage
  max: NodeJS.MemoryUsage
}

function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now()
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
      err
        ? reject(new Error(`${cmd} failed: ${stderr || err.message}`))
        : resolve({ stdout, stderr, ms: performance.now() - t0 })
    )
  )
}

/** bench/upload-run.ts bundled into `dir`, as the action's bundle holds src/upload/. */
export async function bundleRunner(dir: string): Promise<string> {
  const outfile = join(dir, 'upload-run.mjs')
  await build({
    entryPoints: [join(import.meta.dirname, 'upload-run.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);"
    }
  })
  return outfile
}

/**
 * Ours: buildArchive then putArchive, in a child process under /usr/bin/time -v like the others.
 * Not the child's own process.resourceUsage().maxRSS: on Linux a forked child's peak counts the
 * parent's resident set at the fork (exec keeps the old high-water mark), and this parent holds
 * the emulator with the LangGraph CLI's uploads.
 */
export async function runOurs(script: string, tree: string, url: string): Promise<RunResult> {
  const r = await run('/usr/bin/time', [
    '-v',
    process.execPath,
    script,
    tree,
    'langgraph.json',
    url
  ])
  const out = JSON.parse(r.stdout) as { size: number; memory?: MemorySample }
  return {
    wallMs: r.ms,
    maxRssBytes: peakRss(r.stderr),
    archiveBytes: out.size,
    ...(out.memory ? { memory: out.memory } : {})
  }
}

/** The peak RSS that /usr/bin/time -v reports, in bytes. */
function peakRss(stderr: string): number {
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]
  if (kb === undefined) throw new Error(`no peak RSS in: ${stderr.slice(-300)}`)
  return Number(kb) * 1024
}

/** The shell: `tar -czf` of the tree to a file, then `curl -T` of it, timed by /usr/bin/time -v. */
export async function runShell(tree: string, url: string): Promise<RunResult> {
  const out = mkdtempSync(join(tmpdir(), 'bench-upload-shell-'))
  const file = join(out, 'source.tar.gz')
  const script =
    `tar -czf "${file}" -C "${tree}" . && ` +
    `curl -sS -f -o /dev/null -T "${file}" -H 'Content-Type: application/gzip' ` +
    `-H 'X-Goog-Content-Length-Range: 0,209715200' '${url}' && stat -c %s "${file}"`
  try {
    const r = await run('/usr/bin/time', ['-v', 'bash', '-c', script])
    return { wallMs: r.ms, maxRssBytes: peakRss(r.stderr), archiveBytes: Number(r.stdout.trim()) }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

/** The LangGraph JS CLI whose remote build is compared, installed once under node_modules/.cache. */
export const LANGGRAPH_CLI = '@langchain/langgraph-cli@1.5.1'

/** The CLI's entry, installing it from the npm registry on first use; a reason when that fails. */
export async function langGraphCli(
  log: (line: string) => void
): Promise<{ cli?: string; reason?: string }> {
  const prefix = join(import.meta.dirname, '../node_modules/.cache/bench-langgraph-cli')
  const cli = join(prefix, 'node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs')
  if (existsSync(cli)) return { cli }
  log(`upload: installing ${LANGGRAPH_CLI} into node_modules/.cache (once)`)
  try {
    mkdirSync(prefix, { recursive: true })
    writeFileSync(join(prefix, 'package.json'), '{"private": true}\n')
    await run('npm', [
      'install',
      '--prefix',
      prefix,
      LANGGRAPH_CLI,
      '--no-audit',
      '--no-fund',
      '--ignore-scripts'
    ])
    return existsSync(cli) ? { cli } : { reason: 'its install has no dist/cli/cli.mjs' }
  } catch (err) {
    return { reason: `it could not be installed (${(err as Error).message.split('\n')[0]})` }
  }
}

/**
 * The LangGraph JS CLI's `deploy --remote --no-wait` against the emulator (langsmith dialect):
 * find or create, archive, upload-url, PUT, PATCH; no waiting. Timed by /usr/bin/time -v.
 */
export async function runLangGraph(
  cli: string,
  emulator: { url: string; apiKey: string; tenantId: string },
  tree: string,
  name: string
): Promise<RunResult> {
  const r = await new Promise<{ stderr: string; ms: number }>((resolve, reject) => {
    const t0 = performance.now()
    execFile(
      '/usr/bin/time',
      [
        '-v',
        process.execPath,
        cli,
        'deploy',
        '--remote',
        '--no-wait',
        '--no-input',
        '--host-url',
        emulator.url,
        '--name',
        name,
        '-c',
        join(tree, 'langgraph.json')
      ],
      {
        cwd: tree,
        maxBuffer: 1 << 24,
        env: {
          ...process.env,
          LANGSMITH_API_KEY: emulator.apiKey,
          LANGSMITH_TENANT_ID: emulator.tenantId,
          NO_COLOR: '1'
        }
      },
      (err, _stdout, stderr) =>
        err
          ? reject(new Error(`langgraph deploy failed: ${stderr}`))
          : resolve({ stderr, ms: performance.now() - t0 })
    )
  })
  return { wallMs: r.ms, maxRssBytes: peakRss(r.stderr), archiveBytes: NaN }
}

export interface UploadRow {
  tree: string
  variant: string
  wallMs: number[]
  maxRssBytes: number
  archiveBytes: number
}

/** `runs` alternating runs of each variant on each tree; the LangGraph CLI's when it runs. */
export async function uploadRows(
  runs: number,
  log: (line: string) => void
): Promise<{ rows: UploadRow[]; langGraphNote?: string }> {
  const rows: UploadRow[] = []
  const target = await putTarget()
  const work = mkdtempSync(join(tmpdir(), 'bench-upload-'))
  const script = await bundleRunner(work)
  const lg = await langGraphCli(log)
  const emulator = lg.cli ? await startEmulator({ port: 0, dialect: 'langsmith' }) : undefined
  const creds = emulator && { url: emulator.url, ...emulator.credentials() }
  try {
    for (const spec of TREES) {
      log(`upload: generating ${spec.label}`)
      const tree = generateTree(spec)
      try {
        const row = (variant: string): UploadRow => ({
          tree: spec.label,
          variant,
          wallMs: [],
          maxRssBytes: 0,
          archiveBytes: NaN
        })
        const variants: Array<[UploadRow, (t: string) => Promise<RunResult>]> = [
          [row('control-plane-deploy (src/upload)'), t => runOurs(script, t, target.url)],
          [row('`tar -czf` + `curl -T`'), t => runShell(t, target.url)]
        ]
        if (lg.cli && creds)
          variants.push([
            row('LangGraph JS CLI `deploy --remote --no-wait`'),
            t => runLangGraph(lg.cli!, creds, t, `bench-${spec.files}`)
          ])
        for (let i = 0; i < runs; i++) {
          for (const [r, f] of variants) {
            const result = await f(tree)
            r.wallMs.push(result.wallMs)
            r.maxRssBytes = Math.max(r.maxRssBytes, result.maxRssBytes)
            r.archiveBytes = result.archiveBytes
          }
        }
        rows.push(...variants.map(([r]) => r))
      } finally {
        rmSync(tree, { recursive: true, force: true })
      }
    }
  } finally {
    await target.close()
    await emulator?.close()
    rmSync(work, { recursive: true, force: true })
  }
  return {
    rows,
    langGraphNote: lg.reason && `The LangGraph JS CLI (${LANGGRAPH_CLI}) did not run: ${lg.reason}.`
  }
}

export const median = (v: number[]) => quantile(v, 0.5)

/** The table: median time of the runs, peak RSS over them, archive size. */
export function uploadTable(rows: UploadRow[], runs: number): string {
  return table(
    ['tree', 'variant', `time (median of ${runs})`, 'vs shell', 'peak RSS', 'archive'],
    rows.map(r => {
      const shell = rows.find(x => x.tree === r.tree && x.variant.includes('curl'))
      const ratio = shell ? `${(median(r.wallMs) / median(shell.wallMs)).toFixed(2)}x` : ''
      return [
        r.tree,
        r.variant,
        `${(median(r.wallMs) / 1000).toFixed(2)} s`,
        ratio,
        `${(r.maxRssBytes / 1048576).toFixed(0)} MiB`,
        Number.isNaN(r.archiveBytes) ? '' : `${(r.archiveBytes / 1048576).toFixed(1)} MiB`
      ]
    })
  )
}
