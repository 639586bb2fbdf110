// Jest global teardown: stops a build no test waited for, and removes the bundle.
import { rmSync } from 'node:fs'
import { BUNDLE_DIR_ENV, buildMs } from './bundle.ts'

export default function globalTeardown(): void {
  const dir = process.env[BUNDLE_DIR_ENV]
  if (!dir) return
  const child = globalThis.cpdTestBuild
  if (child && child.exitCode === null) child.kill()
  const ms = buildMs(dir)
  if (process.env.CPD_TEST_BUNDLE_TIMING && ms !== undefined)
    console.log(`built the test bundle in ${(ms / 1000).toFixed(1)} s`)
  rmSync(dir, { recursive: true, force: true })
  delete process.env[BUNDLE_DIR_ENV]
}
