// What the checks of the new revision found, as the outputs and the summary say it.
import type { CaseResult } from './verify/smoke.ts'

export interface Verified {
  /** Output `served-revision`; undefined when not checked. */
  servedRevision?: 'this' | 'stale' | 'unknown'
  /** Graphs checked, and those without an assistant. */
  graphs?: { checked: string[]; missing: string[]; verdict: 'passed' | 'failed' | 'inconclusive' }
  /** Output `smoke`; undefined when no case ran. */
  smoke?: 'passed' | 'failed' | 'inconclusive'
  cases?: CaseResult[]
}
