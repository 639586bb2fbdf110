// The bundle's entry (action.yml runs dist/index.js): one run of the action when node started this
// file, as the runner does; imported, as GitHub's local runner (`npx @github/local-action run .
// dist/index.js .env.example`) does, it only exports `run()`, which the importer calls.
import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { run } from './action/main.ts'

export { run }

/**
 * Whether node was started with this file, not an importer: the path node was given, compared
 * as it is (no file system call, as the runner starts it), else through links.
 */
function startedByNode(): boolean {
  const started = process.argv[1]
  if (!started) return false
  const self = fileURLToPath(import.meta.url)
  if (resolve(started) === self) return true
  try {
    return realpathSync(started) === realpathSync(self)
  } catch {
    return false
  }
}

if (startedByNode()) await run()
