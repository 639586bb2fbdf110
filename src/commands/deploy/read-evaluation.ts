// The `evaluate` file, read and checked whole before any request (with its local examples): an
// invalid one ends the run at once (exit 2, nothing sent), every problem in one error.
import type { Evaluation } from '../../evaluate/file.ts'
import { checkoutHint } from '../../inputs/checkout-hint.ts'
import { renderProblems } from '../../inputs/problems.ts'
import { allOutputs } from '../../report/outputs.ts'
import type { CommandContext, CommandEnding } from '../command.ts'
import type { DeployOptions } from './options.ts'

/** What the deploy's evaluation gate is given: the file's evaluation and the LangSmith API. */
export interface EvaluationSet {
  evaluation: Evaluation
  /** Undefined for local examples: nothing goes to LangSmith. */
  langsmithApi: string | undefined
}

export async function readEvaluationFile(
  o: DeployOptions,
  { port, redactor }: CommandContext
): Promise<{ evaluation?: EvaluationSet } | { invalid: CommandEnding }> {
  if (o.evaluate === undefined) return {}
  const [{ readEvaluation }, { langsmithApiOf }] = await Promise.all([
    import('../../evaluate/file.ts'),
    import('../../evaluate/langsmith-url.ts')
  ])
  const workspace = port.event.workspace ?? '.'
  const read = await readEvaluation(workspace, o.evaluate, port.say.bare('evaluate'))
  const problems =
    'problems' in read ? read.problems.map(message => ({ input: 'evaluate', message })) : []
  const dataset = 'evaluation' in read && read.evaluation.source.kind === 'dataset'
  const api = dataset ? langsmithApiOf(o.langsmithApiUrl, o.baseUrl) : undefined
  if (dataset && api === undefined)
    problems.push({
      input: 'langsmith-api-url',
      message: `${port.say('langsmith-api-url')} must be set: ${port.say('base-url')} is not the hosted service, so its LangSmith API (where the dataset is) is not known`
    })
  if (problems.length === 0 && 'evaluation' in read)
    return { evaluation: { evaluation: read.evaluation, langsmithApi: api } }
  const hint =
    'problems' in read && /could not be read: there is no such file/.test(read.problems[0] ?? '')
      ? checkoutHint(workspace, o.evaluate)
      : undefined
  const message =
    redactor.redact(renderProblems(problems, port.say)) + (hint ? `\n${hint.trim()}` : '')
  const failure = { message, title: 'Invalid inputs', nothingSent: true }
  return { invalid: { outcome: 'error', failure, outputs: allOutputs(undefined, {}) } }
}
