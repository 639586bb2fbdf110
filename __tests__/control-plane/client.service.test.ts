// The client against the service as it is: lists as lenient as the service (an entry that does not
// parse is skipped with a debug line, never failing the list; unknown fields and an `agent` block
// ignored), the fields the run needs still checked, and every secret value an answer carries
// masked and redacted the moment it is read.
import { describe, expect, test } from '@jest/globals'
import { ApiError, UnexpectedResponseError } from '../../src/control-plane/errors.ts'
import { Redactor } from '../../src/control-plane/redact.ts'
import {
  deploymentBody,
  DEPLOYMENT_ID,
  makeClient,
  rejectionOf,
  reply,
  script,
  startServer
} from '../builders/scripted-server.ts'

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** An agent-mode deployment as a third party saw it: no name, and fields this model does not know. */
const agentMode = deploymentBody({
  id: id(2),
  name: null,
  agent: { agent_id: 'a-1', environment: 'staging' },
  shareable: true
})
const { secrets: _, ...withoutSecrets } = deploymentBody({ id: id(3), name: 'no-secrets' })

describe('a list as lenient as the service', () => {
  test('an entry with a null name or without secrets is skipped with a debug line; the rest is read, agent block and all', async () => {
    const page = [
      deploymentBody({ id: id(1), name: 'agent-staging', route_through_gateway: false }),
      agentMode,
      withoutSecrets
    ]
    const server = await startServer(
      script(reply(200, { resources: page, offset: 3 }), reply(200, { resources: [], offset: 3 }))
    )
    const debug: string[] = []
    const skipped: string[] = []
    const c = makeClient(server.origin, { debug: line => debug.push(line) })
    const names: string[] = []
    for await (const d of c.iterateDeployments({}, 3, e => skipped.push(e.id))) names.push(d.name)
    expect(names).toEqual(['agent-staging'])
    expect(skipped).toEqual([id(2), id(3)])
    const lines = debug.filter(l => l.includes('skipped'))
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`entry 2 .*deployment ${id(2)}, skipped: name: `)),
      expect.stringMatching(new RegExp(`entry 3 .*${id(3)} \\("no-secrets"\\), skipped: secrets: `))
    ])
    // Three entries came: the page was full, so the next one was read.
    expect(server.requests).toHaveLength(2)
  })

  test('a listed agent block of any shape never fails a read; a usable one is kept', async () => {
    const odd = deploymentBody({ id: id(4), name: 'odd', agent: 'beta' })
    const bound = deploymentBody({
      id: id(5),
      name: 'bound',
      agent: { agent_id: 'a-1', environment: 'production', extra: 1 }
    })
    const server = await startServer(reply(200, { resources: [odd, bound], offset: 2 }))
    const page = await makeClient(server.origin).listDeployments()
    expect(page.resources.map(d => [d.name, d.agent ?? null])).toEqual([
      ['odd', null],
      ['bound', { agent_id: 'a-1', environment: 'production' }]
    ])
    expect(page.skipped).toEqual([])
  })

  test('an entry without an id is no list: unexpected response (the paging counts by id)', async () => {
    const { id: _id, ...noId } = deploymentBody({ name: 'x' })
    const server = await startServer(reply(200, { resources: [noId], offset: 1 }))
    const c = makeClient(server.origin, { retry: { maxAttempts: 1 } })
    const err = await rejectionOf(c.listDeployments())
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(err.message).toMatch(/resources\.0\.id/)
  })

  test('a page whose every entry is skipped still pages on, and ends', async () => {
    const server = await startServer(
      script(
        reply(200, { resources: [agentMode, withoutSecrets], offset: 2 }),
        reply(200, { resources: [], offset: 2 })
      )
    )
    const c = makeClient(server.origin)
    const names: string[] = []
    const skipped: string[] = []
    for await (const d of c.iterateDeployments({}, 2, e => skipped.push(e.id))) names.push(d.name)
    expect([names, skipped]).toEqual([[], [id(2), id(3)]])
    expect(server.requests.map(r => r.url)).toEqual([
      '/v2/deployments?limit=2&offset=0',
      '/v2/deployments?limit=2&offset=2'
    ])
  })

  test('one deployment read by id is checked whole: without secrets it is an unexpected response', async () => {
    const server = await startServer(reply(200, { ...withoutSecrets, id: DEPLOYMENT_ID }))
    const c = makeClient(server.origin, { retry: { maxAttempts: 1 } })
    const err = await rejectionOf(c.getDeployment(DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(err.message).toMatch(/secrets/)
  })
})

describe('secret values read from the control plane', () => {
  const WEB_APP_SECRET = 'sk-set-in-the-web-app-7f3a9c'

  test('are masked the moment they are read, and redacted from every later message', async () => {
    const d = deploymentBody({
      secrets: [
        { name: 'OPENAI_API_KEY', value: WEB_APP_SECRET },
        { name: 'MODE', value: 'production' },
        { name: 'EMPTY', value: null }
      ]
    })
    const server = await startServer(
      script(reply(200, d), reply(400, { detail: `value ${WEB_APP_SECRET} is not accepted here` }))
    )
    const masked: string[] = []
    const shared = new Redactor()
    const c = makeClient(server.origin, { mask: v => masked.push(v), redactor: shared })
    await c.getDeployment(DEPLOYMENT_ID)
    // A common word is left unmasked, as an input's is.
    expect(masked).toEqual([WEB_APP_SECRET])
    expect(shared.redact(`the key ${WEB_APP_SECRET}`)).toBe('the key ***')
    const err = (await rejectionOf(c.patchDeployment(DEPLOYMENT_ID, {}))) as ApiError
    expect(err.message).not.toContain(WEB_APP_SECRET)
    expect(err.message).toContain('value *** is not accepted')
  })

  test('in a list, also those of an entry the model skipped', async () => {
    const hidden = { ...agentMode, secrets: [{ name: 'TOKEN', value: WEB_APP_SECRET }] }
    const server = await startServer(reply(200, { resources: [hidden], offset: 1 }))
    const masked: string[] = []
    const c = makeClient(server.origin, { mask: v => masked.push(v) })
    expect((await c.listDeployments()).resources).toEqual([])
    expect(masked).toEqual([WEB_APP_SECRET])
    expect(c.redactor.redact(WEB_APP_SECRET)).toBe('***')
  })
})
