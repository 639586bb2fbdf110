import { setFailed } from './runner.ts'
import { run } from './main.ts'

// run() reports every failure it expects itself; this is the last guard against a stack trace.
try {
  await run()
} catch (err) {
  setFailed(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`)
}
