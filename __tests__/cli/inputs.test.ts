// The CLI's flags, --help and outputs come from the action's one declaration of its inputs
// (action.yml and the inputs table): every input is there, booleans are yes/no flags.
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { parse as parseYaml } from 'yaml'
import { FLAG_INPUTS, parseCommandLine } from '../../src/cli/flags.ts'
import { helpText } from '../../src/cli/help.ts'
import { CLI_INPUTS, CLI_OUTPUTS } from '../../src/cli/inputs.ts'
import { cli } from '../../src/cli/main.ts'
import { run } from '../../src/run.ts'

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
  const booleans = CLI_INPUTS.filter(i => i.boolean).map(i => i.name)
  expect(booleans).toEqual(expect.arrayContaining(['create', 'wait', 'dry-run', 'pr-comment']))
  // A path or a duration is a value, even where `true` or `false` is one of its forms.
  for (const name of ['health-check', 'timeout', 'name', 'secrets'])
    expect(booleans).not.toContain(name)
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
  const outputs = help.slice(help.indexOf('Outputs: '))
  for (const output of CLI_OUTPUTS) expect(outputs).toMatch(new RegExp(`[ ,]${output.name}[,.]`))
  expect(help).toContain('CONTROL_PLANE_API_KEY')
  expect(help).toMatch(
    /\n {2}--timeout <value> +Longest wait for the revision[^]*?\(default: 30m\)/
  )
  // No line wider than a terminal.
  expect(help.split('\n').filter(l => l.length > 100)).toEqual([])
})

describe('--help as a new user reads it', () => {
  const help = helpText()
  const lines = help.split('\n')

  test('it fits in about two screens: each flag in a line or two, not every word of action.yml', () => {
    // It was 170 lines for two commands; five now, and every flag of this round's inputs in a
    // line or two: docs/inputs.md has each input in full, and --help links it.
    expect(lines.length).toBeLessThanOrEqual(165)
    expect(help).toContain('docs/inputs.md')
  })

  test('it shows examples first, and each is a command line the CLI accepts', () => {
    const start = lines.indexOf('Examples:')
    expect(start).toBeGreaterThan(0)
    expect(start).toBeLessThan(lines.findIndex(l => l.startsWith('  --')))
    const examples = lines
      .slice(start + 1, lines.indexOf('', start))
      .filter(l => l.startsWith('  control-plane-deploy '))
    expect(examples.length).toBeGreaterThanOrEqual(4)
    for (const example of examples) {
      const line = parseCommandLine(example.trim().split(/\s+/).slice(1), {})
      expect({ example, kind: line.kind }).toEqual({ example, kind: 'run' })
    }
    // An upload is among them: the way from GitLab, Bitbucket or any other CI.
    expect(examples.join('\n')).toContain('--source internal_source')
  })

  test('the flags come in groups; those of the GitHub side are under a heading that says GitHub Actions only', () => {
    const headings = lines.filter(l => /^[A-Z].*:$/.test(l))
    expect(headings.length).toBeGreaterThanOrEqual(6)
    const github = lines.findIndex(l => /only inside GitHub Actions/.test(l) && l.endsWith(':'))
    const end = lines.indexOf('', github)
    const under = lines.slice(github, end).join('\n')
    for (const name of ['environment', 'environment-url', 'pr-comment']) {
      expect(under).toMatch(new RegExp(`--${name}\\b`))
      // Listed once: not also in another group.
      expect(help.match(new RegExp(`\\n {2}--${name}[ ,]`, 'g'))).toHaveLength(1)
    }
    for (const name of ['name', 'source', 'timeout', 'secrets'])
      expect(under).not.toMatch(new RegExp(`--${name}\\b`))
    // GITHUB_TOKEN is named there, and it is the only way the token comes in.
    expect(lines[github]).toContain('GITHUB_TOKEN')
  })

  test('the flags of a GitHub repository build (codehost) are marked, and the mark says to upload instead', () => {
    for (const name of ['integration-id', 'repository', 'ref', 'build-on-push'])
      expect(help).toMatch(new RegExp(`\\n {2}--${name}\\b[^\\n]*(\\n +)?\\[codehost\\]`))
    for (const name of ['name', 'source', 'smoke-test'])
      expect(help).not.toMatch(new RegExp(`\\n {2}--${name} [^\\n]*\\[codehost\\]`))
    expect(help).toMatch(/\[codehost\]: only with --source codehost[^]*--source internal_source/)
  })
})

