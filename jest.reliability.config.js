// The reliability suite: faults, races and hostile input through the bundle built from the working
// tree (`npm run test:reliability`; `npm run reliability:report` also writes docs/reliability.md).
// Every case is a jest test. Jest starts all the concurrent cases of a file at once; each file
// bounds them with its lanes (see support.ts). The global setup packs the package once (the CLI
// cases run its bin) before the workers start. Two workers: the slow, idle cases of
// stalled-server.test.ts overlap the other files.
import base from './jest.config.js'

export default {
  ...base,
  testMatch: ['<rootDir>/__tests__/reliability/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/__tests__/reliability/global-setup.ts',
  testTimeout: 120000,
  maxConcurrency: 200,
  maxWorkers: 2
}
