import { buildSync } from 'esbuild'
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// zod and yaml as one file each, built once per version: as their hundreds of modules, each test
// file compiled them again (a tenth of `npm test`'s CPU), and jest's ESM loader lost a module when
// two dynamic imports reached zod at once ("request for './v4/classic/external.js' is not in cache").
// The code is the packages' own, as the bundle of dist/ carries it.
const ROOT = dirname(fileURLToPath(import.meta.url))
function singleFile(name, entry, format) {
  const { version } = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')
  )
  const out = join(
    ROOT,
    'node_modules/.cache/cpd-test-deps',
    `${name}-${version}.${format === 'esm' ? 'mjs' : 'cjs'}`
  )
  if (!existsSync(out)) {
    buildSync({
      entryPoints: [join(ROOT, 'node_modules', name, entry)],
      bundle: true,
      platform: 'node',
      format,
      outfile: `${out}.${process.pid}`,
      logLevel: 'error'
    })
    // Renamed into place whole: a second jest run beside this one never reads half a file.
    renameSync(`${out}.${process.pid}`, out)
  }
  return out
}
// zod loaded once per worker, by Node itself (jest.environment.js), outside the test files'
// sandboxes: as a module of each file, it was compiled and evaluated again in each. Its schemas are
// still made per file. What it makes comes from the worker's realm, where `instanceof` against the
// sandbox's own Error or Date fails: the code checks zod's output no such way (yaml's errors it
// does, so yaml stays in each sandbox), and a suite that passes shows it.
function sharedAcrossFiles(name, entry) {
  const file = singleFile(name, entry, 'cjs')
  const shim = file.replace(/\.cjs$/, '.shared.mjs')
  const names = Object.keys(createRequire(import.meta.url)(file)).filter(n => {
    try {
      return n !== 'default' && (new Function(`let ${n}`), true)
    } catch {
      return false
    }
  })
  const text =
    `const m = globalThis.__sharedRequire(${JSON.stringify(file)})\n` +
    `export const { ${names.join(', ')} } = m\nexport default m\n`
  // Written whole, and again whenever what it should say changes.
  if (!existsSync(shim) || readFileSync(shim, 'utf8') !== text) {
    writeFileSync(`${shim}.${process.pid}`, text)
    renameSync(`${shim}.${process.pid}`, shim)
  }
  return shim
}
const SINGLE_FILE_DEPS = {
  '^zod$': sharedAcrossFiles('zod', 'index.js'),
  '^yaml$': singleFile('yaml', 'dist/index.js', 'cjs')
}

// Tests run the TypeScript sources as ESM through swc: no type-check here, `npm run typecheck` does that.

/**
 * The package's tests (`npm run test:package`, jest.package.config.js): they pack and install the
 * npm package (any `packed*.test.ts`, and `__tests__/package/`), or run the ecosystem's own tools
 * (actionlint; GitHub's local-action, which starts npm and tsx for each job). `npm test` packs
 * nothing and starts no such tool. Globs for testMatch, the same as regexes to ignore.
 */
export const PACKAGE_TESTS = [
  '<rootDir>/__tests__/package/**/*.test.ts',
  '<rootDir>/__tests__/**/packed*.test.ts',
  '<rootDir>/__tests__/ecosystem.test.ts',
  '<rootDir>/__tests__/examples/local-action-pipeline.test.ts'
]
const PACKAGE_TESTS_IGNORED = [
  '<rootDir>/__tests__/package/',
  '<rootDir>/__tests__/.*/packed[^/]*\\.test\\.ts$',
  '<rootDir>/__tests__/ecosystem\\.test\\.ts$',
  '<rootDir>/__tests__/examples/local-action-pipeline\\.test\\.ts$'
]

export default {
  testEnvironment: '<rootDir>/jest.environment.js',
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
  moduleNameMapper: SINGLE_FILE_DEPS,
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  // The reliability and real agent server suites run on their own (`npm run test:reliability`,
  // `npm run test:agent-server`), and so do the package's tests.
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/__tests__/reliability/',
    '<rootDir>/__tests__/agent-server/',
    ...PACKAGE_TESTS_IGNORED
  ],
  // The end-to-end tests run the bundle of src/ as it is: dist/ when its source key is current,
  // else one built for this run.
  globalSetup: '<rootDir>/__tests__/e2e/global-setup.ts',
  globalTeardown: '<rootDir>/__tests__/e2e/global-teardown.ts',
  testTimeout: 30000,
  // The end-to-end tests wait on real seconds, not the CPU: all of a file's concurrent tests at once
  // (each with its own emulator).
  maxConcurrency: 20,
  // Two workers more than the 2 cores of CI: the end-to-end files mostly wait on real seconds (deploys
  // at emulator speed, backoffs, a timeout), and meanwhile the in-process files use the cores.
  // Measured on 2 cores: 3 workers 18.6 s, 4 workers 15.8 s, 5 workers no better.
  maxWorkers: 4
}
