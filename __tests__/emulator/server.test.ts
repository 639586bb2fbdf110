import { describe, expect, it, afterEach, beforeEach } from '@jest/globals'
import {
  Deployment,
  DeploymentList,
  ErrorDetail,
  HTTPValidationError,
  RepositoryList
} from '../../src/control-plane/schema.ts'
import {
  call,
  CLOUD,
  CLOUD_KEY,
  codehostBody,
  dockerBody,
  emulatorPerTest,
  INTEGRATION,
  LISTENER,
  manualClock,
  ORG_KEY,
  OTHER,
  OTHER_INTEGRATION,
  OTHER_KEY,
  OTHER_LISTENER,
  REPO,
  SELF,
  SELF_KEY,
  start,
  testFixture,
  STAGES_100_MS,
  type Json
} from '../builders/emulator.ts'
import { request } from 'node:http'
import { type Emulator } from '../../emulator/server.ts'
import { MAX_FAULT_DELAY_MS } from '../../emulator/faults/transport.ts'
import { type Dialect } from '../../src/control-plane/dialect.ts'
import { answerProblems } from '../builders/openapi.ts'

// Conformance of the emulator to the interface and the service facts, driven over HTTP only.
describe('conformance', () => {
  const { emu } = emulatorPerTest()

  const UNKNOWN = '99999999-9999-4999-8999-999999999999'

  describe('starting and stopping', () => {
    it('serves on a free port and several instances are independent', async () => {
      const second = await start()
      try {
        expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
        expect(second.url).not.toBe(emu.url)
        expect(
          (await call(emu, 'POST', '/v2/deployments', { body: codehostBody('a') })).status
        ).toBe(201)
        const list = await call(second, 'GET', '/v2/deployments')
        expect((list.body as Json).resources).toEqual([])
      } finally {
        await second.close()
      }
      await expect(fetch(`${second.url}/v2/deployments`)).rejects.toThrow()
    })

    it('serves the API under a base path when asked', async () => {
      const mounted = await start({ basePath: '/api-host' })
      try {
        expect(mounted.url).toMatch(/\/api-host$/)
        const ok = await call(mounted, 'GET', '/v2/deployments')
        expect(ok.status).toBe(200)
        const root = await call(mounted.url.replace(/\/api-host$/, ''), 'GET', '/v2/deployments')
        expect(root.status).toBe(404)
      } finally {
        await mounted.close()
      }
    })

    it('answers unknown paths 404 and wrong methods 405 with {detail}', async () => {
      const missing = await call(emu, 'GET', '/v2/nothing')
      expect(missing.status).toBe(404)
      expect(ErrorDetail.parse(missing.body).detail).toBe('Not Found')
      const wrong = await call(emu, 'PUT', '/v2/deployments')
      expect(wrong.status).toBe(405)
    })
  })

  describe('authentication', () => {
    it('answers 401 {detail} without or with an unknown X-Api-Key', async () => {
      for (const key of [null, 'nope']) {
        const r = await call(emu, 'GET', '/v2/deployments', { key })
        expect(r.status).toBe(401)
        expect(ErrorDetail.safeParse(r.body).success).toBe(true)
      }
    })

    it('requires X-Tenant-Id for a key of several tenants', async () => {
      const r = await call(emu, 'GET', '/v2/deployments', { key: ORG_KEY })
      expect(r.status).toBe(403)
      expect((r.body as Json).detail).toContain('requires workspace specification')
      const ok = await call(emu, 'GET', '/v2/deployments', { key: ORG_KEY, tenant: SELF })
      expect(ok.status).toBe(200)
    })

    it('rejects an X-Tenant-Id the key does not belong to with 403 {detail}', async () => {
      const r = await call(emu, 'GET', '/v2/deployments', { key: CLOUD_KEY, tenant: OTHER })
      expect(r.status).toBe(403)
      expect(ErrorDetail.safeParse(r.body).success).toBe(true)
    })

    it('takes header names case-insensitively', async () => {
      const res = await fetch(`${emu.url}/v2/deployments`, {
        headers: { 'X-API-KEY': ORG_KEY, 'x-TENANT-id': CLOUD }
      })
      expect(res.status).toBe(200)
    })

    it("hides another tenant's deployment (404)", async () => {
      const created = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('mine') })
      const id = (created.body as Json).id
      const r = await call(emu, 'GET', `/v2/deployments/${id}`, { key: OTHER_KEY })
      expect(r.status).toBe(404)
      expect(r.body).toEqual({ detail: `Deployment ID ${id} not found.` })
      const list = await call(emu, 'GET', '/v2/deployments', { key: OTHER_KEY })
      expect((list.body as Json).resources).toEqual([])
    })
  })

  describe('request validation (422 HTTPValidationError)', () => {
    it('limit above 100', async () => {
      const r = await call(emu, 'GET', '/v2/deployments?limit=101')
      expect(r.status).toBe(422)
      expect(HTTPValidationError.parse(r.body).detail).toEqual([
        {
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 100',
          type: 'less_than_equal',
          input: '101',
          ctx: { le: 100 }
        }
      ])
    })

    it('limit 0, negative offset, non-integer limit', async () => {
      const r = await call(emu, 'GET', '/v2/deployments?limit=0&offset=-1')
      const d = (r.body as Json).detail
      expect(d.map((e: Json) => [e.loc, e.type, e.msg])).toEqual([
        [['query', 'limit'], 'greater_than_equal', 'Input should be greater than or equal to 1'],
        [['query', 'offset'], 'greater_than_equal', 'Input should be greater than or equal to 0']
      ])
      const nan = await call(emu, 'GET', '/v2/deployments?limit=ten')
      expect((nan.body as Json).detail[0]).toMatchObject({
        loc: ['query', 'limit'],
        type: 'int_parsing',
        input: 'ten'
      })
    })

    it('deployment_type outside the enum, remote_reconciled not a boolean', async () => {
      const r = await call(
        emu,
        'GET',
        '/v2/deployments?deployment_type=huge&remote_reconciled=maybe'
      )
      expect(r.status).toBe(422)
      expect((r.body as Json).detail).toEqual([
        expect.objectContaining({
          loc: ['query', 'remote_reconciled'],
          type: 'bool_parsing'
        }),
        expect.objectContaining({
          loc: ['query', 'deployment_type'],
          type: 'enum',
          msg: "Input should be 'serverless', 'dedicated', 'dev_free', 'dev', 'prod', 'dev_zero' or 'dev_free_zero'"
        })
      ])
    })

    it('path parameters that are not uuids', async () => {
      const cases: Array<[string, string, unknown[]]> = [
        ['DELETE', '/v2/listeners/not-a-uuid', ['path', 'listener_id']],
        ['GET', '/v2/deployments/123', ['path', 'deployment_id']],
        ['GET', `/v2/deployments/${UNKNOWN}/revisions/x`, ['path', 'revision_id']],
        ['GET', '/v1/integrations/forge/codehost/zzz/repos', ['path', 'integration_id']]
      ]
      for (const [method, path, loc] of cases) {
        const r = await call(emu, method, path)
        expect(r.status).toBe(422)
        const entry = HTTPValidationError.parse(r.body).detail[0]!
        expect(entry.loc).toEqual(loc)
        expect(entry.type).toBe('uuid_parsing')
        expect(entry.msg).toMatch(/^Input should be a valid UUID/)
      }
    })

    it('body fields: nested loc, missing, enum, wrong type', async () => {
      const body = codehostBody('x', {
        source: 'ftp',
        source_config: { integration_id: 'nope', repo_url: REPO }
      }) as Json
      delete body.secrets
      const r = await call(emu, 'POST', '/v2/deployments', { body })
      expect(r.status).toBe(422)
      const d = HTTPValidationError.parse(r.body).detail
      expect(d).toContainEqual({
        loc: ['body', 'source'],
        msg: "Input should be 'codehost', 'external_docker', 'internal_docker', 'internal_source' or 'internal_template'",
        type: 'enum',
        input: 'ftp',
        ctx: {
          expected:
            "'codehost', 'external_docker', 'internal_docker', 'internal_source' or 'internal_template'"
        }
      })
      expect(d).toContainEqual(
        expect.objectContaining({
          loc: ['body', 'source_config', 'integration_id'],
          type: 'uuid_parsing',
          input: 'nope'
        })
      )
      expect(d).toContainEqual(
        expect.objectContaining({
          loc: ['body', 'secrets'],
          msg: 'Field required',
          type: 'missing'
        })
      )
      const typed = await call(emu, 'PATCH', `/v2/deployments/${UNKNOWN}`, {
        body: { secrets: [{ name: 5, value: 'v' }], source_config: { build_on_push: 'yes' } }
      })
      expect((typed.body as Json).detail).toEqual([
        expect.objectContaining({
          loc: ['body', 'source_config', 'build_on_push'],
          type: 'bool_type'
        }),
        expect.objectContaining({
          loc: ['body', 'secrets', 0, 'name'],
          type: 'string_type',
          input: 5
        })
      ])
    })

    it('a body that is not JSON, and a missing body', async () => {
      const r = await call(emu, 'POST', '/v2/deployments', {
        raw: '{"name": oops}',
        headers: { 'content-type': 'application/json' }
      })
      expect(r.status).toBe(422)
      const entry = HTTPValidationError.parse(r.body).detail[0]!
      expect(entry.type).toBe('json_invalid')
      expect(entry.loc[0]).toBe('body')
      expect(typeof entry.loc[1]).toBe('number')
      const none = await call(emu, 'POST', '/v2/deployments')
      expect(none.status).toBe(422)
      expect((none.body as Json).detail).toEqual([
        { loc: ['body'], msg: 'Field required', type: 'missing', input: null }
      ])
    })

    it('authenticates before validating', async () => {
      const r = await call(emu, 'GET', '/v2/deployments?limit=500', { key: null })
      expect(r.status).toBe(401)
    })
  })

  describe('POST /v2/deployments', () => {
    it('creates: 201 with a complete Deployment, AWAITING_DATABASE, first revision latest', async () => {
      const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('agent-prod') })
      expect(r.status).toBe(201)
      const d = Deployment.parse(r.body)
      expect(d).toMatchObject({
        name: 'agent-prod',
        source: 'codehost',
        tenant_id: CLOUD,
        status: 'AWAITING_DATABASE',
        active_revision_id: null,
        secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-secret-value' }]
      })
      expect(d.source_config.repo_url).toBe(REPO)
      expect(d.source_revision_config.repo_ref).toBe('main')
      expect(d.latest_revision_id).toMatch(/^[0-9a-f-]{36}$/)
      for (const key of ['created_at', 'updated_at', 'secret_references', 'image_version']) {
        expect(Object.keys(r.body as object)).toContain(key)
      }
      const rev = await call(
        emu,
        'GET',
        `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`
      )
      expect(rev.status).toBe(200)
      const got = await call(emu, 'GET', `/v2/deployments/${d.id}`)
      expect(Deployment.parse(got.body).id).toBe(d.id)
    })

    it('409 for a taken name', async () => {
      await call(emu, 'POST', '/v2/deployments', { body: codehostBody('taken') })
      const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('taken') })
      expect(r.status).toBe(409)
      expect(r.body).toEqual({ detail: "Deployment with name 'taken' already exists." })
    })

    it.each(['Agent', '1agent', 'agent_prod', 'agent.prod', '-agent'])(
      '400 for the name %s',
      async name => {
        const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody(name) })
        expect(r.status).toBe(400)
        expect((r.body as Json).detail).toContain(`'${name}'`)
      }
    )

    it('rejects reserved secret names; hosted-only names are fine when self-hosted', async () => {
      for (const name of ['PORT', 'DATABASE_URI', 'LANGSMITH_API_KEY', 'LANGSMITH_ENDPOINT']) {
        const r = await call(emu, 'POST', '/v2/deployments', {
          body: codehostBody('s', { secrets: [{ name, value: 'x' }] })
        })
        expect(r.status).toBe(400)
        expect((r.body as Json).detail).toContain(name)
      }
      const selfHosted = await call(emu, 'POST', '/v2/deployments', {
        key: SELF_KEY,
        body: dockerBody('d', { secrets: [{ name: 'LANGSMITH_API_KEY', value: 'x' }] })
      })
      expect(selfHosted.status).toBe(201)
      const reserved = await call(emu, 'POST', '/v2/deployments', {
        key: SELF_KEY,
        body: dockerBody('e', { secrets: [{ name: 'REDIS_URI', value: 'x' }] })
      })
      expect(reserved.status).toBe(400)
    })

    it('sources by hosting: external_docker only self-hosted, the others only cloud', async () => {
      const cloudDocker = await call(emu, 'POST', '/v2/deployments', { body: dockerBody('a') })
      expect(cloudDocker.status).toBe(400)
      expect((cloudDocker.body as Json).detail).toContain('external_docker')
      const selfCodehost = await call(emu, 'POST', '/v2/deployments', {
        key: SELF_KEY,
        body: codehostBody('b')
      })
      expect(selfCodehost.status).toBe(400)
      expect((selfCodehost.body as Json).detail).toContain('codehost')
      const selfDocker = await call(emu, 'POST', '/v2/deployments', {
        key: SELF_KEY,
        body: dockerBody('c')
      })
      expect(selfDocker.status).toBe(201)
      expect((selfDocker.body as Json).source_config.listener_id).toBe(LISTENER)
    })

    it('codehost needs integration_id, an accessible repo_url, repo_ref and graph_config_path', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ source_config: { repo_url: REPO } }, 'integration_id'],
        [{ source_config: { integration_id: INTEGRATION } }, 'repo_url'],
        [
          { source_config: { integration_id: INTEGRATION, repo_url: 'https://github.com/evil/x' } },
          'evil/x'
        ],
        [
          { source_config: { integration_id: OTHER_INTEGRATION, repo_url: REPO } },
          OTHER_INTEGRATION
        ],
        [{ source_revision_config: { graph_config_path: 'langgraph.json' } }, 'repo_ref'],
        [{ source_revision_config: { repo_ref: 'main' } }, 'graph_config_path'],
        [
          {
            source_config: { integration_id: INTEGRATION, repo_url: REPO, build_on_push: true },
            source_revision_config: { repo_ref: 'refs/tags/v1.0.0', graph_config_path: 'g.json' }
          },
          'build_on_push'
        ]
      ]
      for (const [overrides, named] of cases) {
        const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('c', overrides) })
        expect([r.status, (r.body as Json).detail]).toEqual([400, expect.stringContaining(named)])
      }
    })

    it('external_docker needs a known listener_id, listener_config.k8s_namespace and image_uri', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ source_config: { listener_config: { k8s_namespace: 'a' } } }, 'listener_id'],
        [
          {
            source_config: { listener_id: OTHER_LISTENER, listener_config: { k8s_namespace: 'a' } }
          },
          OTHER_LISTENER
        ],
        [{ source_config: { listener_id: LISTENER } }, 'k8s_namespace'],
        [{ source_revision_config: {} }, 'image_uri']
      ]
      for (const [overrides, named] of cases) {
        const r = await call(emu, 'POST', '/v2/deployments', {
          key: SELF_KEY,
          body: dockerBody('d', overrides)
        })
        expect([r.status, (r.body as Json).detail]).toEqual([400, expect.stringContaining(named)])
      }
    })

    it('secret_references are only for external_docker', async () => {
      const refs = [{ name: 'A', secret_name: 'k8s-secret', secret_key: 'a' }]
      const r = await call(emu, 'POST', '/v2/deployments', {
        body: codehostBody('r', { secret_references: refs })
      })
      expect(r.status).toBe(400)
      const ok = await call(emu, 'POST', '/v2/deployments', {
        key: SELF_KEY,
        body: dockerBody('r', { secret_references: refs })
      })
      expect(ok.status).toBe(201)
      expect((ok.body as Json).secret_references).toEqual(refs)
    })
  })

  describe('GET /v2/deployments', () => {
    async function createMany(names: string[]) {
      for (const name of names) {
        const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody(name) })
        expect(r.status).toBe(201)
      }
    }

    it('pages with limit (default 20) and returns the next offset; stable creation order', async () => {
      const names = Array.from({ length: 25 }, (_, i) => `d-${String(i).padStart(2, '0')}`)
      await createMany(names)
      const first = DeploymentList.parse((await call(emu, 'GET', '/v2/deployments')).body)
      expect(first.resources).toHaveLength(20)
      expect(first.offset).toBe(20)
      const seen: string[] = []
      let offset = 0
      for (;;) {
        const page = DeploymentList.parse(
          (await call(emu, 'GET', `/v2/deployments?limit=10&offset=${offset}`)).body
        )
        seen.push(...page.resources.map(d => d.name))
        expect(page.offset).toBe(offset + page.resources.length)
        offset = page.offset
        if (page.resources.length < 10) break
      }
      expect(seen).toEqual(names)
      const beyond = DeploymentList.parse(
        (await call(emu, 'GET', '/v2/deployments?offset=100')).body
      )
      expect(beyond).toEqual({ resources: [], skipped: [], offset: 100 })
    })

    it('name_contains is a substring match', async () => {
      await createMany(['pr-1', 'pr-12', 'my-pr-1x', 'other'])
      const r = DeploymentList.parse(
        (await call(emu, 'GET', '/v2/deployments?name_contains=pr-1')).body
      )
      expect(r.resources.map(d => d.name)).toEqual(['pr-1', 'pr-12', 'my-pr-1x'])
    })

    it('filters by status and deployment_ids', async () => {
      await createMany(['a', 'b', 'c'])
      const all = DeploymentList.parse((await call(emu, 'GET', '/v2/deployments')).body).resources
      const ids = `${all[0]!.id},${all[2]!.id}`
      const byIds = DeploymentList.parse(
        (await call(emu, 'GET', `/v2/deployments?deployment_ids=${ids}`)).body
      )
      expect(byIds.resources.map(d => d.name)).toEqual(['a', 'c'])
      const waiting = await call(emu, 'GET', '/v2/deployments?status=AWAITING_DATABASE')
      expect((waiting.body as Json).resources).toHaveLength(3)
      const ready = await call(emu, 'GET', '/v2/deployments?status=READY')
      expect((ready.body as Json).resources).toHaveLength(0)
    })

    it('filters by image_version, deployment_type, tag_value_ids and remote_reconciled', async () => {
      const seeded = await start({
        fixture: {
          ...testFixture,
          deployments: [
            {
              tenant_id: CLOUD,
              name: 'one',
              source: 'internal_docker',
              image_version: '0.4.1',
              deployment_type: 'prod',
              tag_value_ids: ['t1']
            },
            {
              tenant_id: CLOUD,
              name: 'two',
              source: 'internal_docker',
              image_version: '0.5.0',
              deployment_type: 'dev',
              tag_value_ids: ['t2', 't3']
            },
            { tenant_id: CLOUD, name: 'three', source: 'internal_docker', remote_reconciled: true }
          ]
        }
      })
      try {
        const names = async (query: string) =>
          DeploymentList.parse(
            (await call(seeded, 'GET', `/v2/deployments?${query}`)).body
          ).resources.map(d => d.name)
        expect(await names('image_version=0.5.0')).toEqual(['two'])
        // 'three' names no type: prod, the default.
        expect(await names('deployment_type=prod')).toEqual(['one', 'three'])
        expect(await names('tag_value_ids=t3,t1')).toEqual(['one', 'two'])
        expect(await names('remote_reconciled=true')).toEqual(['three'])
        expect(await names('remote_reconciled=false')).toEqual(['one', 'two'])
        expect(await names('status=READY')).toEqual(['one', 'two', 'three'])
      } finally {
        await seeded.close()
      }
    })
  })

  describe('PATCH /v2/deployments/{id}', () => {
    async function create(body = codehostBody('p')) {
      const r = await call(emu, 'POST', '/v2/deployments', { body })
      expect(r.status).toBe(201)
      return Deployment.parse(r.body)
    }
    const patch = (id: string, body: unknown) =>
      call(emu, 'PATCH', `/v2/deployments/${id}`, { body })

    it('404 {detail} for an unknown id', async () => {
      const r = await patch(UNKNOWN, { secrets: [] })
      expect(r.status).toBe(404)
      expect(r.body).toEqual({ detail: `Deployment ID ${UNKNOWN} not found.` })
    })

    it('source_revision_config makes a new revision, returned as latest_revision_id', async () => {
      const d = await create()
      const r = await patch(d.id, { source_revision_config: { repo_ref: 'release' } })
      expect(r.status).toBe(200)
      const after = Deployment.parse(r.body)
      expect(after.latest_revision_id).not.toBe(d.latest_revision_id)
      expect(after.source_revision_config).toMatchObject({
        repo_ref: 'release',
        graph_config_path: 'langgraph.json'
      })
      const rev = await call(
        emu,
        'GET',
        `/v2/deployments/${d.id}/revisions/${after.latest_revision_id}`
      )
      expect((rev.body as Json).source_revision_config.repo_ref).toBe('release')
    })

    it('source_config only: no new revision, fields merged, null keeps the old value', async () => {
      const d = await create()
      const r = await patch(d.id, {
        source_config: {
          build_on_push: true,
          repo_url: null,
          custom_url: 'https://agent.example.com'
        }
      })
      const after = Deployment.parse(r.body)
      expect(after.latest_revision_id).toBe(d.latest_revision_id)
      expect(after.source_config).toMatchObject({
        build_on_push: true,
        repo_url: REPO,
        integration_id: INTEGRATION,
        custom_url: 'https://agent.example.com'
      })
    })

    it('secrets: kept when omitted, an empty list does not clear them, a list replaces them', async () => {
      const d = await create()
      const omitted = Deployment.parse(
        (await patch(d.id, { source_revision_config: { repo_ref: 'x' } })).body
      )
      expect(omitted.secrets).toEqual(d.secrets)
      const empty = Deployment.parse((await patch(d.id, { secrets: [] })).body)
      expect(empty.secrets).toEqual(d.secrets)
      expect(empty.latest_revision_id).not.toBe(omitted.latest_revision_id)
      const replaced = Deployment.parse(
        (await patch(d.id, { secrets: [{ name: 'NEW', value: 'v' }] })).body
      )
      expect(replaced.secrets).toEqual([{ name: 'NEW', value: 'v' }])
      const reserved = await patch(d.id, { secrets: [{ name: 'PORT', value: '1' }] })
      expect(reserved.status).toBe(400)
    })

    it('resource_spec is replaced whole', async () => {
      const d = await create(
        codehostBody('r', {
          source_config: {
            integration_id: INTEGRATION,
            repo_url: REPO,
            resource_spec: { min_scale: 1, max_scale: 3, cpu: 2 }
          }
        })
      )
      expect(d.source_config.resource_spec).toMatchObject({ min_scale: 1, max_scale: 3, cpu: 2 })
      const after = Deployment.parse(
        (await patch(d.id, { source_config: { resource_spec: { memory_mb: 2048 } } })).body
      )
      expect(after.source_config.resource_spec).toEqual({ memory_mb: 2048 })
    })

    it('revision_source is recorded as the revision source; name and source cannot change', async () => {
      const d = await create()
      const r = await patch(d.id, {
        name: 'renamed',
        source: 'internal_docker',
        revision_source: 'internal_docker',
        source_revision_config: { image_uri: 'registry.example.com/a@sha256:abc' }
      })
      expect(r.status).toBe(200)
      const after = Deployment.parse(r.body)
      expect([after.name, after.source]).toEqual(['p', 'codehost'])
      const rev = await call(
        emu,
        'GET',
        `/v2/deployments/${d.id}/revisions/${after.latest_revision_id}`
      )
      expect((rev.body as Json).source).toBe('internal_docker')
      const missingImage = await patch(d.id, {
        revision_source: 'internal_source',
        source_revision_config: {}
      })
      expect(missingImage.status).toBe(400)
      expect((missingImage.body as Json).detail).toContain('source_tarball_path')
    })

    it('validates merged source settings (an inaccessible repo_url is 400)', async () => {
      const d = await create()
      const r = await patch(d.id, { source_config: { repo_url: 'https://github.com/evil/repo' } })
      expect(r.status).toBe(400)
      const still = Deployment.parse((await call(emu, 'GET', `/v2/deployments/${d.id}`)).body)
      expect(still.source_config.repo_url).toBe(REPO)
    })
  })

  describe('revisions', () => {
    it('GET answers the revision fields and 404 {detail} for unknown ids', async () => {
      const d = Deployment.parse(
        (await call(emu, 'POST', '/v2/deployments', { body: codehostBody('v') })).body
      )
      const rev = await call(
        emu,
        'GET',
        `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`
      )
      expect(Object.keys(rev.body as object).sort()).toEqual(
        [
          'created_at',
          'id',
          'source',
          'source_revision_config',
          'status',
          'status_message',
          'updated_at'
        ].sort()
      )
      expect(rev.body).toMatchObject({
        id: d.latest_revision_id,
        status: 'CREATING',
        source: 'codehost'
      })
      const unknown = await call(emu, 'GET', `/v2/deployments/${d.id}/revisions/${UNKNOWN}`)
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ detail: `Revision ID ${UNKNOWN} not found.` })
      const noDep = await call(
        emu,
        'GET',
        `/v2/deployments/${UNKNOWN}/revisions/${d.latest_revision_id}`
      )
      expect(noDep.status).toBe(404)
    })
  })

  describe('DELETE /v2/listeners/{id}', () => {
    it('204, then 404 naming the listener', async () => {
      const r = await call(emu, 'DELETE', `/v2/listeners/${LISTENER}`, { key: SELF_KEY })
      expect(r.status).toBe(204)
      expect(r.text).toBe('')
      const again = await call(emu, 'DELETE', `/v2/listeners/${LISTENER}`, { key: SELF_KEY })
      expect(again.status).toBe(404)
      expect(again.body).toEqual({ detail: `Listener ${LISTENER} not found.` })
    })

    it("404 for another tenant's listener", async () => {
      const r = await call(emu, 'DELETE', `/v2/listeners/${OTHER_LISTENER}`, { key: SELF_KEY })
      expect(r.status).toBe(404)
    })

    it('403 naming the workspace when the tenant may not manage listeners', async () => {
      const r = await call(emu, 'DELETE', `/v2/listeners/${LISTENER}`, { key: CLOUD_KEY })
      expect(r.status).toBe(403)
      expect(r.body).toEqual({
        detail: `Listeners cannot be created for LangSmith workspace ID '${CLOUD}'. Creating listeners is only allowed for LangSmith organizations with self-hosted enterprise plans.`
      })
    })
  })

  describe('GET /v1/integrations/forge/codehost/{id}/repos', () => {
    it("lists the integration's repositories with host_integration_id", async () => {
      const r = await call(emu, 'GET', `/v1/integrations/forge/codehost/${INTEGRATION}/repos`)
      expect(r.status).toBe(200)
      const repos = RepositoryList.parse(r.body)
      expect(repos[0]).toEqual({
        host_integration_id: INTEGRATION,
        id: 1,
        name: 'agent-server',
        owner: 'acme',
        url: REPO,
        default_branch: 'main'
      })
      expect(repos).toHaveLength(2)
    })

    it("404 {detail} for an unknown integration or another tenant's", async () => {
      for (const id of [UNKNOWN, OTHER_INTEGRATION]) {
        const r = await call(emu, 'GET', `/v1/integrations/forge/codehost/${id}/repos`)
        expect(r.status).toBe(404)
        expect(ErrorDetail.parse(r.body).detail).toContain(id)
      }
    })
  })

  describe('agent environments (beta; unconfirmed: one third party saw it)', () => {
    const HOLDER = '0a9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f'
    const BOUND = { agent_id: 'agent-7', environment: 'staging' }

    it('a create answers 409 while the told holder exists, also while it is being deleted; then 201', async () => {
      const clock = manualClock()
      const e = await start({
        now: clock.now,
        stageDurationsMs: { DELETE: 1000 },
        fixture: {
          ...testFixture,
          deployments: [
            {
              id: HOLDER,
              tenant_id: CLOUD,
              name: 'old-agent',
              source: 'internal_docker',
              agent: BOUND
            },
            { tenant_id: CLOUD, name: 'plain', source: 'internal_docker' }
          ]
        }
      })
      try {
        const list = DeploymentList.parse((await call(e, 'GET', '/v2/deployments')).body)
        expect(list.resources.map(d => [d.name, d.agent])).toEqual([
          ['old-agent', BOUND],
          ['plain', null]
        ])
        e.configure({ agentEnvironmentHeldBy: HOLDER })
        const held = await call(e, 'POST', '/v2/deployments', { body: codehostBody('fresh') })
        expect([held.status, held.body]).toEqual([
          409,
          { detail: 'A deployment already exists for this agent environment' }
        ])
        expect((await call(e, 'DELETE', `/v2/deployments/${HOLDER}`)).status).toBe(204)
        const deleting = await call(e, 'POST', '/v2/deployments', { body: codehostBody('fresh') })
        expect(deleting.status).toBe(409)
        clock.advance(1000)
        expect((await call(e, 'GET', `/v2/deployments/${HOLDER}`)).status).toBe(404)
        const created = await call(e, 'POST', '/v2/deployments', { body: codehostBody('fresh') })
        expect(created.status).toBe(201)
        expect((created.body as Json).agent).toBeNull()
      } finally {
        await e.close()
      }
    })

    it('a holder without an agent block of its own reads as bound; null stops the 409s', async () => {
      const id = (await call(emu, 'POST', '/v2/deployments', { body: codehostBody('holder') }))
        .body as Json
      emu.configure({ agentEnvironmentHeldBy: id.id })
      const read = await call(emu, 'GET', `/v2/deployments/${id.id}`)
      expect((read.body as Json).agent).toEqual({ agent_id: id.id, environment: 'development' })
      expect((await call(emu, 'POST', '/v2/deployments', { body: codehostBody('x') })).status).toBe(
        409
      )
      emu.configure({ agentEnvironmentHeldBy: null })
      expect((await call(emu, 'POST', '/v2/deployments', { body: codehostBody('x') })).status).toBe(
        201
      )
    })
  })
})

