// `npm run build:bin` (the package's prepack), last step: writes the package's bin launchers,
// bin/cli.js (`control-plane-deploy`) and bin/emulator.js (`control-plane-emulator`). Each bundle
// lives in a folder of its own with its chunks beside it (ncc names chunks by number, so two
// bundles cannot share a folder); a launcher only loads its bundle.
//
//   node scripts/bin-launchers.ts bin
import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Launcher file (in the bundle folder) -> the folder of the bundle it loads. */
const BINS = { 'cli.js': 'cli', 'emulator.js': 'emulator' } as const

function launcher(bundle: string): string {
  return `#!/usr/bin/env node\n// Loads the bundle in ./${bundle}/ (\`npm run build:bin\` writes both).\nimport './${bundle}/index.js'\n`
}

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node scripts/bin-launchers.ts <bundle folder>')
  process.exit(2)
}
for (const [file, bundle] of Object.entries(BINS)) {
  if (!existsSync(join(resolve(dir), bundle, 'index.js'))) {
    console.error(`${dir}/${bundle}/index.js is missing: build the ${bundle} bundle first.`)
    process.exit(1)
  }
  const bin = join(resolve(dir), file)
  writeFileSync(bin, launcher(bundle))
  chmodSync(bin, 0o755)
}
