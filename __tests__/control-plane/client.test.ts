import { readFileSync } from 'node:fs'
import { describe, expect, test } from '@jest/globals'
import { USER_AGENT } from '../../src/control-plane/client.ts'
import {
  AbortedError,
  ApiError,
  ControlPlaneError,
  NetworkError,
  OutcomeUnknownError,
  RedirectRefusedError,
  EndlessListError,
  OtherResourceError,
  UnexpectedResponseError
} from '../../src/control-plane/errors.ts'
import * as scripted from '../builders/scripted-server.ts'
import {
  API_KEY,
  createBody,
  deploymentBody,
  DEPLOYMENT_ID,
  hangUp,
  INTEGRATION_ID,
  LISTENER_ID,
  makeClient,
  rejectionOf,
  reply,
  REVISION_ID,
  revisionBody,
  script,
  silent,
  startServer,
  TENANT_ID,
  type Handler
} from '../builders/scripted-server.ts'
import { MAX_PAGES } from '../../src/control-plane/paging.ts'
import { Redactor } from '../../src/control-plane/redact.ts'
import { MAX_LOG_MESSAGE_CHARS } from '../../src/control-plane/client-options.ts'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}

const repos = [
  {
    host_integration_id: INTEGRATION_ID,
    id: 99,
    name: 'my-agent',
    owner: 'acme',
    url: 'https://github.com/acme/my-agent',
    default_branch: 'main'
  }
]

/** A request timeout that never comes within a test: only a deadline or a cancel ends the call. */
const A_DAY_MS = 86_400_000

/** How long `promise` takes to settle, and its rejection (if any). */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error?: Error }> {
  const start = Date.now()
  try {
    await promise
    return { ms: Date.now() - start }
  } catch (error) {
    return { ms: Date.now() - start, error: error as Error }
  }
}

describe('headers', () => {
  test('key, JSON accept/content type and the user agent of this release; no tenant unless given', async () => {
    const server = await startServer(reply(200, { resources: [], offset: 0 }))
    await makeClient(server.origin).listDeployments()
    const headers = server.requests[0]!.headers
    expect(headers['x-api-key']).toBe(API_KEY)
    expect(headers['x-tenant-id']).toBeUndefined()
    expect(headers['accept']).toBe('application/json')
    expect(headers['content-type']).toBe('application/json')
    expect(headers['user-agent']).toBe(`control-plane-deploy/${pkg.version}`)
    expect(USER_AGENT).toBe(`control-plane-deploy/${pkg.version}`)
    expect(headers['authorization']).toBeUndefined()
  })

  test('X-Tenant-Id is sent when a tenant id is given', async () => {
    const server = await startServer(reply(200, deploymentBody()))
    await makeClient(server.origin, { tenantId: TENANT_ID }).getDeployment(DEPLOYMENT_ID)
    expect(server.requests[0]!.headers['x-tenant-id']).toBe(TENANT_ID)
    expect(server.requests[0]!.headers['x-api-key']).toBe(API_KEY)
  })

  test('an empty tenant id sends no X-Tenant-Id', async () => {
    const server = await startServer(reply(200, deploymentBody()))
    await makeClient(server.origin, { tenantId: '' }).getDeployment(DEPLOYMENT_ID)
    expect(server.requests[0]!.headers['x-tenant-id']).toBeUndefined()
  })

  test('a write sends its JSON body with a correct Content-Length', async () => {
    const server = await startServer(reply(201, deploymentBody()))
    await makeClient(server.origin).createDeployment(createBody('välue-ü'))
    const req = server.requests[0]!
    expect(req.headers['content-type']).toBe('application/json')
    expect(Number(req.headers['content-length'])).toBe(Buffer.byteLength(req.body))
    expect(JSON.parse(req.body)).toEqual(createBody('välue-ü'))
  })
})

