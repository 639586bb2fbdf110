// A hostile or broken server: redirects to another origin, bodies of hundreds of megabytes, a
// trickled poll answer, workflow commands and escapes in server text, a 422 echoing the secrets.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { hostileCases } from './hostile.ts'

describe(GROUPS.hostile, () => {
  hostileCases()
})
