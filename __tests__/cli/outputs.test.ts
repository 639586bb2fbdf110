// The outputs as scripts read them: name=value lines, one JSON object, a dotenv file.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'dotenv'
import { dotenv, dotenvValue, formatOutputs } from '../../src/cli/outputs.ts'

const OUTPUTS = {
  'deployment-id': 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
  'revision-status': 'DEPLOYED',
  created: 'true',
  url: 'https://my-agent.example.com/',
  'rollback-status': ''
}

test('name=value lines, in order, empty values kept', () => {
  expect(formatOutputs(OUTPUTS, 'lines')).toBe(
    'deployment-id=aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee\n' +
      'revision-status=DEPLOYED\n' +
      'created=true\n' +
      'url=https://my-agent.example.com/\n' +
      'rollback-status=\n'
  )
})

test('--output json: one JSON object on one line', () => {
  const text = formatOutputs(OUTPUTS, 'json')
  expect(text.trimEnd().split('\n')).toHaveLength(1)
  expect(JSON.parse(text)).toEqual(OUTPUTS)
})

test('dotenv: NAME_IN_CAPS=value, bare when plain', () => {
  expect(dotenv(OUTPUTS)).toEqual({
    text:
      'DEPLOYMENT_ID=aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee\n' +
      'REVISION_STATUS=DEPLOYED\n' +
      'CREATED=true\n' +
      'URL=https://my-agent.example.com/\n' +
      'ROLLBACK_STATUS=\n',
    left: []
  })
})

// Values no shell may expand: each is read back by sh, bash and npm's dotenv exactly.
const HOSTILE = [
  'two words',
  'https://x.example/$(touch /tmp/cpd-never)',
  'https://x.example/`touch /tmp/cpd-never`',
  'a\\b \\$HOME \\n',
  'say "hi" #x ${HOME} ; & | < > * ? ~',
  '~/x'
]

test('dotenv: any other value in single quotes, read back exactly by sh, bash and dotenv', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-dotenv-'))
  try {
    const outputs = Object.fromEntries(HOSTILE.map((v, i) => [`out-${i}`, v]))
    const file = join(dir, 'deploy.env')
    const written = dotenv(outputs)
    expect(written.left).toEqual([])
    writeFileSync(file, written.text)
    const names = HOSTILE.map((_, i) => `OUT_${i}`)
    expect(Object.values(parse(readFileSync(file)))).toEqual(HOSTILE)
    for (const shell of ['sh', 'bash']) {
      // Each value printed as JSON by node from the environment that sourcing the file set.
      const script = `set -a; . '${file}'; exec node -e 'console.log(JSON.stringify(${JSON.stringify(names)}.map(n => process.env[n])))'`
      const out = execFileSync(shell, ['-c', script], { cwd: dir, encoding: 'utf8' })
      expect({ shell, values: JSON.parse(out) }).toEqual({ shell, values: HOSTILE })
    }
    expect(readdirSync(dir)).toEqual(['deploy.env'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('dotenv: a value with a single quote or a control character is left out, and named', () => {
  expect(dotenvValue("it's")).toBeUndefined()
  expect(dotenvValue('a\nb')).toBeUndefined()
  expect(dotenvValue('a\u001b[31m')).toBeUndefined()
  expect(dotenv({ 'deployment-id': 'x', url: "https://x.example/'" })).toEqual({
    text: 'DEPLOYMENT_ID=x\n',
    left: ['url']
  })
})
