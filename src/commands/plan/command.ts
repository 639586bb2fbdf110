// `command: plan`: with `manifest` and `environment`, which agents need a deploy and why; it
// writes nothing. Its run (run.ts) is loaded only when it runs.
import { commandFit, type RuleInput } from '../../inputs/rules.ts'
import type { Command } from '../command.ts'

/** A plan needs the manifest, and the environment whose deployments it reads. */
export function planNeeds({ say, absent, add }: RuleInput): void {
  if (absent('manifest'))
    add(
      'manifest',
      `${say('manifest')} is required with ${say.set('command', 'plan')}: the file that names the agents`
    )
  if (absent('environment'))
    add(
      'environment',
      `${say('environment')} is required with ${say.set('command', 'plan')}: the manifest's environment to plan (like \`staging\`)`
    )
}

export const planCommand: Command = {
  // `agent`: plan that agent alone.
  inputs: ['manifest', 'agent', 'environment'],
  rules: [planNeeds, commandFit],
  failedTitle: 'Plan failed',
  outputs: ['matrix', 'agents'],
  run: async (o, context) => (await import('./run.ts')).runPlan(o, context)
}
