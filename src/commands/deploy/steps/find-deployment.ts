// The deployment a name refers to. The service's `name_contains` filter is a substring match
// (`pr-1` also returns `pr-12`), so every page is read and only an exact name is taken. A listed
// entry of that name that the model skipped is read by its id, whose answer is checked whole: a
// deployment the run would update is never taken for absent.
import type { Say } from '../../../interface/naming.ts'
import type { ControlPlaneClient } from '../../../control-plane/client.ts'
import type { Deployment, SkippedEntry } from '../../../control-plane/schema.ts'
import { stop, type Stop } from '../../../interface/ending.ts'

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
