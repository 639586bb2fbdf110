// How messages name an input: as the user set it. The action's door says `create` and
// `create: false` (the workflow's YAML); the CLI's says `--no-create` or `CONTROL_PLANE_CREATE=false`
// (src/cli/naming.ts). Every message about an input names it through one of these, never by a
// hard-coded YAML name, so that a user finds the place to fix in what they wrote.
import type { InputName } from './names.ts'

export interface InputNaming {
  /** The input as the user names it, without quotes: `create`, `--create`, `CONTROL_PLANE_CREATE`. */
  name(input: InputName): string
  /** The input set to `value`, as the user writes it: `create: false`, `--no-create`. */
  setting(input: InputName, value: string): string
}

/** The action's inputs, as a workflow's `with:` writes them. */
export const ACTION_NAMING: InputNaming = {
  name: input => input,
  setting: (input, value) => `${input}: ${value}`
}

/** What rules write with: the input's name and a setting, each quoted as code. */
export interface Say {
  (input: InputName): string
  set(input: InputName, value: string | boolean): string
}

export function sayWith(naming: InputNaming): Say {
  const say = ((input: InputName) => `\`${naming.name(input)}\``) as Say
  say.set = (input, value) => `\`${naming.setting(input, String(value))}\``
  return say
}
