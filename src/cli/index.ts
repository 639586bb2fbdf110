#!/usr/bin/env node
// The `control-plane-deploy` command: the CLI on the real process.
import { cli } from './main.ts'
import type { RunPort, RunResult } from '../port.ts'

// Until the flow runs behind the port (src/run.ts), the CLI can parse and explain, not deploy.
async function notWired(port: RunPort): Promise<RunResult> {
  port.error('The deploy flow is not wired to the CLI yet.')
  return { exitCode: 1, outputs: {} }
}

process.exitCode = await cli(
  process.argv.slice(2),
  process.env,
  {
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => Date.now(),
    cwd: process.cwd(),
    onSignal(handler) {
      process.on('SIGINT', handler)
      process.on('SIGTERM', handler)
      return () => {
        process.off('SIGINT', handler)
        process.off('SIGTERM', handler)
      }
    },
    exit: code => process.exit(code)
  },
  notWired
)