describe('one method per operation', () => {
  function router(): Handler {
    return (req, res, body, n) => {
      const url = new URL(req.url!, 'http://x')
      const p = url.pathname.replace(/^\/api-host/, '')
      if (req.method === 'GET' && p === '/v2/deployments')
        return reply(200, { resources: [deploymentBody()], offset: 1 })(req, res, body, n)
      if (req.method === 'POST' && p === '/v2/deployments')
        return reply(201, deploymentBody())(req, res, body, n)
      if (
        p === `/v2/deployments/${DEPLOYMENT_ID}` &&
        (req.method === 'GET' || req.method === 'PATCH')
      )
        return reply(200, deploymentBody())(req, res, body, n)
      if (req.method === 'GET' && p === `/v2/deployments/${DEPLOYMENT_ID}/revisions/${REVISION_ID}`)
        return reply(200, revisionBody('DEPLOYED'))(req, res, body, n)
      if (req.method === 'DELETE' && p === `/v2/listeners/${LISTENER_ID}`)
        return reply(204)(req, res, body, n)
      if (req.method === 'GET' && p === `/v1/integrations/forge/codehost/${INTEGRATION_ID}/repos`)
        return reply(200, repos)(req, res, body, n)
      reply(404, { detail: `no route ${req.method} ${p}` })(req, res, body, n)
    }
  }

  test.each(['', '/api-host', '/api-host/'])(
    'every operation reaches its path under base path %j',
    async prefix => {
      const server = await startServer(router())
      const client = makeClient(server.origin + prefix)
      const base = prefix.replace(/\/$/, '')

      expect((await client.listDeployments({ name_contains: 'my' })).resources).toHaveLength(1)
      expect((await client.createDeployment(createBody())).id).toBe(DEPLOYMENT_ID)
      expect((await client.getDeployment(DEPLOYMENT_ID)).name).toBe('my-agent')
      const patched = await client.patchDeployment(DEPLOYMENT_ID, {
        source_revision_config: { repo_ref: 'refs/tags/v2' }
      })
      expect(patched.id).toBe(DEPLOYMENT_ID)
      expect((await client.getRevision(DEPLOYMENT_ID, REVISION_ID)).status).toBe('DEPLOYED')
      await expect(client.deleteListener(LISTENER_ID)).resolves.toBeUndefined()
      expect(await client.listRepositories(INTEGRATION_ID)).toEqual(repos)

      expect(server.requests.map(r => `${r.method} ${r.url}`)).toEqual([
        `GET ${base}/v2/deployments?limit=20&offset=0&name_contains=my`,
        `POST ${base}/v2/deployments`,
        `GET ${base}/v2/deployments/${DEPLOYMENT_ID}`,
        `PATCH ${base}/v2/deployments/${DEPLOYMENT_ID}`,
        `GET ${base}/v2/deployments/${DEPLOYMENT_ID}/revisions/${REVISION_ID}`,
        `DELETE ${base}/v2/listeners/${LISTENER_ID}`,
        `GET ${base}/v1/integrations/forge/codehost/${INTEGRATION_ID}/repos`
      ])
      expect(JSON.parse(server.requests[3]!.body)).toEqual({
        source_revision_config: { repo_ref: 'refs/tags/v2' }
      })
      expect(client.requestCount).toBe(7)
    }
  )

  test('every list filter goes out under its production name', async () => {
    const server = await startServer(reply(200, { resources: [], offset: 0 }))
    await makeClient(server.origin).listDeployments({
      limit: 5,
      offset: 10,
      name_contains: 'agent',
      status: 'READY',
      remote_reconciled: true,
      tag_value_ids: 'a,b',
      image_version: '1.2',
      deployment_type: 'prod',
      deployment_ids: `${DEPLOYMENT_ID}`
    })
    const query = Object.fromEntries(new URL(server.requests[0]!.url, 'http://x').searchParams)
    expect(query).toEqual({
      limit: '5',
      offset: '10',
      name_contains: 'agent',
      status: 'READY',
      remote_reconciled: 'true',
      tag_value_ids: 'a,b',
      image_version: '1.2',
      deployment_type: 'prod',
      deployment_ids: DEPLOYMENT_ID
    })
  })

  test('an id is sent as one path segment, whatever it contains', async () => {
    const server = await startServer(reply(404, { detail: 'Deployment ID not found.' }))
    const err = await rejectionOf(makeClient(server.origin).getDeployment('../listeners/x?y=1#z'))
    expect(err).toBeInstanceOf(ApiError)
    expect(server.requests[0]!.url).toBe('/v2/deployments/..%2Flisteners%2Fx%3Fy%3D1%23z')
  })

  test('an invalid request body is refused before anything is sent', async () => {
    const server = await startServer(reply(201, deploymentBody()))
    const client = makeClient(server.origin)
    await expect(
      client.createDeployment({ ...createBody(), source: 'svn' as 'codehost' })
    ).rejects.toThrow()
    await expect(client.listDeployments({ limit: 500 })).rejects.toThrow()
    expect(server.requests).toHaveLength(0)
  })
})

