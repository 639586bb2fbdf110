// How the inputs fit together, as named rules over the rows' facts (table.ts) and the resolved
// value (resolved.ts). An input that failed its own check is neither given nor absent: its own
// problem already says what is wrong. Every message names inputs through `say`.
import {
  CLOUD_SOURCES,
  kindOf,
  RESERVED_SECRET_NAMES,
  RESERVED_SECRET_NAMES_HOSTED
} from '../control-plane/vocabulary.ts'
import { formatDuration } from '../duration.ts'
import { forkPullRequestMessage, forkUploadMessage, type EventDefaults } from '../runner/event.ts'
import { refFormatProblem } from './fields.ts'
import { healthProblems } from './health.ts'
import { defaultOf, INPUT_NAMES, type InputName } from '../interface/names.ts'
import type { Say } from '../interface/naming.ts'
import { uploadsWorkspace, type Resolved } from './resolved.ts'
import { INPUTS, type CommandName, type Fields, type InputRow } from './table.ts'

export interface RuleInput {
  /** The command the rules are of, to name it in a message. */
  command: CommandName
  /** The commands that take an input (their modules' lists), in the registry's order. */
  takers(input: InputName): readonly CommandName[]
  f: Fields
  r: Resolved
  event: EventDefaults
  say: Say
  /** Has a value (the user's or action.yml's default) that passed its own check. */
  given(input: InputName): boolean
  /** Set by the user (not merely defaulted), and passed its own check. */
  set(input: InputName): boolean
  /** Not set at all (not merely failed). */
  absent(input: InputName): boolean
  add(input: InputName, message: string): void
}

export type Rule = (c: RuleInput) => void

const row = (name: InputName): InputRow<unknown> => INPUTS[name]

/** The deployment needs a target: a name, or an id. */
export function target({ r, say, absent, add }: RuleInput): void {
  if (!r.byId && absent('name')) {
    add(
      'name',
      `${say('name')} is required: the deployment name to find or create (or set ${say('deployment-id')} to update a deployment by id)`
    )
  }
}

/** `environment` turns GitHub deployments on and needs a token to write them. */
export function githubDeployment({ say, given, absent, add }: RuleInput): void {
  // With `manifest`, `environment` names the manifest's entry too: a GitHub deployment is made
  // where a token is given (the action's default), and none elsewhere.
  if (given('environment') && absent('github-token') && !given('manifest')) {
    add(
      'github-token',
      `${say('github-token')} is required with ${say('environment')} to create a GitHub deployment: pass \`\${{ github.token }}\` and grant the job \`deployments: write\``
    )
  }
  if (given('environment-url') && absent('environment')) {
    add(
      'environment-url',
      `${say('environment-url')} applies only with ${say('environment')} (the GitHub environment whose deployment shows that URL)`
    )
  }
}

/** The health gate asks the agent server after DEPLOYED: only a deploy that waits gets there. */
export function healthGate({ f, say, add }: RuleInput): void {
  const fit = { healthPath: f['health-check'], wait: f.wait }
  for (const [input, message] of healthProblems(fit, say)) add(input, message)
}

/** The smoke cases run after the health check's probes: without it, nothing would run them. */
export function smokeNeedsGate({ f, say, add }: RuleInput): void {
  if (f['smoke-test'] !== undefined && f['health-check'] === false)
    add(
      'smoke-test',
      `${say('smoke-test')} needs ${say('health-check')}: the cases run against the new revision after its health check`
    )
}

/** The evaluation runs on the DEPLOYED revision; its LangSmith API is for it alone. */
export function evaluationFit({ f, say, add }: RuleInput): void {
  if (f.evaluate !== undefined && f.wait === false)
    add(
      'evaluate',
      `${say('evaluate')} needs ${say.set('wait', true)}: the examples run on the revision once it is DEPLOYED`
    )
  if (f['langsmith-api-url'] !== undefined && f.evaluate === undefined)
    add(
      'langsmith-api-url',
      `${say('langsmith-api-url')} applies only with ${say('evaluate')} (the LangSmith API of its dataset and experiments)`
    )
}

/** Timing: a pause is never longer than the whole wait. */
export function pollWithinTimeout({ f, say, add }: RuleInput): void {
  const pollInterval = f['poll-interval']
  const timeout = f.timeout
  if (pollInterval !== undefined && timeout !== undefined && pollInterval > timeout) {
    add(
      'poll-interval',
      `${say('poll-interval')} (${formatDuration(pollInterval)}) must not be longer than ${say('timeout')} (${formatDuration(timeout)})`
    )
  }
}

