// The tests' environment: Node's, with one way out of the sandbox for the module jest.config.js
// shares across test files (zod): Node's own require, whose modules each worker loads once.
import { createRequire } from 'node:module'
import { TestEnvironment } from 'jest-environment-node'

const shared = createRequire(import.meta.url)

export default class SharedModulesEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context)
    this.global.__sharedRequire = shared
  }
}
