// The package's jest global setup: packs and installs the package once, and fetches the lowest
// Node that `engines` claims, before the test workers start (they find both cached).
import { installedPackage, lowestNode, nodeBinary } from './package.ts'

export default function globalSetup(): void {
  installedPackage()
  nodeBinary(lowestNode())
}
