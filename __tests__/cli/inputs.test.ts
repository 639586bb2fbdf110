// The CLI's flags, --help and outputs come from the action's one declaration of its inputs
// (action.yml and the inputs table): every input is there, booleans are yes/no flags.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { FLAG_INPUTS } from '../../src/cli/flags.ts'
import { helpText } from '../../src/cli/help.ts'
import { CLI_INPUTS, CLI_OUTPUTS } from '../../src/cli/inputs.ts'

const action = parseYaml(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, { default?: string }>
  outputs: Record<string, unknown>
}

test('every input and output of action.yml, in order, with its default', () => {
  expect(CLI_INPUTS.map(i => i.name)).toEqual(Object.keys(action.inputs))
  expect(CLI_OUTPUTS.map(o => o.name)).toEqual(Object.keys(action.outputs))
  expect(CLI_INPUTS.find(i => i.name === 'timeout')?.default).toBe('30m')
  // Only the runner can evaluate `${{ github.token }}`.
  expect(CLI_INPUTS.find(i => i.name === 'github-token')?.default).toBe('')
})

test('the booleans are the inputs whose check reads true and false', () => {
  expect(CLI_INPUTS.filter(i => i.boolean).map(i => i.name)).toEqual([
    'build-on-push',
    'create',
    'wait',
    'dry-run',
    'delete-tracing-project',
    'pr-comment'
  ])
})

test('every input is a flag but the key, the token and the command; --help shows each, and each output', () => {
  expect(CLI_INPUTS.filter(i => !FLAG_INPUTS.includes(i)).map(i => i.name)).toEqual([
    'api-key',
    'github-token',
    'command'
  ])
  const help = helpText()
  for (const input of FLAG_INPUTS) {
    expect(help).toContain(
      input.boolean
        ? `--${input.name}, --no-${input.name}`
        : `--${input.name} ${input.trueOrValue ? '[<value>]' : '<value>'}`
    )
  }
  for (const output of CLI_OUTPUTS) expect(help).toContain(`\n  ${output.name}\n`)
  expect(help).toContain('CONTROL_PLANE_API_KEY')
  expect(help).toContain('--timeout <value>   CONTROL_PLANE_TIMEOUT (default: 30m)')
  // No line wider than a terminal.
  expect(help.split('\n').filter(l => l.length > 100)).toEqual([])
})
