import { readFileSync } from 'node:fs'
import { describe, expect, test, afterEach } from '@jest/globals'
import { parse as parseYaml } from 'yaml'
import {
  locFromWire,
  locToWire,
  pathFromWire,
  pathToWire,
  requestFromWire,
  requestToWire,
  autoDialect,
  responseFromWire,
  responseToWire,
  valueToWire
} from '../../src/control-plane/dialect.ts'
import { ApiError } from '../../src/control-plane/errors.ts'
import {
  CreateDeploymentRequest,
  PatchDeploymentRequest,
  Deployment,
  DeploymentList,
  ErrorDetail,
  HTTPValidationError,
  PushToken,
  Revision,
  RevisionList,
  RevisionLogPage,
  UploadUrl
} from '../../src/control-plane/schema.ts'
import {
  createBody,
  DEPLOYMENT_ID,
  deploymentBody,
  INTEGRATION_ID,
  makeClient,
  reply,
  revisionBody,
  REVISION_ID,
  startServer,
  type Handler
} from '../builders/scripted-server.ts'
import { type z } from 'zod'
import { demoFixture, startEmulator, type Emulator } from '../../emulator/server.ts'
import { answerProblems, operationFor, requestProblems } from '../builders/openapi.ts'
import { project } from '../builders/tarballs.ts'

// The two wire dialects: which one a base-url means, what the renames do to bodies, paths and
// validation locations, and that a client with the action's default base-url speaks production.

describe('api-dialect: auto', () => {
  test.each([
    ['https://api.host.langchain.com', 'langsmith'],
    ['https://api.host.langchain.com/', 'langsmith'],
    ['https://API.Host.LangChain.com', 'langsmith'],
    ['https://eu.api.host.langchain.com', 'langsmith'],
    ['https://staging.eu.api.host.langchain.com/', 'langsmith'],
    ['https://langsmith.acme.internal/api-host', 'langsmith'],
    ['https://langsmith.acme.internal/api-host/', 'langsmith'],
    ['https://acme.example/tools/api-host', 'langsmith'],
    ['http://127.0.0.1:8123', 'interface'],
    ['http://localhost:8123/api-host', 'langsmith'],
    ['https://notapi.host.langchain.com', 'interface'],
    ['https://api.host.langchain.com.evil.example', 'interface'],
    ['https://xapi.host.langchain.com', 'interface'],
    ['https://acme.example/api-host/v2', 'interface'],
    ['https://acme.example/api-hosts', 'interface'],
    ['https://acme.example/?next=/api-host', 'interface'],
    ['not a url', 'interface']
  ])('auto with %s: %s', (baseUrl, dialect) => {
    expect(autoDialect(baseUrl).dialect).toBe(dialect)
  })

  test('the log says why auto chose (the run adds how to choose otherwise, as the door names it)', () => {
    expect(autoDialect('https://eu.api.host.langchain.com').reason).toBe(
      'eu.api.host.langchain.com is the hosted service'
    )
    expect(autoDialect('https://langsmith.acme.internal/api-host').reason).toMatch(
      /ends in \/api-host/
    )
    const other = autoDialect('http://127.0.0.1:8123')
    expect(other.dialect).toBe('interface')
    expect(other.reason).toBe('127.0.0.1:8123 is neither the hosted service nor an /api-host path')
  })
})

