// The examples run on the new revision: each one's `inputs` by `POST /runs/wait`, the smoke
// cases' transport (the agent server's one client, its retries of 429/5xx and lost answers), at
// most `concurrency` in flight, each request bounded by what is left of the run's deadline and
// none started past it. An example without an output is an error, never a score.
import type { Clock } from '../clock.ts'
import { bounded, isAuthStatus, noAnswer, type AgentCall } from '../health/verify/agent-call.ts'
import { describeAnswer, triesText, withRetries } from '../health/verify/retry.ts'
import { runOf } from '../health/verify/run-end.ts'
import { notARunEnd } from '../health/verify/smoke.ts'
import type { Example } from './examples.ts'
import type { ExampleRun } from './score.ts'

export interface RunExamples {
  call: AgentCall
  assistant: string
  examples: readonly Example[]
  concurrency: number
  clock: Clock
  /** Epoch ms on `clock`: the run's deadline. */
  deadline: number
  signal: AbortSignal
  /** The pause before another try of a 5xx, 429 or lost answer. */
  intervalMs?: number
  /** Replaces secret values in a text (the run's masking). */
  mask: (text: string) => string
  /** Said when each example ends (the log's progress). */
  onRun?: (run: ExampleRun, done: number) => void
}

/** Every example's run, in the examples' order; those not started by the deadline errored. */
export async function runExamples(o: RunExamples): Promise<ExampleRun[]> {
  const runs: ExampleRun[] = new Array<ExampleRun>(o.examples.length)
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < o.examples.length) {
      const i = next++
      runs[i] = await runOne(o, o.examples[i]!)
      o.onRun?.(runs[i]!, ++done)
    }
  }
  const workers = Math.max(1, Math.min(o.concurrency, o.examples.length))
  await Promise.all(Array.from({ length: workers }, worker))
  return runs
}

async function runOne(o: RunExamples, example: Example): Promise<ExampleRun> {
  const startedAt = o.clock.now()
  const left = o.deadline - startedAt
  const errored = (error: string): ExampleRun => ({
    example,
    status: 'error',
    error: o.mask(error),
    startedAt,
    endedAt: o.clock.now()
  })
  if (o.signal.aborted) return errored('cancelled')
  if (left <= 0) return errored('not run: the timeout came first')
  const request = { assistant_id: o.assistant, input: example.inputs, on_completion: 'delete' }
  const send = () =>
    o.call({
      method: 'POST',
      path: '/runs/wait',
      body: request,
      signal: bounded(o.signal, o.deadline - o.clock.now())
    })
  const retry = {
    clock: o.clock,
    deadline: o.deadline,
    intervalMs: o.intervalMs ?? 5000,
    signal: o.signal
  }
  const tried = await withRetries(send, retry)
  if (o.signal.aborted) return errored('cancelled')
  const { last } = tried
  if (last.kind === 'lost') return errored(`${noAnswer(last.error)}${triesText(tried)}`)
  const { status, body } = last.answer
  if (isAuthStatus(status))
    return errored(`/runs/wait answered ${status}: not allowed with the key sent`)
  const notARun = notARunEnd(last.answer)
  if (notARun !== undefined)
    return errored(`${describeAnswer('/runs/wait', { ...tried, last })}, ${notARun}`)
  const run = runOf(status, body)
  if (run.status === 'error') return errored(`the run raised: ${run.text.slice(0, 200)}`)
  return { example, status: 'ok', output: run.output, startedAt, endedAt: o.clock.now() }
}
