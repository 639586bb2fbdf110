// The package as users get it: `npm pack` of the working tree (its prepack builds the bins' bundles
// into bin/), installed with `--omit=dev` into an empty folder, as `npm install -g` or `npx` would.
// Kept in node_modules/.cache under the key of what it is built from (the files the two bins'
// entries reach, the build commands, the package's other files), so a run with unchanged sources
// reuses the last one. The package's jest global setup makes it once, before the workers start
// (two packs at once would write the same bin/).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { sourceKey } from '../../scripts/source-key.ts'

export const ROOT = resolve(import.meta.dirname, '../..')
export const NODE24 = join(ROOT, 'node_modules/node/bin/node')
export const NAME = 'control-plane-deploy'
const CACHE = join(ROOT, 'node_modules/.cache/cpd-package')
const NODES = join(ROOT, 'node_modules/.cache/cpd-node')

/** The bins' entries, and the files besides their bundles that make the package. */
const BIN_ENTRIES = ['src/cli/index.ts', 'emulator/cli.ts']
const PACKAGE_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'schema/manifest.schema.json',
  'scripts/clean-dist.ts',
  'scripts/bin-launchers.ts'
]

export interface Installed {
  /** The tarball `npm pack` wrote. */
  tarball: string
  /** The folder it was installed into (empty before: no package.json, no node_modules). */
  prefix: string
  /** The installed package: `<prefix>/node_modules/control-plane-deploy`. */
  dir: string
}

/** The path of an installed bin (`<prefix>/node_modules/.bin/<name>`), as npm links it. */
export function binOf(installed: Installed, name: string): string {
  return join(installed.prefix, 'node_modules/.bin', name)
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // npm scripts (prepack) on the runner's Node 24, as the repository's npm scripts run.
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` }
  })
}

/** `npm install` into `prefix` itself (without --prefix, npm would climb to the repository's). */
function npmInstall(prefix: string, args: string[]): void {
  run(
    'npm',
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', ...args],
    prefix
  )
}

function packageKey(): string {
  const hash = createHash('sha256').update(sourceKey(ROOT, BIN_ENTRIES, ['build:bin', 'prepack']))
  for (const f of PACKAGE_FILES) hash.update(f).update(readFileSync(join(ROOT, f)))
  return hash.digest('hex').slice(0, 16)
}

/** The package of the sources as they are: packed and installed now, or found in the cache. */
export function installedPackage(): Installed {
  const home = join(CACHE, packageKey())
  const found = (dir: string): Installed => ({
    tarball: join(
      dir,
      readdirSync(dir).find(f => f.endsWith('.tgz'))!
    ),
    prefix: join(dir, 'install'),
    dir: join(dir, 'install/node_modules', NAME)
  })
  if (existsSync(join(home, 'install/node_modules', NAME, 'package.json'))) return found(home)
  rmSync(CACHE, { recursive: true, force: true })
  const staging = `${home}.building-${process.pid}`
  mkdirSync(join(staging, 'install'), { recursive: true })
  // As `npm publish` packs: prepack builds bin/, then the files that `files` lists are packed.
  const tgz = run('npm', ['pack', '--silent', '--pack-destination', staging], ROOT)
    .trim()
    .split('\n')
    .pop()!
  npmInstall(join(staging, 'install'), ['--omit=dev', join(staging, tgz)])
  renameSync(staging, home)
  return found(home)
}

/** The lowest Node that `engines` claims (`>=X.Y.Z`, the only form the package uses). */
export function lowestNode(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string }
  }
  const m = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)
  if (!m) throw new Error(`engines.node is "${pkg.engines.node}", not >=X.Y.Z`)
  return m[1]!
}

/** The `node` binary of that exact version, from the npm registry's `node` package (cached). */
export function nodeBinary(version: string): string {
  const prefix = join(NODES, version)
  const bin = join(prefix, 'node_modules/node/bin/node')
  if (existsSync(bin)) return bin
  const staging = `${prefix}.building-${process.pid}`
  mkdirSync(staging, { recursive: true })
  npmInstall(staging, [`node@${version}`])
  rmSync(prefix, { recursive: true, force: true })
  renameSync(staging, prefix)
  return bin
}

/** Compatibility for the packed tests: the installed package's folder and its tarball. */
export function packedPackage(): { dir: string; tarball: string } {
  const { dir, tarball } = installedPackage()
  return { dir, tarball }
}

/** The paths in a package tarball, as `tar -tz` lists them. */
export function tarMembers(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n')
}

/** What the packed package holds for its CLI: the package's own files, the bin and its bundle. */
export const CLI_MEMBERS = [
  'package/package.json',
  'package/README.md',
  'package/LICENSE',
  'package/bin/cli.js',
  'package/bin/cli/index.js'
]
