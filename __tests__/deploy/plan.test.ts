import { describe, expect, test } from '@jest/globals'
import type { Deployment, RepositoryEntry } from '../../src/control-plane/schema.ts'
import { describePlan, planCreate, planUpdate } from '../../src/deploy/plan.ts'
import type { Options } from '../../src/options.ts'

const INTEGRATION = '33333333-3333-4333-8333-333333333333'

function options(over: Partial<Options> = {}): Options {
  return {
    apiKey: 'key-123456',
    tenantId: undefined,
    baseUrl: 'https://api.host.langchain.com',
    target: { kind: 'name', name: 'agent-prod' },
    name: 'agent-prod',
    source: 'codehost',
    integrationId: INTEGRATION,
    repository: 'acme/agent-server',
    ref: 'main',
    expectedSha: 'abc123',
    graphConfigPath: 'langgraph.json',
    imageUri: undefined,
    secrets: undefined,
    secretReferences: undefined,
    resourceSpec: undefined,
    buildOnPush: undefined,
    customUrl: undefined,
    listenerId: undefined,
    k8sNamespace: undefined,
    installCommand: undefined,
    buildCommand: undefined,
    revisionSource: undefined,
    create: true,
    wait: true,
    timeoutMs: 1_800_000,
    pollIntervalMs: 15_000,
    dryRun: false,
    ...over
  }
}

const repo: RepositoryEntry = {
  host_integration_id: INTEGRATION,
  id: 1,
  name: 'agent-server',
  owner: 'acme',
  url: 'https://github.com/acme/agent-server',
  default_branch: 'trunk'
}

function deployment(over: Partial<Deployment> = {}): Deployment {
  return {
    name: 'agent-prod',
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: repo.url, custom_url: null },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-old-value' }],
    id: '44444444-4444-4444-8444-444444444444',
    tenant_id: '55555555-5555-4555-8555-555555555555',
    created_at: '2026-11-01T00:00:00Z',
    updated_at: '2026-11-01T00:00:00Z',
    status: 'READY',
    latest_revision_id: '66666666-6666-4666-8666-666666666666',
    active_revision_id: '66666666-6666-4666-8666-666666666666',
    ...over
  }
}

describe('planCreate', () => {
  test('a codehost create takes repo_url from the forge entry and the ref from the event', () => {
    const plan = planCreate(options(), 'agent-prod', repo)
    expect(plan.kind).toBe('create')
    expect(plan.body).toEqual({
      name: 'agent-prod',
      source: 'codehost',
      source_config: {
        integration_id: INTEGRATION,
        repo_url: 'https://github.com/acme/agent-server'
      },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      secrets: []
    })
  })

  test('without a ref the repository’s default branch is deployed', () => {
    const plan = planCreate(options({ ref: undefined }), 'agent-prod', repo)
    expect(plan.body.source_revision_config?.repo_ref).toBe('trunk')
  })

  test('an external_docker create carries listener, namespace, image and secret references', () => {
    const plan = planCreate(
      options({
        source: 'external_docker',
        integrationId: undefined,
        repository: undefined,
        imageUri: 'registry.example.com/agent@sha256:abc',
        listenerId: '77777777-7777-4777-8777-777777777777',
        k8sNamespace: 'agents',
        secretReferences: [{ name: 'DB', secret_name: 'db', secret_key: 'url' }],
        resourceSpec: { min_scale: 1, cpu: 2 }
      }),
      'agent-prod',
      undefined
    )
    expect(plan.body).toEqual({
      name: 'agent-prod',
      source: 'external_docker',
      source_config: {
        listener_id: '77777777-7777-4777-8777-777777777777',
        listener_config: { k8s_namespace: 'agents' },
        resource_spec: { min_scale: 1, cpu: 2 }
      },
      source_revision_config: { image_uri: 'registry.example.com/agent@sha256:abc' },
      secrets: [],
      secret_references: [{ name: 'DB', secret_name: 'db', secret_key: 'url' }]
    })
  })

  test('a codehost create without a resolved repository is refused before any write', () => {
    expect(() => planCreate(options(), 'agent-prod', undefined)).toThrow(/integration-id/)
  })
})

describe('planUpdate', () => {
  test('patches only what is set: the ref, the graph path; secrets left out keep the current ones', () => {
    const plan = planUpdate(options({ ref: 'release' }), deployment())
    expect(plan).toMatchObject({ kind: 'update', newRevision: true })
    expect(plan.body).toEqual({
      source_revision_config: { repo_ref: 'release', graph_config_path: 'langgraph.json' }
    })
    expect(plan.changes).toEqual([
      { field: 'source_revision_config.repo_ref', from: 'main', to: 'release' }
    ])
  })

  test('a source that differs from the deployment’s is a clear error', () => {
    expect(() => planUpdate(options({ source: 'external_docker' }), deployment())).toThrow(
      /has source codehost, but the source input is external_docker/
    )
  })

  test('secret changes are listed by name with values hidden', () => {
    const plan = planUpdate(
      options({
        secrets: [
          { name: 'OPENAI_API_KEY', value: 'sk-new-value' },
          { name: 'NEW_ONE', value: 'hunter2-value' }
        ]
      }),
      deployment()
    )
    const text = describePlan(plan).join('\n')
    expect(text).toContain('secrets.OPENAI_API_KEY: *** -> ***')
    expect(text).toContain('secrets.NEW_ONE: ***')
    expect(text).not.toContain('sk-new-value')
    expect(text).not.toContain('hunter2-value')
    expect(text).not.toContain('sk-old-value')
  })

  test('a source_config-only change makes no revision', () => {
    const plan = planUpdate(
      options({ source: 'external_docker', customUrl: 'https://agent.example.com' }),
      deployment({ source: 'external_docker' })
    )
    expect(plan).toMatchObject({ kind: 'update', newRevision: false })
    expect(plan.body).toEqual({ source_config: { custom_url: 'https://agent.example.com' } })
  })

  test('the dry-run text names the target, the revision and each change old -> new', () => {
    const plan = planUpdate(options({ ref: 'refs/tags/v1.2.0', buildOnPush: false }), deployment())
    expect(describePlan(plan)).toEqual([
      'Update deployment "agent-prod" (44444444-4444-4444-8444-444444444444), making a new revision',
      '  source_config.build_on_push: false',
      '  source_revision_config.repo_ref: main -> refs/tags/v1.2.0'
    ])
  })
})
