// The evaluation gate on one revision: its examples (local, or the dataset's) run on its agent
// server, scored here and, for a dataset, recorded as a LangSmith experiment whose dataset
// evaluators' feedback is waited for within the deadline; the baseline compared; the verdict.
import { randomBytes } from 'node:crypto'
import type { Clock } from '../clock.ts'
import { sanitizeServerText } from '../inert.ts'
import type { AgentCall } from '../health/verify/agent-call.ts'
import type { EvaluationFacts } from '../interface/journal.ts'
import type { FlowLog } from '../log.ts'
import type { Example } from './examples.ts'
import type { Evaluation } from './file.ts'
import type { Experiment, ExperimentMetadata, Recorder } from './recorder.ts'
import { runExamples } from './run-examples.ts'
import { scoreHere, type ExampleRun } from './score.ts'
import { judge, type Judged, type ScoreTable } from './verdict.ts'

/** The revision judged, as the experiment's metadata and name say it. */
export interface Judging {
  deploymentId: string
  deploymentName: string
  revisionId: string
  commit?: string | undefined
  sourceDigest?: string | undefined
}

export interface Gate {
  evaluation: Evaluation
  call: AgentCall
  assistant: string
  clock: Clock
  deadline: number
  signal: AbortSignal
  intervalMs: number
  mask: (text: string) => string
  log: FlowLog
  judging: Judging
  /** LangSmith, for a dataset. */
  recorder?: Recorder | undefined
  /** The baseline deployment's id, once found (undefined: asked for and not found). */
  baselineId?: string | undefined
}

/**
 * The experiment's name: the deployment and revision, when, and a few random characters (a name
 * is unique in the workspace: two runs in one second must not collide).
 */
export const experimentName = (j: Judging, at: number) =>
  `${j.deploymentName} ${j.revisionId.slice(0, 8)} ${new Date(at).toISOString().replace(/\.\d+Z$/, 'Z')} ${randomBytes(2).toString('hex')}`

export function metadataOf(g: Gate, verdict: ExperimentMetadata['verdict']): ExperimentMetadata {
  const j = g.judging
  return {
    deployment_id: j.deploymentId,
    revision_id: j.revisionId,
    ...(j.commit ? { commit: j.commit } : {}),
    ...(j.sourceDigest ? { source_digest: j.sourceDigest } : {}),
    evaluation_digest: g.evaluation.digest,
    verdict
  }
}

/** The scores given here, by example id, for the examples that ran. */
function scoresHere(g: Gate, runs: readonly ExampleRun[]): Map<string, Map<string, number>> {
  const here = g.evaluation.evaluators.filter(e => e.type !== 'langsmith')
  return new Map(
    runs
      .filter(r => r.status === 'ok')
      .map(r => [r.example.id, new Map(here.map(e => [e.key, scoreHere(e, r)]))])
  )
}

/** How often the dataset evaluators' feedback is asked for: they take seconds to minutes. */
const FEEDBACK_INTERVAL_MS = 10_000

/** Polls the dataset evaluators' feedback until every run has each key, or the deadline. */
async function awaitFeedback(
  g: Gate,
  runIds: ReadonlyMap<string, string>,
  keys: readonly string[]
): Promise<ScoreTable> {
  let table: ScoreTable = new Map()
  const complete = () => [...runIds.keys()].every(id => keys.every(k => table.get(id)?.has(k)))
  const pause = Math.max(g.intervalMs, FEEDBACK_INTERVAL_MS)
  for (;;) {
    table = await g.recorder!.feedback(runIds, keys)
    if (complete() || g.signal.aborted || g.clock.now() + pause > g.deadline) return table
    try {
      await g.clock.sleep(pause, g.signal)
    } catch {
      return table
    }
  }
}

function merge(into: Map<string, Map<string, number>>, from: ScoreTable): void {
  for (const [id, scores] of from) {
    const row = into.get(id)
    if (row) for (const [k, v] of scores) row.set(k, v)
  }
}

/** The baseline's scores by example: its newest passing experiment's, or `none`. */
async function baselineScores(g: Gate): Promise<ScoreTable | 'none' | undefined> {
  if (!g.evaluation.baseline) return undefined
  if (!g.recorder || g.baselineId === undefined) return 'none'
  const [newest] = await g.recorder.experiments({ deployment_id: g.baselineId, verdict: 'passed' })
  const recorded = newest?.metadata.example_scores
  if (!newest || !recorded) return 'none'
  g.log.info(
    `Baseline: experiment "${sanitizeServerText(newest.name, 200)}" of deployment "${g.evaluation.baseline.deployment}".`
  )
  return new Map(Object.entries(recorded).map(([id, s]) => [id, new Map(Object.entries(s))]))
}

