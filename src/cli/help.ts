// `control-plane-deploy --help`, written from action.yml's declarations (inputs.ts): a new input
// is a new flag here without an edit.
import { envNameOf, FLAG_INPUTS } from './flags.ts'
import { CLI_INPUTS, CLI_OUTPUTS, type CliInput } from './inputs.ts'

const WIDTH = 100
const INDENT = '      '

/** `text` in lines of at most WIDTH characters, each after `indent`. */
function wrap(text: string, indent: string): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(indent + line)
  return lines.join('\n')
}

function flagEntry(input: CliInput): string {
  const flag = input.boolean
    ? `--${input.name}, --no-${input.name}`
    : `--${input.name}${input.trueOrValue ? ' [<value>]' : ' <value>'}`
  const fallback = input.default !== '' ? ` (default: ${input.default})` : ''
  const head = `  ${flag}   ${envNameOf(input.name)}${fallback}`
  // Too wide for one line: the variable goes on a line of its own.
  const lines =
    head.length <= WIDTH ? head : `  ${flag}\n${INDENT}${envNameOf(input.name)}${fallback}`
  return `${lines}\n${wrap(input.description, INDENT)}`
}

function describe(name: string): string {
  return CLI_INPUTS.find(i => i.name === name)?.description ?? ''
}

/** The whole help text. */
export function helpText(): string {
  return [
    'Usage: control-plane-deploy deploy [flags]',
    '       control-plane-deploy delete [flags]',
    '       control-plane-deploy sweep --sweep-names <pattern> [flags]',
    '       control-plane-deploy check [flags]',
    '',
    wrap(
      'deploy: create or update the deployment through the Deployment Control Plane API, then ' +
        'wait until its new revision is DEPLOYED, failed, superseded or timed out. delete: delete ' +
        'the deployment of this exact name (or deployment-id); none of that name is a success. ' +
        'sweep: delete the deployments matching --sweep-names whose pull (merge) request is closed, ' +
        'or older than --sweep-max-age, or beyond --sweep-max-count (GitLab merge requests are read ' +
        'with CONTROL_PLANE_GITLAB_TOKEN). check: write nothing; report drift from what the flags describe.',
      ''
    ),
    '',
    wrap(
      'The flags are the inputs of the GitHub Action, with the same names, defaults and checks. ' +
        'Each can also be set in the environment variable after it; a flag wins over its variable. ' +
        'Ref, commit and repository default to what the CI (GitHub Actions, GitLab CI, Bitbucket ' +
        'Pipelines, CircleCI, Buildkite, Jenkins) or else the git checkout says.',
      ''
    ),
    '',
    'Only from the environment:',
    `  CONTROL_PLANE_API_KEY   (required)\n${wrap(describe('api-key'), INDENT)}`,
    wrap(
      'Never a flag: a key on the command line stays in the shell history and shows in `ps`.',
      INDENT
    ),
    `  GITHUB_TOKEN\n${wrap(describe('github-token'), INDENT)}`,
    '',
    'Flags:',
    ...FLAG_INPUTS.map(flagEntry),
    '',
    'Output:',
    '  --output lines|json   (default: lines)',
    wrap('The outputs on stdout at the end: name=value lines, or one JSON object.', INDENT),
    '  --output-file <file>',
    wrap(
      'Also writes the outputs as dotenv (DEPLOYMENT_ID=...), e.g. for GitLab artifacts:reports:dotenv.',
      INDENT
    ),
    '  --debug        every request and answer in the log (redacted)',
    '  -h, --help     this text',
    '  --version      the version',
    '',
    'Outputs:',
    ...CLI_OUTPUTS.map(o => `  ${o.name}\n${wrap(o.description, INDENT)}`),
    '',
    'The log goes to stderr. Exit codes: 0 deployed, deleted, or nothing to delete; 1 not deployed',
    '(a failed revision, superseded, unhealthy, timed out: the log says which); 2 invalid flags or',
    'inputs, nothing sent; 3 drift (check); 130 interrupted.',
    ''
  ].join('\n')
}
