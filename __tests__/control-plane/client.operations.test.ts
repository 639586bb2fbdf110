// The operations beyond the interface, against scripted servers: list revisions, redeploy a
// revision, delete a deployment, and revision logs with the v1 fallback.
import { describe, expect, test } from '@jest/globals'
import { MAX_LOG_MESSAGE_CHARS } from '../../src/control-plane/client-options.ts'
import { ApiError, OutcomeUnknownError } from '../../src/control-plane/errors.ts'
import {
  DEPLOYMENT_ID,
  deploymentBody,
  hangUp,
  makeClient,
  rejectionOf,
  reply,
  revisionBody,
  REVISION_ID,
  script,
  startServer
} from '../builders/scripted-server.ts'

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
      const resources = Array.from({ length: 5 }, (_, i) => revisionAt(i)).slice(offset, offset + 2)
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
    const deployment = await makeClient(server.origin).redeployRevision(DEPLOYMENT_ID, REVISION_ID)
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
  const v1 = (type: string) => `/v1/projects/${DEPLOYMENT_ID}/revisions/${REVISION_ID}/${type}_logs`
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
      expect(JSON.parse(server.requests[1]!.body)).toEqual({ order: 'asc', limit: 20, offset: 'c' })
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
