// Jest global setup: starts building the bundle from the working tree (or finds it cached),
// once per jest run, and tells the test workers where (they wait for it on their first run).
// `CPD_TEST_BUNDLE=dist/index.js` runs a prebuilt bundle instead.
import type { ChildProcess } from 'node:child_process'
import { BUNDLE_DIR_ENV, BUNDLE_ENV, startBuild } from './bundle.ts'

declare global {
  var cpdTestBuild: ChildProcess | undefined
}

export default function globalSetup(): void {
  if (process.env[BUNDLE_ENV]) return
  const { dir, child } = startBuild()
  process.env[BUNDLE_DIR_ENV] = dir
  globalThis.cpdTestBuild = child
}
