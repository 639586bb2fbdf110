#!/usr/bin/env node
// The `control-plane-emulator` bin (bundled into bin/ by `npm run build:bin` at pack time), and
// `npm run emulator [-- options]` from the sources (`--help` lists the options): serves the
// emulator in the foreground, prints its URL and the first tenant's credentials, stops on
// SIGINT/SIGTERM, and when npm, having started it, is gone (`npm run emulator &` then `kill $!`:
// npm dies, its `sh -c` too, and the emulator would be left running on its port).
import { rmSync, writeFileSync } from 'node:fs'
import { VERSION } from '../src/version.ts'
import { parseCli, usage } from './cli-options.ts'
import type { Emulator } from './server.ts'

function fail(message: string): never {
  process.stderr.write(`emulator: ${message}\nRun with --help for the options.\n`)
  process.exit(2)
}

const args = parseCli(process.argv.slice(2))
if (args.kind === 'help') {
  process.stdout.write(usage())
  process.exit(0)
}
if (args.kind === 'version') {
  process.stdout.write(`${VERSION}\n`)
  process.exit(0)
}
if (args.kind === 'error') fail(args.message)

// Signal handlers go in before anything is printed: a script that reads the four lines and
// stops the emulator at once must not hit the default (killing) signal disposition.
let emulator: Emulator | undefined
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  if (!emulator) process.exit(0)
  void emulator.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
// Started by an npm script, its parent is npm's shell: a new parent means npm was stopped.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) stop()
  }, 250).unref()
}

try {
  // Loaded only to serve: --help, --version and a bad option answer at once.
  const { readFixtureFile, startEmulator } = await import('./server.ts')
  emulator = await startEmulator({
    port: args.port,
    host: args.host,
    basePath: args.basePath,
    allowedHosts: args.allowedHosts,
    speed: args.speed,
    dialect: args.dialect,
    logsApi: args.logsApi,
    repoDir: args.repoDir,
    fixture: args.fixture === undefined ? undefined : readFixtureFile(args.fixture)
  })
} catch (error) {
  fail(error instanceof Error ? error.message : String(error))
}

if (args.pidFile !== undefined) {
  const pidFile = args.pidFile
  try {
    writeFileSync(pidFile, `${process.pid}\n`)
  } catch (error) {
    await emulator.close()
    fail(`cannot write --pid-file ${pidFile}: ${(error as Error).message}`)
  }
  process.on('exit', () => rmSync(pidFile, { force: true }))
}

const credentials = emulator.credentials()
process.stdout.write(
  [
    `url: ${emulator.url}`,
    `api-key: ${credentials.apiKey}`,
    `tenant-id: ${credentials.tenantId}`,
    `integration-id: ${credentials.integrationId ?? ''}`,
    ''
  ].join('\n')
)
