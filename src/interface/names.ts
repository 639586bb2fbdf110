// The names of the action's inputs, as action.yml declares them (through the generated
// action-yml.ts), the raw text a run is given for them, and the form of a secret's name.
import { ACTION_INPUTS } from './action-yml.ts'

/** An input's name as users write it in workflow files. */
export type InputName = keyof typeof ACTION_INPUTS
/** Every input, in action.yml's order. */
export const INPUT_NAMES = Object.keys(ACTION_INPUTS) as InputName[]
/** Inputs as a run is given them: text, `''` when not set. */
export type RawInputs = Record<InputName, string>

/** The inputs that may hold a YAML/JSON document: a larger size cap, and the parser loaded for them. */
export const DOCUMENT_INPUTS = [
  'secrets',
  'secret-references',
  'resource-spec'
] as const satisfies readonly InputName[]

/**
 * action.yml's default of an input, as the runner applies it; `''` when it has none, or when the
 * default is an expression only the runner can evaluate (`${{ github.token }}`).
 */
export function defaultOf(name: InputName): string {
  const input = ACTION_INPUTS[name]
  const value = 'default' in input ? input.default : ''
  return value.includes('${{') ? '' : value
}

/** Whether `value` is the default's expression unevaluated (`@github/local-action`): not set. */
export function isUnevaluatedDefault(name: InputName, value: string): boolean {
  const input = ACTION_INPUTS[name]
  return 'default' in input && input.default.includes('${{') && value.trim() === input.default
}

/** A secret's name (in `secrets` and `secret-references`): an environment variable name. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
