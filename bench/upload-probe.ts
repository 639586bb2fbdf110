// Our archive and PUT alone on the 150 MB and 10 MB trees, a few runs: time and peak RSS, for trying
// the archive's constants quickly (the full side-by-side table is `npm run bench -- --only=upload`).
//   node bench/upload-probe.ts [runs] [--sample]
// --sample: each run also samples process.memoryUsage() (bench/upload-run.ts) and prints, at its
// highest rss, V8's heap, Buffers' external memory, and the rest (native zlib state, malloc).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  bundleRunner,
  generateTree,
  putTarget,
  runOurs,
  TREES,
  type MemorySample
} from './upload.ts'

const args = process.argv.slice(2)
const runs = Number(args.find(a => /^\d+$/.test(a)) ?? 3)
if (args.includes('--sample')) process.env.UPLOAD_RUN_SAMPLE = '1'
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)}`

function memoryLine({ atPeak: p, max }: MemorySample): string {
  const rest = p.rss - p.heapTotal - p.external
  return (
    `at peak rss ${mb(p.rss)}: heap ${mb(p.heapUsed)}/${mb(p.heapTotal)}, external ${mb(p.external)} ` +
    `(arrayBuffers ${mb(p.arrayBuffers)}), rest ${mb(rest)} MB; ` +
    `max external ${mb(max.external)}, heapTotal ${mb(max.heapTotal)}`
  )
}
const dir = mkdtempSync(join(tmpdir(), 'bench-upload-probe-'))
const script = await bundleRunner(dir)
const target = await putTarget()
try {
  for (const spec of TREES) {
    const tree = generateTree(spec)
    const rows = []
    for (let i = 0; i < runs; i++) rows.push(await runOurs(script, tree, target.url))
    const ms = rows.map(r => r.wallMs).sort((a, b) => a - b)
    const rss = Math.max(...rows.map(r => r.maxRssBytes))
    console.log(
      `${spec.label}: median ${(ms[Math.floor(runs / 2)]! / 1000).toFixed(2)} s, peak RSS ${(rss / 1e6).toFixed(0)} MB`
    )
    for (const r of rows) if (r.memory) console.log(`  ${memoryLine(r.memory)}`)
    rmSync(tree, { recursive: true, force: true })
  }
} finally {
  await target.close()
  rmSync(dir, { recursive: true, force: true })
}
