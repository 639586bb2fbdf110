// `control-plane-deploy --help`, written from action.yml and the inputs table: a new input is a
// new flag here without an edit. One entry per flag, its first sentence, grouped.
import { COMMANDS, INPUTS as TABLE, type CommandName as Command } from '../inputs/table.ts'
import type { InputName } from '../interface/names.ts'
import { FLAG_INPUTS } from './flags.ts'
import { CLI_OUTPUTS, type CliInput } from './inputs.ts'
import { REGISTRY, takersOf } from '../run.ts'

const WIDTH = 100
/** Where a flag's text starts. */
const COLUMN = 29

/** `text` in lines of at most WIDTH characters: the first after `first`, the others indented. */
function wrap(text: string, first = '', indent = ''): string {
  const lines: string[] = []
  let line = first
  let fresh = true
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!fresh && line.length + 1 + word.length > WIDTH) {
      lines.push(line)
      line = indent + word
    } else line = fresh ? line + word : `${line} ${word}`
    fresh = false
  }
  lines.push(line)
  return lines.join('\n')
}

/** Groups by their flags; a flag in none goes to the settings, the table puts the others. */
const GROUPS: ReadonlyArray<[string, readonly InputName[]]> = [
  ['Which deployment', ['name', 'deployment-id', 'tenant-id', 'base-url', 'api-dialect']],
  [
    'What to build',
    [
      'source',
      'integration-id',
      'repository',
      'ref',
      'build-on-push',
      'graph-config-path',
      'revision-source',
      'image-uri',
      'deployment-type'
    ]
  ],
  ['Deployment settings', []],
  [
    'Waiting and failures',
    ['create', 'wait', 'timeout', 'poll-interval', 'dry-run', 'on-failure', 'failure-logs']
  ],
  [
    'Checks after DEPLOYED',
    [
      'health-check',
      'health-check-window',
      'health-check-hosts',
      'smoke-test',
      'evaluate',
      'langsmith-api-url'
    ]
  ]
]
const OTHERS_GROUP = 'Delete, sweep and check'
const GITHUB_GROUP = 'The GitHub side: only inside GitHub Actions, with GITHUB_TOKEN'
const CODEHOST_MARK = '[codehost]'

/** The group a flag is listed under: in one command's help, what only it takes is its own. */
function groupOf(input: CliInput, command?: Command): string {
  if (TABLE[input.name].githubActionsOnly) return GITHUB_GROUP
  if (!takersOf(input.name).includes('deploy')) return command ? ownGroup(command) : OTHERS_GROUP
  return GROUPS.find(([, names]) => names.includes(input.name))?.[0] ?? 'Deployment settings'
}

const ownGroup = (command: Command) => `${command[0]!.toUpperCase()}${command.slice(1)}`

/** Whether only `source: codehost` (a GitHub repository, through the integration) takes it. */
function codehostOnly(name: InputName): boolean {
  const sources = (TABLE[name] as { sources?: readonly string[] }).sources
  return sources?.length === 1 && sources[0] === 'codehost'
}

/** Where `text` may be cut, outside parentheses: before `; `, and before a trailing ` (...)`. */
function clauseEnds(text: string): number[] {
  const ends: number[] = []
  let depth = 0
  let opened = -1
  for (let i = 0; i < text.length; i++) {
    if (depth === 0 && text.startsWith('; ', i)) ends.push(i)
    if (text[i] === '(' || text[i] === '{') {
      if (depth === 0) opened = i
      depth++
    }
    if (text[i] === ')' || text[i] === '}') depth = Math.max(0, depth - 1)
  }
  if (depth === 0 && opened > 0 && text.endsWith(')') && text[opened - 1] === ' ')
    ends.push(opened - 1)
  return ends.sort((a, b) => a - b)
}

/** `text` up to its longest clause end that fits in `room` (and says something), if any. */
function cut(text: string, room: number): string | undefined {
  if (text.length <= room) return text
  const end = clauseEnds(text)
    .filter(e => e >= 20 && e <= room)
    .at(-1)
  return end === undefined ? undefined : text.slice(0, end)
}

/** A description's first sentence, cut at a clause to fit one line, else two, else whole. */
function summary(text: string, room: number): string {
  const first = text.split(/(?<=\.)\s+(?=[A-Z])/)[0]!.replace(/\.$/, '')
  // A word wrapped may take a few characters of the second line.
  return cut(first, room) ?? cut(first, 2 * room - 12) ?? first
}

