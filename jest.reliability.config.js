// The reliability suite: faults, races and hostile input through the bundle (`npm run test:reliability`).
import base from './jest.config.js'

export default {
  ...base,
  testMatch: ['<rootDir>/__tests__/reliability/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 120000,
  maxWorkers: 1
}