// What a hostile page or a careless setting must not get from the emulator: an answer to a Host
// that is not loopback (DNS rebinding reads /_emulator/credentials), a clock at infinite speed, a
// base path with dot segments, a fault wait that the timer cannot keep, an admin request that a
// web page could send cross-site.
describe('hardening', () => {
  let emu: Emulator | undefined
  afterEach(async () => {
    await emu?.close()
    emu = undefined
  })

  /** A GET with this Host header (fetch would not let a test choose it). */
  function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
    const url = new URL(emu!.url)
    return new Promise((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path, method: 'GET', headers: { host } },
        res => {
          let body = ''
          res.on('data', (c: Buffer) => (body += c.toString()))
          res.on('end', () => resolve({ status: res.statusCode!, body }))
        }
      )
      req.on('error', reject)
      req.end()
    })
  }

  describe('Host header: only loopback names are answered', () => {
    it.each([
      'evil.example',
      'evil.example:4010',
      '127.0.0.1.nip.io',
      'localhost.evil.example',
      '10.0.0.1',
      '[::2]',
      'localhost@evil.example'
    ])('%j is refused with 421 on every route, credentials included', async host => {
      emu = await start()
      for (const path of [
        '/_emulator/credentials',
        '/v2/deployments',
        '/_uploads/x',
        '/_agents/x/ok'
      ]) {
        const r = await getWithHost(path, host)
        expect([path, r.status]).toEqual([path, 421])
        expect(r.body).not.toContain('key-cloud')
      }
      const r = await getWithHost('/_emulator/credentials', host)
      expect(JSON.parse(r.body).detail).toContain(
        'answers only requests addressed to a loopback host'
      )
      expect(JSON.parse(r.body).detail).toContain('--allow-host')
    })

    it.each(['localhost', 'LOCALHOST:4010', '127.0.0.1', '127.9.8.7:80', '[::1]', '[::1]:4010'])(
      '%j is answered',
      async host => {
        emu = await start()
        const r = await getWithHost('/_emulator/credentials', host)
        expect(r.status).toBe(200)
        expect(JSON.parse(r.body).apiKey).toBe('key-cloud')
      }
    )

    it('allowedHosts adds names, and a specific --host address is answered by itself', async () => {
      emu = await start({ allowedHosts: ['emulator.test'] })
      expect((await getWithHost('/_emulator/credentials', 'emulator.test:8080')).status).toBe(200)
      expect((await getWithHost('/_emulator/credentials', 'other.test')).status).toBe(421)
      await expect(start({ allowedHosts: ['bad/host'] })).rejects.toThrow(
        "invalid allowed host 'bad/host'"
      )
    })
  })

  describe('start options and settings the clock or the timers cannot keep are refused', () => {
    it.each([Infinity, NaN, 0, -1, 1e9])('speed %p', async speed => {
      await expect(start({ speed })).rejects.toThrow(`invalid speed ${speed}`)
    })

    it('speed through configure and the admin route', async () => {
      emu = await start()
      expect(() => emu!.configure({ speed: Infinity })).toThrow()
      const r = await fetch(`${emu.url}/_emulator/speed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ factor: 1e300 })
      })
      expect(r.status).toBe(400)
      expect(emu.config().speed).toBe(1)
    })

    it.each(['/a/../b', '/a/./b', '//a', '/a b', '/a%2F..'])('base path %j', async basePath => {
      await expect(start({ basePath })).rejects.toThrow(`invalid base path '${basePath}'`)
    })

    it(`a fault wait over ${MAX_FAULT_DELAY_MS} ms is refused (1e12 ms used to answer at once)`, async () => {
      emu = await start()
      expect(() => emu!.addFaults({ kind: 'delay', ms: 1e12 })).toThrow()
      expect(() =>
        emu!.addFaults({ kind: 'trickle', intervalMs: MAX_FAULT_DELAY_MS + 1 })
      ).toThrow()
      const r = await fetch(`${emu.url}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'delay', ms: 1e12 })
      })
      expect(r.status).toBe(400)
      expect(emu.faults()).toEqual([])
      expect(emu.addFaults({ kind: 'delay', ms: MAX_FAULT_DELAY_MS })).toHaveLength(1)
    })
  })

  describe('issue 33: the admin API refuses what a web page could send', () => {
    const fault = JSON.stringify({ kind: 'status', status: 500 })
    it.each([
      ['/faults', 'text/plain', {}],
      ['/fixture', 'text/plain;charset=UTF-8', {}],
      ['/faults', 'application/x-www-form-urlencoded', {}],
      ['/faults', 'multipart/form-data; boundary=x', {}],
      ['/reset', undefined, {}],
      ['/faults', 'application/json', { origin: 'https://evil.example' }],
      ['/faults', 'application/json', { origin: 'null' }],
      ['/faults', 'application/json', { 'sec-fetch-site': 'cross-site' }],
      ['/faults', 'application/json', { 'sec-fetch-site': 'same-site' }]
    ] as [string, string | undefined, Record<string, string>][])(
      'POST %s as %s %j: 403, nothing changed',
      async (path, type, extra) => {
        emu = await start()
        const before = emu.state()
        const r = await fetch(`${emu.url}/_emulator${path}`, {
          method: 'POST',
          headers: { ...(type ? { 'content-type': type } : {}), ...extra },
          body: path === '/reset' ? undefined : path === '/fixture' ? '{"tenants":[]}' : fault
        })
        expect(r.status).toBe(403)
        expect(((await r.json()) as { detail: string }).detail).toMatch(
          /as a web page could send it/
        )
        expect(emu.faults()).toEqual([])
        expect(emu.state()).toEqual(before)
      }
    )

    it('a script with Content-Type: application/json, or a page of the emulator itself, is answered', async () => {
      emu = await start()
      const post = (headers: Record<string, string>) =>
        fetch(`${emu!.url}/_emulator/faults`, { method: 'POST', headers, body: fault })
      expect((await post({ 'content-type': 'application/json' })).status).toBe(200)
      const self = { 'content-type': 'application/json', origin: new URL(emu.url).origin }
      expect((await post({ ...self, 'sec-fetch-site': 'same-origin' })).status).toBe(200)
      expect(emu.faults()).toHaveLength(2)
      expect((await fetch(`${emu.url}/_emulator/state`)).status).toBe(200)
    })
  })
})

