// The reliability suite (issue #5): the committed bundle against the emulator's faults, races,
// cancellation, bad input and a hostile server. Each group is one test that runs its cases
// concurrently; every case records its figures (from the emulator's state and request log, and
// from the process) into one table, printed at the end and written to docs/reliability.md.
// The slowest cases (a server that stalls past the 30 s request timeout) start first and run in
// the background while the other groups go on: they cost time, not CPU.
import { afterAll, describe, expect, test } from '@jest/globals'
import { badInputCases, GROUP as BAD_INPUTS } from './bad-inputs.ts'
import { cancelCases, GROUP as CANCEL } from './cancel.ts'
import { MATRIX, matrixCases, RACE, raceCases } from './concurrency.ts'
import { faultCases, isSlowCase, PERSISTENT, runFaultCase, TRANSIENT } from './faults.ts'
import { GROUP as HOSTILE, hostileCases, slowHostileCases } from './hostile.ts'
import { GROUP as RETRY_AFTER, retryAfterCases } from './retry-after.ts'
import { figures, pool, type Figures } from './support.ts'
import { renderFailures, renderNotes, renderTable, writeLastRun } from './table.ts'

const GROUPS = [TRANSIENT, PERSISTENT, RETRY_AFTER, RACE, MATRIX, CANCEL, BAD_INPUTS, HOSTILE]

const started = Date.now()
let background: Promise<Figures[]> | undefined

/** Starts the slow cases once (with the first test that runs), so they overlap the rest. */
function slowCases(): Promise<Figures[]> {
  background ??= pool(16, [
    ...faultCases(isSlowCase).map(fc => () => runFaultCase(fc)),
    ...slowHostileCases()
  ])
  return background
}

/** A group passes when every case passed; the message lists what failed and why. */
function expectAllPassed(fs: Figures[]) {
  expect(fs.length).toBeGreaterThan(0)
  expect(renderFailures(fs)).toBe('')
}

afterAll(async () => {
  // Whatever ran in the background is part of the figures, also in a filtered run (-t).
  await background
  const table = renderTable(figures, GROUPS)
  const failures = renderFailures(figures)
  const notes = renderNotes(figures)
  console.log(
    `${table}\n\nMeasurements:\n${notes}\n${failures ? `\nFailed cases:\n${failures}\n` : ''}`
  )
  const complete = GROUPS.every(g => figures.some(f => f.group === g))
  if (complete) await writeLastRun(table, figures, Date.now() - started)
}, 300_000)

describe('rule 2: every fault on every operation', () => {
  test('each fault, 3 times then healthy and persistent, on each operation', async () => {
    void slowCases()
    expectAllPassed(
      await pool(
        8,
        faultCases(fc => !isSlowCase(fc)).map(fc => () => runFaultCase(fc))
      )
    )
  })
})

describe('rule 3: Retry-After', () => {
  test('honoured as the emulator measures it, and bounded by the deadline', async () => {
    expectAllPassed(await retryAfterCases())
  })
})

describe('rule 4: two runs create the same new name at once', () => {
  test('exactly one deployment, the loser adopts it, both end clearly', async () => {
    expectAllPassed(await raceCases())
  })
})

describe('rule 5: 20 environments at once under a rate limit', () => {
  test('all 20 end DEPLOYED', async () => {
    expectAllPassed(await matrixCases())
  })
})

describe('rule 6: cancelled in each phase', () => {
  test('exits within 2 s, writes what it knows, and a re-run converges', async () => {
    expectAllPassed(await cancelCases())
  })
})

describe('rule 7: bad inputs', () => {
  test('one clear error naming the input, exit 1, no request', async () => {
    expectAllPassed(await badInputCases())
  })
})

describe('rule 8: a hostile or broken server', () => {
  test('redirects, huge and trickled bodies, injected commands, echoed secrets', async () => {
    expectAllPassed(await hostileCases())
  })
})

describe('the slow cases, run in the background since the start', () => {
  test('a stalled server on each operation, persistent 429s, a trickled list', async () => {
    expectAllPassed(await slowCases())
  }, 300_000)
})
