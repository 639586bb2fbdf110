// The bundle the end-to-end and reliability suites run: built from the working tree once per jest
// run (so a broken src/ fails the tests even when dist/ is left as committed), with the flags of
// `npm run build`. The jest global setup starts the build; the harness waits for it on first use.
// A bundle is kept in node_modules/.cache under the key of everything it is built from (each file
// the action's entry reaches, the build command: scripts/source-key.ts), so a run with unchanged
// sources reuses the last one; and when dist/ carries the key of the sources as they are (`npm run build` writes it),
// dist/ itself is run and nothing is built.
import { spawn, type ChildProcess } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { join, resolve } from 'node:path'
import { sourceKey } from '../../scripts/source-key.ts'

const ROOT = resolve(import.meta.dirname, '../..')

/** The folder of the bundle of this jest run (set by the global setup for the test workers). */
export const BUNDLE_DIR_ENV = 'CPD_TEST_BUNDLE_DIR'
/** A prebuilt bundle to run instead (`dist/index.js`, say): no build. */
export const BUNDLE_ENV = 'CPD_TEST_BUNDLE'

const STATUS = 'build-status.json'

interface BuildStatus {
  ok: boolean
  ms: number
  output: string
}

/** `npm run build`'s ncc arguments, with the output folder replaced by `outDir`. */
export function buildArgs(outDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  // The action's ncc command only: the others empty dist/ and write dist/source-key.
  const args = pkg.scripts
    .build!.split('&&')
    .map(command => command.trim().split(/\s+/))
    .find(words => words[0] === 'ncc' && words[1] === 'build' && words[2] === 'src/index.ts')
  if (!args) throw new Error('`npm run build` has no `ncc build src/index.ts`')
  const o = args.indexOf('-o')
  if (o < 0) throw new Error('`npm run build` names no output folder (-o)')
  args[o + 1] = outDir
  return args.slice(1)
}

const CACHE = join(ROOT, 'node_modules/.cache/cpd-test-bundle')

/**
 * The folder of the bundle of the sources as they are: the cached one when it was built from the
 * same sources, else a build started into it (the status file appears when it ends).
 */
export function startBuild(): { dir: string; child: ChildProcess | undefined } {
  const dir = join(CACHE, sourceKey())
  if (existsSync(join(dir, STATUS)) && readStatus(dir).ok) return { dir, child: undefined }
  pruneCache()
  const building = `${dir}.building-${process.pid}`
  mkdirSync(building, { recursive: true })
  const started = Date.now()
  const cli = join(ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js')
  const child = spawn(process.execPath, [cli, ...buildArgs(building)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const done = (ok: boolean) => {
    const status: BuildStatus = { ok, ms: Date.now() - started, output }
    // Complete or not at all: the folder appears with its status file in it.
    if (!existsSync(building)) return
    writeFileSync(join(building, STATUS), JSON.stringify(status))
    rmSync(dir, { recursive: true, force: true })
    renameSync(building, dir)
  }
  child.on('error', err => {
    output += String(err)
    done(false)
  })
  child.on('close', code => done(code === 0 && existsSync(join(building, 'index.js'))))
  return { dir, child }
}

/**
 * Drops bundles of older sources, but only those untouched for an hour: another jest run (the
 * reliability suite beside `npm test`, say) may still be running the one it built.
 */
function pruneCache(): void {
  const hourAgo = Date.now() - 60 * 60_000
  for (const entry of existsSync(CACHE) ? readdirSync(CACHE) : []) {
    const path = join(CACHE, entry)
    try {
      if (statSync(path).mtimeMs < hourAgo) rmSync(path, { recursive: true, force: true })
    } catch {
      // gone already
    }
  }
}

/** How long a build may take: ncc on a 2-core machine at load 50 takes minutes. */
export const BUILD_WAIT_MS = 600_000

/** Waits for the build of `dir` to end; its `index.js`, or an error carrying ncc's output. */
export async function waitForBuild(dir: string, maxMs = BUILD_WAIT_MS): Promise<string> {
  const file = join(dir, STATUS)
  const until = Date.now() + maxMs
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`the test bundle in ${dir} was not built in time`)
    await new Promise(r => setTimeout(r, 50))
  }
  const status = readStatus(dir)
  if (!status.ok) throw new Error(`building the test bundle from src/ failed:\n${status.output}`)
  return join(dir, 'index.js')
}

function readStatus(dir: string): BuildStatus {
  return JSON.parse(readFileSync(join(dir, STATUS), 'utf8')) as BuildStatus
}

/** Stops a build no test waited for, and drops what it wrote. */
export function stopBuild(dir: string, child: ChildProcess | undefined): void {
  if (!child || child.exitCode !== null) return
  child.kill()
  rmSync(`${dir}.building-${process.pid}`, { recursive: true, force: true })
}

/** The build time of `dir`, once it ended. */
export function buildMs(dir: string): number | undefined {
  return existsSync(join(dir, STATUS)) ? readStatus(dir).ms : undefined
}
