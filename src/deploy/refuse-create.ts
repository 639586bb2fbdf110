// The flow's side of what a create needs (src/inputs/create-inputs.ts): checked when the find step
// found nothing to update, before any write, so a run that would fail never creates half a thing.
import { createNeedsProblem } from '../inputs/create-inputs.ts'
import type { Say } from '../inputs/naming.ts'
import type { Options } from '../inputs/options.ts'
import { DeployError } from './deploy-error.ts'

/** Throws when `name` is to be created and the run lacks an input a create needs. */
export function refuseCreateWithoutNeeds(o: Options, name: string, say: Say): void {
  if (!o.create) {
    throw new DeployError(
      `No deployment is named "${name}" and ${say.set('create', false)} was set.`,
      `Leave ${say('create')} at its default to create it, or check the name, ${say('tenant-id')} and ${say('base-url')}.`,
      'Deployment not found'
    )
  }
  const problem = createNeedsProblem(o, name, say)
  if (problem) throw new DeployError(problem.message, problem.hint, 'Missing input to create')
}
