// The evaluation gate as a step of the deploy: after the health gate, the `evaluate` file's
// examples run on the new revision (src/evaluate/), its verdict said and made the run's ending.
// Failed or inconclusive fail like an unhealthy server: with `on-failure: rollback`, rolled back.
import { join } from 'node:path'
import { sanitizeServerText } from '../../../inert.ts'
import { evaluateRevision, type Gate, type Judging } from '../../../evaluate/gate.ts'
import type { Recorder } from '../../../evaluate/recorder.ts'
import { agentProbe } from '../../../health/verify/agent-probe.ts'
import { readGraphIds } from '../../../health/verify/graph-config.ts'
import { DEFAULT_HEALTH_PATH } from '../../../inputs/health.ts'
import { stop, stopped, type Ending, type Failure, type Stop } from '../../../interface/ending.ts'
import type { EvaluationFacts, Journal } from '../../../interface/journal.ts'
import type { FlowDeps } from '../deps.ts'
import type { DeployOptions } from '../options.ts'
import type { EvaluationSet } from '../read-evaluation.ts'
import {
  healthSettings,
  known,
  rollBack,
  type Concluding,
  type DeployedRevision
} from './after-deployed.ts'
import { findDeploymentByName } from './find-deployment.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The graph the examples run on: the file's `assistant`, else the config's only graph. */
async function assistantOf(
  set: EvaluationSet,
  o: DeployOptions,
  deps: FlowDeps
): Promise<string | Stop> {
  if (set.evaluation.assistant) return set.evaluation.assistant
  const ids = await readGraphIds(join(deps.workspace ?? '.', o.graphConfigPath), o.graphConfigPath)
  if ('graphs' in ids && ids.graphs.length === 1) return ids.graphs[0]!
  const why =
    'graphs' in ids
      ? `${o.graphConfigPath} has ${ids.graphs.length} graphs (${ids.graphs.join(', ')})`
      : ids.unreadable
  return stop(
    `${deps.say('evaluate')} (${set.evaluation.file}) names no \`assistant\`, and the config's only graph cannot stand for it: ${why}.`,
    `Set \`assistant\` in ${set.evaluation.file} to the graph or assistant id the examples run on.`,
    'Evaluation inconclusive'
  )
}

/** LangSmith, for a dataset: the official client, loaded now. */
async function recorderOf(
  set: EvaluationSet,
  o: DeployOptions,
  deps: FlowDeps,
  deadline: number
): Promise<Recorder | undefined> {
  const s = set.evaluation.source
  if (s.kind !== 'dataset' || set.langsmithApi === undefined) return undefined
  const { langsmithRecorder } = await import('../../../evaluate/langsmith.ts')
  return langsmithRecorder({
    apiUrl: set.langsmithApi,
    apiKey: o.apiKey,
    tenantId: o.tenantId,
    dataset: s.dataset,
    signal: deps.signal,
    clock: deps.clock,
    deadline,
    onRetry: line => deps.log.info(line)
  })
}

/** The baseline deployment's id (by name through the control plane); undefined when none. */
async function baselineIdOf(set: EvaluationSet, deps: FlowDeps): Promise<string | undefined> {
  const name = set.evaluation.baseline?.deployment
  if (name === undefined) return undefined
  if (UUID.test(name)) return name
  const d = await findDeploymentByName(deps.client, name, deps.say)
  return d && !stopped(d) ? d.id : undefined
}

/** What a gate on one agent server needs: the revision's server, the examples' transport. */
export async function gateFor(
  c: Pick<Concluding, 'o' | 'deps'>,
  server: { url: string | undefined; name: string | undefined; deadline: number },
  judging: Judging
): Promise<Gate | Stop> {
  const { o, deps } = c
  const set = deps.evaluation!
  const state = { name: server.name, url: server.url, deploymentType: undefined }
  const settings = healthSettings(o, o.healthCheck || DEFAULT_HEALTH_PATH, state, deps, {
    waitedMs: 0
  })
  const assistant = await assistantOf(set, o, deps)
  if (stopped(assistant)) return assistant
  return {
    evaluation: set.evaluation,
    call: agentProbe(settings),
    assistant,
    clock: deps.clock,
    deadline: server.deadline,
    signal: deps.signal ?? new AbortController().signal,
    intervalMs: Math.min(5000, o.pollIntervalMs),
    mask: text => deps.client.redactor.redact(text),
    log: deps.log,
    judging,
    recorder: await recorderOf(set, o, deps, server.deadline),
    baselineId: await baselineIdOf(set, deps)
  }
}

/** The judging of this run's revision: the deployment, the revision, its commit or digest. */
const judgingOf = (state: Journal, r: DeployedRevision): Judging => ({
  deploymentId: r.deploymentId,
  deploymentName: state.name ?? r.deploymentId,
  revisionId: r.revisionId,
  commit: state.repoCommitSha,
  sourceDigest: state.source?.digest
})

/** The evaluation of the new revision, made the run's ending. */
export async function evaluateDeployed(
  c: Concluding,
  r: DeployedRevision,
  deadline: number
): Promise<Ending> {
  const { deps } = c
  const state = known(c)
  const gate = await gateFor(c, { url: state.url, name: state.name, deadline }, judgingOf(state, r))
  if (stopped(gate)) return gate
  const facts = await deps.log.group(`Evaluation of revision ${r.revisionId}`, async () => {
    const f = await evaluateRevision(gate)
    sayVerdict(f, deps)
    return f
  })
  c.learned.evaluation = facts
  if (deps.signal?.aborted) {
    const message = `Cancelled during the evaluation of revision ${r.revisionId}, which is DEPLOYED.`
    return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } }
  }
  if (facts.verdict === 'passed') return { outcome: 'deployed' }
  const rolled = await rollBack(c, r, `during its evaluation`)
  if (stopped(rolled)) return rolled
  const outcome = facts.verdict === 'failed' ? 'evaluation-failed' : 'evaluation-inconclusive'
  return { outcome, failure: evaluationFailure(facts, r.revisionId, state.name, rolled) }
}

