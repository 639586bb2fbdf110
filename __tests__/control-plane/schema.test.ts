import { readFileSync } from 'node:fs'
import { describe, expect, test } from '@jest/globals'
import { z } from 'zod'
import {
  CreateDeploymentRequest,
  CreateRevisionRequest,
  Deployment,
  DeploymentList,
  ErrorDetail,
  HTTPValidationError,
  ListDeploymentsQuery,
  PatchDeploymentRequest,
  SourceConfig,
  RepositoryEntry,
  RepositoryList,
  Revision,
  Uuid
} from '../../src/control-plane/schema.ts'
import {
  RESOURCE_SPEC_LIMITS,
  RESOURCE_SPEC_NUMBERS,
  ResourceSpec
} from '../../src/control-plane/resource-spec.ts'
import {
  CREATE_ONLY_SOURCE_CONFIG_FIELDS,
  REVISION_STATUSES,
  revisionOutcome,
  UUID_PATTERN,
  deploymentsQueryProblem
} from '../../src/control-plane/vocabulary.ts'
import {
  createBody,
  deploymentBody,
  INTEGRATION_ID,
  revisionBody
} from '../builders/scripted-server.ts'

const REQUIRED_DEPLOYMENT_FIELDS = [
  'name',
  'source',
  'source_config',
  'source_revision_config',
  'secrets',
  'id',
  'tenant_id',
  'created_at',
  'updated_at',
  'status',
  'latest_revision_id',
  'active_revision_id'
] as const

function without(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...obj }
  delete copy[key]
  return copy
}

