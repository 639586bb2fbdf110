// A create whose name turns out taken by several deployments at once (other runs raced it): the
// error names the input to choose one as the run's door does, the CLI's flag included.
import { describe, expect, test } from '@jest/globals'
import { cliSay } from '../../../../src/cli/naming.ts'
import type { ControlPlaneClient } from '../../../../src/control-plane/client.ts'
import { ApiError } from '../../../../src/control-plane/errors.ts'
import type { CreateDeploymentRequest } from '../../../../src/control-plane/schema.ts'
import { failureText, stopped } from '../../../../src/interface/ending.ts'
import { createOrAdopt } from '../../../../src/commands/deploy/steps/converging-writes.ts'
import type { Say } from '../../../../src/interface/naming.ts'
import { ACTION_SAY, DEPLOYMENT_ID, testDeployment } from '../../../builders.ts'

const OTHER_ID = '99999999-9999-4999-8999-999999999999'

/** A control plane that answers the create "already exists" and lists two deployments of the name. */
const racedClient = {
  createDeployment: async () => {
    throw new ApiError(
      { operation: 'create deployment', method: 'POST', path: '/v2/deployments', say: ACTION_SAY },
      400,
      'Deployment with name agent-prod already exists'
    )
  },
  async *iterateDeployments() {
    yield testDeployment()
    yield testDeployment({ id: OTHER_ID })
  }
} as unknown as ControlPlaneClient

const notes = { info: () => {}, warning: () => {} }
const body = { name: 'agent-prod' } as CreateDeploymentRequest

/** The message the create ends with; 'created' when it did not refuse. */
async function refusal(say: Say): Promise<string> {
  const r = await createOrAdopt(racedClient, body, notes, Date.now, say)
  return stopped(r) ? failureText(r.failure) : 'created'
}

describe('createOrAdopt, when the name is taken by several deployments', () => {
  test('the hint names deployment-id as the door does: the action and the CLI', async () => {
    const action = await refusal(ACTION_SAY)
    expect(action).toBe(
      `Several deployments are named "agent-prod" (${DEPLOYMENT_ID}, ${OTHER_ID}).\nSet \`deployment-id\` to choose one.`
    )
    const cli = await refusal(cliSay({}))
    expect(cli).toContain('Set `--deployment-id` to choose one.')
    const fromEnv = await refusal(cliSay({ 'deployment-id': 'env' }))
    expect(fromEnv).toContain('Set `CONTROL_PLANE_DEPLOYMENT_ID` to choose one.')
  })
})
