// The package's jest global setup: packs and installs the package once, and fetches the lowest
// Node that `engines` claims, before the test workers start (they find both cached); and readies
// the action's bundle as `npm test` does (dist/ when current, else a build) for local-action.
import bundleSetup from '../e2e/global-setup.ts'
import { installedPackage, lowestNode, nodeBinary } from './package.ts'

export default function globalSetup(): void {
  bundleSetup()
  installedPackage()
  nodeBinary(lowestNode())
}