describe('Deployment', () => {
  test('a full production response parses with its values', () => {
    const parsed = Deployment.parse(deploymentBody())
    expect(parsed.name).toBe('my-agent')
    expect(parsed.source_config.repo_url).toBe('https://github.com/acme/my-agent')
    expect(parsed.source_revision_config.repo_commit_sha).toBe(
      '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
    )
    expect(parsed.latest_revision_id).toBe(deploymentBody().latest_revision_id)
    expect(parsed.active_revision_id).toBeNull()
  })

  test.each(REQUIRED_DEPLOYMENT_FIELDS)('a response without `%s` is rejected', field => {
    const result = Deployment.safeParse(without(deploymentBody(), field))
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual([field])
  })

  test.each(['secret_references', 'image_version'])('`%s` may be absent or null', field => {
    expect(Deployment.safeParse(without(deploymentBody(), field)).success).toBe(true)
    expect(Deployment.safeParse(deploymentBody({ [field]: null })).success).toBe(true)
  })

  test('secret_references and image_version are read when present', () => {
    const parsed = Deployment.parse(
      deploymentBody({
        source: 'external_docker',
        secret_references: [{ name: 'DB_PASSWORD', secret_name: 'db', secret_key: 'password' }],
        image_version: '1.4.2'
      })
    )
    expect(parsed.secret_references).toEqual([
      { name: 'DB_PASSWORD', secret_name: 'db', secret_key: 'password' }
    ])
    expect(parsed.image_version).toBe('1.4.2')
  })

  test('unknown fields, top-level and nested, are ignored and dropped', () => {
    const body = deploymentBody({
      deepagents_settings: { nested: true },
      tracer_session_id: 'c8a7c3f0-1111-4222-8333-944455556666',
      source_config: {
        ...(deploymentBody().source_config as object),
        brand_new_setting: { nested: true }
      },
      secrets: [{ name: 'OPENAI_API_KEY', value: null, created_at: '2025-01-01' }]
    })
    const result = Deployment.safeParse(body)
    expect(result.success).toBe(true)
    expect(result.data).not.toHaveProperty('deepagents_settings')
    expect(result.data).not.toHaveProperty('tracer_session_id')
    expect(result.data?.source_config).not.toHaveProperty('brand_new_setting')
    expect(result.data?.secrets[0]).toEqual({ name: 'OPENAI_API_KEY', value: null })
  })

  test('an unknown status or source value is accepted, not an error', () => {
    const parsed = Deployment.parse(deploymentBody({ status: 'MIGRATING', source: 'git_mirror' }))
    expect(parsed.status).toBe('MIGRATING')
    expect(parsed.source).toBe('git_mirror')
  })

  test('secrets in a response may carry no value (the service hides them)', () => {
    const parsed = Deployment.parse(deploymentBody({ secrets: [{ name: 'A_KEY' }] }))
    expect(parsed.secrets).toEqual([{ name: 'A_KEY' }])
  })

  test.each([
    ['id', 'not-a-uuid'],
    ['tenant_id', 42],
    ['latest_revision_id', 'rev-1'],
    ['name', null],
    ['secrets', null]
  ])('a wrong type for `%s` is rejected', (field, value) => {
    const result = Deployment.safeParse(deploymentBody({ [field]: value }))
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path[0]).toBe(field)
  })

  test('every numeric ResourceSpec field of the interface is kept', () => {
    const fields = Object.values(RESOURCE_SPEC_NUMBERS).flat()
    expect(fields).toHaveLength(32)
    // Integers where production wants them, cores within every cpu bound.
    const spec = Object.fromEntries(
      fields.map((f, i) => [f, RESOURCE_SPEC_LIMITS[f] === 'int' ? i + 1 : 0.5])
    )
    expect(ResourceSpec.parse(spec)).toEqual(spec)
    expect(Deployment.parse(deploymentBody()).source_config.resource_spec).toBeNull()
  })

  test('an answer is read whatever numbers its resource_spec holds (limits are for requests)', () => {
    const body = deploymentBody({
      source_config: {
        ...(deploymentBody().source_config as object),
        resource_spec: { cpu: 50, min_scale: 1.5 },
        deployment_type: 'enterprise'
      }
    })
    const parsed = Deployment.parse(body)
    expect(parsed.source_config.resource_spec).toEqual({ cpu: 50, min_scale: 1.5 })
    expect(parsed.source_config.deployment_type).toBe('enterprise')
  })

  test('the Kubernetes-shaped parts of a ResourceSpec are kept, unknown keys dropped', () => {
    const spec = {
      labels: { team: 'ml' },
      service_account_name: 'agent',
      image_pull_secrets: [{ name: 'regcred' }],
      volumes: [{ name: 'cache', emptyDir: {} }],
      volume_mounts: [{ name: 'cache', mountPath: '/cache', readOnly: true }],
      sidecars: [
        {
          name: 'proxy',
          image: 'envoy:1',
          env: [{ name: 'MODE', value: 'edge' }],
          resources: { limits: { cpu: '1' }, requests: { cpu: '0.5' } },
          livenessProbe: { httpGet: { path: '/' } }
        }
      ]
    }
    const parsed = ResourceSpec.parse(spec)
    expect(parsed.volume_mounts).toEqual([{ name: 'cache', mountPath: '/cache', readOnly: true }])
    expect(parsed.sidecars?.[0]?.resources).toEqual(spec.sidecars[0]!.resources)
    expect(parsed.sidecars?.[0]).not.toHaveProperty('livenessProbe')
  })
})

describe('Revision', () => {
  test('a revision with an unknown status parses and is still in progress', () => {
    const parsed = Revision.parse(revisionBody('WARMING_CACHES'))
    expect(parsed.status).toBe('WARMING_CACHES')
    expect(revisionOutcome(parsed.status)).toBe('in_progress')
  })

  test('repo_commit_sha of the built commit is read back', () => {
    expect(Revision.parse(revisionBody('DEPLOYED')).source_revision_config?.repo_commit_sha).toBe(
      '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
    )
  })

  test('unknown revision fields are ignored', () => {
    const parsed = Revision.parse(revisionBody('QUEUED', { build_log_url: 'https://x', gpu: 1 }))
    expect(parsed).not.toHaveProperty('build_log_url')
  })

  test.each(['id', 'status'])('a revision without `%s` is rejected', field => {
    expect(Revision.safeParse(without(revisionBody(), field)).success).toBe(false)
  })

  test.each([
    ['DEPLOYED', 'deployed'],
    ['CREATE_FAILED', 'failed'],
    ['BUILD_FAILED', 'failed'],
    ['DEPLOY_FAILED', 'failed'],
    ['SKIPPED', 'skipped'],
    ['CREATING', 'in_progress'],
    ['QUEUED', 'in_progress'],
    ['AWAITING_BUILD', 'in_progress'],
    ['BUILDING', 'in_progress'],
    ['AWAITING_DEPLOY', 'in_progress'],
    ['DEPLOYING', 'in_progress'],
    ['INTERRUPTED', 'in_progress'],
    ['UNKNOWN', 'in_progress'],
    ['', 'in_progress'],
    ['deployed', 'in_progress']
  ])('revisionOutcome(%j) is %s', (status, outcome) => {
    expect(revisionOutcome(status)).toBe(outcome)
  })

  test('every documented revision status is modelled', () => {
    expect([...REVISION_STATUSES].sort()).toEqual(
      [
        'CREATING',
        'QUEUED',
        'AWAITING_BUILD',
        'BUILDING',
        'AWAITING_DEPLOY',
        'DEPLOYING',
        'DEPLOYED',
        'CREATE_FAILED',
        'BUILD_FAILED',
        'DEPLOY_FAILED',
        'SKIPPED',
        'INTERRUPTED',
        'UNKNOWN'
      ].sort()
    )
  })
})

