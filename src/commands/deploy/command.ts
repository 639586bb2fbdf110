// `command: deploy` (the default): the inputs it takes, and its run. The deploy and the delete end
// alike (runFlow): the flow to its ending, the GitHub deployment and pull request comment when the
// door has a GitHub side, then the outputs, the summary and the last line from what the run learned.
import { sanitizeServerText } from '../../inert.ts'
import type { GitHubDeployment } from '../../github/deployment.ts'
import { renderProblems } from '../../inputs/problems.ts'
import type { DeployOptions, FlowOptions } from './options.ts'
import { DEPLOY_RULES } from '../../inputs/rules.ts'
import type { SmokeCase } from '../../inputs/smoke-cases.ts'
import { failureText, type Ending } from '../../interface/ending.ts'
import type { InputName } from '../../interface/names.ts'
import { allOutputs } from '../../report/outputs.ts'
import { summaryText } from '../../report/summary.ts'
import {
  ONE_DEPLOYMENT,
  stepDeps,
  type Command,
  type CommandContext,
  type CommandEnding
} from '../command.ts'
import type { FlowDeps } from './deps.ts'
import { deploy } from './flow.ts'
import { newJournal } from './facts.ts'
import type { Journal, Learned } from '../../interface/journal.ts'
import { githubSide, gitHubDeployment } from './github-side.ts'
import { statusUrlOf } from './status-url.ts'
import { readEvaluationFile, type EvaluationSet } from './read-evaluation.ts'

/** The inputs of a deploy (and of the check, which plans one). */
export const DEPLOY_INPUTS = [
  ...ONE_DEPLOYMENT,
  'repository',
  'source',
  'integration-id',
  'ref',
  'graph-config-path',
  'image-uri',
  'secrets',
  'secret-references',
  'resource-spec',
  'build-on-push',
  'custom-url',
  'listener-id',
  'k8s-namespace',
  'install-command',
  'build-command',
  'revision-source',
  'create',
  'environment',
  'environment-url',
  'deployment-type',
  'size',
  'database-size',
  'on-failure',
  'failure-logs',
  'health-check',
  'health-check-window',
  'health-check-hosts',
  'smoke-test',
  'evaluate',
  'langsmith-api-url',
  'promote-from',
  'expected-source-digest',
  'promote-revision-id',
  'verify-source',
  'manifest',
  'agent'
] as const satisfies readonly InputName[]

export const deployCommand: Command = {
  inputs: DEPLOY_INPUTS,
  rules: DEPLOY_RULES,
  failedTitle: 'Deploy failed',
  // Every output but the other commands' own, in action.yml's order.
  outputs: [
    'deployment-id',
    'revision-id',
    'revision-status',
    'deployment-status',
    'created',
    'url',
    'status-url',
    'repo-commit-sha',
    'github-deployment-id',
    'rollback-revision-id',
    'rollback-status',
    'served-revision',
    'smoke',
    'health',
    'source-digest',
    'deployment-type',
    'size',
    'promoted-from-revision-id',
    'evaluation',
    'evaluation-url',
    'evaluation-scores'
  ],
  run: async (o: DeployOptions, context) => {
    const smoke = await readSmokeTest(o, context)
    if ('invalid' in smoke) return smoke.invalid
    const evaluation = await readEvaluationFile(o, context)
    if ('invalid' in evaluation) return evaluation.invalid
    const flow = { flow: deploy, failedTitle: 'Deploy failed', removal: false }
    return runFlow(o, context, { ...flow, smokeCases: smoke.cases, ...evaluation })
  }
}

/** What a flow of the deploy's kind is: the deploy's, or the delete's. */
export interface FlowOf<O extends FlowOptions> {
  flow: (o: O, journal: Learned, deps: FlowDeps) => Promise<Ending>
  failedTitle: string
  /** Its pull request comment speaks of a preview's removal. */
  removal: boolean
  smokeCases?: readonly SmokeCase[] | undefined
  evaluation?: EvaluationSet | undefined
}

/** The flow to its ending, then the GitHub side and the report of what the run learned. */
export async function runFlow<O extends FlowOptions>(
  o: O,
  context: CommandContext,
  { flow, failedTitle, removal, smokeCases, evaluation }: FlowOf<O>
): Promise<CommandEnding> {
  const { port, log, redactor, clock } = context
  const journal = newJournal(o)
  // With `environment`: a GitHub deployment mirrors the outcome; best effort, never the verdict.
  const github = await gitHubDeployment(port, o, { redactor, log, clock })
  const deps = {
    ...stepDeps(context),
    ...(smokeCases ? { smokeCases } : {}),
    ...(evaluation ? { evaluation } : {})
  }
  const ending = await flowEnding(journal, deps, o, { flow, failedTitle })
  const error = ending.failure ? redactor.redact(failureText(ending.failure)) : undefined
  // The deployment's page in the web app; none for one this run deleted.
  const statusUrl =
    journal.deleted === true
      ? undefined
      : statusUrlOf({
          baseUrl: o.baseUrl,
          dialect: o.apiDialect,
          tenantId: journal.tenantId ?? o.tenantId,
          deploymentId: journal.deploymentId
        })
  const known: Journal = { ...journal, statusUrl }
  await githubSide(port, o, known, { github, error, redactor, log, now: clock.now, removal })
  return { ...ending, ...report(known, context, { github, error }) }
}

/** The outputs, the summary and the last line of a deploy's (or a delete's) run. */
function report(
  journal: Journal,
  { client, redactor, clock, started }: CommandContext,
  { github, error }: { github: GitHubDeployment | undefined; error: string | undefined }
) {
  const outputs = allOutputs(journal, {
    'github-deployment-id': github ? String(github.id) : undefined
  })
  const facts = { durationMs: clock.now() - started, requests: client.requestCount, error }
  const healthy = journal.health === 'healthy' ? ', and its agent server answers healthy' : ''
  const done =
    journal.outcome === 'deployed'
      ? `Done: revision ${journal.revisionId} is DEPLOYED${healthy}.`
      : undefined
  return { outputs, summary: summaryText(journal, facts, redactor), done }
}

/** The flow, to its ending; what nobody expected (our bug) is one readable line, no stack trace. */
async function flowEnding<O extends FlowOptions>(
  journal: Learned,
  deps: FlowDeps,
  o: O,
  { flow, failedTitle }: Pick<FlowOf<O>, 'flow' | 'failedTitle'>
): Promise<Ending> {
  try {
    return await flow(o, journal, deps)
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err)
    const message = `Unexpected error: ${sanitizeServerText(text, 1000)}`
    return { outcome: 'error', failure: { message, title: failedTitle } }
  }
}

/** The smoke-test file's cases, checked before any request; an invalid file ends the run. */
async function readSmokeTest(
  o: DeployOptions,
  { port, redactor }: CommandContext
): Promise<{ cases?: readonly SmokeCase[] } | { invalid: CommandEnding }> {
  if (o.smokeTest === undefined) return {}
  const { loadSmokeTest } = await import('../../inputs/smoke-cases.ts')
  const read = await loadSmokeTest(o.smokeTest, port.event.workspace, port.say)
  if (!('problem' in read)) return { cases: read.cases }
  const message = redactor.redact(renderProblems([read.problem], port.say))
  const failure = { message, title: 'Invalid inputs', nothingSent: true }
  return { invalid: { outcome: 'error', failure, outputs: allOutputs(undefined, {}) } }
}