/** The commands of a deploy's inputs: a deploy, and the check that plans one. */
const deploying = (by: readonly CommandName[]) =>
  by.length === 2 && by.includes('deploy') && by.includes('check')

/** Each command takes only its inputs: given to another, one without a default or a switch on. */
export function commandFit({ command, takers, f, say, given, add }: RuleInput): void {
  for (const input of INPUT_NAMES) {
    const by = takers(input)
    if (by.includes(command) || !given(input)) continue
    const commands = by.map(c => `\`${c}\``).join(', ')
    if (defaultOf(input) === '')
      add(
        input,
        `${say(input)} applies only to ${deploying(by) ? 'deploying' : `command ${commands}`}, not to ${say.set('command', command)}`
      )
    else if (by.includes('delete') && !by.includes('deploy') && f[input] !== false)
      add(input, `${say(input)} applies only with ${say.set('command', 'delete')}`)
  }
}

/** A delete's switches of a deploy turned on: the health gate, the rollback. */
export function deploySwitches({ f, say, add }: RuleInput): void {
  const deleting = say.set('command', 'delete')
  if (f['health-check'])
    add('health-check', `${say('health-check')} applies only to deploying, not to ${deleting}`)
  if (f['on-failure'] === 'rollback')
    add(
      'on-failure',
      `${say.set('on-failure', 'rollback')} applies only to deploying, not to ${deleting}`
    )
}

/** A sweep needs its pattern and at least one criterion; `sweep-closed` needs `{pr}`. */
export function sweepCriteria({ f, say, add }: RuleInput): void {
  const pattern = f['sweep-names']
  if (pattern === undefined) {
    add(
      'sweep-names',
      `${say('sweep-names')} is required with ${say.set('command', 'sweep')}: the names to consider, like \`my-agent-pr-{pr}\``
    )
    return
  }
  if (f['sweep-closed'] === true && !pattern.hasPr)
    add(
      'sweep-closed',
      `${say('sweep-closed')} needs \`{pr}\` in ${say('sweep-names')}: the pull request number is read from the name`
    )
  const closed = f['sweep-closed'] ?? pattern.hasPr
  if (!closed && f['sweep-max-age'] === undefined && f['sweep-max-count'] === undefined)
    add(
      'sweep-names',
      `${say.set('command', 'sweep')} needs a criterion: \`{pr}\` in ${say('sweep-names')} (closed pull requests), ${say('sweep-max-age')} or ${say('sweep-max-count')}`
    )
}

/** The pull request comment is written with the token. */
export function prComment({ f, say, absent, add }: RuleInput): void {
  if (f['pr-comment'] === true && absent('github-token')) {
    add(
      'github-token',
      `${say('github-token')} is required with ${say('pr-comment')}: pass \`\${{ github.token }}\` and grant the job \`pull-requests: write\``
    )
  }
}

/** GitHub's refs of a pull request (`refs/pull/12/merge`, `/head`) and CircleCI's `pull/12`. */
const PULL_REQUEST_REF = /^(?:refs\/)?pull\/\d+(?:\/(?:merge|head))?$/

/** How a message names the ref the event gave: by the variable it was read from. */
function eventRefName(event: EventDefaults): string {
  return event.refFrom !== undefined
    ? `The ref read from ${event.refFrom}`
    : 'The ref the triggering event gives'
}

/** The ref to deploy, wherever it comes from, is one the integration can build. */
export function refFit({ r, event, say, add }: RuleInput): void {
  if (r.ref === undefined) return
  if (PULL_REQUEST_REF.test(r.ref)) {
    add('ref', pullRequestRefMessage(r, event, say))
    return
  }
  if (r.refOrigin !== 'event') return // the input's own check said it already
  const problem = refFormatProblem(r.ref)
  if (problem !== undefined) {
    add(
      'ref',
      `${eventRefName(event)} must be a branch name or \`refs/tags/<tag>\` as git allows it: it ${problem} ` +
        `(set ${say('ref')} to the branch to deploy)`
    )
  }
}