describe('DeploymentList', () => {
  test('resources and the next offset are read; unknown fields ignored', () => {
    const parsed = DeploymentList.parse({ resources: [deploymentBody()], offset: 1, total: 9 })
    expect(parsed.resources).toHaveLength(1)
    expect(parsed.offset).toBe(1)
    expect(parsed).not.toHaveProperty('total')
  })

  test('a list without offset or resources is rejected', () => {
    expect(DeploymentList.safeParse({ resources: [] }).success).toBe(false)
    expect(DeploymentList.safeParse({ offset: 0 }).success).toBe(false)
  })

  test('a bad deployment inside the list is located by its index', () => {
    const result = DeploymentList.safeParse({
      resources: [deploymentBody(), deploymentBody({ id: 7 })],
      offset: 2
    })
    expect(result.error?.issues[0]?.path).toEqual(['resources', 1, 'id'])
  })
})

describe('Repository entries', () => {
  const entry = {
    host_integration_id: INTEGRATION_ID,
    id: 123456,
    name: 'my-agent',
    owner: 'acme',
    url: 'https://github.com/acme/my-agent',
    default_branch: 'main'
  }

  test('an entry parses; unknown fields are ignored', () => {
    expect(RepositoryList.parse([{ ...entry, private: true, stars: 3 }])).toEqual([entry])
  })

  test.each(Object.keys(entry))('an entry without `%s` is rejected', field => {
    expect(RepositoryEntry.safeParse(without(entry, field)).success).toBe(false)
  })

  test('the repository id is an integer', () => {
    expect(RepositoryEntry.safeParse({ ...entry, id: '123456' }).success).toBe(false)
    expect(RepositoryEntry.safeParse({ ...entry, id: 1.5 }).success).toBe(false)
  })
})

describe('error bodies', () => {
  test('a FastAPI validation error parses, keeping loc/msg/type and tolerating extras', () => {
    const body = {
      detail: [
        {
          type: 'missing',
          loc: ['body', 'source_config', 'repo_url'],
          msg: 'Field required',
          input: { secrets: [{ name: 'K', value: 'v' }] },
          url: 'https://errors.pydantic.dev/2.9/v/missing'
        },
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 100',
          input: '500',
          ctx: { le: 100 }
        },
        {
          type: 'string_type',
          loc: ['body', 'secrets', 0, 'value'],
          msg: 'Input should be a string'
        }
      ]
    }
    const parsed = HTTPValidationError.parse(body)
    expect(parsed.detail.map(e => e.loc)).toEqual([
      ['body', 'source_config', 'repo_url'],
      ['query', 'limit'],
      ['body', 'secrets', 0, 'value']
    ])
    expect(parsed.detail[1]?.ctx).toEqual({ le: 100 })
  })

  test.each(['loc', 'msg', 'type'])('a validation entry without `%s` is rejected', field => {
    const entry = { loc: ['body', 'name'], msg: 'Field required', type: 'missing' }
    expect(HTTPValidationError.safeParse({ detail: [without(entry, field)] }).success).toBe(false)
  })

  test('a {detail: string} body parses; a validation body is not mistaken for it', () => {
    expect(ErrorDetail.parse({ detail: 'Listener x not found.', code: 7 })).toEqual({
      detail: 'Listener x not found.'
    })
    expect(ErrorDetail.safeParse({ detail: [] }).success).toBe(false)
  })
})

