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
  // The end-to-end tests wait on real seconds, not the CPU: all of a file's concurrent tests at once
  // (each with its own emulator).
  maxConcurrency: 20,
  // One worker more than the 2 cores of CI: while an end-to-end file waits on real seconds (a slow
  // log's 10 s budget), the in-process files go on in the third.
  maxWorkers: 3
}
