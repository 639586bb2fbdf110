// `command: delete`: the inputs it takes, and its run, which ends as a deploy does (runFlow).
import {
  commandFit,
  deploySwitches,
  githubDeployment,
  pollWithinTimeout,
  smokeNeedsGate,
  target
} from '../../inputs/rules.ts'
import { ONE_DEPLOYMENT, type Command } from '../command.ts'
import { runFlow } from '../deploy/command.ts'
import { deleteDeployment, type DeleteOptions } from './delete.ts'

export const deleteCommand: Command = {
  inputs: [...ONE_DEPLOYMENT, 'delete-tracing-project', 'manifest', 'agent'],
  // No health gate: a delete's switches of a deploy are refused as such.
  rules: [target, githubDeployment, smokeNeedsGate, pollWithinTimeout, commandFit, deploySwitches],
  failedTitle: 'Delete failed',
  outputs: ['deployment-id', 'deployment-status', 'deleted', 'status-url', 'github-deployment-id'],
  run: (o: DeleteOptions, context) =>
    runFlow(o, context, { flow: deleteDeployment, failedTitle: 'Delete failed', removal: true })
}