function pullRequestRefMessage(r: Resolved, event: EventDefaults, say: Say): string {
  const what =
    "a pull request's ref (`refs/pull/<number>/merge`, `/head` or `pull/<number>`), which the " +
    'integration cannot build'
  if (r.refOrigin === 'event') {
    return `${eventRefName(event)} is ${what}: set ${say('ref')} to the pull request's head branch (one in the repository, not a fork's)`
  }
  const head =
    event.pullRequestNumber !== undefined && event.ref !== undefined
      ? `\`${event.ref}\``
      : '`${{ github.head_ref }}`'
  return (
    `${say('ref')} is ${what}: deploy the pull request's head branch, ${head} (on a pull ` +
    `request event, leaving ${say('ref')} empty deploys it)`
  )
}

/** What a change from a fork may not do: upload its code, or deploy the default ref. */
export type ForkRefusal = 'upload' | 'ref'

/**
 * The fork rule: a fork's code is never uploaded (it would deploy with the repository's key), and
 * its branch, not in the repository, deploys only with `repository` and `ref` both given.
 */
export function forkRefusal(uploads: boolean, repositoryAndRef: boolean): ForkRefusal | undefined {
  if (uploads) return 'upload'
  return repositoryAndRef ? undefined : 'ref'
}

/** The fork rule on the inputs as given, for a door that refuses before its run (the CLI). */
export function forkRefusalOfGiven(input: (name: InputName) => string): ForkRefusal | undefined {
  const given = (name: InputName) => input(name).trim() !== ''
  const uploads = uploadsWorkspace(input('source').trim(), input('revision-source').trim())
  return forkRefusal(uploads, given('repository') && given('ref'))
}

/** A change from a fork, refused in the run, in the action's words (the CLI's deploy: before it). */
export function fork({ r, event, absent, add }: RuleInput): void {
  if (event.forkHead === undefined) return
  const refusal = forkRefusal(r.uploads, !absent('repository') && !absent('ref'))
  if (refusal === 'upload')
    add(
      r.source === 'internal_source' ? 'source' : 'revision-source',
      forkUploadMessage(event.forkHead)
    )
  if (refusal === 'ref') add('ref', forkPullRequestMessage(event.forkHead, event.repository))
}

/** Upload URLs are an `internal_source` deployment's alone (400 for others, after the plan). */
export function uploadRevisionOfOtherSource({ r, say, add }: RuleInput): void {
  if (r.revisionSource !== 'internal_source' || r.source === undefined) return
  if (r.source === 'internal_source' || r.source === 'external_docker') return
  add(
    'revision-source',
    `${say.set('revision-source', 'internal_source')} needs a deployment whose source is \`internal_source\` ` +
      `(the control plane gives upload URLs to those alone), not source \`${r.source}\`: ` +
      `set ${say.set('source', 'internal_source')} and deploy by upload under a new name, or leave ${say('revision-source')} ` +
      `empty to deploy this ${r.source} deployment as it is built`
  )
}

/** `source \`codehost\``, `sources \`a\` and \`b\` (or \`revision-source: b\`)`, `cloud sources`. */
function sourcesText(facts: InputRow<unknown>, say: Say): string {
  const list = facts.sources ?? []
  const names = list.map(s => `\`${s}\``)
  const base =
    list.length === CLOUD_SOURCES.length && list.every(s => CLOUD_SOURCES.includes(s))
      ? 'cloud sources'
      : list.length === 1
        ? `source ${names[0]}${list[0] === 'external_docker' ? ' (self-hosted)' : ''}`
        : `sources ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  const revision = (facts.revisionSources ?? []).map(s => say.set('revision-source', s))
  return revision.length ? `${base} (or ${revision.join(' or ')})` : base
}

/** Whether an input of these facts belongs to the sources in play. */
function fitsSources(facts: InputRow<unknown>, r: Resolved): boolean {
  if (facts.sources === undefined || r.source === undefined) return true
  if (facts.sources.includes(r.source)) return true
  const revision = r.revisionSource
  return revision !== undefined && r.source !== 'external_docker'
    ? (facts.revisionSources ?? []).includes(revision)
    : false
}

/** Inputs that belong to other sources (the rows' `sources` and `revisionSources`). */
export function sourceFit({ r, say, set, add }: RuleInput): void {
  if (r.source === undefined) return
  for (const input of INPUT_NAMES) {
    // A default fits every source: only what the user set can be out of place.
    if (set(input) && !fitsSources(row(input), r))
      add(
        input,
        `${say(input)} applies only to ${sourcesText(row(input), say)}, not to source \`${r.source}\``
      )
  }
}