describe('iterateDeployments', () => {
  /** `total` deployments, paged by limit/offset; the answer's offset is the next one. */
  function pages(total: number, offsetMode: 'next' | 'echo' = 'next'): Handler {
    const all = Array.from({ length: total }, (_, i) =>
      deploymentBody({
        name: `agent-${i}`,
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
      })
    )
    return (req, res, body, n) => {
      const q = new URL(req.url!, 'http://x').searchParams
      const limit = Number(q.get('limit'))
      const offset = Number(q.get('offset'))
      const resources = all.slice(offset, offset + limit)
      const next = offsetMode === 'next' ? offset + resources.length : offset
      reply(200, { resources, offset: next })(req, res, body, n)
    }
  }

  async function collect(it: AsyncIterable<{ name: string }>): Promise<string[]> {
    const names: string[] = []
    for await (const d of it) names.push(d.name)
    return names
  }

  test('reads every page and stops on the short one', async () => {
    const server = await startServer(pages(7))
    const names = await collect(makeClient(server.origin).iterateDeployments({}, 3))
    expect(names).toEqual(Array.from({ length: 7 }, (_, i) => `agent-${i}`))
    expect(server.requests.map(r => r.url)).toEqual([
      '/v2/deployments?limit=3&offset=0',
      '/v2/deployments?limit=3&offset=3',
      '/v2/deployments?limit=3&offset=6'
    ])
  })

  test('a full last page is followed by one empty page, then the end', async () => {
    const server = await startServer(pages(6))
    const names = await collect(makeClient(server.origin).iterateDeployments({}, 3))
    expect(names).toHaveLength(6)
    expect(server.requests).toHaveLength(3)
  })

  test('pages of 100 by default, filters repeated on each page', async () => {
    const server = await startServer(pages(150))
    const names = await collect(
      makeClient(server.origin).iterateDeployments({ name_contains: 'agent' })
    )
    expect(names).toHaveLength(150)
    expect(server.requests.map(r => r.url)).toEqual([
      '/v2/deployments?limit=100&offset=0&name_contains=agent',
      '/v2/deployments?limit=100&offset=100&name_contains=agent'
    ])
  })

  test('a service that echoes the request offset still advances (no endless loop)', async () => {
    const server = await startServer(pages(5, 'echo'))
    const names = await collect(makeClient(server.origin).iterateDeployments({}, 2))
    expect(names).toEqual(['agent-0', 'agent-1', 'agent-2', 'agent-3', 'agent-4'])
    expect(server.requests).toHaveLength(3)
  })

  test('stopping early reads no further page', async () => {
    const server = await startServer(pages(50))
    for await (const d of makeClient(server.origin).iterateDeployments({}, 10)) {
      if (d.name === 'agent-3') break
    }
    expect(server.requests).toHaveLength(1)
  })

  test('a page query the interface refuses fails before it is sent: no request', async () => {
    const server = await startServer(pages(5))
    const client = makeClient(server.origin)
    await expect(collect(client.iterateDeployments({}, 500))).rejects.toThrow(
      'list deployments: a query the interface refuses: limit: an integer from 1 to 100'
    )
    const wrongType = { deployment_type: 'huge' } as unknown as { deployment_type: 'dev' }
    await expect(collect(client.iterateDeployments(wrongType))).rejects.toThrow(/deployment_type/)
    expect(server.requests).toEqual([])
  })
})

describe('retries by status', () => {
  test.each([408, 429, 500, 502, 503, 504])('GET after HTTP %d is retried', async status => {
    const server = await startServer(script(reply(status, { detail: 'x' }), reply(200, repos)))
    const client = makeClient(server.origin)
    expect(await client.listRepositories(INTEGRATION_ID)).toEqual(repos)
    expect(server.requests).toHaveLength(2)
  })

  test.each([408, 429, 500, 502, 503, 504])('DELETE after HTTP %d is retried', async status => {
    const server = await startServer(script(reply(status, { detail: 'x' }), reply(204)))
    await makeClient(server.origin).deleteListener(LISTENER_ID)
    expect(server.requests.map(r => r.method)).toEqual(['DELETE', 'DELETE'])
  })

  test.each([400, 401, 403, 404, 409, 422, 501])(
    'GET after HTTP %d is not retried: ApiError',
    async status => {
      const server = await startServer(reply(status, { detail: 'nope' }))
      const err = await rejectionOf(makeClient(server.origin).getDeployment(DEPLOYMENT_ID))
      expect(err).toBeInstanceOf(ApiError)
      expect(err).toMatchObject({
        status,
        method: 'GET',
        path: `/v2/deployments/${DEPLOYMENT_ID}`,
        detail: 'nope'
      })
      expect(server.requests).toHaveLength(1)
    }
  )

  test('a retryable status that persists ends after maxAttempts requests', async () => {
    const server = await startServer(reply(503, { detail: 'busy' }))
    const client = makeClient(server.origin, { retry: { maxAttempts: 4 } })
    const err = await rejectionOf(client.getDeployment(DEPLOYMENT_ID))
    expect(err).toMatchObject({ status: 503, detail: 'busy' })
    expect(server.requests).toHaveLength(4)
    expect(client.requestCount).toBe(4)
  })

  test('a GET whose connection is reset is retried', async () => {
    const server = await startServer(script(hangUp, hangUp, reply(200, deploymentBody())))
    expect((await makeClient(server.origin).getDeployment(DEPLOYMENT_ID)).id).toBe(DEPLOYMENT_ID)
    expect(server.requests).toHaveLength(3)
  })

  test('a refused connection is retried, then a NetworkError', async () => {
    const server = await startServer(silent)
    await server.close()
    const client = makeClient(server.origin, { retry: { maxAttempts: 3 } })
    const err = await rejectionOf(client.getDeployment(DEPLOYMENT_ID))
    expect(err).toBeInstanceOf(NetworkError)
    expect(err.message).toContain('ECONNREFUSED')
    expect((err as NetworkError).attempts).toBe(3)
    expect(client.requestCount).toBe(3)
  })

  test('Retry-After is honoured in real time', async () => {
    const server = await startServer(
      script(reply(503, { detail: 'busy' }, { 'Retry-After': '1' }), reply(200, repos))
    )
    const { ms, error } = await timed(makeClient(server.origin).listRepositories(INTEGRATION_ID))
    expect(error).toBeUndefined()
    expect(ms).toBeGreaterThanOrEqual(950)
    expect(server.requests).toHaveLength(2)
  })
})

