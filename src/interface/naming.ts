// How messages name an input: as the user set it. The action's door says `create` and
// `create: false` (the workflow's YAML); the CLI's says `--no-create` or `CONTROL_PLANE_CREATE=false`
// (src/cli/naming.ts). Each door makes its Say once and hands it down, required, like the clock:
// every message about an input names it through it, never by a hard-coded YAML name, so that a
// user finds the place to fix in what they wrote.
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
