// The outputs as scripts read them: name=value lines, one JSON object, a dotenv file.
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

test('dotenv: NAME_IN_CAPS=value, quoted only when the value needs it', () => {
  expect(dotenv(OUTPUTS)).toBe(
    'DEPLOYMENT_ID=aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee\n' +
      'REVISION_STATUS=DEPLOYED\n' +
      'CREATED=true\n' +
      'URL=https://my-agent.example.com/\n' +
      'ROLLBACK_STATUS=\n'
  )
  expect(dotenvValue('two words')).toBe('"two words"')
  expect(dotenvValue('say "hi" $HOME \\ #x')).toBe('"say \\"hi\\" \\$HOME \\\\ #x"')
  expect(dotenvValue('a\nb')).toBe('"a\\nb"')
})