/** What every deploy of a source needs (the rows' `needs`; a create's own: create-inputs.ts). */
export function sourceNeeds({ r, say, absent, add }: RuleInput): void {
  const { source, revisionSource } = r
  if (source === undefined) return
  for (const input of INPUT_NAMES) {
    const needs = row(input).needs
    if (!absent(input) || needs === undefined) continue
    if (needs.sources.includes(source))
      add(input, `${say(input)} is required with source \`${source}\`: ${needs.why}`)
    else if (revisionSource !== undefined && needs.sources.includes(revisionSource))
      add(
        input,
        `${say(input)} is required with ${say.set('revision-source', revisionSource)}: ${needs.why}`
      )
  }
}

/** build_on_push must be false when repo_ref is a tag: a tag does not move on pushes. */
export function tagWithoutBuildOnPush({ f, r, say, add }: RuleInput): void {
  if (f['build-on-push'] === true && r.ref?.startsWith('refs/tags/')) {
    add(
      'build-on-push',
      `${say('build-on-push')} cannot be \`true\` when the ref is a tag (\`refs/tags/...\`): a tag does not move on pushes`
    )
  }
}

/** Reserved secret names (hosted deployments reserve a few more), and a name set twice. */
export function secretNames({ f, r, say, add }: RuleInput): void {
  if (f.secrets === undefined || r.source === undefined) return
  const hosted: readonly string[] = RESERVED_SECRET_NAMES_HOSTED
  const reserved: readonly string[] =
    r.source === 'external_docker' ? RESERVED_SECRET_NAMES : [...RESERVED_SECRET_NAMES, ...hosted]
  for (const { name } of f.secrets) {
    if (reserved.includes(name)) {
      add(
        'secrets',
        `${say('secrets')}: ${name} is reserved by the platform${hosted.includes(name) ? ' on hosted deployments' : ''}; use another name`
      )
    }
  }
  const names = new Set(f.secrets.map(s => s.name))
  for (const { name } of f['secret-references'] ?? []) {
    if (names.has(name)) {
      add(
        'secret-references',
        `${say('secret-references')}: ${name} is also set in ${say('secrets')}`
      )
    }
  }
}

/** `expected-source-digest` pins an upload's archive: only where an archive is built. */
export function digestFit({ r, set, say, add }: RuleInput): void {
  if (!set('expected-source-digest') || r.uploads || set('promote-from')) return
  add(
    'expected-source-digest',
    `${say('expected-source-digest')} pins the archive of an upload deploy (${say.set('source', 'internal_source')}) ` +
      `or of a promotion (${say('promote-from')}) from one: this run uploads nothing`
  )
}

/** `promote-revision-id` and `verify-source: false` say something of a promotion only. */
export function promotionFit({ f, set, absent, say, add }: RuleInput): void {
  if (!absent('promote-from')) return
  if (set('promote-revision-id'))
    add(
      'promote-revision-id',
      `${say('promote-revision-id')} names the revision of ${say('promote-from')} to promote: set ${say('promote-from')} too, or leave it out`
    )
  if (f['verify-source'] === false)
    add(
      'verify-source',
      `${say.set('verify-source', false)} skips the check of a promotion's source: it needs ${say('promote-from')}`
    )
}

/** A Serverless deployment shares its database: it has no database size to set. */
export function databaseOfServerless({ f, say, add }: RuleInput): void {
  const type = f['deployment-type']
  if (f['database-size'] === undefined || kindOf(type) !== 'serverless') return
  add(
    'database-size',
    `${say('database-size')} applies only to a Dedicated deployment, and ${say.set('deployment-type', type as string)} is Serverless, which shares its database: leave ${say('database-size')} out, or deploy a Dedicated deployment`
  )
}

/** The rules every command but the sweep begins with (a sweep has no one target). */
export const COMMON_RULES: readonly Rule[] = [
  target,
  githubDeployment,
  healthGate,
  smokeNeedsGate,
  pollWithinTimeout,
  commandFit
]

/** What a deploy's inputs must be, and the check's (which plans that deploy). */
export const DEPLOY_RULES: readonly Rule[] = [
  ...COMMON_RULES,
  prComment,
  digestFit,
  promotionFit,
  refFit,
  fork,
  uploadRevisionOfOtherSource,
  sourceFit,
  sourceNeeds,
  tagWithoutBuildOnPush,
  secretNames,
  databaseOfServerless,
  evaluationFit
]
