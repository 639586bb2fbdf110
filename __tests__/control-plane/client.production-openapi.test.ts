// The client against the production service's own description (spec/production-openapi.json, a
// copy of the published OpenAPI 3.1 document, i.e. JSON Schema 2020-12), in the `langsmith`
// dialect: every request the client sends, body, path and query, is validated against the
// operation it targets; the loopback server that answers it serves canned production answers,
// which are validated against the response schemas too, so the test's server is itself honest.
// Revision logs are not in this copy of the description: they are checked against
// docs/control-plane.md ("Operations") by hand, at the end.
import { afterAll, describe, expect, test } from '@jest/globals'
import type { TestClient as ControlPlaneClient } from '../builders/test-client.ts'
import { SOURCES } from '../../src/control-plane/vocabulary.ts'
import {
  createBody,
  DEPLOYMENT_ID,
  INTEGRATION_ID,
  LISTENER_ID,
  makeClient,
  REVISION_ID,
  startServer,
  TENANT_ID,
  type Recorded
} from '../builders/scripted-server.ts'
import {
  answerProblems,
  operationFor,
  productionOpenApi as openapi,
  requestProblems as wireProblems
} from '../builders/openapi.ts'

/**
 * Where our model and the production description differ on purpose, with the reason; each entry
 * checks that the difference is still there, so that the list stays true.
 */
const DELIBERATE_DIFFERENCES: { what: string; why: string; holds: () => boolean }[] = [
  {
    what: '`internal_template` is a source of the interface but not of production',
    why: 'the interface (our contract) lists it; production rejects it with a 422, which the client reports. The action never chooses it by itself.',
    holds: () =>
      SOURCES.includes('internal_template') &&
      !(
        openapi.components.schemas.DeploymentCreateRequest as {
          properties: { source: { enum: string[] } }
        }
      ).properties.source.enum.includes('internal_template')
  },
  {
    what: 'revision logs (`GET .../revisions/{id}/logs`, v1 `POST .../build_logs`) are not in this copy',
    why: "they are documented on the vendor's API reference pages (docs/control-plane.md); the test checks them against that text",
    holds: () =>
      !Object.keys(openapi.paths).some(p => p.endsWith('/logs') || p.includes('build_logs'))
  },
  {
    what: 'answers may leave out a secret value, or null it; production says it is a string',
    why: 'a tolerant reader: the client only needs the names, and must not fail on a service that hides values',
    holds: () =>
      (openapi.components.schemas.Secret as { required: string[] }).required.includes('value')
  }
]

/** A recorded request, checked as production's description says (closed request schemas). */
function requestProblems(r: Recorded): string[] {
  const url = new URL(r.url, 'http://x')
  return wireProblems({
    method: r.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: r.body === '' ? undefined : JSON.parse(r.body)
  })
}

// Canned production answers, in the production names.
const NOW = '2026-08-01T10:00:00Z'
const SRC = {
  repo_ref: 'main',
  langgraph_config_path: 'langgraph.json',
  image_uri: null,
  source_tarball_path: null,
  repo_commit_sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
}
const DEPLOYMENT = {
  name: 'my-agent',
  source: 'github',
  source_config: {
    integration_id: INTEGRATION_ID,
    repo_url: 'https://github.com/acme/my-agent',
    deployment_type: 'dev',
    build_on_push: false,
    custom_url: null,
    resource_spec: { min_scale: 1, max_scale: 2, cpu: 1, memory_mb: 1024 },
    listener_id: null,
    listener_config: null,
    install_command: null,
    build_command: null
  },
  source_revision_config: SRC,
  secrets: [{ name: 'OPENAI_API_KEY', value: '********' }],
  secret_references: null,
  id: DEPLOYMENT_ID,
  tenant_id: TENANT_ID,
  created_at: NOW,
  updated_at: NOW,
  status: 'READY',
  latest_revision_id: REVISION_ID,
  active_revision_id: REVISION_ID,
  image_version: '0.4.1'
}
const REVISION = {
  id: REVISION_ID,
  created_at: NOW,
  updated_at: NOW,
  status: 'DEPLOYED',
  source: 'github',
  source_revision_config: SRC
}
const REPOSITORY = {
  host_integration_id: INTEGRATION_ID,
  id: 42,
  name: 'my-agent',
  owner: 'acme',
  url: 'https://github.com/acme/my-agent',
  default_branch: 'main'
}