// 50 concurrent clients leave the state consistent.
describe('concurrency', () => {
  let emu: Emulator
  const clock = manualClock()
  beforeEach(async () => {
    emu = await start({ now: clock.now })
  })
  afterEach(async () => {
    await emu.close()
  })

  it('50 concurrent creates of one name: exactly one 201 and 49 409', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(emu, 'POST', '/v2/deployments', { body: codehostBody('same') })
      )
    )
    const statuses = results.map(r => r.status).sort()
    expect(statuses.filter(s => s === 201)).toHaveLength(1)
    expect(statuses.filter(s => s === 409)).toHaveLength(49)
    expect(emu.state().tenants.flatMap(t => t.deployments)).toHaveLength(1)
  })

  it('50 concurrent patches: 50 new revisions, one left that is not SKIPPED', async () => {
    const d = Deployment.parse(
      (await call(emu, 'POST', '/v2/deployments', { body: codehostBody('p') })).body
    )
    clock.advance(10_000)
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(emu, 'PATCH', `/v2/deployments/${d.id}`, {
          body: { source_revision_config: { repo_ref: `ref-${i}` } }
        })
      )
    )
    expect(results.every(r => r.status === 200)).toBe(true)
    const latestIds = new Set(results.map(r => Deployment.parse(r.body).latest_revision_id))
    expect(latestIds.size).toBe(50)
    clock.advance(10_000)
    const revisions = emu
      .state()
      .tenants.flatMap(t => t.deployments)
      .find(x => x.id === d.id)!.revisions
    expect(revisions).toHaveLength(51)
    const patched = revisions.slice(1)
    expect(patched.filter(r => r.status !== 'SKIPPED').map(r => r.status)).toEqual(['DEPLOYED'])
    const final = Deployment.parse((await call(emu, 'GET', `/v2/deployments/${d.id}`)).body)
    expect(final.active_revision_id).toBe(patched[49]!.id)
    expect(final.latest_revision_id).toBe(patched[49]!.id)
  })
})

