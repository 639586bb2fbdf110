// The key of what the bundles are built from: every file of src/ and emulator/, the demo fixture
// (the emulator's bundle carries it), package.json (its build command) and the lockfile.
// `npm run build` writes it beside the bundles (`dist/source-key`), so the tests can tell a dist/
// built from the sources as they are, and run it instead of building their own.
//
//   node scripts/source-key.ts dist     writes dist/source-key
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
export const SOURCE_KEY_FILE = 'source-key'

export function sourceKey(root = ROOT): string {
  const hash = createHash('sha256')
  const files = ['src', 'emulator']
    .filter(dir => existsSync(join(root, dir)))
    .flatMap(dir =>
      (readdirSync(join(root, dir), { recursive: true }) as string[]).map(f => join(root, dir, f))
    )
    .filter(f => statSync(f).isFile())
    .sort()
  const more = ['fixtures/demo.json', 'package.json', 'package-lock.json']
  for (const f of [...files, ...more.map(f => join(root, f))]) {
    // Paths with / on every system, so that the key is the same wherever dist/ is built.
    hash.update(relative(root, f).split('\\').join('/'))
    if (existsSync(f)) hash.update(readFileSync(f))
  }
  return hash.digest('hex').slice(0, 16)
}

/** Whether the bundle in `dir` was built from the sources as they are now. */
export function builtFromCurrentSources(dir: string, root = ROOT): boolean {
  const file = join(dir, SOURCE_KEY_FILE)
  return (
    existsSync(join(dir, 'index.js')) &&
    existsSync(file) &&
    readFileSync(file, 'utf8').trim() === sourceKey(root)
  )
}

if (process.argv[1] === import.meta.filename) {
  const dir = process.argv[2]
  if (!dir) {
    console.error('usage: node scripts/source-key.ts <bundle folder>')
    process.exit(2)
  }
  writeFileSync(join(resolve(dir), SOURCE_KEY_FILE), `${sourceKey()}\n`)
}