describe('the renames', () => {
  const request = {
    name: 'a',
    source: 'codehost',
    source_config: { repo_url: 'u', resource_spec: { labels: { source: 'codehost' } } },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'source', value: 'codehost' }]
  }
  const wire = {
    name: 'a',
    source: 'github',
    source_config: { repo_url: 'u', resource_spec: { labels: { source: 'codehost' } } },
    source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
    secrets: [{ name: 'source', value: 'codehost' }]
  }

  test('langsmith: source value and config path renamed, nothing else touched', () => {
    expect(requestToWire('langsmith', request)).toEqual(wire)
    expect(requestFromWire('langsmith', wire)).toEqual(request)
    expect(responseToWire('langsmith', request)).toEqual(wire)
    expect(responseFromWire('langsmith', wire)).toEqual(request)
  })

  test('the input is not changed', () => {
    const copy = structuredClone(request)
    requestToWire('langsmith', request)
    expect(request).toEqual(copy)
  })

  test('interface: identity', () => {
    expect(requestToWire('interface', request)).toBe(request)
    expect(responseFromWire('interface', wire)).toBe(wire)
    expect(pathToWire('interface', '/v1/integrations/forge/codehost/x/repos')).toBe(
      '/v1/integrations/forge/codehost/x/repos'
    )
  })

  test('patches (revision_source), lists (resources) and arrays are renamed too', () => {
    expect(requestToWire('langsmith', { revision_source: 'codehost' })).toEqual({
      revision_source: 'github'
    })
    expect(responseFromWire('langsmith', { resources: [{ source: 'github' }], offset: 1 })).toEqual(
      { resources: [{ source: 'codehost' }], offset: 1 }
    )
    expect(responseFromWire('langsmith', [{ source: 'github' }])).toEqual([{ source: 'codehost' }])
  })

  test('a wrong word stays wrong: interface names on a langsmith wire do not pass as right', () => {
    const parsed = requestFromWire('langsmith', {
      ...createBody(),
      source: 'codehost',
      source_revision_config: { repo_ref: 'main', graph_config_path: 'x.json' }
    })
    const result = CreateDeploymentRequest.safeParse(parsed)
    // `codehost` is refused (production answers 422) ...
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['source'])
    // ... and `graph_config_path` is an unknown field, dropped (production ignores it).
    const patch = PatchDeploymentRequest.parse(
      requestFromWire('langsmith', {
        source_revision_config: { repo_ref: 'main', graph_config_path: 'x.json' }
      })
    )
    expect(patch.source_revision_config).toEqual({ repo_ref: 'main' })
  })

  test('paths: the integration prefixes only', () => {
    const id = INTEGRATION_ID
    // The older, non-forge integration paths swap the same way (the integration lists).
    expect(pathToWire('langsmith', '/v1/integrations/codehost/install')).toBe(
      '/v1/integrations/github/install'
    )
    expect(pathFromWire('langsmith', `/v1/integrations/github/${id}/repos`)).toBe(
      `/v1/integrations/codehost/${id}/repos`
    )
    expect(pathToWire('langsmith', '/v1/integrations/forge/codehost/install')).toBe(
      '/v1/integrations/forge/github/install'
    )
    expect(pathToWire('langsmith', `/v1/integrations/forge/codehost/${id}/repos`)).toBe(
      `/v1/integrations/forge/github/${id}/repos`
    )
    expect(pathFromWire('langsmith', `/v1/integrations/forge/github/${id}/repos`)).toBe(
      `/v1/integrations/forge/codehost/${id}/repos`
    )
    expect(pathToWire('langsmith', '/v2/deployments/codehost')).toBe('/v2/deployments/codehost')
  })

  test('enum values and validation locations', () => {
    expect(['codehost', 'external_docker'].map(v => valueToWire('langsmith', v))).toEqual([
      'github',
      'external_docker'
    ])
    expect(locToWire('langsmith', ['body', 'source_revision_config', 'graph_config_path'])).toEqual(
      ['body', 'source_revision_config', 'langgraph_config_path']
    )
    expect(locFromWire('langsmith', ['body', 'graph_config_path'])).toEqual([
      'body',
      'graph_config_path'
    ])
  })
})

