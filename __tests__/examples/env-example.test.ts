// .env.example, the inputs of a first local run (README, "Try it locally"): against the emulator it
// ends as a clean deploy, with no warning that a user would take for a problem of their own.
import { expect, test } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stableCommit } from '../../emulator/state/commits.ts'

const ROOT = join(import.meta.dirname, '..', '..')

function envExample(): Record<string, string> {
  const lines = readFileSync(join(ROOT, '.env.example'), 'utf8').split('\n')
  const pairs = lines
    .filter(line => /^[A-Z]/.test(line))
    .map(line => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
  return Object.fromEntries(pairs)
}

test("the event's commit is the one the emulator builds for its repository and ref: no 'Built a different commit'", () => {
  const env = envExample()
  const repoUrl = `https://github.com/${env['INPUT_REPOSITORY']}`
  expect(env['GITHUB_SHA']).toBe(stableCommit(repoUrl, env['INPUT_REF'] ?? ''))
})

test('the job summary has somewhere to go: the terminal, not a warning that it could not be written', () => {
  expect(envExample()['GITHUB_STEP_SUMMARY']).toBe('/dev/stdout')
})
