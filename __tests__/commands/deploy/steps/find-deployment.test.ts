// The deployment a name refers to, from a list as lenient as the service: an entry of that very
// name that the model skipped is read by its id and checked whole, never taken for absent.
import { expect, test } from '@jest/globals'
import { findDeploymentByName } from '../../../../src/commands/deploy/steps/find-deployment.ts'
import { ACTION_SAY } from '../../../builders.ts'
import {
  deploymentBody,
  DEPLOYMENT_ID,
  makeClient,
  reply,
  script,
  startServer
} from '../../../builders/scripted-server.ts'

test('a listed entry of the name that does not parse is read by id: the deployment is found', async () => {
  const { secrets: _, ...listed } = deploymentBody({ name: 'agent-prod' })
  const server = await startServer(
    script(
      reply(200, { resources: [listed], offset: 1 }),
      reply(200, deploymentBody({ name: 'agent-prod' }))
    )
  )
  const found = await findDeploymentByName(makeClient(server.origin), 'agent-prod', ACTION_SAY)
  expect(found).toMatchObject({ id: DEPLOYMENT_ID, name: 'agent-prod' })
  expect(server.requests.map(r => r.url)).toEqual([
    '/v2/deployments?limit=100&offset=0&name_contains=agent-prod',
    `/v2/deployments/${DEPLOYMENT_ID}`
  ])
})

test('a skipped entry of another name is not read', async () => {
  const other = deploymentBody({ name: null, id: '00000000-0000-4000-8000-000000000009' })
  const server = await startServer(reply(200, { resources: [other], offset: 1 }))
  const found = await findDeploymentByName(makeClient(server.origin), 'agent-prod', ACTION_SAY)
  expect(found).toBeUndefined()
  expect(server.requests).toHaveLength(1)
})
