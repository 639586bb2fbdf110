// The two wire dialects: which one a base-url means, what the renames do to bodies, paths and
// validation locations, and that a client with the action's default base-url speaks production.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from '@jest/globals'
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
import { CreateDeploymentRequest, PatchDeploymentRequest } from '../../src/control-plane/schema.ts'
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
