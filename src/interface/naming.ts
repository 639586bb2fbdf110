// How messages name an input: as the user set it (`create: false`, `--no-create`). Each door makes
// its Say once and hands it down, required, like the clock: never a hard-coded YAML name, so that
// a user finds the place to fix in what they wrote.
import type { InputName } from './names.ts'

/** How messages name an input, as the run's door does. */
export interface Say {
  /** The input quoted as code: `` `create` ``, `` `--create` ``, `` `CONTROL_PLANE_CREATE` ``. */
  (input: InputName): string
  /** The input set to `value`, quoted as code: `` `create: false` ``, `` `--no-create` ``. */
  set(input: InputName, value: string | boolean): string
  /** The input without quotes, for text that sets it apart itself (a list of problems). */
  bare(input: InputName): string
}

/** A door's Say, from how it writes an input's name and a setting of it (both without quotes). */
export function sayAs(
  name: (input: InputName) => string,
  setting: (input: InputName, value: string) => string
): Say {
  const say = ((input: InputName) => `\`${name(input)}\``) as Say
  say.set = (input, value) => `\`${setting(input, String(value))}\``
  say.bare = name
  return say
}

/** The action's inputs, as a workflow's `with:` writes them: made by the action's door alone. */
export function actionSay(): Say {
  return sayAs(
    input => input,
    (input, value) => `${input}: ${value}`
  )
}
