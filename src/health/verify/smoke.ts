// Smoke cases against the new revision: each runs `POST /runs/wait` (a stateless run, deleted when
// done) bounded by its timeout, and its final values are held to the case's expectations. A run
// that errors, times out or misses an expectation fails; 401/403 cannot tell (inconclusive). Each
// case keeps at most 300 characters of its output, secret values masked before it is cut.
import type { SmokeCase } from '../../inputs/smoke-cases.ts'
import type { Clock } from '../../clock.ts'
import { isAuthStatus, noAnswer, type AgentCall } from './agent-call.ts'
import { expectationMiss } from './expectations.ts'
import { runOf } from './run-end.ts'

export type CaseVerdict = 'passed' | 'failed' | 'timeout' | 'inconclusive' | 'cancelled'

export interface CaseResult {
  name: string
  graph: string
  verdict: CaseVerdict
  /** Why, for anything but `passed` (secret values masked). */
  reason?: string
  /** The run's output (or error) as text, masked, at most EXCERPT_CHARS. */
  excerpt: string
  elapsedMs: number
}

export interface SmokeResult {
  /** Output `smoke`: failed if any case failed or timed out; inconclusive if any could not tell. */
  verdict: 'passed' | 'failed' | 'inconclusive' | 'cancelled'
  cases: CaseResult[]
}

export interface SmokeOptions {
  call: AgentCall
  cases: readonly SmokeCase[]
  clock: Clock
  signal: AbortSignal
  /** Replaces secret values in a text (the run's masking). */
  mask: (text: string) => string
}

export const EXCERPT_CHARS = 300

export async function runSmokeCases(o: SmokeOptions): Promise<SmokeResult> {
  const cases: CaseResult[] = []
  for (const c of o.cases) {
    if (o.signal.aborted) break
    cases.push(await runCase(o, c))
  }
  const any = (...v: CaseVerdict[]) => cases.some(c => v.includes(c.verdict))
  const verdict = o.signal.aborted
    ? 'cancelled'
    : any('failed', 'timeout')
      ? 'failed'
      : any('inconclusive')
        ? 'inconclusive'
        : 'passed'
  return { verdict, cases }
}

type Outcome =
  | { kind: 'answer'; status: number; body: string }
  | { kind: 'timeout' }
  | { kind: 'lost'; reason: string }

/** One run, raced against the case's timeout on the clock; the request is aborted at the end. */
async function send(o: SmokeOptions, c: SmokeCase): Promise<Outcome> {
  const stop = new AbortController()
  const signal = AbortSignal.any([o.signal, stop.signal])
  const request = o
    .call({
      method: 'POST',
      path: '/runs/wait',
      body: { assistant_id: c.graph, input: c.input, on_completion: 'delete' },
      signal
    })
    .then(
      (a): Outcome => ({ kind: 'answer', status: a.status, body: a.body }),
      (e: unknown): Outcome => ({ kind: 'lost', reason: noAnswer(e) })
    )
  const timer = o.clock.sleep(c.timeoutMs, signal).then(
    (): Outcome => ({ kind: 'timeout' }),
    (): Outcome => ({ kind: 'lost', reason: 'cancelled' })
  )
  try {
    return await Promise.race([request, timer])
  } finally {
    stop.abort()
  }
}

async function runCase(o: SmokeOptions, c: SmokeCase): Promise<CaseResult> {
  const start = o.clock.now()
  const outcome = await send(o, c)
  const result = (verdict: CaseVerdict, excerpt: string, reason?: string): CaseResult => ({
    name: c.name,
    graph: c.graph,
    verdict,
    ...(reason === undefined ? {} : { reason: o.mask(reason) }),
    excerpt: excerptOf(excerpt, o.mask),
    elapsedMs: o.clock.now() - start
  })
  if (o.signal.aborted) return result('cancelled', '')
  if (outcome.kind === 'timeout')
    return result('timeout', '', `no answer within ${Math.round(c.timeoutMs / 1000)} s`)
  if (outcome.kind === 'lost') return result('failed', '', outcome.reason)
  const { status, body } = outcome
  if (isAuthStatus(status))
    return result(
      'inconclusive',
      body,
      `/runs/wait answered ${status}: not allowed with the key sent`
    )
  const run = runOf(status, body)
  const miss = expectationMiss(c.expect, run)
  return miss === undefined ? result('passed', run.text) : result('failed', run.text, miss)
}

/** Masked first, then cut: a secret is never shown in part. */
export function excerptOf(text: string, mask: (t: string) => string): string {
  const masked = mask(text)
  return masked.length <= EXCERPT_CHARS ? masked : `${masked.slice(0, EXCERPT_CHARS - 1)}…`
}
