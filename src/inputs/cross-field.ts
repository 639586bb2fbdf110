// How the inputs fit together: what a source needs and allows, what a command allows, and the
// checks that need two inputs. Only inputs that passed their own checks take part: an input that
// failed is neither given (nothing is said about what it does not fit) nor absent (it is not
// "required" again: its own problem already says what is wrong).
import { RESERVED_SECRET_NAMES, RESERVED_SECRET_NAMES_HOSTED } from '../control-plane/vocabulary.ts'
import { formatDuration } from '../duration.ts'
import { forkPullRequestMessage, type EventDefaults } from '../event.ts'
import { healthProblems } from './health.ts'
import { defaultOf, INPUT_NAMES, type InputName } from './names.ts'
import { INPUTS, type Fields } from './table.ts'

/** Inputs without a default that only a deploy uses: given to a delete, they are an error. */
const DEPLOY_ONLY: readonly InputName[] = INPUT_NAMES.filter(
  name => INPUTS[name].applies === 'deploy' && defaultOf(name) === ''
)
/** Inputs only a delete uses (switches that are off by default). */
const DELETE_ONLY: readonly InputName[] = INPUT_NAMES.filter(
  name => INPUTS[name].applies === 'delete'
)

/** GitHub's refs of a pull request: its merge commit and its head, neither a branch. */
const PULL_REQUEST_REF = /^refs\/pull\/\d+\/(merge|head)$/

/**
 * How the inputs fit together. `failed`: the inputs that failed their own checks (their value in
 * `f` is `undefined`).
 */