describe('writes are not retried blindly', () => {
  test.each([500, 502, 503, 504])(
    'POST answered %d -> OutcomeUnknownError after one request',
    async status => {
      const server = await startServer(reply(status, { detail: 'boom' }))
      const err = await rejectionOf(makeClient(server.origin).createDeployment(createBody()))
      expect(err).toBeInstanceOf(OutcomeUnknownError)
      expect(err.message).toBe(
        `create deployment: outcome unknown (HTTP ${status}) on POST /v2/deployments; the change may or may not have been applied`
      )
      expect(server.requests).toHaveLength(1)
    }
  )

  test('PATCH whose connection is reset -> OutcomeUnknownError after one request', async () => {
    const server = await startServer(hangUp)
    const err = await rejectionOf(
      makeClient(server.origin).patchDeployment(DEPLOYMENT_ID, { secrets: [] })
    )
    expect(err).toBeInstanceOf(OutcomeUnknownError)
    expect(err).toMatchObject({ method: 'PATCH', path: `/v2/deployments/${DEPLOYMENT_ID}` })
    expect(server.requests).toHaveLength(1)
  })

  test('POST that times out -> OutcomeUnknownError naming the timeout', async () => {
    const server = await startServer(silent)
    const client = makeClient(server.origin, { requestTimeoutMs: 200 })
    const error = await rejectionOf(client.createDeployment(createBody()))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error?.message).toContain('no complete answer within 0.2 s')
    expect(server.requests).toHaveLength(1)
  })

  test('a 429 on a write is retried: it was refused before being applied', async () => {
    const server = await startServer(
      script(reply(429, { detail: 'rate limited' }), reply(201, deploymentBody()))
    )
    const created = await makeClient(server.origin).createDeployment(createBody())
    expect(created.id).toBe(DEPLOYMENT_ID)
    expect(server.requests.map(r => r.method)).toEqual(['POST', 'POST'])
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body)
  })

  test('a POST to a refused port is retried (nothing was sent), then a NetworkError', async () => {
    const server = await startServer(silent)
    await server.close()
    const client = makeClient(server.origin, { retry: { maxAttempts: 2 } })
    const err = await rejectionOf(client.createDeployment(createBody()))
    expect(err).toBeInstanceOf(NetworkError)
    expect(client.requestCount).toBe(2)
  })

  test.each([400, 409, 422])('PATCH answered %d -> ApiError, not retried', async status => {
    const server = await startServer(reply(status, { detail: 'rejected' }))
    const err = await rejectionOf(
      makeClient(server.origin).patchDeployment(DEPLOYMENT_ID, { secrets: [] })
    )
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({
      status,
      method: 'PATCH',
      path: `/v2/deployments/${DEPLOYMENT_ID}`,
      detail: 'rejected'
    })
    expect(server.requests).toHaveLength(1)
  })
})

describe('redirects are never followed', () => {
  test.each([
    [301, 'GET'],
    [302, 'GET'],
    [303, 'GET'],
    [307, 'GET'],
    [308, 'GET'],
    [302, 'POST'],
    [307, 'POST'],
    [307, 'DELETE']
  ])(
    'HTTP %d on %s: RedirectRefusedError, the second server sees nothing',
    async (status, method) => {
      const target = await startServer(reply(200, deploymentBody()))
      const first = await startServer((req, res) => {
        res.writeHead(status, { Location: `${target.origin}${req.url}` })
        res.end()
      })
      const client = makeClient(first.origin, { tenantId: TENANT_ID })
      const call =
        method === 'GET'
          ? client.getDeployment(DEPLOYMENT_ID)
          : method === 'POST'
            ? client.createDeployment(createBody())
            : client.deleteListener(LISTENER_ID)
      const err = await rejectionOf(call)
      expect(err).toBeInstanceOf(RedirectRefusedError)
      expect((err as RedirectRefusedError).targetOrigin).toBe(target.origin)
      expect((err as RedirectRefusedError).status).toBe(status)
      expect(err.message).toContain(`points to ${target.origin}`)
      expect(err.message).toContain('sent only to `base-url`; set it to the final address')
      expect(err.message).not.toContain(API_KEY)
      expect(first.requests).toHaveLength(1)
      expect(target.requests).toHaveLength(0)
    }
  )

  test('a relative Location is named by the origin of base-url', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(302, { Location: '/login' })
      res.end()
    })
    const err = (await rejectionOf(
      makeClient(server.origin).listDeployments()
    )) as RedirectRefusedError
    expect(err.targetOrigin).toBe(server.origin)
    expect(server.requests).toHaveLength(1)
  })
})

