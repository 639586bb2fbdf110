// Tests run the TypeScript sources as ESM through swc: no type-check here, `npm run typecheck` does that.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript' },
          // `with { type: 'json' }` (src/version.ts) stays: jest's ESM loader wants it.
          experimental: { keepImportAttributes: true }
        },
        module: { type: 'es6' }
      }
    ]
  },
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  // The reliability suite runs on its own: `npm run test:reliability`.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/__tests__/reliability/'],
  // The end-to-end tests run a bundle built from src/ for this run, not the committed dist/.
  globalSetup: '<rootDir>/__tests__/e2e/global-setup.ts',
  globalTeardown: '<rootDir>/__tests__/e2e/global-teardown.ts',
  testTimeout: 30000,
  // The end-to-end tests wait on real seconds, not the CPU: all of a file's concurrent tests at once.
  maxConcurrency: 20,
  maxWorkers: 2
}