/** The verdict in the log: a line per key, and why it did not pass. */
export function sayVerdict(f: EvaluationFacts, deps: Pick<FlowDeps, 'log'>): void {
  for (const [key, s] of Object.entries(f.scores))
    deps.log.info(
      `${key}: mean ${s.mean ?? '-'}, pass rate ${s.pass_rate ?? '-'}, n ${s.n}${s.baseline === null ? '' : `, baseline ${s.baseline}`}.`
    )
  const why = f.reasons.map(t => sanitizeServerText(t, 1000)).join('; ')
  deps.log.info(`Evaluation ${f.verdict}${why ? `: ${why}` : ''}.`)
}

function evaluationFailure(
  f: EvaluationFacts,
  revisionId: string,
  name: string | undefined,
  rolled: string | undefined
): Failure {
  const why = f.reasons.map(t => sanitizeServerText(t, 1000)).join('; ')
  const what =
    f.verdict === 'failed' ? 'it failed its evaluation' : 'its evaluation was inconclusive'
  return {
    message: `Revision ${revisionId} of "${name ?? ''}" is DEPLOYED and its agent server answers, but ${what}: ${why}.${rolled ? ` ${rolled}` : ''}`,
    hint:
      f.verdict === 'failed'
        ? 'Read the score table in the job summary and the experiment (evaluation-url); fix the agent, and push again.'
        : 'Read the examples that errored, raise timeout when the dataset’s evaluators need longer, or record a passing experiment of the baseline deployment first.',
    title: f.verdict === 'failed' ? 'Evaluation failed' : 'Evaluation inconclusive'
  }
}

/** A promotion's source judged: a passing experiment recorded for its active revision, or a run now. */
export interface SourceJudged {
  facts: EvaluationFacts | undefined
  /** The check as the promotion's evidence says it. */
  check: string
}

/** The source's passing experiment on the same dataset and file, when one is recorded. */
async function recordedPass(gate: Gate, revisionId: string): Promise<EvaluationFacts | undefined> {
  const rec = gate.recorder
  if (!rec) return undefined
  await rec.examples()
  const match = {
    revision_id: revisionId,
    verdict: 'passed' as const,
    evaluation_digest: gate.evaluation.digest
  }
  const [e] = await rec.experiments(match)
  if (!e) return undefined
  const scores = e.metadata.scores ?? {}
  const n = Math.max(0, ...Object.values(scores).map(s => s.n))
  return {
    verdict: 'passed',
    url: e.url,
    experiment: { id: e.id, name: e.name },
    scores,
    reasons: [],
    regressions: [],
    examples: n,
    errors: 0
  }
}

/** With `evaluate`, a promotion's evidence: the source's recorded pass, else its evaluation now. */
export async function evaluateSource(
  c: Pick<Concluding, 'o' | 'deps'>,
  source: {
    deploymentId: string
    name: string
    url: string | undefined
    revisionId: string
    commit?: string | undefined
    sourceDigest?: string | undefined
  }
): Promise<SourceJudged | Stop> {
  const { o, deps } = c
  const judging = {
    deploymentId: source.deploymentId,
    deploymentName: source.name,
    revisionId: source.revisionId,
    commit: source.commit,
    sourceDigest: source.sourceDigest
  }
  const gate = await gateFor(
    c,
    { url: source.url, name: source.name, deadline: deps.clock.now() + o.timeoutMs },
    judging
  )
  if (stopped(gate)) return gate
  const of = `"${source.name}" revision ${source.revisionId}`
  const recorded = await recordedPass(gate, source.revisionId).catch(() => undefined)
  if (recorded) {
    deps.log.info(
      `Evidence: experiment "${sanitizeServerText(recorded.experiment!.name, 200)}" passed for ${of} on the same dataset and evaluation file: ${recorded.url}`
    )
    return {
      facts: { ...recorded, of: `recorded for ${of}` },
      check: `its evaluation (experiment ${recorded.experiment!.name}, recorded)`
    }
  }
  if (o.dryRun) {
    // A dry run writes nothing, an experiment included: a real run evaluates the source here.
    deps.log.info(`No passing experiment is recorded for ${of}: a real run would evaluate it now.`)
    return { facts: undefined, check: 'its evaluation: not run (a dry run records no experiment)' }
  }
  const facts = await deps.log.group(`Evaluation of the promotion's source ${of}`, async () => {
    const f = await evaluateRevision(gate)
    sayVerdict(f, deps)
    return f
  })
  if (facts.verdict === 'passed')
    return {
      facts: { ...facts, of: `evaluated now for ${of}` },
      check: `its evaluation${facts.experiment ? ` (experiment ${facts.experiment.name})` : ''}`
    }
  const why = facts.reasons.map(t => sanitizeServerText(t, 1000)).join('; ')
  return stop(
    `Promotion refused: revision ${source.revisionId} of "${source.name}" (${source.deploymentId}, ${deps.say('promote-from')}) did not pass its evaluation (${facts.verdict}): ${why}. Nothing was written.`,
    `Promote a revision that passes ${deps.say('evaluate')}: fix "${source.name}", deploy it with the gate, then promote.`,
    'Promotion refused'
  )
}
