// Startup: the bundle's size, and the time from process start to the first request the emulator
// receives and to exit, for a dry run against a zero-latency emulator, interleaved run by run with
// a bare `node -e 0`, a minimal ES module that sends one request (the floor for any action), and
// the peer: the smallest @actions/core action that sends one request (bench/peer-action.ts),
// bundled as the action is. The working tree is bundled too (as `npm run build`), so the figure
// is that of the sources even when dist/ is older. With `experiments`, bundles with modules a dry
// run never loads replaced by empty ones check that they stay off the start: @octokit/core sits
// in a chunk imported only with `environment`, yaml in one imported only when a YAML/JSON input is
// set, so replacing either should change nothing. (zod cannot be replaced: the run loads the model
// when the first answer is read.) The static-model variant is the working tree with the model
// (src/control-plane/schema.ts, and zod with it) imported statically rather than on first use: the
// price of the lazy loading, side by side with the peer in the same rounds.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { startEmulator } from '../emulator/server.ts'
import { bundle, clock, describeFailure, runBundle } from './bundle.ts'
import { table } from './markdown.ts'
import { ms, summarize, type Summary } from './stats.ts'

const ROOT = join(import.meta.dirname, '..')

export interface BundleInfo {
  bytes: number
  gzipBytes: number
  sha256: string
  /** The other chunks beside index.js (`N.index.js`, loaded by `import()` only when needed), with their sizes. */
  chunks: { file: string; bytes: number }[]
}

export function bundleInfo(path = bundle.path): BundleInfo {
  const data = readFileSync(path)
  const chunks = readdirSync(dirname(path))
    .filter(f => f.endsWith('.index.js'))
    .map(file => ({ file, bytes: statSync(join(dirname(path), file)).size }))
  return {
    bytes: data.length,
    gzipBytes: gzipSync(data).length,
    sha256: createHash('sha256').update(data).digest('hex'),
    chunks
  }
}

interface Variant {
  label: string
  /** Arguments for node; undefined = `-e 0`. */
  args: string[] | undefined
  /** Whether it sends a request (the bare start does not). */
  requests: boolean
  bytes: number | undefined
}

export interface VariantResult {
  variant: Variant
  first: Summary | undefined
  exit: Summary
  /** Per iteration: first request / bare exit of the same iteration. */
  ratio: Summary | undefined
  /** Per iteration: first request / the peer's first request of the same iteration. */
  vsPeer: Summary | undefined
  /** CPU time (all threads) up to the first client socket. */
  cpu: Summary | undefined
}

export interface StartupResult {
  info: BundleInfo
  runs: number
  results: VariantResult[]
  notes: string[]
}

const FLOOR_SCRIPT = `import http from 'node:http'
http.get(process.env.BENCH_URL + '/v2/deployments', res => res.resume())
`

export const PEER_LABEL = 'peer: the smallest @actions/core action sending one request'
export const TREE_LABEL = 'action dry run, working tree (as `npm run build`)'
export const STATIC_MODEL_LABEL = 'working tree, the model (zod) imported statically'

/** load-schema.ts with the model imported at start, as the static-model variant builds it. */
const STATIC_LOAD_SCHEMA = `import * as Schema from './schema.ts'
export type Model = typeof Schema
export function loadSchema(): Promise<Model> {
  return Promise.resolve(Schema)
}
`

interface Spec {
  label: string
  entry: string
  /** Modules replaced by an empty one (externals of the bundle). */
  stubs: string[]
  /** Files of src/ replaced by this text, in a copy of the sources. */
  replace?: Record<string, string>
}

/** A copy of src/ (with package.json, tsconfig.json, and node_modules linked) where `replace` holds. */
function patchedRoot(dir: string, replace: Record<string, string>): string {
  const root = join(dir, 'patched')
  cpSync(join(ROOT, 'src'), join(root, 'src'), { recursive: true })
  for (const f of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(root, f))
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'))
  for (const [file, text] of Object.entries(replace)) writeFileSync(join(root, file), text)
  return root
}

