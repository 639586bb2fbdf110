// Jest global setup: runs dist/ when it was built from the sources as they are, else starts
// building the bundle from the working tree (or finds it cached), once per jest run, and tells the
// test workers where (they wait for it on their first run).
// `CPD_TEST_BUNDLE=dist/index.js` runs a prebuilt bundle instead.
import type { ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { builtFromCurrentSources } from '../../scripts/source-key.ts'
import { BUNDLE_DIR_ENV, BUNDLE_ENV, startBuild } from './bundle.ts'

const ROOT = resolve(import.meta.dirname, '../..')

declare global {
  var cpdTestBuild: ChildProcess | undefined
}

export default function globalSetup(): void {
  if (process.env[BUNDLE_ENV]) return
  // A dist/ built from these very sources is the bundle a build would make: run it as it is.
  if (builtFromCurrentSources(join(ROOT, 'dist'))) {
    process.env[BUNDLE_ENV] = join(ROOT, 'dist/index.js')
    return
  }
  const { dir, child } = startBuild()
  process.env[BUNDLE_DIR_ENV] = dir
  globalThis.cpdTestBuild = child
}
