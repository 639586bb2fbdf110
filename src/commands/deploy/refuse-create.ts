// The flow's side of what a create needs (src/inputs/create-inputs.ts): checked when the find step
// found nothing to update, before any write, so a run that would fail never creates half a thing.
import { createNeedsProblem } from '../../inputs/create-inputs.ts'
import type { Say } from '../../interface/naming.ts'
import type { DeployOptions } from './options.ts'
import { stop, type Stop } from '../../interface/ending.ts'
import type { PlannedMaterial } from './steps/plan.ts'

/** A create that lacks an input it needs; what the material gives (a promotion's) counts. */
export function refuseCreateWithoutNeeds(
  o: DeployOptions,
  m: PlannedMaterial,
  name: string,
  say: Say
): Stop | undefined {
  if (!o.create) {
    return stop(
      `No deployment is named "${name}" and ${say.set('create', false)} was set.`,
      `Leave ${say('create')} at its default to create it, or check the name, ${say('tenant-id')} and ${say('base-url')}.`,
      'Deployment not found'
    )
  }
  const { source, integrationId, repository } = m
  const named = m.kind === 'named' ? { ref: m.ref, imageUri: m.imageUri } : {}
  const problem = createNeedsProblem(
    { ...o, source, integrationId, repository, ...named },
    name,
    say
  )
  if (problem) return stop(problem.message, problem.hint, 'Missing input to create')
  // Refused here rather than after a create (Serverless by default) the resize cannot size.
  if (o.databaseSize !== undefined && o.deploymentType === undefined) {
    return stop(
      `No deployment is named "${name}", and a create without ${say('deployment-type')} makes a Serverless deployment, which shares its database: ${say('database-size')} applies only to a Dedicated one. Nothing was written.`,
      `Set ${say.set('deployment-type', 'dedicated')} to create it with a database of its own, or leave ${say('database-size')} out.`,
      'No database size on Serverless'
    )
  }
  return undefined
}
