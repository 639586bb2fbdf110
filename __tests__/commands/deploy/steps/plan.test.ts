import { describe, expect, test } from '@jest/globals'
import type { Deployment, RepositoryEntry } from '../../../../src/control-plane/schema.ts'
import { namedMaterial, originOf } from '../../../../src/commands/deploy/steps/material.ts'
import * as plans from '../../../../src/commands/deploy/steps/plan.ts'
import { describePlan, UPLOADED_OBJECT } from '../../../../src/commands/deploy/steps/plan.ts'
import type { Options } from '../../../../src/inputs/options.ts'

import {
  ACTION_SAY,
  INTEGRATION,
  refusedOr,
  testDeployment,
  testOptions
} from '../../../builders.ts'

const options = (over: Partial<Options> = {}) =>
  testOptions({ ref: 'main' }, { expectedSha: 'abc123', ...over })

const repo: RepositoryEntry = {
  host_integration_id: INTEGRATION,
  id: 1,
  name: 'agent-server',
  owner: 'acme',
  url: 'https://github.com/acme/agent-server',
  default_branch: 'trunk'
}

const deployment = testDeployment
/** The repository's deployment, of this deployment_type. */
const ofType = (deployment_type: string) =>
  deployment({
    source_config: { integration_id: INTEGRATION, repo_url: repo.url, deployment_type }
  })

/** The plans of the material the options name, or of an upload whose config is at `configPath`. */
const planCreate = (o: Options, name: string, r: RepositoryEntry | undefined) =>
  refusedOr(plans.planCreate(o, name, r, namedMaterial(o), ACTION_SAY))
const planUpdate = (o: Options, d: Deployment, upload?: { configPath: string }) =>
  refusedOr(
    plans.planUpdate(
      o,
      d,
      upload ? { kind: 'upload', ...originOf(o), ...upload } : namedMaterial(o),
      ACTION_SAY
    )
  )

