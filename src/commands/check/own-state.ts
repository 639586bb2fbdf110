// What the deployment says of itself: a deploy leaves alone only a READY deployment of the type
// asked for whose newest revision is the active one and DEPLOYED; anything else is a difference.
import type { ControlPlaneClient } from '../../control-plane/client.ts'
import { sanitizeServerText } from '../../inert.ts'
import type { Deployment, Revision } from '../../control-plane/schema.ts'
import { DELETING_STATUSES, kindOf, revisionOutcome } from '../../control-plane/vocabulary.ts'
import type { Say } from '../../interface/naming.ts'
import type { DeployOptions } from '../deploy/options.ts'
import { shownStatus } from '../../report/status-words.ts'

export type DriftKind =
  | 'absent'
  | 'deleting'
  | 'status'
  | 'type'
  | 'planned'
  | 'no-revision'
  | 'not-deployed'
  | 'not-latest'
  | 'commit'
  | 'material'

export interface Difference {
  kind: DriftKind
  /** One line that says it, then its details (the plan's lines). */
  text: string
  details: string[]
}

/** A difference said in one line. */
export const one = (kind: DriftKind, text: string): Difference => ({ kind, text, details: [] })

/** Being deleted: a deploy by name would wait until it is gone and create it anew. */
export function deleting(o: DeployOptions, d: Deployment): Difference | undefined {
  if (!DELETING_STATUSES.includes(d.status)) return undefined
  const then =
    o.target.kind === 'id'
      ? 'a deploy by id would refuse it'
      : 'a deploy would wait until it is gone, then create it anew'
  return one('deleting', `"${d.name}" is being deleted (${shownStatus(d.status)}): ${then}.`)
}

/** A status other than READY, a type other than asked (legacy words as their type). */
export function statusAndType(
  o: DeployOptions,
  d: Deployment,
  say: Say
): { differences: Difference[]; skipped: string[] } {
  const differences: Difference[] = []
  const skipped: string[] = []
  if (d.status !== 'READY')
    differences.push(one('status', `"${d.name}" is ${shownStatus(d.status)}, not READY.`))
  const theirs = d.source_config.deployment_type
  if (o.deploymentType === undefined) return { differences, skipped }
  const asked = kindOf(o.deploymentType) ?? o.deploymentType
  if (!theirs) {
    skipped.push(`the deployment type: the control plane does not report it for "${d.name}"`)
    return { differences, skipped }
  }
  const kind = kindOf(theirs) ?? sanitizeServerText(theirs, 100)
  if (kind !== asked)
    differences.push(
      one(
        'type',
        `"${d.name}" is ${kind}, but ${say.set('deployment-type', o.deploymentType)} asks for ${asked}: a deployment's type cannot change, so a deploy would refuse.`
      )
    )
  return { differences, skipped }
}

/** The revisions' state, and the active revision (read when `wantActive`, or when it is the latest). */
export interface RevisionsRead {
  differences: Difference[]
  active: Pick<Revision, 'id' | 'source' | 'source_revision_config'> | undefined
  latest: Revision | undefined
}

/** The newest revision must be the active one and DEPLOYED (the active read if `wantActive`). */
export async function revisionsState(
  client: ControlPlaneClient,
  d: Deployment,
  wantActive: boolean
): Promise<RevisionsRead> {
  const latestId = d.latest_revision_id
  const activeId = d.active_revision_id
  if (latestId === null) {
    const text = `"${d.name}" has no revision: nothing runs there, and a deploy would make its first.`
    return { differences: [one('no-revision', text)], active: undefined, latest: undefined }
  }
  const latest = await client.getRevision(d.id, latestId)
  const status = shownStatus(latest.status)
  if (latestId === activeId) {
    const differences =
      latest.status === 'DEPLOYED'
        ? []
        : [one('not-deployed', `The active revision ${latestId} is ${status}, not DEPLOYED.`)]
    return { differences, active: latest, latest }
  }
  const outcome = revisionOutcome(latest.status)
  const state =
    outcome === 'failed' ? 'failed' : outcome === 'in_progress' ? 'in progress' : 'not active'
  const text =
    activeId === null
      ? `"${d.name}" has no active revision: its latest, ${latestId}, is ${status} (${state}).`
      : `The active revision ${activeId} is not the latest: ${latestId} is ${status} (${state}).`
  const active =
    activeId !== null && wantActive ? await client.getRevision(d.id, activeId) : undefined
  return { differences: [one('not-latest', text)], active, latest }
}
