import * as core from '@actions/core'
import { run } from './main.ts'

// run() reports every failure it expects itself; this is the last guard against a stack trace.
try {
  await run()
} catch (err) {
  core.setFailed(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`)
}
