// The deployment a name refers to. `name_contains` is a substring match (`pr-1` returns `pr-12`):
// every page is read, only the exact name taken; an entry of it the model skipped is read by id,
// so that a deployment the run would update is never taken for absent.
import type { Say } from '../../../interface/naming.ts'
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import { ApiError } from '../../../control-plane/errors.ts'
import type { Deployment, SkippedEntry } from '../../../control-plane/schema.ts'
import type { DeployOptions } from '../options.ts'
import { stop, stopped, type Stop } from '../../../interface/ending.ts'

/** The deployment of this id; undefined when its read answers 404. */
export function deploymentById(
  client: ControlPlaneClient,
  id: string
): Promise<Deployment | undefined> {
  return client.getDeployment(id).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return undefined
    throw err
  })
}

type Named = Pick<DeployOptions, 'target' | 'name'>

/** A deployment named by id that `name` names otherwise: refused (`then`: what it says of the run). */
export function otherName(o: Named, d: Deployment, say: Say, then = ''): Stop | undefined {
  const t = o.target
  if (t.kind !== 'id' || o.name === undefined || d.name === o.name) return undefined
  return stop(
    `Deployment ${t.deploymentId} is named "${d.name}", not "${o.name}"${then}.`,
    `Set ${say('name')} and ${say('deployment-id')} to the same deployment, or only one of them.`,
    'Name and id disagree'
  )
}

/** The deployment the inputs name, by id (none on a 404) or by name, refused as otherName says. */
export async function findNamed(
  o: Named,
  { client, say }: { client: ControlPlaneClient; say: Say },
  then = ''
): Promise<Deployment | undefined | Stop> {
  const t = o.target
  const d =
    t.kind === 'id'
      ? await deploymentById(client, t.deploymentId)
      : await findDeploymentByName(client, t.name, say)
  return !d || stopped(d) ? d : (otherName(o, d, say, then) ?? d)
}

export async function findDeploymentByName(
  client: ControlPlaneClient,
  name: string,
  say: Say
): Promise<Deployment | undefined | Stop> {
  const exact: Deployment[] = []
  const unread: string[] = []
  const skipped = (e: SkippedEntry) => void (e.name === name && unread.push(e.id))
  for await (const d of client.iterateDeployments({ name_contains: name }, undefined, skipped)) {
    if (d.name === name) exact.push(d)
  }
  for (const id of unread) exact.push(await client.getDeployment(id))
  const ids = new Set(exact.map(d => d.id))
  if (ids.size > 1) {
    return stop(
      `Several deployments are named "${name}" (${[...ids].join(', ')}).`,
      `Set ${say('deployment-id')} to choose one.`,
      undefined
    )
  }
  return exact[0]
}
