// `npm run build` and `npm run build:bin`, first step: empties the bundle folder (dist/, bin/), so
// that no chunk of an earlier build lingers beside the new ones (ncc names chunks by number and
// never removes any).
//
//   node scripts/clean-dist.ts dist
import { rmSync } from 'node:fs'

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node scripts/clean-dist.ts <bundle folder>')
  process.exit(2)
}
rmSync(dir, { recursive: true, force: true })
