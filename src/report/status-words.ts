// Statuses are the server's text: only the model's words reach an output or the summary; any other
// is UNKNOWN (still in progress) and neutralised in the log, so that no server puts quotes, `$(..)`
// or a backtick into a file a shell reads, nor anything in the log but letters, digits and `?`.
import { DEPLOYMENT_STATUSES, REVISION_STATUSES } from '../control-plane/vocabulary.ts'

const REVISION: ReadonlySet<string> = new Set(REVISION_STATUSES)
const DEPLOYMENT: ReadonlySet<string> = new Set(DEPLOYMENT_STATUSES)

const UNKNOWN_STATUS = 'UNKNOWN'

/** A revision status as outputs carry it: the model's word, else UNKNOWN. */
export function revisionStatusWord(status: string | undefined): string | undefined {
  return status === undefined || REVISION.has(status) ? status : UNKNOWN_STATUS
}

/** A deployment status as outputs carry it: the model's word, else UNKNOWN. */
export function deploymentStatusWord(status: string | undefined): string | undefined {
  return status === undefined || DEPLOYMENT.has(status) ? status : UNKNOWN_STATUS
}

/** A status for the log: the model's word as is, any other text neutralised and marked. */
export function shownStatus(status: string): string {
  if (REVISION.has(status) || DEPLOYMENT.has(status)) return status
  const neutral = status.slice(0, 40).replace(/[^A-Za-z0-9_]/g, '?')
  return `${UNKNOWN_STATUS} (undocumented "${neutral}"${status.length > 40 ? '…' : ''})`
}

/** The wait's line while nothing changes: the status and the time waited. */
export function progressLine(status: string | undefined, elapsedText: string): string {
  return status === undefined
    ? `Still waiting for the revision's first status after ${elapsedText}`
    : `Still ${shownStatus(status)} after ${elapsedText}`
}
