// The key of what a bundle is built from: every file the bundler takes in from its entry (our
// sources, and the files and package.json of each dependency it reaches), the build command and
// the bundler's version. esbuild follows the imports (a metafile, nothing written), so a file
// the entry never reaches (src/cli/, emulator/ for the action) is not in the key.
// `npm run build` writes the action's key beside its bundle (`dist/source-key`), so the tests can
// tell a dist/ built from the sources as they are, and run it instead of building their own.
//
//   node scripts/source-key.ts dist     writes dist/source-key
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildSync } from 'esbuild'

const ROOT = resolve(import.meta.dirname, '..')
export const SOURCE_KEY_FILE = 'source-key'
/** The action's entry (action.yml runs its bundle, dist/index.js). */
export const ACTION_ENTRY = 'src/index.ts'

/** The files (relative to `root`, with /) that bundling `entries` reads. */
export function bundledFiles(entries: readonly string[], root = ROOT): string[] {
  const { metafile } = buildSync({
    absWorkingDir: root,
    entryPoints: entries.map(e => join(root, e)),
    bundle: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    platform: 'node',
    format: 'esm',
    outdir: join(root, '.source-key-out')
  })
  return Object.keys(metafile.inputs)
    .filter(f => !f.startsWith('<'))
    .map(f => f.split('\\').join('/'))
    .sort()
}

/** node_modules/<name>/ or node_modules/@scope/<name>/ of a bundled file, if it is a dependency's. */
function packageRoot(file: string): string | undefined {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)
  return m?.[1]
}

/** What a bundle takes of our package.json: its version (src/version.ts) and its build commands. */
function ownManifest(root: string, scripts: readonly string[]): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version?: string
    scripts?: Record<string, string>
  }
  return JSON.stringify([pkg.version, ...scripts.map(s => pkg.scripts?.[s])])
}

/** The key of the bundles of `entries`, built by the npm scripts `scripts`. */
export function sourceKey(
  root = ROOT,
  entries: readonly string[] = [ACTION_ENTRY],
  scripts: readonly string[] = ['build']
): string {
  const hash = createHash('sha256')
  const files = bundledFiles(entries, root)
  const manifests = [...new Set(files.map(packageRoot).filter(p => p !== undefined))]
    .map(p => `${p}/package.json`)
    .sort()
  for (const f of [...files, ...manifests]) {
    hash.update(f)
    if (f === 'package.json') continue
    else if (existsSync(join(root, f))) hash.update(readFileSync(join(root, f)))
  }
  hash.update(ownManifest(root, scripts))
  const ncc = join(root, 'node_modules/@vercel/ncc/package.json')
  if (existsSync(ncc)) hash.update(readFileSync(ncc))
  return hash.digest('hex').slice(0, 16)
}

/** Whether the action's bundle in `dir` was built from the sources as they are now. */
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
