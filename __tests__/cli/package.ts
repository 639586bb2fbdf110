// The package as users get it, with its two bins (the CLI and the emulator): the npm package of
// the working tree, built by `npm run build`'s own commands (into a staging folder, so dist/ is
// left as it is), packed by `npm pack`, and unpacked into a folder of its own. Kept in
// node_modules/.cache under the key of what it is built from (scripts/source-key.ts), so a run
// with unchanged sources reuses the last one.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { sourceKey } from '../../scripts/source-key.ts'

export const ROOT = resolve(import.meta.dirname, '../..')
export const NODE24 = join(ROOT, 'node_modules/node/bin/node')
const CACHE = join(ROOT, 'node_modules/.cache/cpd-cli-package')

/** `npm run build` with its output folder `dist` moved to `out`, each command as argv. */
export function buildCommands(out: string): string[][] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  return pkg.scripts.build!.split('&&').map(command =>
    command
      .trim()
      .split(/\s+/)
      .map(word =>
        word === 'dist' ? out : word.startsWith('dist/') ? join(out, word.slice(5)) : word
      )
  )
}

function exec(argv: string[], cwd: string): string {
  const [command, ...args] = argv
  const bin =
    command === 'node' ? NODE24 : command === 'ncc' ? join(ROOT, 'node_modules/.bin/ncc') : command!
  return execFileSync(bin, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` }
  })
}

/** The files `npm pack` would put in the package from the repository as it is. */
function packedFiles(): string[] {
  const [report] = JSON.parse(exec(['npm', 'pack', '--dry-run', '--json', '--silent'], ROOT)) as {
    files: { path: string }[]
  }[]
  return report!.files.map(f => f.path)
}

/** The key of the package's files other than dist/ (which the source key covers). */
function filesKey(files: string[]): string {
  const hash = createHash('sha256')
  for (const f of files) hash.update(f).update(readFileSync(join(ROOT, f)))
  return hash.digest('hex').slice(0, 8)
}

/**
 * The unpacked package (its `package/` folder) of the sources as they are: built, packed and
 * unpacked now, or found in the cache.
 */
export function packedPackage(): { dir: string; tarball: string } {
  const files = packedFiles().filter(f => !f.startsWith('dist/'))
  const home = join(CACHE, `${sourceKey()}-${filesKey(files)}`)
  const unpacked = (dir: string) => ({
    dir: join(dir, 'unpacked/package'),
    tarball: join(
      dir,
      readdirSync(dir).find(f => f.endsWith('.tgz'))!
    )
  })
  const bins = ['dist/cli.js', 'dist/emulator.js']
  if (bins.every(bin => existsSync(join(home, 'unpacked/package', bin)))) return unpacked(home)
  // Packages of other sources go; a staging folder of these sources may be another test file's
  // build under way (both packed tests start at once), so it stays.
  for (const entry of existsSync(CACHE) ? readdirSync(CACHE) : []) {
    if (!entry.startsWith(basename(home)))
      rmSync(join(CACHE, entry), { recursive: true, force: true })
  }
  const staging = `${home}.building-${process.pid}`
  mkdirSync(staging, { recursive: true })
  // The files `npm pack` takes from the repository (what `files` lists, and the bins), with a
  // dist/ built fresh in place of the one on disk.
  for (const file of files) {
    mkdirSync(dirname(join(staging, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(staging, file))
  }
  for (const argv of buildCommands(join(staging, 'dist'))) exec(argv, ROOT)
  const tgz = exec(['npm', 'pack', '--silent'], staging).trim().split('\n').pop()!
  mkdirSync(join(staging, 'unpacked'))
  exec(['tar', '-xzf', join(staging, tgz), '-C', join(staging, 'unpacked')], staging)
  try {
    renameSync(staging, home)
  } catch {
    // Another test file or jest run packed the same sources first: theirs is as good.
    rmSync(staging, { recursive: true, force: true })
  }
  return unpacked(home)
}
