// The health gate's inputs on the command line: `health-check` takes a value (`true` or a path),
// or none (bare, it is `true`), and both come from the environment too.
import { parseCommandLine } from '../../src/cli/flags.ts'

function inputs(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const line = parseCommandLine(['deploy', '--name', 'my-agent', ...argv], env)
  if (line.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(line)}`)
  return line.inputs
}

test('off by default, with the window of action.yml', () => {
  expect(inputs([])).toMatchObject({ 'health-check': 'false', 'health-check-window': '30s' })
})

test('--health-check takes true or a path with its query; --health-check-window a duration', () => {
  expect(inputs(['--health-check', 'true'])['health-check']).toBe('true')
  expect(inputs(['--health-check=/ok?check_db=1', '--health-check-window', '10s'])).toMatchObject({
    'health-check': '/ok?check_db=1',
    'health-check-window': '10s'
  })
})

test('a bare --health-check is true, last or before another flag; values still work', () => {
  expect(inputs(['--health-check'])['health-check']).toBe('true')
  expect(inputs(['--health-check', '--health-check-window', '10s'])).toMatchObject({
    'health-check': 'true',
    'health-check-window': '10s'
  })
  expect(inputs(['--health-check', '/ok?check_db=1'])['health-check']).toBe('/ok?check_db=1')
  expect(inputs(['--health-check', 'false'])['health-check']).toBe('false')
  // A value that starts with - still needs the = form, and is then the value as written.
  expect(inputs(['--health-check=-x'])['health-check']).toBe('-x')
})

test('from CONTROL_PLANE_HEALTH_CHECK and CONTROL_PLANE_HEALTH_CHECK_WINDOW', () => {
  expect(
    inputs([], { CONTROL_PLANE_HEALTH_CHECK: '/ok', CONTROL_PLANE_HEALTH_CHECK_WINDOW: '1m' })
  ).toMatchObject({ 'health-check': '/ok', 'health-check-window': '1m' })
})
