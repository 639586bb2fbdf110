// A create answered 409 because another deployment holds the agent environment (agent-based
// workspaces, beta): not a taken name. Its holder (the one the answer names, else those bound to
// one) is waited for when being deleted, within `timeout`, else named; the run touches none.
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import { ApiError } from '../../../control-plane/errors.ts'
import type { Deployment, SkippedEntry } from '../../../control-plane/schema.ts'
import { DELETING_STATUSES } from '../../../control-plane/vocabulary.ts'
import { formatDuration } from '../../../duration.ts'
import type { DeployOptions } from '../options.ts'
import type { FlowDeps } from '../deps.ts'
import { stop, type Stop } from '../../../interface/ending.ts'
import { shownStatus } from '../../../report/status-words.ts'
import { waitUntilGone } from './gone.ts'

/** Holders named in an error at most (a workspace may bind many deployments). */
const MAX_NAMED = 5

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i

/** Whether an error answers that another deployment holds the agent environment. */
export function isAgentEnvironmentHeld(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 409 && /agent environment/i.test(err.detail)
}

/** `free` once the holders it waited for are gone (send the create again), else the Stop. */
export async function awaitAgentEnvironment(
  o: Pick<DeployOptions, 'timeoutMs' | 'pollIntervalMs'>,
  deps: FlowDeps,
  name: string,
  detail: string,
  { wait }: { wait: boolean }
): Promise<'free' | Stop> {
  const found = await holdersOf(deps.client, detail)
  if (found === 'gone') return wait ? 'free' : heldError(name, detail, NONE, deps)
  const deleting = found.bound.filter(d => DELETING_STATUSES.includes(d.status))
  if (!wait || deleting.length === 0) return heldError(name, detail, found, deps)
  // Inside the create's group: the lines say the wait, no group of its own (groups do not nest).
  for (const d of deleting) {
    deps.log.info(
      `Deployment "${d.name}" (${d.id}), bound to ${agentWords(d)}, holds the agent environment of "${name}" and is being deleted (${shownStatus(d.status)}): ` +
        `waiting until it is gone (at most the timeout, ${formatDuration(o.timeoutMs)}), then creating "${name}".`
    )
    const gone = await waitUntilGone(deps.client, d.id, o, deps)
    if (gone.kind === 'timeout') {
      return stop(
        `Timed out: deployment "${d.name}" (${d.id}), which holds the agent environment of "${name}", was still ${gone.status === undefined ? 'without a status' : shownStatus(gone.status)} after ${formatDuration(o.timeoutMs)}; "${name}" was not created.`,
        `Run again once the deletion has finished, or raise ${deps.say('timeout')}.`,
        'Agent environment held',
        { outcome: 'timeout' }
      )
    }
    deps.log.info(`Deployment "${d.name}" is gone after ${formatDuration(gone.elapsedMs)}.`)
  }
  return 'free'
}

/** The deployments that may hold it; `unread`: bound ones whose entry did not parse (no name). */
interface Holders {
  bound: Deployment[]
  unread: SkippedEntry[]
}
const NONE: Holders = { bound: [], unread: [] }

/** The one the answer names (`gone` if gone already), else every listed one bound to an agent. */
async function holdersOf(client: ControlPlaneClient, detail: string): Promise<Holders | 'gone'> {
  const named = UUID.exec(detail)?.[0]
  if (named) {
    try {
      return { bound: [await client.getDeployment(named)], unread: [] }
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return 'gone'
      throw err
    }
  }
  const found: Holders = { bound: [], unread: [] }
  const skipped = (e: SkippedEntry) => void (e.bound && found.unread.push(e))
  for await (const d of client.iterateDeployments({}, undefined, skipped))
    if (d.agent) found.bound.push(d)
  return found
}

/** The hold when no holder is on its way out: each one named, and what to do. */
function heldError(name: string, detail: string, found: Holders, deps: FlowDeps): Stop {
  const say = deps.say
  const answered = `the control plane answered 409 (${detail.split('\n')[0]})`
  // A bound entry that did not parse (agent-mode deployments may have no name): named by its id.
  const shown = [
    ...found.bound.map(d => `"${d.name}" (${d.id}, ${agentWords(d)}, ${shownStatus(d.status)})`),
    ...found.unread.map(
      e => `"${e.name ?? '(no name)'}" (${e.id}, its entry does not parse: ${e.problem})`
    )
  ]
  const more = shown.length > MAX_NAMED ? ` and ${shown.length - MAX_NAMED} more` : ''
  const who =
    shown.length === 0
      ? 'another deployment holds its agent environment, and none that this key lists is bound to one (an agent block)'
      : shown.length === 1
        ? `deployment ${shown[0]} holds its agent environment`
        : `one of the deployments bound to an agent environment holds it: ${shown.slice(0, MAX_NAMED).join(', ')}${more}`
  return stop(
    `Deployment "${name}" cannot be created: ${answered}: ${who}. The name is not taken.`,
    `Deploy to the deployment of that environment (${say('name')} or ${say('deployment-id')}), or delete it first: a create waits for one that is being deleted. Agent environments are set in the web app (agent-based workspaces).`,
    'Agent environment held'
  )
}

/** `agent a-7, environment staging`, as the deployment reports it. */
function agentWords(d: Pick<Deployment, 'agent'>): string {
  const a = d.agent
  if (!a) return 'an agent environment'
  return `agent ${a.agent_id ?? '(not reported)'}, environment ${a.environment ?? '(not reported)'}`
}
