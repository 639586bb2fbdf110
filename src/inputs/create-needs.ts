// What a create needs that an update does not (the rows' `createNeeds`): asked for only once the
// find step knows there is nothing to update, so an update by name needs only the name and the
// key. `repository` and `ref` count as given when the triggering event (or the CI) gave them.
import type { Source } from '../control-plane/schema.ts'
import { INPUT_NAMES, type InputName } from './names.ts'
import type { Say } from './naming.ts'
import type { Options } from './options.ts'
import { INPUTS } from './table.ts'

/** `integration-id` -> `integrationId`: the input's key in Options. */
const keyOf = (input: InputName) =>
  input.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()) as keyof Options

/** The inputs a create of `source` needs, in action.yml's order. */
function createNeedsOf(source: Source): InputName[] {
  return INPUT_NAMES.filter(n =>
    (INPUTS[n] as { createNeeds?: readonly Source[] }).createNeeds?.includes(source)
  )
}

/** The inputs a create of this run's source needs and the run does not have. */
export function missingForCreate(o: Options): InputName[] {
  return createNeedsOf(o.source).filter(input => o[keyOf(input)] === undefined)
}

const article = (s: Source) => (/^[aeiou]/.test(s) ? 'an' : 'a')

/**
 * Why a create cannot go ahead, naming each missing input as the user sets it; undefined when
 * nothing is missing.
 */
export function createNeedsProblem(
  o: Options,
  name: string,
  say: Say
): { message: string; hint: string } | undefined {
  const missing = missingForCreate(o)
  if (missing.length === 0) return undefined
  const list = missing.map(input => say(input))
  const named = list.length === 1 ? list[0]! : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`
  return {
    message:
      `No deployment is named "${name}", and creating ${article(o.source)} \`${o.source}\` ` +
      `deployment needs ${named}: ${missing.length === 1 ? 'it was' : 'they were'} not given.`,
    hint: `Set ${named} to create it, or ${say.set('create', false)} to only update (the name, ${say('tenant-id')} and ${say('base-url')} decide which deployment is found).`
  }
}
