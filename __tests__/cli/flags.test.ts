import { parseCommandLine, envNameOf, type CommandLine } from '../../src/cli/flags.ts'

// The command line and the environment -> the action's inputs, and the command lines refused
// before anything is sent.

const KEY = 'lsv2_pt_0123456789abcdef0123456789abcdef_0123456789'

function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const line = parseCommandLine(argv, env)
  if (line.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(line)}`)
  return line
}

function refused(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  const line: CommandLine = parseCommandLine(argv, env)
  if (line.kind !== 'usage-error') throw new Error(`expected a usage error, got ${line.kind}`)
  return line.message
}

test('flags are the inputs by name; the rest take action.yml defaults or stay empty', () => {
  const line = run(['deploy', '--name', 'my-agent', '--timeout=20m', '--dry-run', '--no-wait'])
  expect(line.command).toBe('deploy')
  expect(line.inputs).toMatchObject({
    name: 'my-agent',
    timeout: '20m',
    'dry-run': 'true',
    wait: 'false',
    command: 'deploy',
    create: 'true',
    source: 'codehost',
    'base-url': 'https://api.host.langchain.com',
    'failure-logs': '50',
    'tenant-id': '',
    'github-token': '',
    'api-key': ''
  })
  expect(line.output).toBe('lines')
  expect(line.outputFile).toBeUndefined()
})

test('each input also comes from CONTROL_PLANE_<INPUT>; a flag wins over its variable', () => {
  const env = {
    CONTROL_PLANE_API_KEY: KEY,
    CONTROL_PLANE_TENANT_ID: 'tenant-from-env',
    CONTROL_PLANE_NAME: 'from-env',
    CONTROL_PLANE_DRY_RUN: 'true',
    CONTROL_PLANE_GRAPH_CONFIG_PATH: 'agent/langgraph.json',
    GITHUB_TOKEN: 'ghs_token0123'
  }
  const line = run(['deploy', '--name', 'from-flag'], env)
  expect(line.inputs).toMatchObject({
    'api-key': KEY,
    'tenant-id': 'tenant-from-env',
    name: 'from-flag',
    'dry-run': 'true',
    'graph-config-path': 'agent/langgraph.json',
    'github-token': 'ghs_token0123',
    command: 'deploy'
  })
  expect(run(['deploy', '--no-dry-run'], env).inputs['dry-run']).toBe('false')
  expect(envNameOf('delete-tracing-project')).toBe('CONTROL_PLANE_DELETE_TRACING_PROJECT')
})

test('booleans: --x, --no-x, --x=true and --x=false; the last one given wins', () => {
  expect(run(['deploy', '--wait=false']).inputs.wait).toBe('false')
  expect(run(['deploy', '--no-wait=false']).inputs.wait).toBe('true')
  expect(run(['deploy', '--no-wait', '--wait']).inputs.wait).toBe('true')
  expect(run(['deploy', '--build-on-push']).inputs['build-on-push']).toBe('true')
  expect(run(['deploy']).inputs['build-on-push']).toBe('')
  expect(refused(['deploy', '--wait=maybe'])).toBe(
    '--wait takes no value, or true or false: write --wait or --no-wait.'
  )
})

test('--api-key is refused with the reason, and never echoes the key', () => {
  const message = refused(['deploy', `--api-key=${KEY}`])
  expect(message).toMatch(
    /^--api-key is not accepted: .*CONTROL_PLANE_API_KEY.*shell history.*`ps`/
  )
  expect(message).not.toContain(KEY)
  expect(refused(['deploy', '--api-key', KEY])).not.toContain(KEY)
  expect(refused(['deploy', '--github-token', 'x'])).toContain(
    'only from the environment variable GITHUB_TOKEN'
  )
  expect(refused(['deploy', '--command', 'delete'])).toContain('the command is the first word')
})

test('unknown flags, missing values and stray words are refused with a clear message', () => {
  expect(refused(['deploy', '--nmae', 'x'])).toBe(
    '--nmae is not a flag of control-plane-deploy (did you mean --name?). See control-plane-deploy --help.'
  )
  expect(refused(['deploy', '--frobnicate'])).toBe(
    '--frobnicate is not a flag of control-plane-deploy. See control-plane-deploy --help.'
  )
  expect(refused(['deploy', '-x'])).toMatch(/^-x is not a flag/)
  expect(refused(['deploy', '--name'])).toBe(
    '--name needs a value (write --name=VALUE for a value that starts with -).'
  )
  expect(refused(['deploy', '--name', '--dry-run'])).toMatch(/^--name needs a value/)
  expect(run(['deploy', '--custom-url=-x']).inputs['custom-url']).toBe('-x')
  // A bare command, or an unknown one, points to --help.
  expect(refused([])).toMatch(/^Say what to do: .*See control-plane-deploy --help/)
  expect(refused(['deplyo'])).toBe(
    'Unknown command "deplyo": the commands are deploy, delete, sweep, check and plan. See control-plane-deploy --help.'
  )
  // A switch given its value as the next word, as a flag with a value takes it.
  expect(refused(['deploy', '--wait', 'false'])).toBe(
    '--wait false: a switch takes its value after = (--wait=false); or write --wait or --no-wait.'
  )
  expect(refused(['deploy', '--no-wait', 'true'])).toMatch(/^--no-wait true: a switch takes/)
  expect(run(['deploy', '--wait=false']).inputs['wait']).toBe('false')
  expect(refused(['promote', '--name', 'my-agent'])).toBe(
    'Unknown command "promote": the commands are deploy, delete, sweep, check and plan. A promotion is a deploy: control-plane-deploy deploy --name my-agent --promote-from my-agent-staging. See control-plane-deploy --help.'
  )
  // Not a word: maybe a value in the wrong place, so not repeated.
  expect(refused([KEY])).toBe(
    'Unknown command: the commands are deploy, delete, sweep, check and plan. See control-plane-deploy --help.'
  )
  expect(refused(['deploy', 'my-agent'])).toBe(
    'Unexpected argument "my-agent" after deploy: every value goes with its flag (--name my-agent).'
  )
  expect(refused(['deploy', '--output', 'yaml'])).toBe('--output must be lines or json.')
  expect(refused(['deploy', '--help=yes'])).toBe('--help takes no value.')
})

test('--help and --version answer whatever else the line holds', () => {
  expect(parseCommandLine(['deploy', '--help'], {}).kind).toBe('help')
  expect(parseCommandLine(['-h'], {}).kind).toBe('help')
  expect(parseCommandLine(['--bogus', '--version'], {}).kind).toBe('version')
})

test('--output json and --output-file', () => {
  const line = run(['deploy', '--output', 'json', '--output-file', 'deploy.env'])
  expect(line.output).toBe('json')
  expect(line.outputFile).toBe('deploy.env')
})

test('CONTROL_PLANE_* variables that name no input are warned about by name, never by value', () => {
  const line = run(['deploy'], {
    CONTROL_PLANE_TIMOUT: '5m',
    CONTROL_PLANE_GITHUB_TOKEN: 'ghs_secret',
    CONTROL_PLANE_COMMAND: 'delete',
    CONTROL_PLANE_TIMEOUT: '5m'
  })
  expect(line.inputs.timeout).toBe('5m')
  expect(line.inputs['github-token']).toBe('')
  expect(line.inputs.command).toBe('deploy')
  expect(line.warnings).toEqual([
    'CONTROL_PLANE_COMMAND is ignored: the command is the first word (deploy, delete, sweep or check).',
    'CONTROL_PLANE_GITHUB_TOKEN is ignored: the GitHub token is read from GITHUB_TOKEN.',
    'CONTROL_PLANE_TIMOUT is set but names no input of control-plane-deploy: it is ignored.'
  ])
})

test('a variable for an input the command does not use is left out and said so; a flag is not', () => {
  const env = {
    CONTROL_PLANE_INTEGRATION_ID: '123e4567-e89b-12d3-a456-426614174000',
    CONTROL_PLANE_REPOSITORY: 'acme/agent',
    CONTROL_PLANE_DELETE_TRACING_PROJECT: 'true',
    CONTROL_PLANE_NAME: 'my-agent'
  }
  const del = run(['delete'], env)
  expect(del.inputs).toMatchObject({
    name: 'my-agent',
    'integration-id': '',
    repository: '',
    'delete-tracing-project': 'true'
  })
  expect(del.notes).toEqual([
    'Not used by delete: CONTROL_PLANE_INTEGRATION_ID, CONTROL_PLANE_REPOSITORY.'
  ])
  const deploy = run(['deploy'], env)
  expect(deploy.inputs['delete-tracing-project']).toBe('false')
  expect(deploy.notes).toEqual(['Not used by deploy: CONTROL_PLANE_DELETE_TRACING_PROJECT.'])
  // As a flag it is the user's explicit word: the run's checks refuse it, as the action's do.
  expect(run(['delete', '--repository', 'acme/agent']).inputs.repository).toBe('acme/agent')
})

// The health gate's inputs on the command line: `health-check` takes a value (`true` or a path),
// or none (bare, it is `true`), and both come from the environment too.
describe('health', () => {
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
    expect(inputs(['--health-check=/ok?check_db=1', '--health-check-window', '10s'])).toMatchObject(
      {
        'health-check': '/ok?check_db=1',
        'health-check-window': '10s'
      }
    )
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
})
