// `command: check`: a deploy's inputs and `fail-on-drift`; its run is loaded only when it runs.
import { DEPLOY_RULES } from '../../inputs/rules.ts'
import type { Command } from '../command.ts'
import { DEPLOY_INPUTS } from '../deploy/command.ts'

export const checkCommand: Command = {
  inputs: [...DEPLOY_INPUTS, 'fail-on-drift'],
  rules: DEPLOY_RULES,
  failedTitle: 'Failed',
  outputs: ['drift', 'deployment-id'],
  run: async (o, context) => (await import('./run.ts')).runCheck(o, context)
}
