// Smoke cases against the new revision: each runs `POST /runs/wait` (a stateless run, deleted when
// done) within its timeout, its final values held to the case's expectations. Only a 2xx JSON
// answer is a run that ended; transient answers are tried again (retry.ts); 401/403 cannot tell.
import type { SmokeCase } from '../../inputs/smoke-cases.ts'
import type { Clock } from '../../clock.ts'
import { isAuthStatus, jsonOf, noAnswer, type AgentAnswer, type AgentCall } from './agent-call.ts'
import { expectationMiss } from './expectations.ts'
import { describeAnswer, triesText, withRetries, type Tried } from './retry.ts'
import { runOf } from './run-end.ts'

import type { CaseResult, CaseVerdict } from '../../interface/journal.ts'

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
  /** The pause before another try of a 5xx, 429 or lost answer (default 5 s). */
  intervalMs?: number
}

const DEFAULT_RETRY_INTERVAL_MS = 5000

export const EXCERPT_CHARS = 300

export async function runSmokeCases(o: SmokeOptions): Promise<SmokeResult> {
  const cases: CaseResult[] = []
  for (const c of o.cases) {
    if (o.signal.aborted) break
    cases.push(await runCase(o, c))
  }
  return { verdict: o.signal.aborted ? 'cancelled' : smokeVerdict(cases), cases }
}

/** SmokeResult's verdict of the cases that ran. */
export function smokeVerdict(cases: readonly CaseResult[]): 'passed' | 'failed' | 'inconclusive' {
  const any = (...v: CaseVerdict[]) => cases.some(c => v.includes(c.verdict))
  return any('failed', 'timeout') ? 'failed' : any('inconclusive') ? 'inconclusive' : 'passed'
}

type Outcome = { kind: 'tried'; tried: Tried } | { kind: 'timeout' } | { kind: 'cancelled' }

/**
 * One run, tried again on a transient answer, raced against the case's timeout: a timeout while a
 * transient answer waits its next try is that answer's (it persisted).
 */
async function send(o: SmokeOptions, c: SmokeCase): Promise<Outcome> {
  const stop = new AbortController()
  const signal = AbortSignal.any([o.signal, stop.signal])
  let latest: Tried | undefined
  let inFlight = false
  const call = () => {
    inFlight = true
    return o
      .call({
        method: 'POST',
        path: '/runs/wait',
        body: { assistant_id: c.graph, input: c.input, on_completion: 'delete' },
        signal
      })
      .finally(() => (inFlight = false))
  }
  const retry = {
    clock: o.clock,
    deadline: o.clock.now() + c.timeoutMs,
    intervalMs: o.intervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
    signal
  }
  const request = withRetries(call, retry, t => (latest = t)).then((tried): Outcome => ({
    kind: 'tried',
    tried
  }))
  const timer = o.clock.sleep(c.timeoutMs, signal).then(
    (): Outcome => (latest && !inFlight ? { kind: 'tried', tried: latest } : { kind: 'timeout' }),
    (): Outcome => ({ kind: 'cancelled' })
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
  if (o.signal.aborted || outcome.kind === 'cancelled') return result('cancelled', '')
  if (outcome.kind === 'timeout')
    return result('timeout', '', `no answer within ${Math.round(c.timeoutMs / 1000)} s`)
  const { tried } = outcome
  const { last } = tried
  if (last.kind === 'lost')
    return result('failed', '', `${noAnswer(last.error)}${triesText(tried)}`)
  const { status, body } = last.answer
  if (isAuthStatus(status))
    return result(
      'inconclusive',
      body,
      `/runs/wait answered ${status}: not allowed with the key sent`
    )
  const notARun = notARunEnd(last.answer)
  if (notARun !== undefined)
    return result('failed', '', `${describeAnswer('/runs/wait', { ...tried, last })}, ${notARun}`)
  const run = runOf(status, body)
  const miss = expectationMiss(c.expect, run)
  return miss === undefined ? result('passed', run.text) : result('failed', run.text, miss)
}

/** Why an answer is no run's end: a sign-in redirect or an HTML page says nothing of the graph. */
export function notARunEnd(a: AgentAnswer): string | undefined {
  if (a.status < 200 || a.status >= 300) return 'not the end of a run'
  if (a.body.trim() === '') return 'an empty answer, not the end of a run'
  if (jsonOf(a.body) === undefined) return 'not JSON, not the end of a run'
  return undefined
}

/** Masked first, then cut: a secret is never shown in part. */
export function excerptOf(text: string, mask: (t: string) => string): string {
  const masked = mask(text)
  return masked.length <= EXCERPT_CHARS ? masked : `${masked.slice(0, EXCERPT_CHARS - 1)}…`
}
