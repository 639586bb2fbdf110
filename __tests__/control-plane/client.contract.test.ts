import { afterEach, describe, expect, test, afterAll } from '@jest/globals'
import { type ClientOptions } from '../../src/control-plane/client-options.ts'
import { type TestClient as ControlPlaneClient } from '../builders/test-client.ts'
import {
  ApiError,
  NetworkError,
  OutcomeUnknownError,
  RedirectRefusedError,
  UnexpectedResponseError
} from '../../src/control-plane/errors.ts'
import { REVISION_STATUSES, revisionOutcome, SOURCES } from '../../src/control-plane/vocabulary.ts'
import { demoFixture, startEmulator, type Emulator } from '../../emulator/server.ts'
import {
  makeClient,
  rejectionOf,
  createBody,
  DEPLOYMENT_ID,
  INTEGRATION_ID,
  LISTENER_ID,
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

// Contract tests: every client method against the local emulator over real HTTP, with the demo
// fixture (fixtures/demo.json): a cloud tenant with a forge integration, a self-hosted tenant with
// a listener, and an organization-scoped key that belongs to both.
describe('client.contract', () => {
  const fixture = demoFixture()
  const CLOUD_TENANT = fixture.tenants[0]!.id
  const CLOUD_KEY = fixture.tenants[0]!.api_keys[0]!
  const SELF_HOSTED_TENANT = fixture.tenants[1]!.id
  const SELF_HOSTED_KEY = fixture.tenants[1]!.api_keys[0]!
  /** Listed under both tenants: an organization-scoped key. */
  const ORG_KEY = fixture.tenants[0]!.api_keys[1]!
  const INTEGRATION = fixture.integrations![0]!.id
  const LISTENER = fixture.listeners![0]!.id
  const EXISTING = fixture.deployments![0]!
  const MISSING_ID = '00000000-0000-4000-8000-00000000dead'

  const SECRET = 'sk-contract-secret-value-77'

  let emulators: Emulator[] = []
  afterEach(async () => {
    await Promise.all(emulators.map(e => e.close()))
    emulators = []
  })

  async function emulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
    const emu = await startEmulator({ port: 0, speed: 100, ...options })
    emulators.push(emu)
    return emu
  }

  function client(emu: Emulator, options: Partial<ClientOptions> = {}): ControlPlaneClient {
    return makeClient(emu.url, { apiKey: CLOUD_KEY, secrets: [SECRET], ...options })
  }

  async function repository(c: ControlPlaneClient) {
    const repos = await c.listRepositories(INTEGRATION)
    return repos.find(r => r.name === 'agent-server')!
  }

  async function createCodehost(c: ControlPlaneClient, name: string) {
    const repo = await repository(c)
    return c.createDeployment({
      name,
      source: 'codehost',
      source_config: {
        integration_id: repo.host_integration_id,
        repo_url: repo.url,
        build_on_push: false
      },
      source_revision_config: {
        repo_ref: repo.default_branch,
        graph_config_path: 'langgraph.json'
      },
      secrets: [{ name: 'OPENAI_API_KEY', value: SECRET }]
    })
  }

  /** Polls a revision until it has an outcome; returns the statuses seen, in order, deduplicated. */
  async function waitForRevision(c: ControlPlaneClient, deploymentId: string, revisionId: string) {
    const seen: string[] = []
    const until = Date.now() + 10_000
    for (;;) {
      const revision = await c.getRevision(deploymentId, revisionId)
      expect(revision.id).toBe(revisionId)
      if (seen.at(-1) !== revision.status) seen.push(revision.status)
      if (revisionOutcome(revision.status) !== 'in_progress') return { revision, seen }
      if (Date.now() > until) throw new Error(`revision still ${revision.status}`)
      await new Promise(r => setTimeout(r, 3))
    }
  }

  describe('listRepositories', () => {
    test("lists the integration's repositories, which feed the create request", async () => {
      const emu = await emulator()
      const repos = await client(emu).listRepositories(INTEGRATION)
      expect(repos.map(r => `${r.owner}/${r.name}@${r.default_branch}`)).toEqual([
        'acme/agent-server@main',
        'acme/support-bot@main',
        'acme/research-agent@develop'
      ])
      for (const r of repos) expect(r.host_integration_id).toBe(INTEGRATION)
    })

    test('an unknown integration is a 404 naming the integration id', async () => {
      const emu = await emulator()
      const err = (await rejectionOf(client(emu).listRepositories(MISSING_ID))) as ApiError
      expect(err).toBeInstanceOf(ApiError)
      expect(err.status).toBe(404)
      expect(err.hint).toContain(`forge integration ${MISSING_ID}`)
    })
  })

  describe('create -> get -> patch -> revisions', () => {
    test('a deployment is created, read, patched into a new revision, and both revisions deploy', async () => {
      const emu = await emulator()
      // The code host's main is at a known commit: a build of main reports it.
      emu.configure({
        repoCommits: { 'https://github.com/acme/agent-server@main': 'c'.repeat(40) }
      })
      const debug: string[] = []
      const c = client(emu, { debug: l => debug.push(l) })

      const created = await createCodehost(c, 'contract-agent')
      expect(created.name).toBe('contract-agent')
      expect(created.tenant_id).toBe(CLOUD_TENANT)
      expect(created.status).toBe('AWAITING_DATABASE')
      expect(created.latest_revision_id).not.toBeNull()
      expect(created.active_revision_id).toBeNull()
      expect(emu.requests().find(r => r.method === 'POST')?.status).toBe(201)

      const read = await c.getDeployment(created.id)
      expect(read.id).toBe(created.id)
      expect(read.latest_revision_id).toBe(created.latest_revision_id)
      expect(read.source_revision_config.repo_ref).toBe('main')

      const first = await waitForRevision(c, created.id, created.latest_revision_id!)
      expect(first.revision.status).toBe('DEPLOYED')
      expect(first.revision.source_revision_config?.repo_commit_sha).toBe('c'.repeat(40))
      // Statuses come in the documented order.
      const order = first.seen.map(s => REVISION_STATUSES.indexOf(s as never))
      expect(order.every(i => i >= 0)).toBe(true)
      expect([...order].sort((a, b) => a - b)).toEqual(order)

      const patched = await c.patchDeployment(created.id, {
        source_revision_config: { repo_ref: 'refs/tags/v1.2.0' }
      })
      expect(patched.id).toBe(created.id)
      expect(patched.latest_revision_id).not.toBe(created.latest_revision_id)
      expect(patched.source_revision_config.repo_ref).toBe('refs/tags/v1.2.0')

      const second = await waitForRevision(c, created.id, patched.latest_revision_id!)
      expect(second.revision.status).toBe('DEPLOYED')
      const after = await c.getDeployment(created.id)
      expect(after.active_revision_id).toBe(patched.latest_revision_id)

      // The secret went to the emulator, never into the client's debug lines.
      expect(debug.length).toBeGreaterThan(5)
      for (const line of debug) expect(line).not.toContain(SECRET)
      expect(debug.join('\n')).not.toContain(CLOUD_KEY)
    })

    test('a source_config-only patch changes the deployment without a new revision', async () => {
      const emu = await emulator()
      const c = client(emu)
      const created = await createCodehost(c, 'config-only')
      const patched = await c.patchDeployment(created.id, {
        source_config: { build_on_push: true }
      })
      expect(patched.source_config.build_on_push).toBe(true)
      expect(patched.latest_revision_id).toBe(created.latest_revision_id)
    })

    test('a failing build ends in a failed outcome', async () => {
      const emu = await emulator()
      const c = client(emu)
      const created = await createCodehost(c, 'will-fail')
      const patched = await c.patchDeployment(created.id, {
        source_revision_config: { repo_ref: 'fail-build' }
      })
      const { revision } = await waitForRevision(c, created.id, patched.latest_revision_id!)
      expect(revision.status).toBe('BUILD_FAILED')
      expect(revisionOutcome(revision.status)).toBe('failed')
    })

    test('the pre-existing deployment of the fixture reads back with every field', async () => {
      const emu = await emulator()
      const d = await client(emu).getDeployment(EXISTING.id!)
      expect(d.name).toBe(EXISTING.name)
      expect(d.status).toBe('READY')
      expect(d.active_revision_id).toBe(d.latest_revision_id)
      expect(d.image_version).toBe('0.4.12')
    })
  })

  describe('listDeployments / iterateDeployments', () => {
    test('every page is read across many similar names; exact names are matched client-side', async () => {
      const emu = await emulator()
      const c = client(emu)
      for (let i = 1; i <= 23; i++) await createCodehost(c, `pr-${i}`)
      emu.clearRequests()

      const all: string[] = []
      for await (const d of c.iterateDeployments({}, 7)) all.push(d.name)
      expect(all).toHaveLength(24)
      expect(new Set(all).size).toBe(24)
      expect(all).toContain(EXISTING.name)
      expect(emu.requests().map(r => r.query.offset)).toEqual(['0', '7', '14', '21'])

      const similar: string[] = []
      for await (const d of c.iterateDeployments({ name_contains: 'pr-1' }, 3)) similar.push(d.name)
      // pr-1 and pr-10 .. pr-19: substring matches, over four pages.
      expect(similar.sort()).toEqual(
        ['pr-1', ...Array.from({ length: 10 }, (_, i) => `pr-1${i}`)].sort()
      )
      expect(similar.filter(n => n === 'pr-1')).toEqual(['pr-1'])
    })

    test('one page with a filter, and the next offset', async () => {
      const emu = await emulator()
      const c = client(emu)
      const page = await c.listDeployments({ limit: 1, name_contains: 'support' })
      expect(page.resources.map(d => d.name)).toEqual([EXISTING.name])
      expect(page.offset).toBe(1)
    })
  })

  describe('deleteListener', () => {
    test('204 for a tenant with listeners, then 404 naming the listener', async () => {
      const emu = await emulator()
      const c = client(emu, { apiKey: SELF_HOSTED_KEY })
      await expect(c.deleteListener(LISTENER)).resolves.toBeUndefined()
      expect(emu.requests().at(-1)?.status).toBe(204)
      const err = (await rejectionOf(c.deleteListener(LISTENER))) as ApiError
      expect(err).toBeInstanceOf(ApiError)
      expect(err.status).toBe(404)
      expect(err.detail).toContain(LISTENER)
      expect(err.hint).toContain(`listener ${LISTENER}`)
    })

    test('403 for a cloud workspace, with the self-hosted enterprise hint', async () => {
      const emu = await emulator()
      const err = (await rejectionOf(client(emu).deleteListener(LISTENER))) as ApiError
      expect(err.status).toBe(403)
      expect(err.detail).toContain(CLOUD_TENANT)
      expect(err.hint).toMatch(/self-hosted enterprise plans/)
    })

    test('422 for an id that is not a uuid, one line naming the parameter', async () => {
      const emu = await emulator()
      const c = client(emu, { apiKey: SELF_HOSTED_KEY })
      const err = (await rejectionOf(c.deleteListener('not-a-uuid'))) as ApiError
      expect(err.status).toBe(422)
      expect(err.detail).toMatch(/^listener_id: \S/)
      expect(err.detail.split('\n')).toHaveLength(1)
    })
  })

  describe('error shapes', () => {
    test('404 for an unknown deployment names the id', async () => {
      const emu = await emulator()
      const err = (await rejectionOf(client(emu).getDeployment(MISSING_ID))) as ApiError
      expect(err).toBeInstanceOf(ApiError)
      expect(err.status).toBe(404)
      expect(err.detail).toBe(`Deployment ID ${MISSING_ID} not found.`)
      expect(err.message).toContain(
        `get deployment failed: HTTP 404 on GET /v2/deployments/${MISSING_ID}`
      )
      expect(err.hint).toContain(`deployment ${MISSING_ID} was not found`)
    })

    test('404 for an unknown revision names the revision and deployment', async () => {
      const emu = await emulator()
      const err = (await rejectionOf(client(emu).getRevision(EXISTING.id!, MISSING_ID))) as ApiError
      expect(err.status).toBe(404)
      expect(err.hint).toContain(`revision ${MISSING_ID} of deployment ${EXISTING.id}`)
    })

    test('404 on patch of an unknown deployment is an ApiError, not an unknown outcome', async () => {
      const emu = await emulator()
      const err = await rejectionOf(client(emu).patchDeployment(MISSING_ID, { secrets: [] }))
      expect(err).toBeInstanceOf(ApiError)
      expect((err as ApiError).status).toBe(404)
    })

    test('422 renders one line per entry without the body/path prefix', async () => {
      const emu = await emulator()
      const err = (await rejectionOf(client(emu).getDeployment('dep-1'))) as ApiError
      expect(err.status).toBe(422)
      expect(err.detail).toMatch(/^deployment_id: \S/)
      expect(err.message.split('\n')[0]).toBe(
        `get deployment failed: HTTP 422 on GET /v2/deployments/dep-1: ${err.detail}`
      )
    })

    test('a 422 that echoes the request body never shows the secret', async () => {
      const emu = await emulator()
      emu.addFaults({ kind: 'echo-input-422', method: 'POST', path: '/v2/deployments' })
      const err = (await rejectionOf(createCodehost(client(emu), 'echoed'))) as ApiError
      expect(err.status).toBe(422)
      expect(err.detail.split('\n').length).toBeGreaterThanOrEqual(2)
      expect(err.detail).toContain('secrets.0.value: ')
      expect(err.message + JSON.stringify(err)).not.toContain(SECRET)
    })

    test('400 for a business rule (a reserved secret name)', async () => {
      const emu = await emulator()
      const c = client(emu)
      const repo = await repository(c)
      const err = (await rejectionOf(
        c.createDeployment({
          name: 'reserved',
          source: 'codehost',
          source_config: { integration_id: INTEGRATION, repo_url: repo.url },
          source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
          secrets: [{ name: 'PORT', value: '8080' }]
        })
      )) as ApiError
      expect(err.status).toBe(400)
      expect(err.detail).toContain('PORT')
    })

    test('409 for a name that is taken', async () => {
      const emu = await emulator()
      const c = client(emu)
      await createCodehost(c, 'taken')
      const err = (await rejectionOf(createCodehost(c, 'taken'))) as ApiError
      expect(err.status).toBe(409)
      expect(err.hint).toMatch(/already exists/)
    })

    test('401 for a wrong key, with the api-key hint and without the key', async () => {
      const emu = await emulator()
      const wrongKey = 'lsv2_pt_ffffffffffffffffffffffffffffffff_ffffffffff'
      const err = (await rejectionOf(
        client(emu, { apiKey: wrongKey }).listDeployments()
      )) as ApiError
      expect(err.status).toBe(401)
      expect(err.hint).toMatch(/check the API key \(`api-key`\)/)
      expect(err.message).not.toContain(wrongKey)
    })

    test('an organization-scoped key needs X-Tenant-Id: 403 with the tenant-id hint, then works', async () => {
      const emu = await emulator()
      const err = (await rejectionOf(
        client(emu, { apiKey: ORG_KEY }).listDeployments()
      )) as ApiError
      expect(err.status).toBe(403)
      expect(err.detail).toContain('requires workspace specification')
      expect(err.hint).toMatch(/tenant-id/)
      const scoped = client(emu, { apiKey: ORG_KEY, tenantId: SELF_HOSTED_TENANT })
      const page = await scoped.listDeployments()
      expect(page.resources).toEqual([])
      const cloud = client(emu, { apiKey: ORG_KEY, tenantId: CLOUD_TENANT })
      expect((await cloud.listDeployments()).resources.map(d => d.name)).toEqual([EXISTING.name])
    })
  })

  describe('transport against the emulator', () => {
    test('served under a base path (/api-host), every call works', async () => {
      const emu = await emulator({ basePath: '/api-host' })
      expect(emu.url).toMatch(/\/api-host$/)
      const c = client(emu)
      expect(await c.listRepositories(INTEGRATION)).toHaveLength(3)
      expect((await c.getDeployment(EXISTING.id!)).name).toBe(EXISTING.name)
    })

    test('503s on a GET are retried', async () => {
      const emu = await emulator()
      emu.addFaults({
        kind: 'status',
        status: 503,
        method: 'GET',
        path: '/v2/deployments/*',
        times: 2
      })
      expect((await client(emu).getDeployment(EXISTING.id!)).id).toBe(EXISTING.id)
      expect(emu.requests().map(r => r.status)).toEqual([503, 503, 200])
    })

    test('a 429 with Retry-After on a create is waited out and retried once', async () => {
      const emu = await emulator()
      emu.addFaults({
        kind: 'status',
        status: 429,
        retryAfter: 0,
        method: 'POST',
        path: '/v2/deployments',
        times: 1
      })
      const created = await createCodehost(client(emu), 'after-429')
      expect(created.name).toBe('after-429')
      const posts = emu.requests().filter(r => r.method === 'POST')
      expect(posts.map(r => r.status)).toEqual([429, 201])
    })

    test('a create whose answer is lost is an unknown outcome, and the deployment does exist', async () => {
      const emu = await emulator()
      emu.addFaults({ kind: 'lost-response', method: 'POST', path: '/v2/deployments', times: 1 })
      const c = client(emu)
      const err = await rejectionOf(createCodehost(c, 'lost-answer'))
      expect(err).toBeInstanceOf(OutcomeUnknownError)
      expect(emu.requests().filter(r => r.method === 'POST')).toHaveLength(1)
      const found = (await c.listDeployments({ name_contains: 'lost-answer' })).resources
      expect(found.map(d => d.name)).toEqual(['lost-answer'])
    })

    test('a redirect to another origin is refused', async () => {
      const emu = await emulator()
      emu.addFaults({ kind: 'redirect', status: 307, location: 'http://127.0.0.1:9/steal' })
      const err = (await rejectionOf(client(emu).listDeployments())) as RedirectRefusedError
      expect(err).toBeInstanceOf(RedirectRefusedError)
      expect(err.targetOrigin).toBe('http://127.0.0.1:9')
      expect(emu.requests()).toHaveLength(1)
    })

    test('a non-JSON or misshapen 200 that persists is an unexpected response', async () => {
      const emu = await emulator()
      emu.addFaults({ kind: 'non-json', method: 'GET', path: '/v2/deployments', times: 5 })
      const c = client(emu)
      const notJson = await rejectionOf(c.listDeployments())
      expect(notJson).toBeInstanceOf(UnexpectedResponseError)
      expect(notJson.message).toContain('the body is not JSON')
      emu.addFaults({ kind: 'bad-schema', method: 'GET', path: '/v2/deployments', times: 5 })
      const misshapen = await rejectionOf(c.listDeployments())
      expect(misshapen).toBeInstanceOf(UnexpectedResponseError)
      expect(misshapen.message).toMatch(
        /^list deployments: unexpected response from the control plane \(HTTP 200 on GET \/v2\/deployments\): resources\.0\.\w+: /
      )
    })

    test('a read whose answer did not fit once is read again', async () => {
      const emu = await emulator()
      emu.addFaults({ kind: 'non-json', method: 'GET', path: '/v2/deployments', times: 2 })
      const page = await client(emu).listDeployments()
      expect(page.resources.length).toBeGreaterThan(0)
      expect(emu.requests().map(r => r.fault)).toEqual(['non-json', 'non-json', null])
    })

    test('a huge body is cut off instead of read', async () => {
      const emu = await emulator()
      emu.addFaults({ kind: 'huge-body', path: '/v2/deployments' })
      const c = client(emu, { maxBodyBytes: 1024 * 1024, retry: { maxAttempts: 1 } })
      const err = await rejectionOf(c.listDeployments())
      expect(err).toBeInstanceOf(NetworkError)
      expect((err as Error).message).toMatch(/larger than 1 MiB and was cut off/)
    })

    test('a trickled answer is cut by the request timeout', async () => {
      const emu = await emulator()
      emu.addFaults({ kind: 'trickle', chunkBytes: 2, intervalMs: 50 })
      const c = client(emu, { requestTimeoutMs: 300, retry: { maxAttempts: 1 } })
      const err = await rejectionOf(c.getDeployment(EXISTING.id!))
      expect(err).toBeInstanceOf(NetworkError)
      expect(err.message).toContain('no complete answer within 0.3 s')
    })
  })

  describe('the operations the real clients use: createRevision, setDisplayName, getDeploymentLogs', () => {
    /** An emulator on a clock the test moves: one step ends every revision stage. */
    async function manual(dialect: 'interface' | 'langsmith') {
      let now = Date.parse('2026-03-01T12:00:00Z')
      const emu = await emulator({ speed: 1, now: () => now, dialect })
      return { emu, c: client(emu, { dialect }), advance: (ms: number) => void (now += ms) }
    }

    for (const dialect of ['interface', 'langsmith'] as const) {
      test(`${dialect}: createRevision makes one revision from the body; secrets and settings kept as a PATCH keeps them`, async () => {
        const { emu, c, advance } = await manual(dialect)
        const created = await createCodehost(c, 'revised')
        advance(10_000)
        const revision = await c.createRevision(created.id, {
          source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
          // build_on_push is not part of a revision: the model drops it before it is sent.
          source_config: { resource_spec: { min_scale: 2 }, build_on_push: true } as never
        })
        expect(revision.status).toBe('CREATING')
        const read = await c.getDeployment(created.id)
        expect(read.latest_revision_id).toBe(revision.id)
        expect(read.secrets.map(s => s.name)).toEqual(['OPENAI_API_KEY'])
        expect(read.source_config.resource_spec).toEqual({ min_scale: 2 })
        expect(read.source_config.build_on_push).toBe(false)
        const sent = emu.requests().find(r => r.path.endsWith('/revisions') && r.method === 'POST')
        expect(sent?.status).toBe(201)
        expect(JSON.stringify(sent?.body)).not.toContain('build_on_push')
        advance(10_000)
        expect((await c.getRevision(created.id, revision.id)).status).toBe('DEPLOYED')
      })
    }

    test('setDisplayName is read back and makes no revision; an empty name never leaves', async () => {
      const { emu, c } = await manual('langsmith')
      const created = await createCodehost(c, 'named')
      expect(created.display_name).toBeNull()
      const named = await c.setDisplayName(created.id, 'Support bot (prod)')
      expect(named.display_name).toBe('Support bot (prod)')
      expect(named.latest_revision_id).toBe(created.latest_revision_id)
      expect((await c.getDeployment(created.id)).display_name).toBe('Support bot (prod)')
      const before = emu.requests().length
      await rejectionOf(c.setDisplayName(created.id, ''))
      expect(emu.requests()).toHaveLength(before)
    })

    test('getDeploymentLogs reads the deployment deploy log by pages; lines carry stable ids; secrets redacted', async () => {
      const { emu, c, advance } = await manual('langsmith')
      emu.script({ outcome: 'DEPLOYED', log: 'deploy', logLines: [`token ${SECRET} loaded`] })
      const created = await createCodehost(c, 'logged')
      advance(60_000)
      const first = await c.getDeploymentLogs(created.id, { limit: 3 })
      expect(first.logs).toHaveLength(3)
      expect(first.logs[0]!.message).toBe(
        `Deploying revision ${created.latest_revision_id} of logged`
      )
      const all = [...first.logs]
      for (let offset = first.next_offset; offset !== null;) {
        const page = await c.getDeploymentLogs(created.id, { limit: 3, offset })
        all.push(...page.logs)
        offset = page.next_offset
      }
      const ids = all.map(l => l.id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids.every(id => typeof id === 'string' && id.length > 0)).toBe(true)
      expect(all.map(l => l.message)).toContain('token *** loaded')
      expect(JSON.stringify(all)).not.toContain(SECRET)
      // The same lines keep their ids when read again.
      const again = await c.getDeploymentLogs(created.id, { limit: 3 })
      expect(again.logs.map(l => l.id)).toEqual(ids.slice(0, 3))
    })
  })
})

// The client against the production service's own description (spec/production-openapi.json, a
// copy of the published OpenAPI 3.1 document, i.e. JSON Schema 2020-12), in the `langsmith`
// dialect: every request the client sends, body, path and query, is validated against the
// operation it targets; the loopback server that answers it serves canned production answers,
// which are validated against the response schemas too, so the test's server is itself honest.
// Revision logs are not in this copy of the description: they are checked against
// docs/control-plane.md ("Operations") by hand, at the end.
describe('n-openapi', () => {
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
            source_config: {
              listener_id: LISTENER_ID,
              listener_config: { k8s_namespace: 'agents' }
            },
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
            source_revision_config: {
              repo_ref: 'main',
              graph_config_path: 'agents/langgraph.json'
            },
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
        c =>
          c.listRevisions(DEPLOYMENT_ID, { limit: 10, offset: 0, status: ['DEPLOYED', 'SKIPPED'] })
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
      expect(JSON.parse(post!.body)).toEqual({
        order: 'desc',
        limit: 1000,
        offset: 'opaque-cursor'
      })
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
})