/** One entry: the flag, and its text from COLUMN on (below the flag when it is too wide). */
function entry(flag: string, text: string): string {
  const head = `  ${flag}`
  const indent = ' '.repeat(COLUMN)
  return head.length < COLUMN
    ? wrap(text, head.padEnd(COLUMN), indent)
    : `${head}\n${wrap(text, indent, indent)}`
}

function flagEntry(input: CliInput): string {
  const flag = input.boolean
    ? `--${input.name}, --no-${input.name}`
    : `--${input.name}${input.trueOrValue ? ' [<value>]' : ' <value>'}`
  const mark = codehostOnly(input.name) ? `${CODEHOST_MARK} ` : ''
  const fallback = input.default !== '' ? ` (default: ${input.default})` : ''
  const room = WIDTH - COLUMN - mark.length - fallback.length
  return entry(flag, mark + summary(input.description, room) + fallback)
}

/** The flags in their groups: every flag, or those `command` takes. */
function flagGroups(command?: Command): string[] {
  const own = command ? [ownGroup(command)] : [OTHERS_GROUP]
  const titles = [...GROUPS.map(([title]) => title), ...own, GITHUB_GROUP]
  const flags = command ? FLAG_INPUTS.filter(i => takersOf(i.name).includes(command)) : FLAG_INPUTS
  return titles.flatMap(title => {
    const listed = flags.filter(i => groupOf(i, command) === title)
    if (!listed.length) return []
    return ['', `${title}:`, ...listed.map(flagEntry)]
  })
}

/** Each command's examples, as a user would first type them. */
const EXAMPLES: Record<Command, readonly string[]> = {
  deploy: [
    '  # From GitLab, Bitbucket or any CI: upload this checkout, the control plane builds it',
    '  control-plane-deploy deploy --name my-agent --source internal_source',
    "  # A GitHub repository, built by the control plane's GitHub integration",
    '  control-plane-deploy deploy --name my-agent --integration-id <uuid> --repository acme/agent',
    '  # The plan only; then a deploy that checks the server and rolls back a failure',
    '  control-plane-deploy deploy --name my-agent --source internal_source --dry-run',
    '  control-plane-deploy deploy --name my-agent --health-check --on-failure rollback',
    '  # Production gets exactly what staging runs',
    '  control-plane-deploy deploy --name my-agent-prod --promote-from my-agent-staging'
  ],
  delete: [
    '  # A preview, deleted with its tracing project',
    '  control-plane-deploy delete --name my-agent-mr-12 --delete-tracing-project',
    '  # By id; what it would delete, first',
    '  control-plane-deploy delete --deployment-id <uuid> --dry-run'
  ],
  sweep: [
    '  # Previews of closed merge requests, or a week old',
    "  control-plane-deploy sweep --sweep-names 'my-agent-mr-{pr}' --sweep-max-age 7d",
    '  # What it would delete, and why, deleting nothing',
    "  control-plane-deploy sweep --sweep-names 'my-agent-mr-{pr}' --sweep-max-age 7d --dry-run"
  ],
  check: [
    '  # Drift of production from main (exit 3), or from what staging runs',
    '  control-plane-deploy check --name my-agent --ref main',
    '  control-plane-deploy check --name my-agent-prod --promote-from my-agent-staging'
  ],
  plan: [
    '  # Which agents of the manifest need a deploy to staging, and why',
    '  control-plane-deploy plan --manifest agents.yaml --environment staging',
    '  # ...and a GitLab child pipeline with one deploy job for each of them',
    '  control-plane-deploy plan --manifest agents.yaml --environment staging --child-pipeline c.yml'
  ]
}

/** The whole help's: each command's first (a deploy's first two), without the comments. */
const FIRST_EXAMPLES = COMMANDS.flatMap(c =>
  EXAMPLES[c].filter(l => !l.trimStart().startsWith('#')).slice(0, c === 'deploy' ? 2 : 1)
)

/** Each command in a sentence or two. */
const PURPOSE: Record<Command, string> = {
  deploy: 'deploy: create or update the deployment, then wait until its new revision is DEPLOYED.',
  delete: 'delete: delete the deployment of this exact name (or id).',
  sweep: 'sweep: delete the previews no longer wanted.',
  check: 'check: report drift, write nothing.',
  plan: 'plan: which agents of the manifest need a deploy, and why; write nothing.'
}

const SWEEP_GITLAB = 'GitLab merge requests are read with CONTROL_PLANE_GITLAB_TOKEN.'