describe('a client with the default base-url speaks the production names', () => {
  const action = parseYaml(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
    inputs: Record<string, { default?: string }>
  }
  const defaultBaseUrl = action.inputs['base-url']!.default!

  /** Answers every operation in the production wire form. */
  const production: Handler = (req, res, body, n) => {
    const url = req.url ?? ''
    const wireDeployment = deploymentBody({
      source: 'github',
      source_revision_config: {
        repo_ref: 'main',
        langgraph_config_path: 'langgraph.json',
        repo_commit_sha: 'abc'
      }
    })
    if (url.includes('/repos')) return reply(200, [])(req, res, body, n)
    if (url.includes('/revisions/'))
      return reply(200, {
        ...revisionBody('DEPLOYED'),
        source: 'github',
        source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' }
      })(req, res, body, n)
    return reply(req.method === 'POST' ? 201 : 200, wireDeployment)(req, res, body, n)
  }

  test('create, patch, repos and reads use github, langgraph_config_path, /forge/github/', async () => {
    expect(defaultBaseUrl).toBe('https://api.host.langchain.com')
    const { dialect } = autoDialect(defaultBaseUrl)
    expect(dialect).toBe('langsmith')
    const server = await startServer(production)
    const client = makeClient(server.origin, { dialect })

    const created = await client.createDeployment(createBody())
    const patched = await client.patchDeployment(DEPLOYMENT_ID, {
      revision_source: 'codehost',
      source_revision_config: { repo_ref: 'main', graph_config_path: 'agents/langgraph.json' }
    })
    await client.listRepositories(INTEGRATION_ID)
    const revision = await client.getRevision(DEPLOYMENT_ID, REVISION_ID)

    const [create, patch, repos] = server.requests
    expect(JSON.parse(create!.body)).toMatchObject({
      source: 'github',
      source_revision_config: { langgraph_config_path: 'langgraph.json' }
    })
    expect(JSON.parse(create!.body).source_revision_config).not.toHaveProperty('graph_config_path')
    expect(JSON.parse(patch!.body)).toEqual({
      revision_source: 'github',
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'agents/langgraph.json' }
    })
    expect(repos!.url).toBe(`/v1/integrations/forge/github/${INTEGRATION_ID}/repos`)
    // Answers come back in interface vocabulary.
    for (const d of [created, patched]) {
      expect(d.source).toBe('codehost')
      expect(d.source_revision_config.graph_config_path).toBe('langgraph.json')
    }
    expect(revision.source).toBe('codehost')
    expect(revision.source_revision_config?.graph_config_path).toBe('langgraph.json')
  })

  test('an error about the forge integration names it on the production path', async () => {
    const server = await startServer(reply(404, { detail: 'Not Found' }))
    const client = makeClient(server.origin, { dialect: 'langsmith' })
    const err = (await client.listRepositories(INTEGRATION_ID).catch(e => e)) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect(err.message).toContain(`forge integration ${INTEGRATION_ID} (integration-id)`)
  })
})