test("the defaults of repository and ref are said in the CLI's terms: the CI or the checkout, never the workflow's event", () => {
  const described = (name: string) => CLI_INPUTS.find(i => i.name === name)!.description
  expect(described('repository')).toMatch(
    /Defaults to the GitHub repository that the CI's variables or the checkout's origin remote name\.$/
  )
  expect(described('ref')).toMatch(
    /Defaults to the branch or tag that the CI's variables or the git checkout name\.$/
  )
  const help = helpText()
  expect(help).not.toMatch(/workflow's repository|Defaults from the event/)
})

// Problems name each input as the user set it: the flag, or the variable, never the YAML name.
describe('input problems in the CLI', () => {
  const KEY = 'lsv2_pt_0123456789abcdef0123456789abcdef_0123456789'
  const INTEGRATION = '123e4567-e89b-12d3-a456-426614174000'

  /** The CLI through the real run: invalid inputs end before any request. */
  async function refused(argv: string[], env: Record<string, string>) {
    let stderr = ''
    const code = await cli(
      argv,
      { CONTROL_PLANE_API_KEY: KEY, ...env },
      {
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr += t), isTTY: false },
        now: () => 0,
        cwd: tmpdir(),
        onSignal: () => () => undefined,
        exit: () => undefined
      },
      run
    )
    return { code, stderr }
  }

  test('a flag is named as a flag, a variable as a variable, a setting as it is written', async () => {
    const r = await refused(
      ['deploy', '--name', 'my-agent', '--no-wait', '--health-check', 'true', '--timeout', 'soon'],
      { CONTROL_PLANE_REF: 'main', CONTROL_PLANE_SOURCE: 'external_docker' }
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('- --timeout: `--timeout` must be a duration')
    expect(r.stderr).toContain('`--health-check` needs `--wait`: the agent server is asked')
    expect(r.stderr).toContain(
      '- CONTROL_PLANE_REF: `CONTROL_PLANE_REF` applies only to source `codehost` (or `--revision-source codehost`), not to source `external_docker`'
    )
    expect(r.stderr).not.toMatch(/`(timeout|ref|image-uri|create: false)`/)
  })

  test.each([
    [
      'GitLab',
      { GITLAB_CI: 'true', CI_COMMIT_BRANCH: 'main..x' },
      'CI_COMMIT_BRANCH',
      /must not contain `\.\.`/
    ],
    [
      'Buildkite',
      { BUILDKITE: 'true', BUILDKITE_BRANCH: 'evil:main' },
      'BUILDKITE_BRANCH',
      /any of ~ \^ :/
    ],
    [
      'CircleCI',
      { CIRCLECI: 'true', CIRCLE_BRANCH: 'pull/5' },
      'CIRCLE_BRANCH',
      /pull request's ref/
    ],
    ['Jenkins', { JENKINS_URL: 'https://ci', BRANCH_NAME: 'ma\u202Eni' }, 'BRANCH_NAME', /U\+202E/]
  ])(
    '%s: a ref from a CI variable goes through the ref check, naming the variable',
    async (_ci, env, variable, reason) => {
      const r = await refused(['deploy', '--name', 'my-agent', '--integration-id', INTEGRATION], {
        ...env,
        CONTROL_PLANE_REPOSITORY: 'acme/agent'
      })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`- --ref: The ref read from ${variable} `)
      expect(r.stderr).toMatch(reason)
      expect(r.stderr).toContain('set `--ref` to')
      // The same ref given as the input is accepted once it is a branch the integration builds.
    }
  )
})
