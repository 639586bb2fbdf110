#!/usr/bin/env node
// The `control-plane-deploy` command: the CLI door on the real process, around the same run as
// the action's (src/run.ts).
import { run } from '../run.ts'
import { cli, STOP_SIGNALS } from './main.ts'

process.exitCode = await cli(
  process.argv.slice(2),
  process.env,
  {
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => Date.now(),
    cwd: process.cwd(),
    onSignal(handler) {
      // SIGHUP (the terminal or the ssh session closed) as SIGTERM: stop, report, write outputs.
      for (const signal of STOP_SIGNALS) process.on(signal, handler)
      return () => {
        for (const signal of STOP_SIGNALS) process.off(signal, handler)
      }
    },
    exit: code => process.exit(code)
  },
  port => run(port)
)
