// The reliability suite's jest global setup: the bundle as the end-to-end tests get it, and the
// packed package (the CLI cases run its bin) made once before the workers start: two workers
// packing at once would both rebuild the same bin/.
import e2eSetup from '../e2e/global-setup.ts'
import { installedPackage } from '../package/package.ts'

export default function globalSetup(): void {
  e2eSetup()
  installedPackage()
}