describe('ListDeploymentsQuery', () => {
  test('defaults are limit 20, offset 0', () => {
    expect(ListDeploymentsQuery.parse({})).toEqual({ limit: 20, offset: 0 })
  })

  test.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ offset: -1 }, 'offset'],
    [{ deployment_type: 'staging' }, 'deployment_type']
  ])('%j is out of range', (query, field) => {
    const result = ListDeploymentsQuery.safeParse(query)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual([field])
  })

  test('query-string text is read as numbers and booleans', () => {
    expect(
      ListDeploymentsQuery.parse({
        limit: '100',
        offset: '40',
        remote_reconciled: 'false',
        deployment_type: 'prod',
        name_contains: 'agent'
      })
    ).toEqual({
      limit: 100,
      offset: 40,
      remote_reconciled: false,
      deployment_type: 'prod',
      name_contains: 'agent'
    })
    expect(ListDeploymentsQuery.parse({ remote_reconciled: 'true' }).remote_reconciled).toBe(true)
  })
})

describe('request bodies', () => {
  test('a create body needs name, source, source_config, source_revision_config and secrets', () => {
    const body = createBody()
    expect(CreateDeploymentRequest.safeParse(body).success).toBe(true)
    for (const field of ['name', 'source', 'source_config', 'source_revision_config', 'secrets']) {
      expect(CreateDeploymentRequest.safeParse(without(body, field)).success).toBe(false)
    }
  })

  test('a create body with an unknown source is rejected before it is sent', () => {
    expect(CreateDeploymentRequest.safeParse({ ...createBody(), source: 'svn' }).success).toBe(
      false
    )
  })

  test('repo_commit_sha is not part of a request', () => {
    const parsed = PatchDeploymentRequest.parse({
      source_revision_config: { repo_ref: 'main', repo_commit_sha: 'abc' }
    })
    expect(parsed.source_revision_config).toEqual({ repo_ref: 'main' })
  })

  test('a patch body may be empty; revision_source is codehost/internal_docker/internal_source', () => {
    expect(PatchDeploymentRequest.safeParse({}).success).toBe(true)
    expect(PatchDeploymentRequest.safeParse({ revision_source: 'internal_docker' }).success).toBe(
      true
    )
    expect(PatchDeploymentRequest.safeParse({ revision_source: 'external_docker' }).success).toBe(
      false
    )
  })
})

