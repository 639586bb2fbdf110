// The CLI's flags, --help and outputs come from action.yml: the generated module is current, and
// what it calls a boolean is what the inputs' own checks read as one.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { METADATA_FILE, renderMetadata } from '../../scripts/action-metadata.ts'
import { INPUTS, OUTPUTS } from '../../src/cli/action-metadata.ts'
import { FLAG_INPUTS } from '../../src/cli/flags.ts'
import { helpText } from '../../src/cli/help.ts'
import { CHECKS } from '../../src/inputs/checks.ts'
import type { InputName } from '../../src/inputs/names.ts'

const actionText = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')
const action = parseYaml(actionText) as {
  inputs: Record<string, unknown>
  outputs: Record<string, unknown>
}

test('src/cli/action-metadata.ts is what action.yml generates (else: npm run action-metadata)', async () => {
  expect(readFileSync(METADATA_FILE, 'utf8')).toBe(await renderMetadata(actionText))
})

test('it has every input and output of action.yml, in order', () => {
  expect(INPUTS.map(i => i.name)).toEqual(Object.keys(action.inputs))
  expect(OUTPUTS.map(o => o.name)).toEqual(Object.keys(action.outputs))
})

test('an input is a boolean flag exactly when its check reads true and false as booleans', () => {
  const read = (name: string, value: string) =>
    (CHECKS[name as InputName] as (v: string, fail: () => undefined) => unknown)(
      value,
      () => undefined
    )
  const booleans = INPUTS.filter(
    i => read(i.name, 'true') === true && read(i.name, 'false') === false
  )
  expect(INPUTS.filter(i => i.boolean).map(i => i.name)).toEqual(booleans.map(i => i.name))
  expect(booleans.map(i => i.name)).toEqual(
    expect.arrayContaining(['wait', 'dry-run', 'build-on-push', 'pr-comment'])
  )
})

test('every input is a flag but the key, the token and the command; --help shows each, and each output', () => {
  expect(INPUTS.filter(i => !FLAG_INPUTS.includes(i)).map(i => i.name)).toEqual([
    'api-key',
    'github-token',
    'command'
  ])
  const help = helpText()
  for (const input of FLAG_INPUTS) {
    expect(help).toContain(
      input.boolean ? `--${input.name}, --no-${input.name}` : `--${input.name} <value>`
    )
  }
  for (const output of OUTPUTS) expect(help).toContain(`\n  ${output.name}\n`)
  expect(help).toContain('CONTROL_PLANE_API_KEY')
  expect(help).toContain('CONTROL_PLANE_TENANT_ID')
  expect(help).toContain('--timeout <value>   CONTROL_PLANE_TIMEOUT (default: 30m)')
  // No line wider than a terminal.
  expect(help.split('\n').filter(l => l.length > 100)).toEqual([])
})