describe('timeouts and the deadline', () => {
  /** Headers at once, then one byte of body every 50 ms, never ending. */
  const trickle: Handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' })
    res.write('{"resources":[')
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer)
      res.write(' ')
    }, 50)
    res.on('close', () => clearInterval(timer))
  }

  test('a server that never answers is cut by the request timeout, then retried', async () => {
    const server = await startServer(silent)
    const client = makeClient(server.origin, { requestTimeoutMs: 200, retry: { maxAttempts: 2 } })
    const { ms, error } = await timed(client.getDeployment(DEPLOYMENT_ID))
    expect(error).toBeInstanceOf(NetworkError)
    const host = new URL(server.origin).host
    expect(error?.message).toBe(
      `get deployment failed at ${host}: no complete answer within 0.2 s (GET /v2/deployments/${DEPLOYMENT_ID}, 2 attempts).\n` +
        `Hint: check \`base-url\` (${host}), and the proxy (HTTPS_PROXY, NO_PROXY) if this network needs one.`
    )
    expect(server.requests).toHaveLength(2)
    expect(ms).toBeGreaterThanOrEqual(380)
  })

  test('a body trickled slowly is cut by the request timeout', async () => {
    const server = await startServer(trickle)
    const client = makeClient(server.origin, { requestTimeoutMs: 300, retry: { maxAttempts: 1 } })
    const { ms, error } = await timed(client.listDeployments())
    expect(error).toBeInstanceOf(NetworkError)
    expect(error?.message).toContain('no complete answer within 0.3 s')
    expect(ms).toBeGreaterThanOrEqual(280)
  })

  test('the overall deadline cuts a pending request shorter than its own timeout', async () => {
    const server = await startServer(trickle)
    const client = makeClient(server.origin, {
      requestTimeoutMs: A_DAY_MS,
      deadline: Date.now() + 400
    })
    const { error } = await timed(client.listDeployments())
    // Cut by the deadline: the request's own timeout (a day) never comes within the test.
    expect(error).toBeInstanceOf(ControlPlaneError)
    expect(error?.message).toContain('(the deadline of the run)')
    expect(server.requests).toHaveLength(1)
  })

  test('a per-call deadline cuts a pending GET too', async () => {
    const server = await startServer(trickle)
    const client = makeClient(server.origin, { requestTimeoutMs: A_DAY_MS })
    const { error } = await timed(
      client.getRevision(DEPLOYMENT_ID, REVISION_ID, { deadline: Date.now() + 300 })
    )
    // Cut by the deadline: the request's own timeout (a day) never comes within the test.
    expect(error).toBeInstanceOf(ControlPlaneError)
    expect(error?.message).toContain('(the deadline of the run)')
  })

  test('a deadline already past sends nothing', async () => {
    const server = await startServer(reply(200, repos))
    const client = makeClient(server.origin, { deadline: Date.now() - 1 })
    const err = await rejectionOf(client.listRepositories(INTEGRATION_ID))
    expect(err).toBeInstanceOf(AbortedError)
    expect(server.requests).toHaveLength(0)
  })

  test('cancelling the signal ends a pending request with AbortedError', async () => {
    const server = await startServer(silent)
    const controller = new AbortController()
    const client = makeClient(server.origin, {
      signal: controller.signal,
      // Never within the test: only the cancel can end the call.
      requestTimeoutMs: A_DAY_MS
    })
    const pending = timed(client.getDeployment(DEPLOYMENT_ID))
    // Cancelled once the request is on the server: an event, not a time.
    while (server.requests.length === 0) await new Promise(r => setTimeout(r, 5))
    controller.abort()
    const { error } = await pending
    expect(error).toBeInstanceOf(AbortedError)
    expect(error?.message).toBe('get deployment cancelled')
    expect(server.requests).toHaveLength(1)
  })
})

