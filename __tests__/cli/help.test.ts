// `control-plane-deploy <command> --help`: that command's own flags, examples, outputs and exits,
// and nothing of the others.
import { describe, expect, test } from '@jest/globals'
import { tmpdir } from 'node:os'
import { cli, type CliIo } from '../../src/cli/main.ts'
import { FLAG_INPUTS, parseCommandLine } from '../../src/cli/flags.ts'
import { helpText } from '../../src/cli/help.ts'
import { COMMANDS } from '../../src/inputs/table.ts'
import { REGISTRY, takersOf } from '../../src/run.ts'

/** The flags a help text lists, by their input names. */
const listed = (help: string) =>
  [...help.matchAll(/^ {2}--([a-z0-9-]+)/gm)]
    .map(m => m[1]!)
    .filter(name => FLAG_INPUTS.some(i => i.name === name))

describe.each(COMMANDS)('%s --help', command => {
  const help = helpText(command)
  const lines = help.split('\n')

  test('lists the flags the command takes, and no other', () => {
    const takes = FLAG_INPUTS.filter(i => takersOf(i.name).includes(command)).map(i => i.name)
    expect([...listed(help)].sort()).toEqual([...takes].sort())
  })

  test('starts with its own usage; its examples are its own, each a line the CLI accepts', () => {
    expect(lines[0]).toMatch(new RegExp(`^Usage: control-plane-deploy ${command}\\b`))
    expect(lines[1]).toBe('')
    const examples = lines.filter(l => l.startsWith('  control-plane-deploy '))
    expect(examples.length).toBeGreaterThanOrEqual(2)
    for (const example of examples) {
      expect(example).toMatch(new RegExp(`^ {2}control-plane-deploy ${command} `))
      const line = parseCommandLine(example.trim().split(/\s+/).slice(1), {})
      expect({ example, kind: line.kind }).toEqual({ example, kind: 'run' })
    }
  })

  test('names its own outputs', () => {
    const outputs = /Outputs: ([^.]+)\./.exec(help.replace(/\n +/g, ' '))![1]!.split(', ')
    expect(outputs).toEqual([...REGISTRY[command].outputs])
  })

  test('fits a terminal', () => {
    expect(lines.filter(l => l.length > 100)).toEqual([])
  })
})

test('each command has its own help, shorter than the whole', () => {
  const texts = COMMANDS.map(c => helpText(c))
  expect(new Set(texts).size).toBe(COMMANDS.length)
  for (const t of texts) expect(t.length).toBeLessThan(helpText().length)
  expect(helpText('sweep')).not.toContain('--integration-id')
  expect(helpText('deploy')).not.toContain('--sweep-names')
  expect(helpText('check')).toContain('3 drift')
  // The whole help says where each command's own is.
  expect(helpText().replace(/\s+/g, ' ')).toContain('control-plane-deploy <command> --help')
})

test('`sweep --help` through the CLI: the sweep’s help on stdout, exit 0, no run', async () => {
  for (const argv of [
    ['sweep', '--help'],
    ['--help', 'sweep'],
    ['sweep', '-h']
  ]) {
    let stdout = ''
    const io: CliIo = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
      now: () => 0,
      cwd: tmpdir(),
      onSignal: () => () => {},
      exit: () => {}
    }
    const never = async () => {
      throw new Error('no run for --help')
    }
    expect(await cli(argv, {}, io, never)).toBe(0)
    expect(stdout).toBe(helpText('sweep'))
  }
  expect(parseCommandLine(['--help'], {})).toEqual({ kind: 'help' })
})
