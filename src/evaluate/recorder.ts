// What the gate asks of LangSmith, as an interface: the dataset's examples, an experiment and its
// runs and feedback, the dataset evaluators' feedback, earlier experiments (the baseline, a
// promotion's evidence). langsmith.ts implements it with the official client.
import type { Example } from './examples.ts'
import type { ExampleRun } from './score.ts'
import type { EvaluationVerdict, ScoreTable } from './verdict.ts'
import type { KeyScores } from '../interface/journal.ts'

/** The experiment's metadata: what the revision was, and what the gate judged. */
export interface ExperimentMetadata {
  deployment_id: string
  revision_id: string
  commit?: string
  source_digest?: string
  evaluation_digest: string
  verdict: EvaluationVerdict | 'running'
  /** Set at the end: every key's figures, and each example's scores (the baseline's compared). */
  scores?: Record<string, KeyScores>
  example_scores?: Record<string, Record<string, number>>
}

export interface Experiment {
  id: string
  name: string
  url: string
  metadata: Partial<ExperimentMetadata>
}

export interface DatasetExamples {
  datasetId: string
  examples: Example[]
}

export interface Recorder {
  examples(): Promise<DatasetExamples>
  /** The dataset's id, once its examples were read. */
  datasetId(): string
  start(name: string, metadata: ExperimentMetadata): Promise<Experiment>
  /** One run per example (its reference example, inputs, outputs, error, times): the run ids. */
  record(e: Experiment, runs: readonly ExampleRun[]): Promise<Map<string, string>>
  /** The scores given here, as feedback on the runs. */
  score(e: Experiment, runIds: ReadonlyMap<string, string>, scores: ScoreTable): Promise<void>
  /** The feedback of `keys` on the runs so far, by example id, other than this run's own. */
  feedback(runIds: ReadonlyMap<string, string>, keys: readonly string[]): Promise<ScoreTable>
  finish(e: Experiment, metadata: ExperimentMetadata): Promise<void>
  /** The dataset's experiments, newest first, whose metadata has every field of `match`. */
  experiments(match: Partial<ExperimentMetadata>): Promise<Experiment[]>
}
