// `command: sweep`: the inputs it takes; its run (run.ts) is loaded only when it runs.
import {
  commandFit,
  githubDeployment,
  healthGate,
  pollWithinTimeout,
  smokeNeedsGate,
  sweepCriteria
} from '../../inputs/rules.ts'
import type { InputName } from '../../interface/names.ts'
import type { Command } from '../command.ts'

export const SWEEP_INPUTS = [
  'repository',
  'delete-tracing-project',
  'sweep-names',
  'sweep-closed',
  'sweep-max-age',
  'sweep-max-count'
] as const satisfies readonly InputName[]

export const sweepCommand: Command = {
  inputs: SWEEP_INPUTS,
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
