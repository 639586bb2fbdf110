// `npm run build`, last step but one: writes dist/cli.js, the package's `control-plane-deploy`
// bin. The CLI's bundle is dist/cli/index.js with its chunks beside it (ncc names chunks by
// number, so it cannot share a folder with the action's bundle); the bin only loads it.
//
//   node scripts/cli-bin.ts dist
import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const CLI_BIN =
  "#!/usr/bin/env node\n// The CLI bundle: `npm run build` writes both.\nimport './cli/index.js'\n"

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node scripts/cli-bin.ts <bundle folder>')
  process.exit(2)
}
if (!existsSync(join(resolve(dir), 'cli/index.js'))) {
  console.error(`${dir}/cli/index.js is missing: build the CLI bundle first.`)
  process.exit(1)
}
const bin = join(resolve(dir), 'cli.js')
writeFileSync(bin, CLI_BIN)
chmodSync(bin, 0o755)
