// Our archive and PUT alone on the 150 MB and 10 MB trees, a few runs: time and peak RSS, for trying
// the archive's constants quickly (the full side-by-side table is `npm run bench -- --only=upload`).
//   node bench/upload-probe.ts [runs]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleRunner, generateTree, putTarget, runOurs, TREES } from './upload.ts'

const runs = Number(process.argv[2] ?? 3)
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
    rmSync(tree, { recursive: true, force: true })
  }
} finally {
  await target.close()
  rmSync(dir, { recursive: true, force: true })
}
