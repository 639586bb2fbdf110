// Client-level fixes of the trust review: a list that never ends, an answer about another revision,
// a redirect named by its full address, and a rate limit the caller can tell the user about.
import { describe, expect, test } from '@jest/globals'
import {
  EndlessListError,
  OtherResourceError,
  RedirectRefusedError,
  UnexpectedResponseError
} from '../../src/control-plane/errors.ts'
import { MAX_PAGES } from '../../src/control-plane/paging.ts'
import * as scripted from '../builders/scripted-server.ts'

const OTHER_REVISION = 'ffffffff-a5b6-4c7d-8e9f-0a1b2c3d4e5f'

function deploymentAt(i: number) {
  return scripted.deploymentBody({
    name: `agent-${i}`,
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
  })
}

async function drain(it: AsyncIterable<unknown>): Promise<number> {
  let n = 0
  for await (const _ of it) n++
  return n
}

describe('a deployment list that never ends', () => {
  test('full pages for ever: stops at the page cap with an error that names the cause', async () => {
    // Every page full, every offset new: only the bound ends it.
    const server = await scripted.startServer((req, res, body, n) => {
      const q = new URL(req.url!, 'http://x').searchParams
      const offset = Number(q.get('offset'))
      const resources = [0, 1].map(i => deploymentAt(offset + i))
      scripted.reply(200, { resources, offset: offset + 2 })(req, res, body, n)
    })
    const it = scripted.makeClient(server.origin).iterateDeployments({ name_contains: 'agent' }, 2)
    const err = await scripted.rejectionOf(drain(it))
    expect(err).toBeInstanceOf(EndlessListError)
    expect(err.message).toContain(
      `The deployment list did not end: ${MAX_PAGES} pages of 2 read without a short page`
    )
    expect(err.message).toContain("the control plane's paging looks broken")
    expect(server.requests).toHaveLength(MAX_PAGES)
  })

  test('the same full page again and again: stops on the second page', async () => {
    const server = await scripted.startServer(
      scripted.reply(200, { resources: [deploymentAt(0), deploymentAt(1)], offset: 0 })
    )
    const err = await scripted.rejectionOf(
      drain(scripted.makeClient(server.origin).iterateDeployments({}, 2))
    )
    expect(err).toBeInstanceOf(EndlessListError)
    expect(err.message).toContain('2 pages of 2 read without a short page')
    expect(err.message).toContain('the offset did not advance')
    expect(server.requests).toHaveLength(2)
  })

  test('an entry that moves to the next page while reading is given once', async () => {
    // A deployment created between the two reads pushes agent-1 onto the second page.
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(200, { resources: [deploymentAt(0), deploymentAt(1)], offset: 2 }),
        scripted.reply(200, { resources: [deploymentAt(1)], offset: 3 })
      )
    )
    const names: string[] = []
    for await (const d of scripted.makeClient(server.origin).iterateDeployments({}, 2))
      names.push(d.name)
    expect(names).toEqual(['agent-0', 'agent-1'])
  })
})

describe('an answer about another deployment', () => {
  const OTHER_DEPLOYMENT = 'eeeeeeee-a5b6-4c7d-8e9f-0a1b2c3d4e5f'
  const other = scripted.deploymentBody({ id: OTHER_DEPLOYMENT })

  test('a GET: an error naming both ids, after the reads a misfit gets', async () => {
    const server = await scripted.startServer(scripted.reply(200, other))
    const err = await scripted.rejectionOf(
      scripted.makeClient(server.origin).getDeployment(scripted.DEPLOYMENT_ID)
    )
    expect(err).toBeInstanceOf(OtherResourceError)
    expect(err.message).toContain(
      `the answer is about deployment ${OTHER_DEPLOYMENT}, not about deployment ${scripted.DEPLOYMENT_ID}`
    )
    expect(server.requests).toHaveLength(5)
  })

  test('a PATCH and a redeploy: an error at once, never sent again', async () => {
    for (const call of [
      (c: ReturnType<typeof scripted.makeClient>) =>
        c.patchDeployment(scripted.DEPLOYMENT_ID, { secrets: [] }),
      (c: ReturnType<typeof scripted.makeClient>) =>
        c.redeployRevision(scripted.DEPLOYMENT_ID, scripted.REVISION_ID)
    ]) {
      const server = await scripted.startServer(scripted.reply(200, other))
      const err = await scripted.rejectionOf(call(scripted.makeClient(server.origin)))
      expect(err).toBeInstanceOf(OtherResourceError)
      expect(err.message).toContain(OTHER_DEPLOYMENT)
      expect(err.message).toContain(scripted.DEPLOYMENT_ID)
      expect(server.requests).toHaveLength(1)
    }
  })

  test('the id compares without regard to case', async () => {
    const server = await scripted.startServer(
      scripted.reply(200, scripted.deploymentBody({ id: scripted.DEPLOYMENT_ID.toUpperCase() }))
    )
    const d = await scripted.makeClient(server.origin).getDeployment(scripted.DEPLOYMENT_ID)
    expect(d.id.toLowerCase()).toBe(scripted.DEPLOYMENT_ID)
  })
})