describe('body size cap', () => {
  /** A JSON array that never ends, 64 KiB at a time, until the client hangs up. */
  const endless: Handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' })
    const chunk = Buffer.from(`[${'"xxxxxxxxxxxxxx",'.repeat(3640)}`.slice(0, 65_536))
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump)
    }
    res.on('error', () => {})
    pump()
  }

  test('an endless body is cut off at the cap with a clear error', async () => {
    const server = await startServer(endless)
    const client = makeClient(server.origin, {
      maxBodyBytes: 1024 * 1024,
      retry: { maxAttempts: 1 }
    })
    const error = await rejectionOf(client.listRepositories(INTEGRATION_ID))
    expect(error).toBeInstanceOf(NetworkError)
    expect(error?.message).toBe(
      `list repositories failed at ${new URL(server.origin).host}: the answer is larger than 1 MiB and was cut off (GET /v1/integrations/forge/codehost/${INTEGRATION_ID}/repos).`
    )
  })

  test('a body under the cap is read whole', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ ...repos[0]!, id: i }))
    const server = await startServer(reply(200, many))
    const client = makeClient(server.origin, { maxBodyBytes: 1024 * 1024 })
    expect(JSON.stringify(many).length).toBeGreaterThan(256 * 1024)
    expect(await client.listRepositories(INTEGRATION_ID)).toHaveLength(2000)
  })

  // An answer over the cap will be over it again: fetching it maxAttempts times multiplies the
  // download and the wait, and the message then says "after 5 attempts" for a non-network problem.
  test('an answer over the cap is not fetched again', async () => {
    const server = await startServer(reply(200, repos.concat(repos, repos, repos)))
    const client = makeClient(server.origin, { maxBodyBytes: 300 })
    const err = await rejectionOf(client.listRepositories(INTEGRATION_ID))
    expect(err).toBeInstanceOf(NetworkError)
    expect(err.message).toContain('cut off')
    expect(server.requests).toHaveLength(1)
  })

  test('a cap below 1 MiB is named in the message, not rounded to "0 MiB"', async () => {
    const server = await startServer(endless)
    const client = makeClient(server.origin, { maxBodyBytes: 64 * 1024, retry: { maxAttempts: 1 } })
    const err = await rejectionOf(client.listRepositories(INTEGRATION_ID))
    expect(err.message).toContain('cut off')
    expect(err.message).not.toContain('larger than 0 MiB')
  })
})

describe('kept-alive sockets', () => {
  test('requests in a row share one connection; one after an idle pause past the server’s hint opens a new one', async () => {
    const sockets = new Set<string>()
    const server = await startServer((req, res, body, n) => {
      sockets.add(`${req.socket.remotePort}`)
      reply(200, deploymentBody(), { 'Keep-Alive': 'timeout=2' })(req, res, body, n)
    })
    const client = makeClient(server.origin)
    await client.getDeployment(DEPLOYMENT_ID)
    await client.getDeployment(DEPLOYMENT_ID)
    expect(sockets.size).toBe(1)
    // The server's own keep-alive is far longer: a reused socket would still work here, so a
    // second connection shows the client closed the idle one (2 s less a second of margin).
    await new Promise(resolve => setTimeout(resolve, 1300))
    await client.getDeployment(DEPLOYMENT_ID)
    expect(sockets.size).toBe(2)
    expect(server.requests).toHaveLength(3)
  })
})

// Client-level fixes of the trust review: a list that never ends, an answer about another revision,
// a redirect named by its full address, and a rate limit the caller can tell the user about.
describe('trust', () => {
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
      const it = scripted
        .makeClient(server.origin)
        .iterateDeployments({ name_contains: 'agent' }, 2)
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
})

// The client against the service as it is: lists as lenient as the service (an entry that does not
// parse is skipped with a debug line, never failing the list; unknown fields and an `agent` block
// ignored), the fields the run needs still checked, and every secret value an answer carries
// masked and redacted the moment it is read.
describe('service', () => {
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
        expect.stringMatching(
          new RegExp(`entry 3 .*${id(3)} \\("no-secrets"\\), skipped: secrets: `)
        )
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
        script(
          reply(200, d),
          reply(400, { detail: `value ${WEB_APP_SECRET} is not accepted here` })
        )
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
})

