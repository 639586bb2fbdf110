// A log slower than its budget, through the bundle: it waits on real seconds (the budget is 10 s),
// so it runs with the reliability suite rather than in `npm test`.
import { expect } from '@jest/globals'
import { LOG_BUDGET_MS } from '../../src/deploy/failure-logs.ts'
import type { Emulator } from '../../src/emulator/server.ts'
import { e2e, runAction as run, uniqueName, warnings } from '../e2e/harness.ts'

const logRequests = (emu: Emulator) => emu.requests().filter(r => /\/logs$|_logs$/.test(r.path))

e2e(
  'the log of a failed revision: a log slower than the budget costs one warning and a bounded wait',
  async ({ emu, inputs }) => {
    const name = uniqueName('slow-log')
    emu.addFaults({ kind: 'delay', path: '**/*logs', ms: LOG_BUDGET_MS + 5000 })
    let failedAt = 0
    const r = await run({
      inputs: inputs({ name, ref: 'fail-build' }),
      onStdout: { when: /^BUILD_FAILED after /m, run: () => void (failedAt = Date.now()) }
    })
    const endedAt = Date.now()
    expect(r.code).toBe(1)
    expect(r.outputs['revision-status']).toBe('BUILD_FAILED')
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/ended BUILD_FAILED/)
    expect(warnings(r.stdout)).toHaveLength(1)
    expect(warnings(r.stdout)[0]).toMatch(/Could not show the log/)
    // The log was asked for and not answered in time; the run gave up at its budget instead of
    // waiting for the answer (LOG_BUDGET_MS + 5 s after the failure).
    expect(logRequests(emu).length).toBeGreaterThanOrEqual(1)
    expect(logRequests(emu).every(q => q.status === null)).toBe(true)
    expect(failedAt).toBeGreaterThan(0)
    expect(endedAt - failedAt).toBeLessThan(LOG_BUDGET_MS + 4000)
  }
)