function buildVariants(dir: string, notes: string[], experiments: boolean): Variant[] {
  const ncc = join(ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js')
  const specs: Spec[] = [
    { label: PEER_LABEL, entry: 'bench/peer-action.ts', stubs: [] },
    { label: TREE_LABEL, entry: 'src/index.ts', stubs: [] },
    {
      label: STATIC_MODEL_LABEL,
      entry: 'src/index.ts',
      stubs: [],
      replace: { 'src/control-plane/load-schema.ts': STATIC_LOAD_SCHEMA }
    },
    ...(experiments
      ? [
          {
            label: 'working tree, @octokit/core replaced by an empty module',
            entry: 'src/index.ts',
            stubs: ['@octokit/core']
          },
          {
            label: 'working tree, yaml replaced by an empty module',
            entry: 'src/index.ts',
            stubs: ['yaml']
          }
        ]
      : [])
  ]
  const out: Variant[] = []
  specs.forEach((spec, i) => {
    const target = join(dir, `variant-${i}`)
    try {
      const externals = spec.stubs.flatMap(m => ['-e', m])
      const root = spec.replace ? patchedRoot(dir, spec.replace) : ROOT
      const common = ['build', join(root, spec.entry), '--target', 'es2022', '--transpile-only']
      execFileSync(
        process.execPath,
        [ncc, ...common, '-o', target, '-q', '--no-cache', ...externals],
        { cwd: root, stdio: 'pipe', timeout: 120_000 }
      )
      // An external is required at run time from the bundle's directory: give it an empty module.
      for (const m of spec.stubs) {
        mkdirSync(join(target, 'node_modules', m), { recursive: true })
        writeFileSync(join(target, 'node_modules', m, 'index.js'), 'module.exports = {}\n')
      }
      const file = join(target, 'index.js')
      out.push({ label: spec.label, args: [file], requests: true, bytes: statSync(file).size })
    } catch (err) {
      notes.push(`Could not build "${spec.label}": ${(err as Error).message.split('\n')[0]}`)
    }
  })
  return out
}

export async function startup(runs: number, experiments: boolean): Promise<StartupResult> {
  const info = bundleInfo()
  const notes: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'cpd-bench-startup-'))
  const emu = await startEmulator({ port: 0, now: clock })
  try {
    const floor = join(dir, 'floor.mjs')
    writeFileSync(floor, FLOOR_SCRIPT)
    const variants: Variant[] = [
      { label: 'bare `node -e 0`', args: undefined, requests: false, bytes: undefined },
      { label: 'minimal ES module sending one request', args: [floor], requests: true, bytes: 0 },
      {
        label: 'action dry run (`dist/index.js`)',
        args: [bundle.path],
        requests: true,
        bytes: info.bytes
      },
      ...buildVariants(dir, notes, experiments)
    ]
    const c = emu.credentials()
    const inputs = {
      'api-key': c.apiKey,
      'base-url': emu.url,
      'integration-id': c.integrationId!,
      name: 'startup-probe',
      'dry-run': 'true'
    }
    const first = variants.map(() => [] as number[])
    const exit = variants.map(() => [] as number[])
    const cpu = variants.map(() => [] as number[])
    const warmup = 3
    for (let i = 0; i < warmup + runs; i++) {
      for (const [v, variant] of variants.entries()) {
        emu.clearRequests()
        const r = await runBundle({
          inputs,
          args: variant.args ?? ['-e', '0'],
          env: { BENCH_URL: emu.url },
          // Every process, the bare start too, carries the same preload.
          cpu: true
        })
        if (variant.args?.[0]?.endsWith('index.js') && variant.label !== PEER_LABEL && r.code !== 0)
          throw new Error(`${variant.label}: ${describeFailure(r)}`)
        if (i < warmup) continue
        const q = emu.requests()[0]
        if (variant.requests) {
          if (!q) throw new Error(`${variant.label}: no request arrived`)
          first[v]!.push(Date.parse(q.time) - r.startedAt)
          if (r.cpuMs !== undefined) cpu[v]!.push(r.cpuMs)
        }
        exit[v]!.push(r.exitedAt - r.startedAt)
      }
    }
    const bare = exit[0]!
    const peer = first[variants.findIndex(x => x.label === PEER_LABEL)]
    const perRound = (v: number, by: number[]) => summarize(first[v]!.map((f, i) => f / by[i]!))
    const results = variants.map((variant, v) => ({
      variant,
      first: variant.requests ? summarize(first[v]!) : undefined,
      exit: summarize(exit[v]!),
      ratio: variant.requests ? perRound(v, bare) : undefined,
      vsPeer: variant.requests && peer ? perRound(v, peer) : undefined,
      cpu: cpu[v]!.length ? summarize(cpu[v]!) : undefined
    }))
    return { info, runs, results, notes }
  } finally {
    await emu.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const ratioCell = (s: Summary) =>
  `${s.median.toFixed(2)}x (${s.p10.toFixed(2)} – ${s.p90.toFixed(2)})`

const cell = (s: Summary | undefined) =>
  s ? `${ms(s.median, 1)} (${ms(s.p10, 1)} – ${ms(s.p90, 1)})` : '–'

export function startupTable(r: StartupResult, experiments: boolean): string {
  const bare = r.results[0]!.exit
  const rows = r.results
    .filter(
      x =>
        experiments ||
        x.variant.label === STATIC_MODEL_LABEL ||
        !x.variant.label.startsWith('working tree,')
    )
    .map(x => [
      x.variant.label,
      x.variant.bytes === undefined
        ? '–'
        : x.variant.bytes
          ? `${(x.variant.bytes / 1024).toFixed(0)} KiB`
          : 'tiny',
      cell(x.first),
      cell(x.exit),
      x.first ? `${(x.first.median / bare.median).toFixed(2)}x` : '1x (exit)',
      x.first ? `${ms(x.first.min, 1)} / ${(x.first.min / bare.min).toFixed(2)}x` : ms(bare.min, 1),
      x.ratio ? `${x.ratio.p10.toFixed(2)} – ${x.ratio.p90.toFixed(2)}` : '–',
      x.vsPeer ? ratioCell(x.vsPeer) : '–',
      cell(x.cpu)
    ])
  return table(
    [
      'Process',
      'Size',
      'First request: median (p10 – p90)',
      'Exit: median (p10 – p90)',
      'First request / bare exit (medians)',
      'Fastest run / ratio of the fastest',
      'Ratio per round (p10 – p90)',
      'First request / the peer’s, per round: median (p10 – p90)',
      'CPU up to the first request: median (p10 – p90)'
    ],
    rows
  )
}
