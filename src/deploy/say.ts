// How the flow's messages name an input: as the run's door does (`--timeout` in the CLI,
// `timeout` in the action), through the deps' `say`; the action's names when none is given.
import { ACTION_NAMING, sayWith, type Say } from '../inputs/naming.ts'

const ACTION_SAY = sayWith(ACTION_NAMING)

export function sayOf(deps: { say?: Say | undefined }): Say {
  return deps.say ?? ACTION_SAY
}
