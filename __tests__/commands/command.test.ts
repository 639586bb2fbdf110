// The commands' lists of inputs, as the registry reads them: every input of action.yml is some
// command's, and another command's input given to one is refused before any request.
import { expect, test } from '@jest/globals'
import { EVERY_COMMAND } from '../../src/commands/command.ts'
import { checkInputs } from '../../src/inputs/index.ts'
import { COMMANDS } from '../../src/inputs/table.ts'
import { INPUT_NAMES } from '../../src/interface/names.ts'
import { ACTION_SAY } from '../builders.ts'
import { COMMAND_RULES, REGISTRY, takersOf } from '../../src/run.ts'

test('every input of action.yml is taken by some command; the common ones by all', () => {
  expect(INPUT_NAMES.filter(name => takersOf(name).length === 0)).toEqual([])
  for (const name of EVERY_COMMAND) expect(takersOf(name)).toEqual(Object.keys(REGISTRY))
  expect(Object.keys(REGISTRY).sort()).toEqual([...COMMANDS].sort())
})

test('a sweep input given to a deploy, and a deploy input given to a sweep, are refused by name', () => {
  const event = { workspace: '/tmp' }
  const problems = (raw: Record<string, string>) => {
    const r = checkInputs({ 'api-key': 'k'.repeat(40), ...raw }, event, ACTION_SAY, COMMAND_RULES)
    return r.ok ? [] : r.problems.map(p => p.message)
  }
  expect(problems({ name: 'agent', 'sweep-names': 'pv-{pr}' })).toEqual([
    '`sweep-names` applies only to command `sweep`, not to `command: deploy`'
  ])
  expect(problems({ command: 'sweep', 'sweep-names': 'pv-{pr}', ref: 'main' })).toEqual([
    '`ref` applies only to deploying, not to `command: sweep`'
  ])
})
