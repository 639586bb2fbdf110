// `command: sweep`: the inputs it takes; its run (run.ts) is loaded only when it runs.
import {
  commandFit,
  githubDeployment,
  healthGate,
  pollWithinTimeout,
  smokeNeedsGate,
  sweepCriteria
} from '../../inputs/rules.ts'
import type { Command } from '../command.ts'

export const sweepCommand: Command = {
  // The repository is where pull requests are read.
  inputs: [
    'repository',
    'delete-tracing-project',
    'sweep-names',
    'sweep-closed',
    'sweep-max-age',
    'sweep-max-count'
  ],
  // No target: the sweep's names are a pattern.
  rules: [
    githubDeployment,
    healthGate,
    smokeNeedsGate,
    pollWithinTimeout,
    commandFit,
    sweepCriteria
  ],
  failedTitle: 'Failed',
  outputs: ['swept'],
  run: async (o, context) => (await import('./run.ts')).runSweep(o, context)
}