/** The answer production gives to each operation: status and body. */
const CANNED: Record<string, { status: number; body?: unknown }> = {
  'post /v2/deployments': { status: 201, body: DEPLOYMENT },
  'get /v2/deployments': { status: 200, body: { resources: [DEPLOYMENT], offset: 1 } },
  'get /v2/deployments/{deployment_id}': { status: 200, body: DEPLOYMENT },
  'patch /v2/deployments/{deployment_id}': { status: 200, body: DEPLOYMENT },
  'delete /v2/deployments/{deployment_id}': { status: 204 },
  'get /v2/deployments/{deployment_id}/revisions': {
    status: 200,
    body: { resources: [REVISION], offset: 1 }
  },
  'get /v2/deployments/{deployment_id}/revisions/{revision_id}': { status: 200, body: REVISION },
  'post /v2/deployments/{deployment_id}/revisions/{revision_id}/redeploy': {
    status: 200,
    body: DEPLOYMENT
  },
  'get /v1/integrations/forge/github/{integration_id}/repos': { status: 200, body: [REPOSITORY] },
  'delete /v2/listeners/{listener_id}': { status: 204 }
}

/** Each canned answer checked against the response schema of its operation and status. */
const answered: string[] = []
const cannedProblems: string[] = []

async function productionServer() {
  return startServer((req, res) => {
    const url = new URL(req.url ?? '', 'http://x')
    const method = req.method ?? ''
    const found = operationFor(method, url.pathname)
    const key = found && `${method.toLowerCase()} ${found.template}`
    const canned = key ? CANNED[key] : undefined
    if (!found || !canned) {
      res.writeHead(404, { 'Content-Type': 'application/json' })
      return res.end(JSON.stringify({ detail: 'Not Found' }))
    }
    answered.push(key!)
    res.writeHead(
      canned.status,
      canned.body === undefined ? {} : { 'Content-Type': 'application/json' }
    )
    res.end(canned.body === undefined ? '' : JSON.stringify(canned.body))
    // Checked once answered: this process is also the client, whose request clock is running.
    const problems = answerProblems(method, url.pathname, canned.status, canned.body)
    cannedProblems.push(...problems.map(e => `${key} answer: ${e}`))
  })
}

/**
 * A client of the production fake. Its server checks every request against the OpenAPI description
 * in this very process (compiled on first use): seconds on a loaded machine, which no request
 * timeout here is about. The helpers' 2 s would fail these tests on a slow machine.
 */
const productionClient = (origin: string, dialect: 'langsmith' | 'interface') =>
  makeClient(origin, { dialect, requestTimeoutMs: 120_000 })

async function langsmithClient(): Promise<{ client: ControlPlaneClient; requests: Recorded[] }> {
  const server = await productionServer()
  return { client: productionClient(server.origin, 'langsmith'), requests: server.requests }
}

afterAll(() => {
  // Every canned answer was served at least once and fits the description.
  expect(cannedProblems).toEqual([])
  expect(new Set(answered)).toEqual(new Set(Object.keys(CANNED)))
})

