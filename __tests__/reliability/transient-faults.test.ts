// Each fault the emulator injects, on each operation the action uses, 3 times and then healthy:
// the run deploys once. The delays past the request timeout are in stalled-server.test.ts.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { faultCase, faultCases, isSlowCase } from './faults.ts'
import { lane } from './support.ts'

const eight = lane(8)

describe(GROUPS.transient, () => {
  for (const fc of faultCases(fc => !fc.persistent && !isSlowCase(fc)))
    faultCase(fc, { lane: eight })
})
