import { readFileSync } from 'node:fs'
import { describe, expect, test } from '@jest/globals'
import { USER_AGENT } from '../../src/control-plane/client.ts'
import {
  AbortedError,
  ApiError,
  ControlPlaneError,
  NetworkError,
  OutcomeUnknownError,
  RedirectRefusedError
} from '../../src/control-plane/errors.ts'
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
