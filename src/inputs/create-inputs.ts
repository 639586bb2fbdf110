// What a create needs that an update does not (the rows' `createNeeds`): asked for only once the
// find step knows there is nothing to update. `repository` and `ref` count as given by the event.
import type { Source } from '../control-plane/schema.ts'
import { INPUT_NAMES, type InputName } from '../interface/names.ts'
import type { Say } from '../interface/naming.ts'
import { optionKey, type Options } from './options.ts'

/** What a create's needs are read from: the source, and the options of a deploy. */
type CreateFacts = Pick<Options, 'source' | 'codeHost'> & Partial<Options>
import { INPUTS } from './table.ts'

/** The inputs a create of `source` needs, in action.yml's order. */
function createNeedsOf(source: Source): InputName[] {
  return INPUT_NAMES.filter(n =>
    (INPUTS[n] as { createNeeds?: readonly Source[] }).createNeeds?.includes(source)
  )
}

/** The inputs a create of this run's source needs and the run does not have. */
export function missingForCreate(o: CreateFacts): InputName[] {
  return createNeedsOf(o.source).filter(input => o[optionKey(input) as keyof Options] === undefined)
}

const article = (s: Source) => (/^[aeiou]/.test(s) ? 'an' : 'a')

/** Why a create cannot go ahead, naming each missing input as the user sets it. */
export function createNeedsProblem(
  o: CreateFacts,
  name: string,
  say: Say
): { message: string; hint: string } | undefined {
  const missing = missingForCreate(o)
  if (missing.length === 0) return undefined
  const named = listed(missing.map(input => say(input)))
  return {
    message:
      `No deployment is named "${name}", and creating ${article(o.source)} \`${o.source}\` ` +
      `deployment needs ${named}: ${missing.length === 1 ? 'it was' : 'they were'} not given.`,
    hint:
      uploadHint(o, missing, say) ??
      `Set ${named} to create it, or ${say.set('create', false)} to only update (the name, ${say('tenant-id')} and ${say('base-url')} decide which deployment is found).`
  }
}

const listed = (names: string[]) =>
  names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`

/** The source that uploads the workspace: no repository, any code host. */
const UPLOAD: Source = 'internal_source'

/** For a repository not on GitHub, the way that fits: an upload, which needs none of what lacks. */
function uploadHint(o: CreateFacts, missing: InputName[], say: Say): string | undefined {
  if (o.codeHost === undefined || o.source === UPLOAD) return undefined
  const needless = missing.filter(input => !createNeedsOf(UPLOAD).includes(input))
  if (needless.length < missing.length) return undefined
  return (
    `This repository is on ${o.codeHost}, and \`${o.source}\` builds a GitHub repository through the control plane's GitHub integration: ` +
    `deploy this checkout by upload instead, ${say.set('source', UPLOAD)}, which needs no ${listed(needless.map(i => say(i)))}.`
  )
}