const USAGE: Record<Command, string> = {
  deploy: 'control-plane-deploy deploy [flags]',
  delete: 'control-plane-deploy delete [flags]',
  sweep: 'control-plane-deploy sweep --sweep-names <pattern> [flags]',
  check: 'control-plane-deploy check [flags]',
  plan: 'control-plane-deploy plan --manifest <file> --environment <name> [flags]'
}

const FLAGS_ARE_VARIABLES =
  'Each flag is also a variable (--dry-run: CONTROL_PLANE_DRY_RUN=true); the key is only ' +
  'CONTROL_PLANE_API_KEY.'

/** The head: usage, what it does, the examples. */
function head(command?: Command): string[] {
  const commands = command ? [command] : COMMANDS
  const usage = commands.map((c, i) => `${i ? '       ' : 'Usage: '}${USAGE[c]}`)
  const purpose = command
    ? `${PURPOSE[command]}${command === 'sweep' ? ` ${SWEEP_GITLAB}` : ''}`
    : commands.map(c => PURPOSE[c]).join(' ')
  const more = command ? '' : ' Each command’s own: control-plane-deploy <command> --help.'
  return [
    ...usage,
    '',
    wrap(`${purpose} ${FLAGS_ARE_VARIABLES}${more}`),
    '',
    'Examples:',
    ...(command ? EXAMPLES[command] : FIRST_EXAMPLES)
  ]
}

/** What each exit code means for a command; in the whole help, for any. */
const EXITS: Record<Command | 'any', string> = {
  any: '0 deployed, deleted, or nothing to delete; 1 not deployed (the log says why); 2 invalid flags or inputs, nothing sent; 3 drift (check); 130 interrupted',
  deploy:
    '0 deployed (also by a newer revision); 1 not deployed (the log says why); 2 invalid flags or inputs, nothing sent; 130 interrupted',
  delete:
    '0 deleted, or nothing to delete; 1 not deleted (the log says why); 2 invalid flags or inputs, nothing sent; 130 interrupted',
  sweep:
    '0 swept (each deployment held back is said why); 1 a read or a delete failed; 2 invalid flags or inputs, nothing sent; 130 interrupted',
  check:
    '0 in sync (or drift with --no-fail-on-drift); 3 drift; 1 could not check; 2 invalid flags or inputs, nothing sent; 130 interrupted',
  plan: '0 planned, whatever it decides; 1 a read failed; 2 invalid flags, inputs or manifest, nothing sent; 130 interrupted'
}

/** The notes on defaults and on [codehost], where the flags listed need them. */
function notes(command?: Command): string[] {
  const out: string[] = []
  if (command !== 'delete' && command !== 'sweep') {
    out.push(
      '',
      wrap(
        'Ref, commit and repository default to what the CI (GitHub Actions, GitLab CI, Bitbucket ' +
          'Pipelines, CircleCI, Buildkite, Jenkins, Azure Pipelines, Travis CI) or else the git ' +
          'checkout says; a flag wins over its variable.'
      )
    )
  }
  const marked = FLAG_INPUTS.some(
    i => codehostOnly(i.name) && (!command || takersOf(i.name).includes(command))
  )
  if (marked) {
    out.push(
      '',
      wrap(
        `${CODEHOST_MARK}: only with --source codehost, a GitHub repository that the control ` +
          'plane’s GitHub integration builds. From GitLab, Bitbucket or any other host: ' +
          '--source internal_source.'
      )
    )
  }
  return out
}

/** The whole help text, or one command's (its flags, examples, outputs and exits only). */
export function helpText(command?: Command): string {
  const outputs = command ? REGISTRY[command].outputs : CLI_OUTPUTS.map(o => o.name)
  return [
    ...head(command),
    ...flagGroups(command),
    ...notes(command),
    '',
    'Output:',
    entry('--output lines|json', 'The outputs on stdout at the end (default: lines)'),
    entry('--output-file <file>', 'Also the outputs as dotenv (DEPLOYMENT_ID=...), as for GitLab'),
    ...(command === 'plan' || !command
      ? [
          entry(
            '--child-pipeline <file>',
            'plan: a GitLab child pipeline, one deploy job per agent'
          )
        ]
      : []),
    entry('--debug', 'Every request and answer in the log (redacted)'),
    entry('-h, --help, --version', 'This text; the version'),
    wrap(`Outputs: ${outputs.join(', ')}.`, '  ', '  '),
    '',
    wrap(
      `The log goes to stderr. Exit codes: ${EXITS[command ?? 'any']}. ` +
        'Every input and output in full: ' +
        'https://github.com/control-plane-deploy/control-plane-deploy/blob/main/docs/inputs.md'
    ),
    ''
  ].join('\n')
}
