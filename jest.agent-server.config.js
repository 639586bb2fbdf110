// The real agent server suite (`npm run test:agent-server`): the checks of the new revision against
// the JS agent server from npm (@langchain/langgraph-api), started on loopback with a tiny graph;
// and the JS LangGraph CLI (@langchain/langgraph-cli) deploying to the emulator by upload.
// Apart from `npm test`: it starts a server process of its own. No bundle needed.
import base from './jest.config.js'

export default {
  ...base,
  testMatch: ['<rootDir>/__tests__/agent-server/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: undefined,
  globalTeardown: undefined,
  testTimeout: 120000,
  maxWorkers: 1
}
