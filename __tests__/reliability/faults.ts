// Every fault the emulator injects, on every operation the action uses, once transient (then
// healthy) and once persistent, each case also scanned for secrets. The cases are declared by
// transient-faults, persistent-faults and stalled-server (the slow ones).
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { FaultSpec } from '../../emulator/server.ts'
import {
  debugEnv,
  deploymentsNamed,
  errorText,
  FIXTURE_REPOSITORY,
  reliabilityCase,
  settled,
  targetInputs,
  withDebug,
  withEmulator,
  type Case,
  type CaseOptions,
  type Target
} from './support.ts'

export interface Operation {
  key: string
  /** How the action names it in its errors. */
  label: string
  method: string
  path: string
  /** new name (create path), the fixture's deployment by name (patch path), or by id. */
  target: Target
  write: boolean
  /** The wait (get revision) is bounded by the `timeout` input; the rest by the retry policy. */
  inWait: boolean
}

export const OPERATIONS: Operation[] = [
  {
    key: 'forge repos',
    label: 'list repositories',
    method: 'GET',
    path: '/v1/integrations/forge/codehost/*/repos',
    target: 'new',
    write: false,
    inWait: false
  },
  {
    key: 'list',
    label: 'list deployments',
    method: 'GET',
    path: '/v2/deployments',
    target: 'new',
    write: false,
    inWait: false
  },
  {
    key: 'get deployment',
    label: 'get deployment',
    method: 'GET',
    path: '/v2/deployments/*',
    target: 'id',
    write: false,
    inWait: false
  },
  {
    key: 'create',
    label: 'create deployment',
    method: 'POST',
    path: '/v2/deployments',
    target: 'new',
    write: true,
    inWait: false
  },
  {
    key: 'patch',
    label: 'patch deployment',
    method: 'PATCH',
    path: '/v2/deployments/*',
    target: 'existing',
    write: true,
    inWait: false
  },
  {
    key: 'get revision',
    label: 'get revision',
    method: 'GET',
    path: '/v2/deployments/*/revisions/*',
    target: 'new',
    write: false,
    inWait: true
  }
]

export interface FaultKind {
  key: string
  spec: FaultSpec
  /** What the final error must say about the last answer (status or reason). */
  last: RegExp
  /** Retry-After in ms, when the fault sends one. */
  retryAfterMs?: number
}

/** The request timeout of the action (30 s, not an input): the delay fault goes past it. */
export const REQUEST_TIMEOUT_MS = 30_000
export const DELAY_MS = REQUEST_TIMEOUT_MS + 1000

export const FAULTS: FaultKind[] = [
  {
    key: '429 + Retry-After',
    spec: { kind: 'status', status: 429, retryAfter: 1 },
    last: /HTTP 429/,
    retryAfterMs: 1000
  },
  { key: '429', spec: { kind: 'status', status: 429 }, last: /HTTP 429/ },
  { key: '500', spec: { kind: 'status', status: 500 }, last: /HTTP 500/ },
  { key: '502 (HTML)', spec: { kind: 'status', status: 502, body: 'text' }, last: /HTTP 502/ },
  { key: '503', spec: { kind: 'status', status: 503 }, last: /HTTP 503/ },
  { key: '504', spec: { kind: 'status', status: 504 }, last: /HTTP 504/ },
  { key: 'connection reset', spec: { kind: 'reset' }, last: /ECONNRESET|socket hang up/ },
  {
    key: 'delay past the request timeout',
    spec: { kind: 'delay', ms: DELAY_MS },
    last: /no complete answer within/
  },
  {
    key: 'write applied, response lost',
    spec: { kind: 'lost-response' },
    last: /ECONNRESET|socket hang up/
  },
  {
    key: 'non-JSON body',
    spec: { kind: 'non-json' },
    last: /HTTP 200.*not JSON|not JSON.*HTTP 200/s
  },
  {
    key: 'body off the schema',
    spec: { kind: 'bad-schema' },
    last: /HTTP 200/
  }
]

export const isSlow = (f: FaultKind) => f.spec.kind === 'delay'
const isRateLimit = (f: FaultKind) => f.spec.kind === 'status' && f.spec.status === 429

/**
 * Cases that take half a minute or more without using the CPU: a stalled server (each attempt
 * waits out the 30 s request timeout) and a persistent 429 (a rate-limited request waits its turn
 * until the run's deadline, its pauses growing). They run in the background.
 */
export const isSlowCase = (c: FaultCase) =>
  isSlow(c.fault) || (c.persistent && isRateLimit(c.fault) && !c.op.inWait)

/** The fixture's deployment carries this secret: the control plane returns it in every answer. */
export interface FaultCase {
  op: Operation
  fault: FaultKind
  persistent: boolean
  debug: boolean
}

/** Every (fault, operation) pair twice: transient and persistent, one of them with RUNNER_DEBUG. */
export function faultCases(filter: (c: FaultCase) => boolean): FaultCase[] {
  return allFaultCases().filter(filter)
}

/** What the case shows, as its test title. */
export function faultTitle(fc: FaultCase): string {
  const { op, fault, persistent } = fc
  const outcome = !persistent
    ? `${isSlow(fault) ? 'once' : '3 times'}, then healthy: deploys once`
    : convergesWhenPersistent(fc)
      ? 'for good: the write is read back, one revision'
      : 'for good: fails naming the operation and the last answer'
  return withDebug(`${fault.key} on ${op.label}, ${outcome}`, fc.debug)
}

/** Declares the case as a jest test in its group (transient or persistent). */
export function faultCase(fc: FaultCase, opts: CaseOptions): void {
  const group = fc.persistent ? GROUPS.persistent : GROUPS.transient
  reliabilityCase(group, faultTitle(fc), c => runFaultCase(c, fc), opts)
}

