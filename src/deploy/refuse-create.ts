// The flow's side of what a create needs (src/inputs/create-inputs.ts): checked when the find step
// found nothing to update, before any write, so a run that would fail never creates half a thing.
import { createNeedsProblem } from '../inputs/create-inputs.ts'
import type { Say } from '../inputs/naming.ts'
import type { Options } from '../inputs/options.ts'
import { stop, type Stop } from './ending.ts'

/** The failure when `name` is to be created and the run lacks an input a create needs. */
export function refuseCreateWithoutNeeds(o: Options, name: string, say: Say): Stop | undefined {
  if (!o.create) {
    return stop(
      `No deployment is named "${name}" and ${say.set('create', false)} was set.`,
      `Leave ${say('create')} at its default to create it, or check the name, ${say('tenant-id')} and ${say('base-url')}.`,
      'Deployment not found'
    )
  }
  const problem = createNeedsProblem(o, name, say)
  return problem && stop(problem.message, problem.hint, 'Missing input to create')
}