/** The examples: the file's, or the dataset's (read from LangSmith). */
async function examplesOf(g: Gate): Promise<Example[]> {
  const s = g.evaluation.source
  if (s.kind === 'examples') return s.examples
  const read = await g.recorder!.examples()
  g.log.info(
    `Dataset "${sanitizeServerText(s.dataset, 200)}" (${read.datasetId}): ${read.examples.length} examples.`
  )
  return read.examples
}

/** Each example run, said as it ends. */
function run(g: Gate, examples: readonly Example[]): Promise<ExampleRun[]> {
  return runExamples({
    call: g.call,
    assistant: g.assistant,
    examples,
    concurrency: g.evaluation.concurrency,
    clock: g.clock,
    deadline: g.deadline,
    signal: g.signal,
    intervalMs: g.intervalMs,
    mask: g.mask,
    onRun: (r, done) => {
      const what =
        r.status === 'ok'
          ? `${r.endedAt - r.startedAt} ms`
          : `error: ${sanitizeServerText(r.error ?? '', 300)}`
      g.log.info(
        `Example ${done}/${examples.length} (${sanitizeServerText(r.example.id, 100)}): ${what}.`
      )
    }
  })
}

/** What the gate found, for the journal (the outputs, the summary). */
function factsOf(
  j: Judged,
  runs: readonly ExampleRun[],
  e: Experiment | undefined
): EvaluationFacts {
  return {
    verdict: j.verdict,
    ...(e ? { url: e.url, experiment: { id: e.id, name: e.name } } : {}),
    scores: j.scores,
    reasons: j.reasons,
    regressions: j.regressions,
    examples: runs.length,
    errors: runs.filter(r => r.status === 'error').length
  }
}

/** A run as LangSmith is sent it: its output with secret values masked, as the log shows it. */
function shown(r: ExampleRun, mask: (text: string) => string): ExampleRun {
  if (r.status !== 'ok') return r
  const text = JSON.stringify(r.output ?? null)
  const masked = mask(text)
  if (masked === text) return r
  try {
    return { ...r, output: JSON.parse(masked) as unknown }
  } catch {
    return { ...r, output: masked }
  }
}

const tableRecord = (t: ScoreTable) =>
  Object.fromEntries([...t].map(([id, s]) => [id, Object.fromEntries(s)]))

/** Runs the gate on the revision; LangSmith failing is an inconclusive verdict, said why. */
export async function evaluateRevision(g: Gate): Promise<EvaluationFacts> {
  const rec = g.recorder
  let experiment: Experiment | undefined
  let runs: ExampleRun[] = []
  try {
    const examples = await examplesOf(g)
    if (rec)
      experiment = await rec.start(
        experimentName(g.judging, g.clock.now()),
        metadataOf(g, 'running')
      )
    if (experiment)
      g.log.info(`Experiment "${sanitizeServerText(experiment.name, 200)}": ${experiment.url}`)
    runs = await run(g, examples)
    const scores = scoresHere(g, runs)
    const late: { key: string; missing: number }[] = []
    if (rec && experiment) {
      const ids = await rec.record(
        experiment,
        runs.map(r => shown(r, g.mask))
      )
      const ran = new Map([...ids].filter(([id]) => scores.has(id)))
      await rec.score(experiment, ran, scores)
      const keys = g.evaluation.evaluators.filter(e => e.type === 'langsmith').map(e => e.key)
      if (keys.length > 0) {
        const feedback = await awaitFeedback(g, ran, keys)
        merge(scores, feedback)
        for (const key of keys) {
          const missing = [...ran.keys()].filter(id => !feedback.get(id)?.has(key)).length
          if (missing > 0) late.push({ key, missing })
        }
      }
    }
    const errors = runs
      .filter(r => r.status === 'error')
      .map(r => ({ exampleId: r.example.id, error: r.error ?? 'error' }))
    const baseline = await baselineScores(g)
    const judged = judge({
      evaluation: g.evaluation,
      scores,
      errors,
      late,
      ...(baseline ? { baseline } : {})
    })
    if (rec && experiment)
      await rec.finish(experiment, {
        ...metadataOf(g, judged.verdict),
        scores: judged.scores,
        example_scores: tableRecord(scores)
      })
    return factsOf(judged, runs, experiment)
  } catch (err) {
    const text = g.mask(err instanceof Error ? err.message : String(err))
    const reason = `LangSmith could not be read or written (${sanitizeServerText(text, 300)})`
    const empty = judge({ evaluation: g.evaluation, scores: new Map(), errors: [], late: [] })
    return {
      ...factsOf({ ...empty, verdict: 'inconclusive', reasons: [reason] }, runs, experiment)
    }
  }
}
