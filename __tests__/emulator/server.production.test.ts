// The emulator as the production service: the `langsmith` dialect validated against the production
// OpenAPI description (spec/production-openapi.json), the production limits, and the operations
// beyond the interface (list revisions, redeploy, delete, revision logs) in both dialects.
import { describe, expect, it } from '@jest/globals'
import type { Dialect } from '../../src/control-plane/dialect.ts'

import { answerProblems } from '../builders/openapi.ts'
import {
  call,
  CLOUD,
  emulatorPerTest,
  INTEGRATION,
  type Json,
  REPO,
  STAGES_100_MS
} from '../builders/emulator.ts'

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
        (await call(emu!, 'POST', '/v2/deployments', { body: createBody(dialect, 'freed') })).status
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
      const desc = (await call(emu!, 'GET', `${logs}?type=deploy&order=desc&limit=1`)).body as Json
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
    expect((await call(emu!, 'POST', `/v1/projects/${rev}/deploy_logs`, { body: {} })).status).toBe(
      404
    )
  })
})
