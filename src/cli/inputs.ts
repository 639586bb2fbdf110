// The action's inputs and outputs as the CLI offers them, from action.yml and the inputs table:
// a new input is a new flag, in --help too, without an edit here.
import { ACTION_INPUTS, ACTION_OUTPUTS } from '../interface/action-yml.ts'
import { defaultOf, DOCUMENT_INPUTS, INPUT_NAMES, type InputName } from '../interface/names.ts'
import { INPUTS as TABLE } from '../inputs/table.ts'

export interface CliInput {
  name: InputName
  description: string
  /** action.yml's default, '' when none (or when only the runner can evaluate it). */
  default: string
  required: boolean
  /** `--x` / `--no-x` rather than `--x <value>`. */
  boolean: boolean
  /** Takes a value, or `true` too (`health-check`): a bare `--x` means `--x=true`. */
  trueOrValue: boolean
}

/** What the check makes of `true`, `false`: a yes/no flag, or off or a value (`health-check`). */
function flagKind(name: InputName): { boolean: boolean; trueOrValue: boolean } {
  // A YAML/JSON input is a document, never a flag (and its parser is loaded only for a run).
  if ((DOCUMENT_INPUTS as readonly string[]).includes(name))
    return { boolean: false, trueOrValue: false }
  let failed = false
  const check = TABLE[name].check as (value: string, fail: () => undefined) => unknown
  const [yes, no] = ['true', 'false'].map(v => check(v, () => ((failed = true), undefined)))
  return {
    boolean: yes === true && no === false,
    trueOrValue: no === false && yes !== true && !failed
  }
}

/** The CLI's wording of a default the action takes from its event (a test holds the patterns). */
const CLI_DEFAULTS: ReadonlyArray<[InputName, RegExp, string]> = [
  [
    'repository',
    /Defaults to the workflow's repository\.$/,
    "Defaults to the GitHub repository that the CI's variables or the checkout's origin remote name."
  ],
  [
    'ref',
    /Defaults from the event\b.*$/,
    "Defaults to the branch or tag that the CI's variables or the git checkout name."
  ]
]

function cliDescription(name: InputName): string {
  const own = CLI_DEFAULTS.find(([n]) => n === name)
  const description = ACTION_INPUTS[name].description
  return own ? description.replace(own[1], own[2]) : description
}

export const CLI_INPUTS: readonly CliInput[] = INPUT_NAMES.map(name => ({
  name,
  description: cliDescription(name),
  default: defaultOf(name),
  required: ACTION_INPUTS[name].required,
  ...flagKind(name)
}))

export const CLI_OUTPUTS = Object.entries(ACTION_OUTPUTS).map(([name, o]) => ({
  name,
  description: o.description as string
}))
