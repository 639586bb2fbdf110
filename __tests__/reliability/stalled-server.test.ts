// The slow cases, in a file of their own so that they overlap the other files: a server that
// stalls past the 30 s request timeout on each operation (once, and for good), a rate limit that
// never lifts before the wait, and a list answer trickled a byte at a time. They cost time, not
// CPU, so all of them run at once. Their figures count in their groups of the table.
import { describe } from '@jest/globals'
import { faultCase, faultCases, isSlowCase } from './faults.ts'
import { trickledListCases } from './hostile.ts'

describe('a server that stalls or refuses past the request timeout', () => {
  for (const fc of faultCases(isSlowCase)) faultCase(fc, {})
  trickledListCases()
})
