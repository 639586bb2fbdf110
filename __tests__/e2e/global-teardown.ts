// Jest global teardown: stops a build no test waited for (the bundle itself stays cached).
import { BUNDLE_DIR_ENV, buildMs, stopBuild } from './bundle.ts'

export default function globalTeardown(): void {
  const dir = process.env[BUNDLE_DIR_ENV]
  if (!dir) return
  const child = globalThis.cpdTestBuild
  stopBuild(dir, child)
  const ms = buildMs(dir)
  if (process.env.CPD_TEST_BUNDLE_TIMING && child && ms !== undefined)
    console.log(`the test bundle took ${(ms / 1000).toFixed(1)} s to build`)
  delete process.env[BUNDLE_DIR_ENV]
}