describe('planCreate', () => {
  test('a codehost create takes repo_url from the forge entry and the ref from the event', () => {
    const plan = planCreate(options(), 'agent-prod', repo)
    expect(plan.kind).toBe('create')
    expect(plan.body).toEqual({
      name: 'agent-prod',
      source: 'codehost',
      source_config: {
        integration_id: INTEGRATION,
        repo_url: 'https://github.com/acme/agent-server',
        deployment_type: 'serverless'
      },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      secrets: []
    })
  })

  test('a create without deployment-type asks for serverless, explicitly, and the plan shows it', () => {
    const plan = planCreate(options(), 'agent-staging', repo)
    expect(plan.body.source_config?.deployment_type).toBe('serverless')
    expect(describePlan(plan).join('\n')).toMatch(/deployment_type: serverless/)
    const upload = planCreate(
      options({ source: 'internal_source', ref: undefined }),
      'agent-upload',
      undefined
    )
    expect(upload.body.source_config?.deployment_type).toBe('serverless')
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
      /has source codehost, but `source` is external_docker/
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

  test('secrets the list leaves out are named as removed, in the plan and its text', () => {
    const plan = planUpdate(
      options({ secrets: [{ name: 'C', value: 'c-value-123' }] }),
      deployment({
        secrets: [
          { name: 'A', value: null },
          { name: 'B', value: null }
        ]
      })
    )
    expect(plan).toMatchObject({ kind: 'update', removedSecrets: ['A', 'B'] })
    const text = describePlan(plan)
    expect(text).toContain('  secrets.A: *** -> (removed)')
    expect(text).toContain('  secrets.B: *** -> (removed)')
    expect(text).toContain('  removes secrets A, B: the secrets given replace the whole set')
  })

  test('listing the same secrets again removes nothing and says no field changes', () => {
    const plan = planUpdate(
      options({ ref: 'main', secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-old-value' }] }),
      deployment()
    )
    expect(plan).toMatchObject({ removedSecrets: [] })
    expect(describePlan(plan).join('\n')).not.toMatch(/remove/)
  })

  test('secrets left out of the inputs keep the current ones: nothing removed', () => {
    expect(planUpdate(options(), deployment())).toMatchObject({ removedSecrets: [] })
  })

  test('an explicit repository other than the deployment’s is an error naming both', () => {
    expect(() =>
      planUpdate(
        options({ repository: 'acme/support-bot', repositoryExplicit: true }),
        deployment()
      )
    ).toThrow(
      /builds https:\/\/github.com\/acme\/agent-server, but `repository` is acme\/support-bot/
    )
  })

  test('the workflow’s own repository differing is reported, not an error', () => {
    const plan = planUpdate(
      options({ repository: 'acme/support-bot', repositoryExplicit: false }),
      deployment()
    )
    expect(plan).toMatchObject({
      otherRepository: {
        deployment: 'https://github.com/acme/agent-server',
        workflow: 'acme/support-bot'
      }
    })
  })

  test('the same repository in another case or with .git is no mismatch', () => {
    const plan = planUpdate(
      options({ repository: 'ACME/Agent-Server', repositoryExplicit: true }),
      deployment({
        source_config: {
          integration_id: INTEGRATION,
          repo_url: 'https://github.com/acme/agent-server.git'
        }
      })
    )
    expect(plan).toMatchObject({ otherRepository: undefined })
  })

  test('an explicit integration-id other than the deployment’s is an error naming both', () => {
    expect(() =>
      planUpdate(options({ integrationId: '99999999-9999-4999-8999-999999999999' }), deployment())
    ).toThrow(/has integration id 33333333-.*but `integration-id` is 99999999-/)
  })

  test('a deployment-type other than the deployment’s is an error: it cannot change', () => {
    expect(() => planUpdate(options({ deploymentType: 'prod' }), ofType('dev'))).toThrow(
      /is serverless \(read as dev\), but `deployment-type: prod` asks for dedicated.*Nothing was written/
    )
  })

  test('a legacy word of the same type is the same type: no refusal', () => {
    const current = ofType('dev_zero')
    expect(() => planUpdate(options({ deploymentType: 'serverless' }), current)).not.toThrow()
    const prod = ofType('prod')
    expect(() => planUpdate(options({ deploymentType: 'dedicated' }), prod)).not.toThrow()
    expect(() => planUpdate(options({ deploymentType: 'serverless' }), prod)).toThrow(
      /is dedicated \(read as prod\).*create a new deployment/s
    )
  })

  test('a database size on a Serverless deployment is refused before any write', () => {
    const current = ofType('serverless')
    expect(() => planUpdate(options({ databaseSize: 'medium' }), current)).toThrow(
      /is Serverless, which shares its database/
    )
  })

  test('a size shows as a change of the tier, and not when the tier is already that', () => {
    const current = deployment({
      source_config: {
        integration_id: INTEGRATION,
        repo_url: repo.url,
        deployment_type: 'serverless'
      },
      deployment_tier: 'SERVERLESS_S'
    })
    const plan = planUpdate(options({ size: 'medium' }), current)
    expect(plan.changes).toContainEqual({
      field: 'size',
      from: 'small (SERVERLESS_S)',
      to: 'medium (SERVERLESS_M)'
    })
    expect(describePlan(plan).join('\n')).toMatch(/then resize through resource-tiers/)
    const same = planUpdate(options({ size: 'small' }), current)
    expect(same.changes.map(c => c.field)).not.toContain('size')
  })

  test('deployment-type goes into a create, never into a patch', () => {
    const o = options({ deploymentType: 'prod' })
    expect(planCreate(o, 'agent-prod', repo).body.source_config?.deployment_type).toBe('prod')
    const patch = planUpdate(o, deployment())
    expect(JSON.stringify(patch.body)).not.toContain('deployment_type')
  })
})

describe('upload deploys (internal_source)', () => {
  const upload = { configPath: 'apps/agent/langgraph.json' }

  test('a create is what the real clients send: no repository, no revision config', () => {
    const o = options({ source: 'internal_source', ref: undefined, deploymentType: 'dev' })
    const plan = planCreate(o, 'agent', undefined)
    expect(plan.body).toEqual({
      name: 'agent',
      source: 'internal_source',
      source_config: { deployment_type: 'dev' },
      source_revision_config: {},
      secrets: []
    })
  })

  test('an update names the upload and its config path, and makes a revision', () => {
    const current = deployment({ source: 'internal_source', source_config: {} })
    const o = options({ source: 'internal_source', ref: undefined })
    const plan = planUpdate(o, current, upload)
    if (plan.kind !== 'update') throw new Error('an update plan')
    expect(plan.newRevision).toBe(true)
    expect(plan.body.source_revision_config).toEqual({
      source_tarball_path: UPLOADED_OBJECT,
      graph_config_path: 'apps/agent/langgraph.json'
    })
    expect(plan.body.revision_source).toBeUndefined()
  })

  test('revision-source: internal_source on another source says so, without repo_ref', () => {
    const o = options({ revisionSource: 'internal_source' })
    const plan = planUpdate(o, deployment(), upload)
    if (plan.kind !== 'update') throw new Error('an update plan')
    expect(plan.body.revision_source).toBe('internal_source')
    expect(plan.body.source_revision_config).not.toHaveProperty('repo_ref')
    expect(describePlan(plan).join('\n')).toContain(
      'source_revision_config.graph_config_path: langgraph.json -> apps/agent/langgraph.json'
    )
  })
})
