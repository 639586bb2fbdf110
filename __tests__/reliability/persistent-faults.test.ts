// Each fault the emulator injects, on each operation the action uses, for good: the run fails
// naming the operation and the last answer (or, for a write applied with its answer lost, reads
// it back). The stalled server and the rate limit that never lifts are in stalled-server.test.ts.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { faultCase, faultCases, isSlowCase } from './faults.ts'
import { lane } from './support.ts'

const eight = lane(8)

describe(GROUPS.persistent, () => {
  for (const fc of faultCases(fc => fc.persistent && !isSlowCase(fc)))
    faultCase(fc, { lane: eight })
})
