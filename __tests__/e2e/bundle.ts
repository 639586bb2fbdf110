// The bundle the end-to-end and reliability suites run: built from the working tree once per jest
// run (so a broken src/ fails the tests even when dist/ is left as committed), with the flags of
// `npm run build`. The jest global setup starts the build; the harness waits for it on first use.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

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
  const args = pkg.scripts.build!.split(/\s+/)
  if (args[0] !== 'ncc' || args[1] !== 'build')
    throw new Error('`npm run build` is not an ncc build')
  const o = args.indexOf('-o')
  if (o < 0) throw new Error('`npm run build` names no output folder (-o)')
  args[o + 1] = outDir
  return args.slice(1)
}

/** Starts the build into a new temporary folder; the status file appears when it ends. */
export function startBuild(): { dir: string; child: ChildProcess } {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-bundle-'))
  const started = Date.now()
  const cli = join(ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js')
  const child = spawn(process.execPath, [cli, ...buildArgs(dir)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const done = (ok: boolean) => {
    const status: BuildStatus = { ok, ms: Date.now() - started, output }
    // The teardown may have removed the folder already: then no one waits for it.
    if (existsSync(dir)) writeFileSync(join(dir, STATUS), JSON.stringify(status))
  }
  child.on('error', err => {
    output += String(err)
    done(false)
  })
  child.on('close', code => done(code === 0 && existsSync(join(dir, 'index.js'))))
  return { dir, child }
}

/** Waits for the build of `dir` to end; its `index.js`, or an error carrying ncc's output. */
export async function waitForBuild(dir: string, maxMs = 180_000): Promise<string> {
  const file = join(dir, STATUS)
  const until = Date.now() + maxMs
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`the test bundle in ${dir} was not built in time`)
    await new Promise(r => setTimeout(r, 50))
  }
  const status = JSON.parse(readFileSync(file, 'utf8')) as BuildStatus
  if (!status.ok) throw new Error(`building the test bundle from src/ failed:\n${status.output}`)
  return join(dir, 'index.js')
}

/** The build time of `dir`, once it ended. */
export function buildMs(dir: string): number | undefined {
  const file = join(dir, STATUS)
  if (!existsSync(file)) return undefined
  return (JSON.parse(readFileSync(file, 'utf8')) as BuildStatus).ms
}