describe('an answer about another revision', () => {
  test('is a malformed answer naming both ids, read again, then an error', async () => {
    const server = await scripted.startServer(
      scripted.reply(200, scripted.revisionBody('DEPLOYED', { id: OTHER_REVISION }))
    )
    const err = await scripted.rejectionOf(
      scripted.makeClient(server.origin).getRevision(scripted.DEPLOYMENT_ID, scripted.REVISION_ID)
    )
    expect(err).toBeInstanceOf(UnexpectedResponseError)
    expect(err.message).toContain(OTHER_REVISION)
    expect(err.message).toContain(scripted.REVISION_ID)
    // The misfit retry of reads applies: five reads in all.
    expect(server.requests).toHaveLength(5)
  })

  test('a later answer about the right revision is taken', async () => {
    const server = await scripted.startServer(
      scripted.script(
        scripted.reply(200, scripted.revisionBody('DEPLOYED', { id: OTHER_REVISION })),
        scripted.reply(200, scripted.revisionBody('BUILDING'))
      )
    )
    const revision = await scripted
      .makeClient(server.origin)
      .getRevision(scripted.DEPLOYMENT_ID, scripted.REVISION_ID)
    expect(revision).toMatchObject({ id: scripted.REVISION_ID, status: 'BUILDING' })
  })

  test('the id compares without regard to case', async () => {
    const server = await scripted.startServer(
      scripted.reply(200, scripted.revisionBody('DEPLOYED'))
    )
    const revision = await scripted
      .makeClient(server.origin)
      .getRevision(scripted.DEPLOYMENT_ID, scripted.REVISION_ID.toUpperCase())
    expect(revision.status).toBe('DEPLOYED')
  })
})

describe('a refused redirect names the whole address to set', () => {
  test('origin and path, without the query string', async () => {
    const server = await scripted.startServer((_req, res) => {
      res.writeHead(308, {
        Location: `https://cp.example.com/api-host/v2/deployments?token=s3cr3t-token&x=${scripted.API_KEY}`
      })
      res.end()
    })
    const err = (await scripted.rejectionOf(
      scripted.makeClient(server.origin).listDeployments()
    )) as RedirectRefusedError
    expect(err).toBeInstanceOf(RedirectRefusedError)
    expect(err.message).toContain('points to https://cp.example.com/api-host/v2/deployments.')
    expect(err.target).toBe('https://cp.example.com/api-host/v2/deployments')
    expect(err.targetOrigin).toBe('https://cp.example.com')
    expect(err.message).not.toContain('s3cr3t-token')
    expect(err.message).not.toContain(scripted.API_KEY)
  })

  test('a path that holds a secret value is redacted', async () => {
    const server = await scripted.startServer((_req, res) => {
      res.writeHead(302, { Location: `/login/${scripted.API_KEY}` })
      res.end()
    })
    const err = await scripted.rejectionOf(
      scripted.makeClient(server.origin).getDeployment(scripted.DEPLOYMENT_ID)
    )
    expect(err.message).toContain(`points to ${server.origin}/login/***`)
    expect(err.message).not.toContain(scripted.API_KEY)
  })
})

describe('a rate limit is told to the caller', () => {
  const limited = (retryAfter?: string): scripted.Handler =>
    scripted.reply(
      429,
      { detail: 'Too many requests' },
      retryAfter ? { 'Retry-After': retryAfter } : {}
    )

  test('each wait on a 429 is reported with its length, Retry-After included', async () => {
    const server = await scripted.startServer(
      scripted.script(limited('7'), limited(), scripted.reply(200, { resources: [], offset: 0 }))
    )
    const waits: number[] = []
    const slept: number[] = []
    const client = scripted.makeClient(server.origin, {
      onRateLimited: ms => waits.push(ms),
      sleep: async ms => void slept.push(ms),
      random: () => 0.5
    })
    await client.listDeployments()
    expect(waits).toEqual(slept)
    expect(waits).toHaveLength(2)
    expect(waits[0]).toBeGreaterThanOrEqual(7000)
  })

  test('other retried statuses are not reported as rate limiting', async () => {
    const server = await scripted.startServer(
      scripted.script(scripted.reply(503, {}), scripted.reply(200, scripted.deploymentBody()))
    )
    const waits: number[] = []
    const client = scripted.makeClient(server.origin, { onRateLimited: ms => waits.push(ms) })
    await client.getDeployment(scripted.DEPLOYMENT_ID)
    expect(waits).toEqual([])
    expect(server.requests).toHaveLength(2)
  })
})