// The emulator as the production service: the `langsmith` dialect validated against the production
// OpenAPI description (spec/production-openapi.json), the production limits, and the operations
// beyond the interface (list revisions, redeploy, delete, revision logs) in both dialects.
describe('production', () => {
  // 100 ms per stage; deleted deployments are gone after 500 ms.
  const { emu, clock, setup } = emulatorPerTest(
    { stageDurationsMs: { ...STAGES_100_MS, DELETE: 500 } },
    { eager: false, manualClock: true }
  )

  /** A call in the langsmith dialect whose answer must fit the production description. */
  async function prod(method: string, path: string, body?: unknown) {
    const r = await call(emu!, method, path, body === undefined ? {} : { body })
    const where = path.split('?')[0]!
    expect({
      answer: `${method} ${where} ${r.status}`,
      problems: answerProblems(method, where, r.status, r.body)
    }).toEqual({
      answer: `${method} ${where} ${r.status}`,
      problems: []
    })
    return r
  }

  const names = (d: Dialect) =>
    d === 'langsmith'
      ? { source: 'github', config: 'langgraph_config_path', repos: 'github' }
      : { source: 'codehost', config: 'graph_config_path', repos: 'codehost' }

  function createBody(dialect: Dialect, name: string, extra: Record<string, unknown> = {}) {
    const n = names(dialect)
    return {
      name,
      source: n.source,
      // A type the 2026-08 description lists (`serverless`, the default, postdates it).
      source_config: {
        integration_id: INTEGRATION,
        repo_url: REPO,
        build_on_push: false,
        deployment_type: 'dev',
        ...extra
      },
      source_revision_config: { repo_ref: 'main', [n.config]: 'langgraph.json' },
      secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-secret-value' }]
    }
  }

  describe('the langsmith dialect against the production description', () => {
    it('a create without a type is serverless, the vendor CLI’s default (a word newer than the description)', async () => {
      await setup({ dialect: 'langsmith' })
      const { deployment_type: _, ...untyped } = createBody('langsmith', 'untyped').source_config
      const r = await call(emu!, 'POST', '/v2/deployments', {
        body: { ...createBody('langsmith', 'untyped'), source_config: untyped }
      })
      expect(r.status).toBe(201)
      expect((r.body as Json).source_config.deployment_type).toBe('serverless')
    })

    it('the check itself catches a body that does not fit', () => {
      expect(answerProblems('GET', `/v2/deployments/${CLOUD}`, 200, { name: 1 })).not.toEqual([])
      expect(answerProblems('POST', '/v2/deployments', 422, { detail: 'text' })).not.toEqual([])
    })

    it('repos, create, get, list, patch, revision, revisions, redeploy: production names, valid bodies', async () => {
      await setup({ dialect: 'langsmith' })
      const repos = await prod('GET', `/v1/integrations/forge/github/${INTEGRATION}/repos`)
      expect(repos.status).toBe(200)
      expect(
        (await call(emu!, 'GET', `/v1/integrations/forge/codehost/${INTEGRATION}/repos`)).status
      ).toBe(404)

      const created = await prod('POST', '/v2/deployments', createBody('langsmith', 'prod-names'))
      expect(created.status).toBe(201)
      const d = created.body as Json
      expect(d.source).toBe('github')
      expect(d.source_revision_config).toMatchObject({ langgraph_config_path: 'langgraph.json' })
      expect(d.source_revision_config).not.toHaveProperty('graph_config_path')
      expect(d.source_config.deployment_type).toBe('dev')

      await prod('GET', `/v2/deployments/${d.id}`)
      const list = await prod('GET', '/v2/deployments?name_contains=prod')
      expect((list.body as Json).resources).toHaveLength(1)
      const patched = await prod('PATCH', `/v2/deployments/${d.id}`, {
        source_revision_config: { repo_ref: 'main', langgraph_config_path: 'agents/langgraph.json' }
      })
      expect((patched.body as Json).source_revision_config.langgraph_config_path).toBe(
        'agents/langgraph.json'
      )
      const rev = await prod('GET', `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`)
      expect((rev.body as Json).source).toBe('github')
      const revisions = await prod('GET', `/v2/deployments/${d.id}/revisions?limit=1`)
      expect((revisions.body as Json).resources.map((r: Json) => r.id)).toEqual([
        (patched.body as Json).latest_revision_id
      ])
      const redeployed = await prod(
        'POST',
        `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}/redeploy`
      )
      expect((redeployed.body as Json).latest_revision_id).not.toBe(
        (patched.body as Json).latest_revision_id
      )
    })

    it('interface names and bodies production rejects answer 422 in the production shape', async () => {
      await setup({ dialect: 'langsmith' })
      const wrongName = await prod('POST', '/v2/deployments', {
        ...createBody('langsmith', 'a'),
        source: 'codehost'
      })
      expect(wrongName.status).toBe(422)
      expect((wrongName.body as Json).detail[0]).toMatchObject({
        loc: ['body', 'source'],
        input: 'codehost'
      })
      expect((wrongName.body as Json).detail[0].msg).toContain("'github'")

      const huge = await prod(
        'POST',
        '/v2/deployments',
        createBody('langsmith', 'b', {
          deployment_type: 'huge',
          resource_spec: { cpu: 50, min_scale: 1.5, memory_mb: 512.5 }
        })
      )
      expect(huge.status).toBe(422)
      const locs = (huge.body as Json).detail.map((e: Json) => e.loc.join('.'))
      expect(locs).toEqual(
        expect.arrayContaining([
          'body.source_config.deployment_type',
          'body.source_config.resource_spec.cpu',
          'body.source_config.resource_spec.min_scale',
          'body.source_config.resource_spec.memory_mb'
        ])
      )
    })

    it('a PATCH may not change a create-only field (400, naming it); the same value is fine', async () => {
      await setup({ dialect: 'langsmith' })
      const d = (await prod('POST', '/v2/deployments', createBody('langsmith', 'frozen')))
        .body as Json
      const moved = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
        body: { source_config: { repo_url: 'https://github.com/acme/other' } }
      })
      expect(moved.status).toBe(400)
      expect((moved.body as Json).detail).toContain('source_config.repo_url cannot be changed')
      const type = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
        body: { source_config: { deployment_type: 'prod' } }
      })
      expect([type.status, (type.body as Json).detail]).toEqual([
        400,
        "source_config.deployment_type cannot be changed after the deployment is created: it is 'dev', the request asks for 'prod'."
      ])
      const same = await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
        body: {
          source_config: {
            repo_url: `${REPO}.git`,
            integration_id: INTEGRATION,
            deployment_type: 'dev'
          }
        }
      })
      expect(same.status).toBe(200)
    })

    it('serves under --base-path as a self-hosted installation does', async () => {
      await setup({ dialect: 'langsmith', basePath: '/api-host' })
      expect(emu!.url.endsWith('/api-host')).toBe(true)
      expect(
        (await call(emu!, 'GET', `/v1/integrations/forge/github/${INTEGRATION}/repos`)).status
      ).toBe(200)
    })
  })

  describe.each(['interface', 'langsmith'] as const)(
    'operations beyond the interface (%s)',
    dialect => {
      async function created(name = 'beyond') {
        await setup({ dialect })
        const r = await call(emu!, 'POST', '/v2/deployments', { body: createBody(dialect, name) })
        expect(r.status).toBe(201)
        return r.body as Json
      }

      it('lists revisions newest first with limit, offset and status', async () => {
        const d = await created()
        clock.advance(700)
        const second = (
          await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
            body: { secrets: [{ name: 'A', value: 'b' }] }
          })
        ).body as Json
        const all = (await call(emu!, 'GET', `/v2/deployments/${d.id}/revisions`)).body as Json
        expect(all.resources.map((r: Json) => r.id)).toEqual([
          second.latest_revision_id,
          d.latest_revision_id
        ])
        expect(all.resources[0].source).toBe(names(dialect).source)
        const page = (await call(emu!, 'GET', `/v2/deployments/${d.id}/revisions?limit=1&offset=1`))
          .body as Json
        expect([page.resources.map((r: Json) => r.id), page.offset]).toEqual([
          [d.latest_revision_id],
          2
        ])
        const deployed = (
          await call(emu!, 'GET', `/v2/deployments/${d.id}/revisions?status=DEPLOYED,BUILD_FAILED`)
        ).body as Json
        expect(deployed.resources.map((r: Json) => r.id)).toEqual([d.latest_revision_id])
        expect((await call(emu!, 'GET', `/v2/deployments/${d.id}/revisions?limit=0`)).status).toBe(
          422
        )
      })

      it('redeploys a revision: a new revision with its configuration', async () => {
        const d = await created()
        await call(emu!, 'PATCH', `/v2/deployments/${d.id}`, {
          body: { source_revision_config: { repo_ref: 'feature' } }
        })
        const r = await call(
          emu!,
          'POST',
          `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}/redeploy`
        )
        expect(r.status).toBe(200)
        const after = r.body as Json
        expect(after.source_revision_config.repo_ref).toBe('main')
        const missing = await call(
          emu!,
          'POST',
          `/v2/deployments/${d.id}/revisions/99999999-9999-4999-8999-999999999999/redeploy`
        )
        expect(missing.status).toBe(404)
      })

      it('deletes: AWAITING_DELETE, then 404; the name stays taken unless the tracing project goes too', async () => {
        const d = await created('gone')
        expect((await call(emu!, 'DELETE', `/v2/deployments/${d.id}`)).status).toBe(204)
        const awaiting = await call(emu!, 'GET', `/v2/deployments/${d.id}`)
        expect([awaiting.status, (awaiting.body as Json).status]).toEqual([200, 'AWAITING_DELETE'])
        clock.advance(500)
        const gone = await call(emu!, 'GET', `/v2/deployments/${d.id}`)
        expect([gone.status, gone.body]).toEqual([
          404,
          { detail: `Deployment ID ${d.id} not found.` }
        ])
        expect((await call(emu!, 'DELETE', `/v2/deployments/${d.id}`)).status).toBe(404)
        const again = await call(emu!, 'POST', '/v2/deployments', {
          body: createBody(dialect, 'gone')
        })
        expect(again.status).toBe(409)
        expect((again.body as Json).detail).toContain('already exists')

        const other = (
          await call(emu!, 'POST', '/v2/deployments', { body: createBody(dialect, 'freed') })
        ).body as Json
        expect(
          (await call(emu!, 'DELETE', `/v2/deployments/${other.id}?delete_tracing_project=true`))
            .status
        ).toBe(204)
        clock.advance(500)
        expect(
          (await call(emu!, 'POST', '/v2/deployments', { body: createBody(dialect, 'freed') }))
            .status
        ).toBe(201)
        expect(
          emu!
            .state()
            .tenants.find(t => t.id === CLOUD)!
            .deployments.map(x => x.name)
        ).toContain('freed')
      })

      it('serves revision logs by pages with an opaque cursor, asc or desc; before it starts a build log is empty, a deploy log 404', async () => {
        const d = await created()
        const logs = `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}/logs`
        const early = await call(emu!, 'GET', `${logs}?type=build`)
        expect([early.status, early.body]).toEqual([200, { logs: [], next_offset: null }])
        expect((await call(emu!, 'GET', `${logs}?type=deploy`)).status).toBe(404)
        expect((await call(emu!, 'GET', logs)).status).toBe(422)
        clock.advance(1000)
        const full = emu!.revisionLogs(d.latest_revision_id)!.build!
        const read: Json[] = []
        let offset: string | null = null
        do {
          const q: string = offset === null ? '' : `&offset=${encodeURIComponent(offset)}`
          const page = (await call(emu!, 'GET', `${logs}?type=build&limit=3${q}`)).body as Json
          expect(page.logs.length).toBeLessThanOrEqual(3)
          read.push(...page.logs)
          offset = page.next_offset
          if (offset !== null) expect(typeof offset).toBe('string')
        } while (offset !== null)
        expect(read).toEqual(full)
        const desc = (await call(emu!, 'GET', `${logs}?type=deploy&order=desc&limit=1`))
          .body as Json
        expect(desc.logs[0].message).toBe(`Revision ${d.latest_revision_id} is live`)
        const warnings = (await call(emu!, 'GET', `${logs}?type=build&level=WARNING`)).body as Json
        expect(warnings.logs.map((l: Json) => l.level)).toEqual(['WARNING'])
        expect((await call(emu!, 'GET', `${logs}?type=build&offset=garbage`)).status).toBe(422)
        // The v1 form answers beside it by default (the LangGraph CLI's only log routes).
        const v1 = `/v1/projects/${d.id}/revisions/${d.latest_revision_id}/build_logs`
        const v1Page = await call(emu!, 'POST', v1, { body: {} })
        expect(v1Page.status).toBe(200)
        expect((v1Page.body as Json).logs).toEqual(full.slice(0, 50))
      })
    }
  )

  describe('--logs-api', () => {
    it('v1: an older installation, where the v2 path is a 404 and the v1 POST answers', async () => {
      await setup({ logsApi: 'v1' })
      emu!.script({ outcome: 'BUILD_FAILED', logLines: ['boom'] })
      const d = (
        await call(emu!, 'POST', '/v2/deployments', { body: createBody('interface', 'old') })
      ).body as Json
      clock.advance(1000)
      const rev = `${d.id}/revisions/${d.latest_revision_id}`
      expect((await call(emu!, 'GET', `/v2/deployments/${rev}/logs?type=build`)).status).toBe(404)
      const r = await call(emu!, 'POST', `/v1/projects/${rev}/build_logs`, {
        body: { order: 'desc', limit: 1 }
      })
      expect(r.status).toBe(200)
      expect(r.body).toEqual({
        logs: [expect.objectContaining({ message: 'boom', level: 'ERROR' })],
        next_offset: expect.any(String)
      })
      expect(
        (await call(emu!, 'POST', `/v1/projects/${rev}/deploy_logs`, { body: {} })).status
      ).toBe(404)
    })
  })
})
