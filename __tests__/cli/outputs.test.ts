// The outputs as scripts read them: name=value lines, one JSON object, a dotenv file.
import { REGISTRY } from '../../src/run.ts'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commandOutputs, dotenv, dotenvValue, formatOutputs } from '../../src/cli/outputs.ts'
import { ACTION_OUTPUTS } from '../../src/interface/action-yml.ts'
import { outputUrl } from '../../src/commands/deploy/facts.ts'
import { readBack, readByAll } from '../package/hostile-server.ts'

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

test('--output json: one JSON object on one line, with JSON types and null for empty', () => {
  const text = formatOutputs(OUTPUTS, 'json')
  expect(text.trimEnd().split('\n')).toHaveLength(1)
  expect(JSON.parse(text)).toEqual({ ...OUTPUTS, created: true, 'rollback-status': null })
  const typed = formatOutputs(
    { deleted: 'false', drift: 'true', swept: '["a-pr-1"]', 'github-deployment-id': '77' },
    'json'
  )
  expect(JSON.parse(typed)).toEqual({
    deleted: false,
    drift: true,
    swept: ['a-pr-1'],
    'github-deployment-id': 77
  })
  expect(JSON.parse(formatOutputs({ swept: '[]' }, 'json'))).toEqual({ swept: [] })
})

test('each command has its own outputs; every declared output is some command’s', () => {
  const declared = Object.keys(ACTION_OUTPUTS).sort()
  const listed = [...new Set(Object.values(REGISTRY).flatMap(c => c.outputs))].sort()
  expect(listed).toEqual(declared)
  expect(REGISTRY.sweep.outputs).toEqual(['swept'])
  expect(REGISTRY.deploy.outputs).not.toContain('deleted')
  expect(Object.keys(commandOutputs('check', { drift: 'false', created: 'false' }))).toEqual([
    'drift',
    'deployment-id'
  ])
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

// Values each reader would take otherwise than written (or run): none has a form that sh, bash,
// python-dotenv and GitLab all read back exactly (GitLab keeps quotes; python-dotenv expands
// `${NAME}` in single quotes and reads `\\` there as one backslash), so each is left out.
const HOSTILE = [
  'two words',
  'https://x.example/$(touch /tmp/cpd-never)',
  'https://x.example/`touch /tmp/cpd-never`',
  'https://evil.example/?k=${CONTROL_PLANE_API_KEY}',
  'a\\b \\$HOME \\n',
  'say "hi" #x ${HOME} ; & | < > * ? ~',
  '~/x',
  "it's",
  'a\nb',
  'a\u001b[31m'
]

// Values every reader reads back as written, bare: ids, words, and URLs as the run writes them.
const PLAIN = [
  'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
  'DEPLOYED',
  '',
  'https://agent.example.com:8443/a/b?x=1',
  outputUrl('https://evil.example/?k=${CONTROL_PLANE_API_KEY}'),
  outputUrl('https://x.example/$(id)/`id`/\'q\'/"d"/{a}/~u;!*'),
  'sha256:0123456789abcdef+/=,@%'
]

const KEY = 'cpd-key-must-not-appear'

test('dotenv: plain values, the run’s URLs among them, are read back exactly by sh, bash, python-dotenv, GitLab and dotenv', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-dotenv-'))
  try {
    const outputs = Object.fromEntries(PLAIN.map((v, i) => [`out-${i}`, v]))
    const file = join(dir, 'deploy.env')
    const written = dotenv(outputs)
    expect(written.left).toEqual([])
    writeFileSync(file, written.text)
    const names = PLAIN.map((_, i) => `OUT_${i}`)
    expect(readBack(file, names, dir, { CONTROL_PLANE_API_KEY: KEY })).toEqual(readByAll(PLAIN))
    expect(readFileSync(file, 'utf8')).not.toContain('${')
    expect(readdirSync(dir)).toEqual(['deploy.env'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('issue 33, defect 4: python-dotenv never reads the key out of a server-chosen url', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-dotenv-'))
  try {
    const url = outputUrl('https://evil.example/?k=${CONTROL_PLANE_API_KEY}')
    expect(url).toBe('https://evil.example/?k=%24%7BCONTROL_PLANE_API_KEY%7D')
    const file = join(dir, 'deploy.env')
    writeFileSync(file, dotenv({ url }).text)
    expect(readBack(file, ['URL'], dir, { CONTROL_PLANE_API_KEY: KEY })).toEqual(readByAll([url]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('dotenv: a value that some reader would read otherwise is left out, and named; no reader runs or expands anything', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-dotenv-'))
  try {
    for (const v of HOSTILE)
      expect({ v, written: dotenvValue(v) }).toEqual({ v, written: undefined })
    const outputs = {
      'deployment-id': 'x',
      ...Object.fromEntries(HOSTILE.map((v, i) => [`out-${i}`, v]))
    }
    const written = dotenv(outputs)
    expect(written).toEqual({ text: 'DEPLOYMENT_ID=x\n', left: HOSTILE.map((_, i) => `out-${i}`) })
    const file = join(dir, 'deploy.env')
    writeFileSync(file, written.text)
    expect(readBack(file, ['DEPLOYMENT_ID', 'OUT_0'], dir)).toEqual(readByAll(['x', null]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('dotenv: swept, a JSON array of names, is its names joined by commas, read back alike by every reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-dotenv-'))
  try {
    const file = join(dir, 'sweep.env')
    const written = dotenv({ swept: '["my-agent-pr-1","my-agent-pr-12"]', drift: '' })
    expect(written).toEqual({ text: 'SWEPT=my-agent-pr-1,my-agent-pr-12\nDRIFT=\n', left: [] })
    writeFileSync(file, written.text)
    expect(readBack(file, ['SWEPT'], dir)).toEqual(readByAll(['my-agent-pr-1,my-agent-pr-12']))
    // None deleted: empty, not `[]`.
    writeFileSync(file, dotenv({ swept: '[]' }).text)
    expect(readBack(file, ['SWEPT'], dir)).toEqual(readByAll(['']))
    // Only a list of names is joined; anything else in it is left out, never half written.
    expect(dotenv({ swept: '["a", "b c"]' })).toEqual({ text: '', left: ['swept'] })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