// The operations beyond the interface, against scripted servers: list revisions, redeploy a
// revision, delete a deployment, and revision logs with the v1 fallback.
describe('operations', () => {
  const REVISIONS = `/v2/deployments/${DEPLOYMENT_ID}/revisions`

  function revisionAt(i: number, status = 'DEPLOYED') {
    return revisionBody(status, { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` })
  }

  describe('listRevisions / iterateRevisions', () => {
    test('one page: limit, offset and statuses joined by commas', async () => {
      const server = await startServer(reply(200, { resources: [revisionAt(1)], offset: 1 }))
      const page = await makeClient(server.origin).listRevisions(DEPLOYMENT_ID, {
        limit: 5,
        status: ['DEPLOYED', 'BUILD_FAILED']
      })
      expect(page.resources.map(r => r.id)).toEqual([revisionAt(1).id])
      expect(page.offset).toBe(1)
      expect(server.requests[0]!.url).toBe(
        `${REVISIONS}?limit=5&offset=0&status=DEPLOYED%2CBUILD_FAILED`
      )
    })

    test('a limit past 100 is refused before any request', async () => {
      const server = await startServer(reply(200, { resources: [], offset: 0 }))
      await rejectionOf(makeClient(server.origin).listRevisions(DEPLOYMENT_ID, { limit: 101 }))
      expect(server.requests).toHaveLength(0)
    })

    test('every revision, page after page, each once', async () => {
      const server = await startServer((req, res, body, n) => {
        const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset'))
        const resources = Array.from({ length: 5 }, (_, i) => revisionAt(i)).slice(
          offset,
          offset + 2
        )
        reply(200, { resources, offset: offset + resources.length })(req, res, body, n)
      })
      const ids: string[] = []
      for await (const r of makeClient(server.origin).iterateRevisions(DEPLOYMENT_ID, {}, 2))
        ids.push(r.id)
      expect(ids).toEqual([0, 1, 2, 3, 4].map(i => revisionAt(i).id))
      expect(server.requests).toHaveLength(3)
    })
  })

  describe('redeployRevision', () => {
    const path = `${REVISIONS}/${REVISION_ID}/redeploy`

    test('POST without a body; the answer is the deployment', async () => {
      const server = await startServer(reply(200, deploymentBody({ status: 'READY' })))
      const deployment = await makeClient(server.origin).redeployRevision(
        DEPLOYMENT_ID,
        REVISION_ID
      )
      expect(deployment.id).toBe(DEPLOYMENT_ID)
      expect(server.requests).toEqual([
        expect.objectContaining({ method: 'POST', url: path, body: '' })
      ])
    })

    test.each([
      ['a lost connection', hangUp],
      ['HTTP 502', reply(502, { detail: 'bad gateway' })]
    ])('after %s the outcome is unknown and the write is not sent again', async (_, answer) => {
      const server = await startServer(answer)
      const err = await rejectionOf(
        makeClient(server.origin).redeployRevision(DEPLOYMENT_ID, REVISION_ID)
      )
      expect(err).toBeInstanceOf(OutcomeUnknownError)
      expect(server.requests).toHaveLength(1)
    })

    test('a 404 is an ApiError naming the revision', async () => {
      const server = await startServer(reply(404, { detail: 'Revision not found.' }))
      const err = await rejectionOf(
        makeClient(server.origin).redeployRevision(DEPLOYMENT_ID, REVISION_ID)
      )
      expect(err).toBeInstanceOf(ApiError)
      expect(err.message).toContain(`revision ${REVISION_ID} of deployment ${DEPLOYMENT_ID}`)
    })
  })

  describe('deleteDeployment', () => {
    const path = `/v2/deployments/${DEPLOYMENT_ID}`

    test('204: deleted; the tracing project is kept unless asked', async () => {
      const server = await startServer(reply(204))
      const client = makeClient(server.origin)
      expect(await client.deleteDeployment(DEPLOYMENT_ID)).toBe('deleted')
      expect(await client.deleteDeployment(DEPLOYMENT_ID, { deleteTracingProject: false })).toBe(
        'deleted'
      )
      expect(await client.deleteDeployment(DEPLOYMENT_ID, { deleteTracingProject: true })).toBe(
        'deleted'
      )
      expect(server.requests.map(r => `${r.method} ${r.url}`)).toEqual([
        `DELETE ${path}`,
        `DELETE ${path}`,
        `DELETE ${path}?delete_tracing_project=true`
      ])
    })

    test('a 404 at once: not-found', async () => {
      const server = await startServer(
        reply(404, { detail: `Deployment ID ${DEPLOYMENT_ID} not found.` })
      )
      expect(await makeClient(server.origin).deleteDeployment(DEPLOYMENT_ID)).toBe('not-found')
    })

    test.each([
      ['a lost connection', hangUp],
      ['HTTP 503', reply(503, { detail: 'unavailable' })]
    ])('after %s it is sent again, and a 404 then means deleted', async (_, first) => {
      const server = await startServer(script(first, reply(404, { detail: 'not found' })))
      expect(await makeClient(server.origin).deleteDeployment(DEPLOYMENT_ID)).toBe('deleted')
      expect(server.requests).toHaveLength(2)
    })

    test('after a 429 (refused, nothing done) a 404 still means not-found', async () => {
      const server = await startServer(script(reply(429, {}), reply(404, { detail: 'not found' })))
      expect(await makeClient(server.origin).deleteDeployment(DEPLOYMENT_ID)).toBe('not-found')
    })

    test('other errors are thrown', async () => {
      const server = await startServer(reply(403, { detail: 'Forbidden' }))
      expect(
        await rejectionOf(makeClient(server.origin).deleteDeployment(DEPLOYMENT_ID))
      ).toBeInstanceOf(ApiError)
    })
  })

  describe('getRevisionLogs', () => {
    const v2 = `${REVISIONS}/${REVISION_ID}/logs`
    const v1 = (type: string) =>
      `/v1/projects/${DEPLOYMENT_ID}/revisions/${REVISION_ID}/${type}_logs`
    const page = {
      logs: [
        { timestamp: '2025-01-02T03:04:05Z', message: 'Step 1/9 : FROM python', level: 'INFO' },
        { timestamp: 1735787045000, message: 'ERROR: no matching distribution', level: null }
      ],
      next_offset: 'cursor-2'
    }

    test('v2: GET with type, order, limit and the cursor', async () => {
      const server = await startServer(reply(200, page))
      const result = await makeClient(server.origin).getRevisionLogs(DEPLOYMENT_ID, REVISION_ID, {
        type: 'build',
        order: 'desc',
        limit: 100,
        offset: 'cursor-1'
      })
      expect(server.requests[0]!.method).toBe('GET')
      expect(server.requests[0]!.url).toBe(`${v2}?type=build&order=desc&limit=100&offset=cursor-1`)
      expect(result).toEqual({
        logs: [
          { timestamp: '2025-01-02T03:04:05Z', message: 'Step 1/9 : FROM python', level: 'INFO' },
          { timestamp: '1735787045000', message: 'ERROR: no matching distribution', level: null }
        ],
        next_offset: 'cursor-2'
      })
    })

    test('defaults: ascending, 50 lines; the end of the log has next_offset null', async () => {
      const server = await startServer(reply(200, { logs: [], next_offset: null }))
      const result = await makeClient(server.origin).getRevisionLogs(DEPLOYMENT_ID, REVISION_ID, {
        type: 'deploy'
      })
      expect(server.requests[0]!.url).toBe(`${v2}?type=deploy&order=asc&limit=50`)
      expect(result).toEqual({ logs: [], next_offset: null })
    })

    test.each(['build', 'deploy'] as const)(
      'a 404 on v2: asked once in the v1 form (%s)',
      async type => {
        const server = await startServer(
          script(reply(404, { detail: 'Not Found' }), reply(200, page))
        )
        const result = await makeClient(server.origin).getRevisionLogs(DEPLOYMENT_ID, REVISION_ID, {
          type,
          limit: 20,
          offset: 'c'
        })
        expect(result.next_offset).toBe('cursor-2')
        expect(server.requests.map(r => `${r.method} ${r.url}`)).toEqual([
          `GET ${v2}?type=${type}&order=asc&limit=20&offset=c`,
          `POST ${v1(type)}`
        ])
        expect(JSON.parse(server.requests[1]!.body)).toEqual({
          order: 'asc',
          limit: 20,
          offset: 'c'
        })
      }
    )

    test('404 on both: the v2 error is thrown', async () => {
      const server = await startServer(reply(404, { detail: 'Not Found' }))
      const err = (await rejectionOf(
        makeClient(server.origin).getRevisionLogs(DEPLOYMENT_ID, REVISION_ID, { type: 'build' })
      )) as ApiError
      expect(err.status).toBe(404)
      expect(err.path).toBe(v2)
      expect(server.requests).toHaveLength(2)
    })

    test('other errors on v2 are thrown without the fallback', async () => {
      const server = await startServer(reply(403, { detail: 'Forbidden' }))
      await rejectionOf(
        makeClient(server.origin).getRevisionLogs(DEPLOYMENT_ID, REVISION_ID, { type: 'build' })
      )
      expect(server.requests).toHaveLength(1)
    })

    test('messages are kept as printed, known secrets redacted, long lines cut', async () => {
      const secret = 'sk-build-secret-0042'
      const hostile = `\u001b[31m::set-output name=x::${secret}\nnext`
      const long = 'x'.repeat(MAX_LOG_MESSAGE_CHARS + 10)
      const server = await startServer(
        reply(200, {
          logs: [
            { timestamp: 't', message: hostile, level: 'ERROR' },
            { timestamp: 't', message: long, level: 'INFO' }
          ],
          next_offset: null
        })
      )
      const result = await makeClient(server.origin, { secrets: [secret] }).getRevisionLogs(
        DEPLOYMENT_ID,
        REVISION_ID,
        { type: 'build' }
      )
      // Not sanitized here (the caller does that after its own redaction): only redacted.
      expect(result.logs[0]!.message).toBe('\u001b[31m::set-output name=x::***\nnext')
      expect(result.logs[1]!.message).toBe(
        `${'x'.repeat(MAX_LOG_MESSAGE_CHARS)}… (10 more characters)`
      )
    })

    test('a short deadline bounds the call', async () => {
      const server = await startServer(() => {})
      const client = makeClient(server.origin, { requestTimeoutMs: 60_000 })
      const err = await rejectionOf(
        client.getRevisionLogs(
          DEPLOYMENT_ID,
          REVISION_ID,
          { type: 'build' },
          { deadline: Date.now() + 200 }
        )
      )
      expect(err.message).toMatch(/deadline/)
    })
  })
})