describe('every request of the client fits the production description (langsmith dialect)', () => {
  const cases: [string, (c: ControlPlaneClient) => Promise<unknown>][] = [
    ['create a codehost deployment', c => c.createDeployment(createBody())],
    [
      'create with every source_config setting',
      c =>
        c.createDeployment({
          ...createBody(),
          source_config: {
            ...createBody().source_config,
            deployment_type: 'prod',
            custom_url: null,
            install_command: 'npm ci',
            build_command: 'npm run build',
            resource_spec: {
              min_scale: 1,
              max_scale: 3,
              cpu: 0.5,
              cpu_limit: 16,
              memory_mb: 1024,
              memory_limit_mb: 2048,
              queue_cpu: 8,
              redis_cpu: 0.1,
              db_storage_gi: 10,
              db_max_connections: 100,
              labels: { team: 'ml' },
              image_pull_secrets: [{ name: 'registry' }]
            }
          }
        })
    ],
    [
      'create an external_docker deployment',
      c =>
        c.createDeployment({
          name: 'my-agent',
          source: 'external_docker',
          source_config: { listener_id: LISTENER_ID, listener_config: { k8s_namespace: 'agents' } },
          source_revision_config: { image_uri: 'registry.example/agent@sha256:abc' },
          secrets: [],
          secret_references: [{ name: 'DB_PASSWORD', secret_name: 'db', secret_key: 'password' }]
        })
    ],
    [
      'patch with a graph config path, secrets and a resource spec',
      c =>
        c.patchDeployment(DEPLOYMENT_ID, {
          revision_source: 'codehost',
          source_config: { build_on_push: false, resource_spec: { min_scale: 1, cpu: 2 } },
          source_revision_config: { repo_ref: 'main', graph_config_path: 'agents/langgraph.json' },
          secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-x' }]
        })
    ],
    ['patch secrets only', c => c.patchDeployment(DEPLOYMENT_ID, { secrets: [] })],
    [
      'list deployments with every filter',
      c =>
        c.listDeployments({
          limit: 100,
          offset: 0,
          name_contains: 'agent',
          status: 'READY',
          remote_reconciled: true,
          tag_value_ids: 'a,b',
          image_version: '0.4.1',
          deployment_type: 'dev',
          deployment_ids: DEPLOYMENT_ID
        })
    ],
    [
      'iterate deployments',
      async c => {
        for await (const _ of c.iterateDeployments({ name_contains: 'my-agent' }));
      }
    ],
    ['get a deployment', c => c.getDeployment(DEPLOYMENT_ID)],
    ['get a revision', c => c.getRevision(DEPLOYMENT_ID, REVISION_ID)],
    [
      'list revisions',
      c => c.listRevisions(DEPLOYMENT_ID, { limit: 10, offset: 0, status: ['DEPLOYED', 'SKIPPED'] })
    ],
    [
      'iterate revisions',
      async c => {
        for await (const _ of c.iterateRevisions(DEPLOYMENT_ID));
      }
    ],
    ['redeploy a revision', c => c.redeployRevision(DEPLOYMENT_ID, REVISION_ID)],
    ['delete a deployment', c => c.deleteDeployment(DEPLOYMENT_ID)],
    [
      'delete a deployment and its tracing project',
      c => c.deleteDeployment(DEPLOYMENT_ID, { deleteTracingProject: true })
    ],
    ['list repositories', c => c.listRepositories(INTEGRATION_ID)],
    ['delete a listener', c => c.deleteListener(LISTENER_ID)]
  ]

  test.each(cases)('%s', async (_, call) => {
    const { client, requests } = await langsmithClient()
    await call(client)
    expect(requests.length).toBeGreaterThan(0)
    for (const r of requests)
      expect({ request: `${r.method} ${r.url}`, problems: requestProblems(r) }).toEqual({
        request: `${r.method} ${r.url}`,
        problems: []
      })
  })

  test('the same requests in the interface dialect do not fit: the check has teeth', async () => {
    const server = await productionServer()
    const client = productionClient(server.origin, 'interface')
    await client.createDeployment(createBody()).catch(() => undefined)
    await client.listRepositories(INTEGRATION_ID).catch(() => undefined)
    await client
      .patchDeployment(DEPLOYMENT_ID, { source_revision_config: { graph_config_path: 'a.json' } })
      .catch(() => undefined)
    const [create, repos, patch] = server.requests
    expect(requestProblems(create!).join('\n')).toMatch(
      /source.*must be equal to one of the allowed values/
    )
    // The field production would silently ignore is caught.
    expect(requestProblems(patch!)).toContain(
      'body: /source_revision_config must NOT have additional properties'
    )
    expect(requestProblems(repos!)).toEqual([
      expect.stringContaining('no such operation in the production description')
    ])
  })
})

describe('revision logs, checked against docs/control-plane.md by hand', () => {
  test('v2: GET .../revisions/{id}/logs with type, order, limit, offset; v1: POST body', async () => {
    const server = await startServer((req, res) => {
      const v2 = req.url!.startsWith('/v2/')
      res.writeHead(v2 ? 404 : 200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(v2 ? { detail: 'Not Found' } : { logs: [], next_offset: null }))
    })
    const client = productionClient(server.origin, 'langsmith')
    await client.getRevisionLogs(DEPLOYMENT_ID, REVISION_ID, {
      type: 'deploy',
      order: 'desc',
      limit: 1000,
      offset: 'opaque-cursor'
    })
    const [get, post] = server.requests
    const q = new URL(get!.url, 'http://x')
    expect(get!.method).toBe('GET')
    expect(q.pathname).toBe(`/v2/deployments/${DEPLOYMENT_ID}/revisions/${REVISION_ID}/logs`)
    // type is required and one of build|deploy; order asc|desc; limit 1..1000; offset a string.
    expect(Object.fromEntries(q.searchParams)).toEqual({
      type: 'deploy',
      order: 'desc',
      limit: '1000',
      offset: 'opaque-cursor'
    })
    expect(post!.method).toBe('POST')
    expect(post!.url).toBe(`/v1/projects/${DEPLOYMENT_ID}/revisions/${REVISION_ID}/deploy_logs`)
    expect(JSON.parse(post!.body)).toEqual({ order: 'desc', limit: 1000, offset: 'opaque-cursor' })
  })

  test('a limit past 1000 is refused before any request', async () => {
    const server = await startServer((_req, res) => res.end())
    const client = productionClient(server.origin, 'langsmith')
    await expect(
      client.getRevisionLogs(DEPLOYMENT_ID, REVISION_ID, { type: 'build', limit: 1001 })
    ).rejects.toThrow()
    expect(server.requests).toHaveLength(0)
  })
})

describe('deliberate differences from the production description', () => {
  test.each(DELIBERATE_DIFFERENCES)('$what', ({ why, holds }) => {
    expect(why.length).toBeGreaterThan(20)
    expect(holds()).toBe(true)
  })
})
