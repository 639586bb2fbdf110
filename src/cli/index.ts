#!/usr/bin/env node
// The `control-plane-deploy` command: the CLI door on the real process, around the same run as
// the action's (src/run.ts).
import { run } from '../run.ts'
import { cli } from './main.ts'

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
  port => run(port)
)
