// How the CLI's messages name an input: as the user set it (`--no-create`, `CONTROL_PLANE_CREATE`);
// one not given by its flag. The API key and the token are only variables.
import { sayAs, type Say } from '../interface/naming.ts'
import type { InputName } from '../interface/names.ts'
import { envNameOf } from './flags.ts'
import { CLI_INPUTS } from './inputs.ts'

/** Where each input given came from; an input missing here was not given. */
export type InputOrigins = Record<string, 'flag' | 'env'>

const ONLY_VARIABLES: readonly string[] = ['api-key', 'github-token']
const BOOLEANS = new Set(CLI_INPUTS.filter(i => i.boolean).map(i => i.name))

export function cliSay(origins: InputOrigins): Say {
  const fromEnv = (input: InputName) => origins[input] === 'env' || ONLY_VARIABLES.includes(input)
  return sayAs(
    input =>
      input === 'command'
        ? 'control-plane-deploy deploy|delete'
        : fromEnv(input)
          ? envNameOf(input)
          : `--${input}`,
    (input, value) => {
      if (input === 'command') return `control-plane-deploy ${value}`
      if (fromEnv(input)) return `${envNameOf(input)}=${value}`
      if (BOOLEANS.has(input) && (value === 'true' || value === 'false'))
        return value === 'true' ? `--${input}` : `--no-${input}`
      return `--${input} ${value}`
    }
  )
}