function allFaultCases(): FaultCase[] {
  const out: FaultCase[] = []
  FAULTS.forEach((fault, i) => {
    OPERATIONS.forEach((op, j) => {
      const debug = (i + j) % 2 === 0
      out.push({ op, fault, persistent: false, debug })
      out.push({ op, fault, persistent: true, debug: !debug })
    })
  })
  return out
}

/**
 * A write whose every answer is lost (or late) but which the server applies each time converges:
 * the run reads the state back and finds its write. Every other persistent fault fails the run.
 */
export function convergesWhenPersistent(c: FaultCase): boolean {
  return c.op.write && (c.fault.spec.kind === 'lost-response' || c.fault.spec.kind === 'delay')
}

function runFaultCase(c: Case, fc: FaultCase): Promise<void> {
  const { op, fault, persistent, debug } = fc
  return withEmulator({}, async emu => {
    const slow = isSlow(fault)
    const timeoutS = persistent ? (slow ? 40 : 30) : slow ? 120 : 60
    const { name, before, inputs } = targetInputs(c, emu, op.target, 'fault', {
      timeout: `${timeoutS}s`
    })
    // By id too: the explicit repository is checked against the deployment's.
    if (op.target === 'id') inputs.repository = FIXTURE_REPOSITORY

    const times = persistent ? undefined : slow ? 1 : 3
    emu.setFaults({ ...fault.spec, method: op.method, path: op.path, times } as FaultSpec)

    const r = await c.run({
      inputs,
      env: debugEnv(debug),
      timeoutMs: slow ? 240_000 : 120_000
    })
    await settled(emu)

    const applied = emu.requests().filter(q => q.fault !== null).length
    c.check(applied >= 1, 'the fault was never applied: the case proves nothing')
    checkRetryAfter(c, emu.requests(), fault)

    const converge = !persistent || convergesWhenPersistent(fc)
    if (converge) {
      expectDeployed(c, r)
      c.tally(emu, name, { deployments: 1, revisions: 1 }, before)
    } else {
      expectFailure(c, r, fc, timeoutS)
      const wrote = op.key === 'get revision'
      c.tally(
        emu,
        name,
        { deployments: op.target === 'new' && !wrote ? 0 : 1, revisions: wrote ? 1 : 0 },
        before
      )
    }
    expectKnownOutputs(c, r.outputs, deploymentsNamed(emu, name)[0], op, before)
  })
}

function expectDeployed(c: Case, r: Awaited<ReturnType<Case['run']>>) {
  c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
  c.check(
    r.outputs['revision-status'] === 'DEPLOYED',
    `revision-status ${r.outputs['revision-status']}`
  )
  c.check(r.errors.length === 0, `an error was reported: ${errorText(r).slice(0, 200)}`)
}

function expectFailure(
  c: Case,
  r: Awaited<ReturnType<Case['run']>>,
  { op, fault }: FaultCase,
  timeoutS: number
) {
  c.check(r.code === 1, `exit ${r.code}, expected 1`)
  c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
  const text = errorText(r)
  const names = op.inWait ? /get revision|Polling revision|revision/ : new RegExp(op.label)
  c.check(
    names.test(text),
    `the error does not name the operation (${op.label}): ${text.slice(0, 200)}`
  )
  c.check(
    fault.last.test(text),
    `the error does not name the last status ${fault.last}: ${text.slice(0, 300)}`
  )
  // The deadline: the wait ends at `timeout` plus the last poll's grace (2 s), and the process
  // needs a few seconds more to start, look up and create on a loaded machine; before the wait,
  // the retry policy bounds a stalled server: 5 attempts of at most 30 s, and backoff between.
  const bound = op.inWait
    ? (timeoutS + 12) * 1000
    : isSlow(fault)
      ? 5 * 30_000 + 20_000
      : isRateLimit(fault)
        ? 75_000
        : 40_000
  c.check(r.ms < bound, `the run took ${r.ms} ms, more than ${bound} ms`)
}

/** Outputs are written on failure too, with whatever the emulator shows the run had learnt. */
function expectKnownOutputs(
  c: Case,
  outputs: Record<string, string>,
  d: ReturnType<typeof deploymentsNamed>[number] | undefined,
  op: Operation,
  before: number
) {
  if (d) {
    const id = outputs['deployment-id']
    c.check(id === d.id, `deployment-id output ${id}, expected ${d.id}`)
  }
  const created = op.target === 'new' && d !== undefined
  c.check(outputs.created === String(created), `created output ${outputs.created}`)
  if (d && d.revisions.length > before) {
    const latest = d.revisions.at(-1)!.id
    const id = outputs['revision-id']
    c.check(id === latest, `revision-id output ${id}, expected ${latest}`)
  }
}

/**
 * Measured from the emulator's log: after a 429 with `Retry-After`, the same operation
 * is not sent again before that time has passed.
 */
export function checkRetryAfter(
  c: Case,
  log: Array<{
    time: string
    method: string
    path: string
    status: number | null
    fault: string | null
  }>,
  fault: FaultKind
): number[] {
  const gaps: number[] = []
  if (fault.retryAfterMs === undefined) return gaps
  log.forEach((q, i) => {
    if (q.status !== 429) return
    const next = log.slice(i + 1).find(n => n.method === q.method && n.path === q.path)
    if (!next) return
    const gap = Date.parse(next.time) - Date.parse(q.time)
    gaps.push(gap)
    c.check(
      gap >= fault.retryAfterMs! - 5,
      `sent ${q.method} ${q.path} again ${gap} ms after a 429 with Retry-After ${fault.retryAfterMs} ms`
    )
  })
  return gaps
}