// The requests of the production service's two real clients (the LangGraph CLI and the Terraform
// provider), replayed from fixtures/real-client-requests.json against the emulator in the
// `langsmith` dialect. Each answer must have the status the client relies on, fit the zod model
// the client of this project reads it with, carry the fields the real client reads, and be what
// the production OpenAPI description says, or differ from it exactly as the table records.
describe('real-clients', () => {
  interface Step {
    from: string
    kind?: 'upload'
    advanceMs?: number
    method: string
    path: string
    query?: Record<string, string>
    body?: unknown
    openapi: 'shown' | 'not shown: taken from the real client'
    openapiRequest?: string[]
    openapiAnswer?: string[]
    status: number
    model?: keyof typeof MODELS
    answer?: Record<string, unknown>
    present?: string[]
    save?: Record<string, string>
  }
  interface Flow {
    name: string
    client: 'langgraph-cli' | 'terraform'
    tenantHeader: string
    steps: Step[]
  }
  interface Table {
    clients: Record<string, string>
    flows: Flow[]
  }

  const table = JSON.parse(
    readFileSync(new URL('../../fixtures/real-client-requests.json', import.meta.url), 'utf8')
  ) as Table

  const MODELS = {
    Deployment,
    DeploymentList,
    Revision,
    RevisionList,
    RevisionLogPage,
    PushToken,
    UploadUrl,
    ErrorDetail,
    HTTPValidationError
  } satisfies Record<string, z.ZodType>

  const fixture = demoFixture()
  const TENANT = fixture.tenants[0]!.id
  const KEY = fixture.tenants[0]!.api_keys[0]!

  /** `{name}` in every string replaced by a saved value (names not saved stay as they are). */
  function fill(value: unknown, vars: Record<string, string>): unknown {
    if (typeof value === 'string')
      return value.replace(/\{(\w+)\}/g, (m, name: string) => vars[name] ?? m)
    if (Array.isArray(value)) return value.map(v => fill(v, vars))
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]))
    return value
  }

  /** `logs.0.id` of a JSON value. */
  function at(value: unknown, path: string): unknown {
    return path
      .split('.')
      .reduce<unknown>(
        (v, key) => (v === null || typeof v !== 'object' ? undefined : (v as never)[key]),
        value
      )
  }

  let emu: Emulator | undefined
  afterEach(async () => {
    await emu?.close()
    emu = undefined
  })

  async function send(step: Step, flow: Flow, url: string) {
    if (step.kind === 'upload') {
      // What `langgraph deploy` uploads: a gzip tarball of the project, with no API key (the URL is
      // signed); the emulator unpacks it and builds the graphs of its langgraph.json.
      const tarball = project(['agent'])
      const res = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/gzip' },
        body: tarball
      })
      return { status: res.status, body: null }
    }
    const query = step.query ? `?${new URLSearchParams(step.query).toString()}` : ''
    const res = await fetch(`${emu!.url}${url}${query}`, {
      method: step.method,
      headers: {
        'X-Api-Key': KEY,
        [flow.tenantHeader]: TENANT,
        Accept: 'application/json',
        ...(step.body === undefined ? {} : { 'Content-Type': 'application/json' })
      },
      body: step.body === undefined ? undefined : JSON.stringify(step.body)
    })
    const text = await res.text()
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null }
  }

  describe('the table is honest and complete', () => {
    const froms = table.flows.flatMap(f => f.steps.map(s => `${f.client} ${s.from}`))

    test.each([
      // host_backend.py: every method of HostBackendClient.
      ...[
        'create_deployment',
        'list_deployments',
        'get_deployment',
        'delete_deployment',
        'request_push_token',
        'request_upload_url',
        'update_deployment,',
        'update_deployment_internal_source',
        'list_revisions',
        'get_revision',
        'get_build_logs',
        'get_deploy_logs without a revision',
        'get_deploy_logs with --revision-id',
        '_upload_to_gcs'
      ].map(f => ['langgraph-cli', f]),
      // deployment_resource.go: every function that sends a request.
      ...[
        'DeploymentResource.create (createPayload)',
        'the display name takes a second write',
        'DeploymentResource.read',
        'mutablePayload',
        'revisionUpdatePayload',
        'DeploymentResource.waitForRevision',
        'DeploymentResource.delete'
      ].map(f => ['terraform', f])
    ])('%s: %s is replayed', (client, fn) => {
      expect(froms.some(f => f.startsWith(client) && f.includes(fn))).toBe(true)
    })

    test('each step says whether the production description shows it, and the description agrees', () => {
      for (const flow of table.flows)
        for (const step of flow.steps) {
          const path = step.kind === 'upload' ? '/_uploads/x' : step.path.replace(/\{\w+\}/g, 'x')
          const shown = operationFor(step.method, path) !== undefined
          expect({ step: step.from, openapi: step.openapi }).toEqual({
            step: step.from,
            openapi: shown ? 'shown' : 'not shown: taken from the real client'
          })
        }
    })
  })

  describe.each(table.flows)('$client: $name', flow => {
    test('every request answers as the real client expects, in the zod model and the description', async () => {
      let now = Date.parse('2026-03-01T12:00:00Z')
      emu = await startEmulator({ port: 0, dialect: 'langsmith', now: () => now })
      const vars: Record<string, string> = { integration: fixture.integrations![0]!.id }
      for (const raw of flow.steps) {
        now += raw.advanceMs ?? 0
        const step = fill(raw, vars) as Step
        const r = await send(step, flow, step.path)
        const label = `${flow.client} ${step.from}`
        expect({ label, status: r.status, body: r.status === step.status ? 'ok' : r.body }).toEqual(
          {
            label,
            status: step.status,
            body: 'ok'
          }
        )
        if (step.model) {
          const parsed = MODELS[step.model].safeParse(responseFromWire('langsmith', r.body))
          expect({ label, model: step.model, issues: parsed.error?.issues ?? [] }).toEqual({
            label,
            model: step.model,
            issues: []
          })
        }
        if (step.openapi === 'shown') {
          const wire = { method: step.method, path: step.path, query: step.query ?? {} }
          expect({ label, request: requestProblems({ ...wire, body: step.body }) }).toEqual({
            label,
            request: step.openapiRequest ?? []
          })
          expect({
            label,
            answer: answerProblems(step.method, step.path, r.status, r.body)
          }).toEqual({ label, answer: step.openapiAnswer ?? [] })
        }
        for (const [path, want] of Object.entries(step.answer ?? {}))
          expect({ label, path, value: at(r.body, path) }).toEqual({ label, path, value: want })
        for (const path of step.present ?? []) {
          expect({ label, path, present: at(r.body, path) != null }).toEqual({
            label,
            path,
            present: true
          })
        }
        for (const [name, path] of Object.entries(step.save ?? {}))
          vars[name] = String(at(r.body, path))
      }
    })
  })
})