export function crossFieldProblems(
  f: Fields,
  failed: ReadonlySet<InputName>,
  event: EventDefaults
): Array<[InputName, string]> {
  const problems: Array<[InputName, string]> = []
  const add = (input: InputName, message: string) => problems.push([input, message])
  /** Set, and passed its own check. */
  const given = (input: InputName) => f[input] !== undefined
  /** Not set at all (not merely failed). */
  const absent = (input: InputName) => f[input] === undefined && !failed.has(input)

  // Target. A `deployment-id` that failed its check still means a target by id.
  const byId = !absent('deployment-id')
  if (!byId && absent('name')) {
    add(
      'name',
      '`name` is required: the deployment name to find or create (or set `deployment-id` to update a deployment by id)'
    )
  }
  // A mistyped command: which rules apply is unknown, so its own problem is the one to fix.
  if (failed.has('command')) return problems

  // GitHub deployments: `environment` turns them on and needs a token to write them.
  if (given('environment') && absent('github-token')) {
    add(
      'github-token',
      '`github-token` is required with `environment` to create a GitHub deployment: pass `${{ github.token }}` and grant the job `deployments: write`'
    )
  }
  if (given('environment-url') && absent('environment')) {
    add(
      'environment-url',
      '`environment-url` applies only with `environment` (the GitHub environment whose deployment shows that URL)'
    )
  }

  // The health gate asks the agent server after DEPLOYED: only a deploy that waits gets there.
  const health = { healthPath: f['health-check'], wait: f.wait, command: f.command }
  for (const [input, message] of healthProblems(health)) add(input, message)

  // Deleting takes a target and nothing of what a deploy writes.
  if (f.command === 'delete') {
    for (const input of DEPLOY_ONLY) {
      if (given(input))
        add(input, `\`${input}\` applies only to deploying, not to \`command: delete\``)
    }
    if (f['on-failure'] === 'rollback')
      add(
        'on-failure',
        '`on-failure: rollback` applies only to deploying, not to `command: delete`'
      )
    return problems
  }
  for (const input of DELETE_ONLY) {
    if (given(input) && f[input] !== false)
      add(input, `\`${input}\` applies only with \`command: delete\``)
  }
  if (f['pr-comment'] === true && absent('github-token')) {
    add(
      'github-token',
      '`github-token` is required with `pr-comment`: pass `${{ github.token }}` and grant the job `pull-requests: write`'
    )
  }
  if (typeof f.ref === 'string' && PULL_REQUEST_REF.test(f.ref)) {
    const head =
      event.pullRequestNumber !== undefined && event.ref !== undefined
        ? `\`${event.ref}\``
        : '`${{ github.head_ref }}`'
    add(
      'ref',
      "`ref` is a pull request's ref (`refs/pull/<number>/merge` or `/head`), which the integration " +
        `cannot build: deploy the pull request's head branch, ${head} (on a pull request event, ` +
        'leaving `ref` empty deploys it)'
    )
  }
  // A fork's head branch is not in the repository the integration builds.
  if (event.forkHead !== undefined && (absent('repository') || absent('ref'))) {
    add('ref', forkPullRequestMessage(event.forkHead, event.repository))
  }

  const source = f.source
  const revisionSource = f['revision-source']
  if (source === undefined) return problems
  // Creating is only decided at run time; a name target with `create: true` may create.
  const mayCreate = !byId && typeof f.name === 'string' && f.create === true
  const usesCodehost =
    source === 'codehost' || (revisionSource === 'codehost' && source !== 'external_docker')

  // Inputs that belong to one kind of source.
  const onlyFor = (input: InputName, allowed: boolean, where: string) => {
    if (given(input) && !allowed)
      add(input, `\`${input}\` applies only to ${where}, not to source \`${source}\``)
  }
  onlyFor('integration-id', source === 'codehost', 'source `codehost`')
  onlyFor('build-on-push', source === 'codehost', 'source `codehost`')
  onlyFor('deployment-type', source === 'codehost', 'source `codehost`')
  onlyFor('repository', usesCodehost, 'source `codehost` (or `revision-source: codehost`)')
  onlyFor('ref', usesCodehost, 'source `codehost` (or `revision-source: codehost`)')
  onlyFor('listener-id', source === 'external_docker', 'source `external_docker` (self-hosted)')
  onlyFor('k8s-namespace', source === 'external_docker', 'source `external_docker` (self-hosted)')
  onlyFor(
    'secret-references',
    source === 'external_docker',
    'source `external_docker` (self-hosted)'
  )
  onlyFor(
    'image-uri',
    source === 'external_docker' ||
      source === 'internal_docker' ||
      revisionSource === 'internal_docker',
    'sources `external_docker` and `internal_docker` (or `revision-source: internal_docker`)'
  )
  onlyFor('revision-source', source !== 'external_docker', 'cloud sources')

  // What each source needs.
  const missing = (input: InputName, why: string) => {
    if (absent(input)) add(input, `\`${input}\` is required ${why}`)
  }
  if (source === 'codehost' && mayCreate) {
    const why = 'to create a `codehost` deployment (or set `create: false` to only update)'
    missing('integration-id', why)
    if (absent('repository') && event.repository === undefined) {
      add('repository', `\`repository\` is required ${why}: no workflow repository is known`)
    }
    if (absent('ref') && event.ref === undefined) {
      add('ref', `\`ref\` is required ${why}: the triggering event gives no branch or tag`)
    }
  }
  if (source === 'external_docker' && mayCreate) {
    const why = 'to create an `external_docker` deployment (or set `create: false` to only update)'
    missing('image-uri', why)
    missing('listener-id', why)
    missing('k8s-namespace', why)
  }
  if (source === 'internal_docker')
    missing('image-uri', 'with source `internal_docker`: the image to deploy')
  else if (revisionSource === 'internal_docker') {
    missing('image-uri', 'with `revision-source: internal_docker`: the image to deploy')
  }

  // build_on_push must be false when repo_ref is a tag.
  // A `ref` that failed its check stands for no ref, not for the event's.
  const ref = absent('ref') && usesCodehost ? event.ref : f.ref
  if (f['build-on-push'] === true && ref?.startsWith('refs/tags/')) {
    add(
      'build-on-push',
      '`build-on-push` cannot be `true` when the ref is a tag (`refs/tags/...`): a tag does not move on pushes'
    )
  }

  // Reserved secret names: hosted deployments reserve a few more.
  const reserved: readonly string[] =
    source === 'external_docker'
      ? RESERVED_SECRET_NAMES
      : [...RESERVED_SECRET_NAMES, ...RESERVED_SECRET_NAMES_HOSTED]
  if (f.secrets !== undefined) {
    for (const { name } of f.secrets) {
      if (reserved.includes(name)) {
        add(
          'secrets',
          `\`secrets\`: ${name} is reserved by the platform${(RESERVED_SECRET_NAMES_HOSTED as readonly string[]).includes(name) ? ' on hosted deployments' : ''}; use another name`
        )
      }
    }
    if (f['secret-references'] !== undefined) {
      const names = new Set(f.secrets.map(s => s.name))
      for (const { name } of f['secret-references']) {
        if (names.has(name)) {
          add('secret-references', `\`secret-references\`: ${name} is also set in \`secrets\``)
        }
      }
    }
  }

  const pollInterval = f['poll-interval']
  const timeout = f.timeout
  if (pollInterval !== undefined && timeout !== undefined && pollInterval > timeout) {
    add(
      'poll-interval',
      `\`poll-interval\` (${formatDuration(pollInterval)}) must not be longer than \`timeout\` (${formatDuration(timeout)})`
    )
  }
  return problems
}