describe('production limits (both dialects)', () => {
  const openapi = JSON.parse(
    readFileSync(new URL('../../spec/production-openapi.json', import.meta.url), 'utf8')
  ) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }
  const input = openapi.components.schemas['ResourceSpec-Input']!.properties

  test.each(Object.values(RESOURCE_SPEC_NUMBERS).flat())(
    '`%s` has the limit of the production description',
    field => {
      const [variant] = (input[field] as { anyOf: Record<string, unknown>[] }).anyOf
      const limit = RESOURCE_SPEC_LIMITS[field]
      if (limit === 'int') expect(variant).toEqual(expect.objectContaining({ type: 'integer' }))
      else if (limit === 'number') expect(variant).toEqual({ type: 'number' })
      else expect(variant).toEqual({ type: 'number', minimum: limit.min, maximum: limit.max })
    }
  )

  test.each([
    [{ min_scale: 1.5 }, 'min_scale'],
    [{ memory_mb: 512.5 }, 'memory_mb'],
    [{ db_storage_gi: 10.5 }, 'db_storage_gi'],
    [{ queue_max_scale: 2.2 }, 'queue_max_scale'],
    [{ cpu: 50 }, 'cpu'],
    [{ cpu: 0.05 }, 'cpu'],
    [{ cpu_limit: 16.5 }, 'cpu_limit'],
    [{ queue_cpu: 9 }, 'queue_cpu'],
    [{ redis_cpu_limit: 0 }, 'redis_cpu_limit']
  ])('a request with %j is refused at `%s`', (spec, field) => {
    const result = ResourceSpec.safeParse(spec)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual([field])
  })

  test('the bounds themselves and whole numbers are accepted', () => {
    const spec = { cpu: 0.1, cpu_limit: 16, queue_cpu: 8, min_scale: 1, memory_mb: 1024 }
    expect(ResourceSpec.parse(spec)).toEqual(spec)
  })

  test('deployment_type is one of dev_free, dev, prod, dev_zero, dev_free_zero in a request', () => {
    for (const t of ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'])
      expect(SourceConfig.parse({ deployment_type: t }).deployment_type).toBe(t)
    const result = CreateDeploymentRequest.safeParse({
      ...createBody(),
      source_config: { ...createBody().source_config, deployment_type: 'huge' }
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['source_config', 'deployment_type'])
  })

  test('deployment_type is read back from a Deployment', () => {
    const parsed = Deployment.parse(
      deploymentBody({
        source_config: { ...(deploymentBody().source_config as object), deployment_type: 'dev' }
      })
    )
    expect(parsed.source_config.deployment_type).toBe('dev')
  })

  test('the create-only fields are the ones production says cannot change', () => {
    const schemas = openapi.components.schemas
    const request = schemas['SourceConfigRequest']!.properties
    const frozen = Object.entries(request)
      .filter(([, v]) =>
        /cannot be changed \(`PATCH`\)/.test(String((v as { description?: string }).description))
      )
      .map(([k]) => k)
      .sort()
    expect([...CREATE_ONLY_SOURCE_CONFIG_FIELDS].sort()).toEqual(frozen)
  })
})

describe('what the real clients send and read beyond the published description', () => {
  test('template_id and display_name are read back; an empty display_name is refused in a PATCH', () => {
    const parsed = Deployment.parse(
      deploymentBody({
        display_name: 'Agent (prod)',
        source_config: { ...(deploymentBody().source_config as object), template_id: 'tpl-1' }
      })
    )
    expect([parsed.display_name, parsed.source_config.template_id]).toEqual([
      'Agent (prod)',
      'tpl-1'
    ])
    expect(Deployment.parse(deploymentBody()).display_name).toBeUndefined()
    expect(PatchDeploymentRequest.safeParse({ display_name: '' }).error?.issues[0]?.path).toEqual([
      'display_name'
    ])
  })

  test('a revision request keeps the revision-level source_config and drops the deployment-level one', () => {
    const parsed = CreateRevisionRequest.parse({
      source_revision_config: { repo_ref: 'main' },
      source_config: { install_command: 'uv sync', build_on_push: true, custom_url: 'x.example' },
      secrets: []
    })
    expect(parsed.source_config).toEqual({ install_command: 'uv sync' })
    expect(CreateRevisionRequest.safeParse({ secrets: [] }).error?.issues[0]?.path).toEqual([
      'source_revision_config'
    ])
  })
})

describe('the page query the client checks without zod', () => {
  // The client sends typed values (numbers, booleans); the model also reads query-string text.
  test.each([
    {},
    { limit: 1, offset: 0 },
    { limit: 100, offset: 4000, name_contains: 'agent', deployment_type: 'prod' },
    { limit: 20, remote_reconciled: false, status: 'READY', deployment_ids: 'a,b' },
    { limit: 0 },
    { limit: 101 },
    { limit: 2.5 },
    { offset: -1 },
    { offset: 1.5 },
    { deployment_type: 'staging' },
    { name_contains: 5 },
    { tag_value_ids: null },
    { image_version: ['x'] },
    { remote_reconciled: 1 },
    { limit: 10, unknown_parameter: 'ignored' }
  ])('%j: deploymentsQueryProblem agrees with ListDeploymentsQuery', query => {
    const problem = deploymentsQueryProblem(query)
    const parsed = ListDeploymentsQuery.safeParse(query)
    expect(problem === undefined).toBe(parsed.success)
    if (!parsed.success)
      expect(problem).toMatch(new RegExp(`^${String(parsed.error.issues[0]!.path[0])}:`))
  })
})

describe('the uuid the inputs check without zod', () => {
  test("UUID_PATTERN is the pattern of the model's Uuid (zod's guid)", () => {
    expect(UUID_PATTERN.source).toBe(z.regexes.guid.source)
    for (const id of [
      INTEGRATION_ID,
      '123E4567-E89B-12D3-A456-426614174000',
      '123e4567-e89b-12d3-a456-42661417400',
      ' 123e4567-e89b-12d3-a456-426614174000',
      'not-a-uuid'
    ]) {
      expect(UUID_PATTERN.test(id)).toBe(Uuid.safeParse(id).success)
    }
  })
})
