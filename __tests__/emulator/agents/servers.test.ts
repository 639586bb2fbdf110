// The emulated agent servers: /_agents/<id>/ok, /info, /assistants/search and /runs/wait per
// deployment, the key checked, health and answers scripted through the admin API, probes logged
// apart from the API's request log.
import { describe, expect, it } from '@jest/globals'
import { graphsOf } from '../../../emulator/agents/app.ts'

import * as fx from '../../builders/emulator.ts'
import { redeploy as redeployLive } from '../../builders/agents.ts'

const { emu, clock } = fx.emulatorPerTest({ fixture: fx.liveFixture }, { manualClock: true })

/** A GET to the agent server of `id` with the tenant's key (or `key`). */
async function probe(id: string, route = '/ok', key: string | null = fx.CLOUD_KEY) {
  const res = await fetch(`${emu.url}/_agents/${id}${route}`, {
    headers: key === null ? {} : { 'x-api-key': key },
    redirect: 'manual'
  })
  const text = await res.text()
  return { status: res.status, location: res.headers.get('location'), body: text }
}

const admin = (method: string, path: string, body?: unknown) =>
  fx.adminCall(emu, method, `/agents${path}`, body)

async function latestRevision(id: string): Promise<string> {
  const d = await fx.call(emu, 'GET', `/v2/deployments/${id}`)
  return (d.body as fx.Json).latest_revision_id as string
}

/** A POST to the agent server of `id` with the tenant's key (or `key`). */
async function post(id: string, route: string, body: unknown, key: string | null = fx.CLOUD_KEY) {
  const res = await fetch(`${emu.url}/_agents/${id}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    body: JSON.stringify(body)
  })
  const text = await res.text()
  return {
    status: res.status,
    text,
    json: (() => {
      try {
        return JSON.parse(text) as fx.Json
      } catch {
        return undefined
      }
    })()
  }
}

const servedId = async (id = fx.LIVE) =>
  JSON.parse((await probe(id, '/info')).body).host?.host_revision_id as string | undefined

/** A new revision of fx.LIVE, DEPLOYED (its drain not over); returns [previous, new] revision ids. */
const redeploy = () => redeployLive(emu, clock)

describe('where the agent server is', () => {
  it('a codehost deployment without a custom_url of its own has the emulator’s agent server as its custom_url', async () => {
    const d = await fx.call(emu, 'GET', `/v2/deployments/${fx.LIVE}`)
    const url = (d.body as fx.Json).source_config.custom_url as string
    expect(url).toBe(`http://127.0.0.1:${emu.port}/_agents/${fx.LIVE}`)
    const ok = await fetch(`${url}/ok`, { headers: { 'x-api-key': fx.CLOUD_KEY } })
    expect(await ok.json()).toEqual({ ok: true })
  })

  it('a custom_url given is kept; a docker deployment gets none', async () => {
    const given = await fx.call(emu, 'POST', '/v2/deployments', {
      body: fx.codehostBody('given', {
        source_config: {
          integration_id: fx.INTEGRATION,
          repo_url: fx.REPO,
          custom_url: 'https://agent.example.com'
        }
      })
    })
    expect((given.body as fx.Json).source_config.custom_url).toBe('https://agent.example.com')
    const docker = await fx.call(emu, 'POST', '/v2/deployments', {
      body: fx.dockerBody('img'),
      key: fx.SELF_KEY
    })
    expect((docker.body as fx.Json).source_config.custom_url).toBeNull()
  })
})

describe('GET /ok and /info', () => {
  it('healthy by default: /ok answers {"ok": true}, /info the version and the revision served', async () => {
    expect(await probe(fx.LIVE)).toMatchObject({ status: 200, body: '{"ok":true}' })
    const info = JSON.parse((await probe(fx.LIVE, '/info')).body)
    expect(info).toEqual({
      version: '0.4.12',
      langgraph_py_version: expect.any(String),
      flags: expect.objectContaining({ assistants: true }),
      host: {
        kind: 'saas',
        project_id: fx.LIVE,
        host_revision_id: await latestRevision(fx.LIVE),
        revision_id: expect.any(String),
        tenant_id: fx.CLOUD
      }
    })
    expect(info.host.revision_id).not.toBe(info.host.host_revision_id)
  })

  it('HEAD /ok answers 200 without a body; another method or route is a plain-text 404', async () => {
    const head = await fetch(`${emu.url}/_agents/${fx.LIVE}/ok`, {
      method: 'HEAD',
      headers: { 'x-api-key': fx.CLOUD_KEY }
    })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await fetch(`${emu.url}/_agents/${fx.LIVE}/ok`, {
      method: 'POST',
      headers: { 'x-api-key': fx.CLOUD_KEY }
    })
    expect(post.status).toBe(404)
    expect(post.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await post.text()).toBe('404 Not Found')
    for (const route of ['/docs', '/constructor', '/ok/more'])
      expect(await probe(fx.LIVE, route)).toMatchObject({ status: 404, body: '404 Not Found' })
  })

  it('the key is checked: none is 401, another tenant’s is 403; unknown deployments and routes 404', async () => {
    expect((await probe(fx.LIVE, '/ok', null)).status).toBe(401)
    expect((await probe(fx.LIVE, '/ok', fx.OTHER_KEY)).status).toBe(403)
    expect((await probe('55555555-5555-4555-8555-555555555555')).status).toBe(404)
    expect((await probe(fx.LIVE, '/docs')).status).toBe(404)
  })

  it('probes are logged with whether the key was right, never the key, and not in the API request log', async () => {
    await probe(fx.LIVE, '/ok?check_db=1')
    await probe(fx.LIVE, '/ok', fx.OTHER_KEY)
    expect(emu.agents.probes(fx.LIVE)).toEqual([
      expect.objectContaining({ path: '/ok?check_db=1', key: 'valid', status: 200 }),
      expect.objectContaining({ path: '/ok', key: 'wrong', status: 403 })
    ])
    expect(JSON.stringify(emu.agents.probes())).not.toContain(fx.CLOUD_KEY)
    expect(emu.requests()).toEqual([])
  })

  it('a deployment whose first revision is not DEPLOYED yet answers 503', async () => {
    const created = await fx.call(emu, 'POST', '/v2/deployments', {
      body: fx.codehostBody('fresh')
    })
    const id = (created.body as fx.Json).id as string
    expect((await probe(id)).status).toBe(503)
    clock.advance(60 * 60_000)
    expect((await probe(id)).status).toBe(200)
  })
})

describe('scripted health (admin API)', () => {
  const statuses = async (n: number, route = '/ok') => {
    const out: number[] = []
    for (let i = 0; i < n; i++) out.push((await probe(fx.LIVE, route)).status)
    return out
  }

  it('failing with a status, the body given', async () => {
    await admin('POST', `/${fx.LIVE}/health`, { health: 'failing', status: 500, body: 'no graph' })
    expect(await probe(fx.LIVE)).toMatchObject({
      status: 500,
      body: '{"ok":false,"error":"no graph"}'
    })
    expect((await admin('GET', `/${fx.LIVE}/health`)).body).toMatchObject({ health: 'failing' })
  })

  it('flapping: every n-th probe fails', async () => {
    await admin('POST', `/${fx.LIVE}/health`, { health: 'flapping', every: 3, status: 502 })
    expect(await statuses(6)).toEqual([200, 200, 502, 200, 200, 502])
  })

  it('the first probes failing, then healthy', async () => {
    await admin('POST', `/${fx.LIVE}/health`, { failFirst: 2 })
    expect(await statuses(4)).toEqual([503, 503, 200, 200])
  })

  it('a sequence scripts the first probes one by one, then `health` applies', async () => {
    await admin('POST', `/${fx.LIVE}/health`, {
      sequence: ['healthy', 'redirect', 'failing'],
      health: 'unavailable'
    })
    expect(await statuses(5)).toEqual([200, 307, 503, 404, 404])
  })

  it('unavailable: both routes 404, as with the meta routes turned off', async () => {
    await admin('POST', `/${fx.LIVE}/health`, { health: 'unavailable' })
    expect(await statuses(2)).toEqual([404, 404])
    expect((await probe(fx.LIVE, '/info')).status).toBe(404)
  })

  it('a redirect names another host', async () => {
    await admin('POST', `/${fx.LIVE}/health`, {
      health: 'redirect',
      location: 'https://sso.example.net/'
    })
    expect(await probe(fx.LIVE)).toMatchObject({
      status: 307,
      location: 'https://sso.example.net/'
    })
  })

  it('reset: the connection is closed without an answer', async () => {
    await admin('POST', `/${fx.LIVE}/health`, { health: 'reset' })
    await expect(probe(fx.LIVE)).rejects.toThrow()
    expect(emu.agents.probes(fx.LIVE)).toEqual([expect.objectContaining({ status: null })])
  })

  it('slow: the answer comes after delayMs', async () => {
    await admin('POST', `/${fx.LIVE}/health`, { health: 'slow', delayMs: 60_000 })
    const early = fetch(`${emu.url}/_agents/${fx.LIVE}/ok`, {
      headers: { 'x-api-key': fx.CLOUD_KEY },
      signal: AbortSignal.timeout(50)
    })
    await expect(early).rejects.toThrow()
    await admin('POST', `/${fx.LIVE}/health`, { health: 'slow', delayMs: 1 })
    expect((await probe(fx.LIVE)).status).toBe(200)
  })

  it('a database down fails /ok?check_db=1 only', async () => {
    await admin('POST', `/${fx.LIVE}/health`, { database: 'down', status: 500 })
    expect((await probe(fx.LIVE)).status).toBe(200)
    expect(await probe(fx.LIVE, '/ok?check_db=1')).toMatchObject({
      status: 500,
      body: '{"ok":false,"error":"database unreachable"}'
    })
  })

  it('`*` scripts every server without its own script, deployments created later included', async () => {
    await admin('POST', '/*/health', { health: 'failing' })
    const created = await fx.call(emu, 'POST', '/v2/deployments', {
      body: fx.codehostBody('later')
    })
    clock.advance(60 * 60_000)
    expect((await probe((created.body as fx.Json).id as string)).status).toBe(503)
    await admin('POST', `/${fx.LIVE}/health`, { health: 'healthy' })
    expect((await probe(fx.LIVE)).status).toBe(200)
  })

  it('a new script starts the probe count again: a sequence applies from the next probe', async () => {
    await statuses(3)
    await admin('POST', '/*/health', { sequence: ['healthy'], health: 'failing' })
    expect(await statuses(2)).toEqual([200, 503])
    await admin('POST', `/${fx.LIVE}/health`, { sequence: ['healthy'], health: 'failing' })
    expect(await statuses(2)).toEqual([200, 503])
  })

  it('a bad spec is 400 naming the field; DELETE and reset make every server healthy and clear the log', async () => {
    const bad = await admin('POST', `/${fx.LIVE}/health`, { health: 'sick' })
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toMatch(/health/)
    await admin('POST', `/${fx.LIVE}/health`, { health: 'failing' })
    await probe(fx.LIVE)
    expect((await admin('GET', '')).body.probes).toHaveLength(1)
    await admin('DELETE', '')
    expect((await admin('GET', '')).body.probes).toEqual([])
    expect((await probe(fx.LIVE)).status).toBe(200)
    emu.agents.script(fx.LIVE, { health: 'failing' })
    emu.reset()
    expect((await probe(fx.LIVE)).status).toBe(200)
  })
})

describe('the revision served (/info host block)', () => {
  it('the first DEPLOYED of a new revision drains: /info shows the previous one for DRAIN, then the new one', async () => {
    const [before, after] = await redeploy()
    const status = await fx.call(emu, 'GET', `/v2/deployments/${fx.LIVE}/revisions/${after}`)
    expect((status.body as fx.Json).status).toBe('DEPLOYED')
    expect((await probe(fx.LIVE)).status).toBe(200)
    expect(await servedId()).toBe(before)
    clock.advance(2_000)
    expect(await servedId()).toBe(after)
  })

  it('the drain is a setting (stageDurationsMs.DRAIN): 0 serves the new revision at once', async () => {
    emu.configure({ stageDurationsMs: { DRAIN: 0 } })
    const [, after] = await redeploy()
    expect(await servedId()).toBe(after)
  })

  it('scripted: the previous revision for the first N probes, or for ever; or no host block', async () => {
    const [before, after] = await redeploy()
    clock.advance(60_000)
    await admin('POST', `/${fx.LIVE}/app`, { previousFirst: 2 })
    expect([await servedId(), await servedId(), await servedId()]).toEqual([before, before, after])
    await admin('POST', `/${fx.LIVE}/app`, { previous: true })
    for (let i = 0; i < 3; i++) expect(await servedId()).toBe(before)
    await admin('POST', `/${fx.LIVE}/app`, { host: false })
    const info = JSON.parse((await probe(fx.LIVE, '/info')).body)
    expect(info).not.toHaveProperty('host')
    expect(info.version).toBe('0.4.12')
  })

  it('a deployment with one revision serves it: nothing to drain, nothing previous', async () => {
    await admin('POST', `/${fx.LIVE}/app`, { previous: true })
    expect(await servedId()).toBe(await latestRevision(fx.LIVE))
  })
})

describe('POST /assistants/search and /runs/wait', () => {
  it('one default assistant per graph of the deployed revision (a fixture’s: "agent")', async () => {
    const found = await post(fx.LIVE, '/assistants/search', { graph_id: 'agent', limit: 1 })
    expect(found.status).toBe(200)
    expect(found.json).toEqual([
      expect.objectContaining({
        graph_id: 'agent',
        assistant_id: expect.any(String),
        name: 'agent'
      })
    ])
    expect(
      (await post(fx.LIVE, '/assistants/search', { graph_id: 'other', limit: 1 })).json
    ).toEqual([])
  })

  it('the graphs of a revision are its record’s (an upload’s config keys), else a fixture’s', () => {
    const rev = { id: 'r' } as unknown as Parameters<typeof graphsOf>[0]
    expect(graphsOf({ ...rev, graphs: ['planner', 'writer'] })).toEqual(['planner', 'writer'])
    expect(graphsOf(rev)).toEqual(['agent'])
  })

  it('scripted graphs and a 401 on /assistants/search; the key is checked', async () => {
    await admin('POST', `/${fx.LIVE}/app`, { graphs: ['a', 'b'] })
    expect(
      (await post(fx.LIVE, '/assistants/search', { graph_id: 'b', limit: 1 })).json
    ).toHaveLength(1)
    expect((await post(fx.LIVE, '/assistants/search', { graph_id: 'agent' })).json).toEqual([])
    await admin('POST', `/${fx.LIVE}/app`, { assistantsStatus: 401 })
    expect((await post(fx.LIVE, '/assistants/search', { graph_id: 'agent' })).status).toBe(401)
    await admin('POST', `/${fx.LIVE}/app`, {})
    expect((await post(fx.LIVE, '/assistants/search', {}, null)).status).toBe(401)
    expect((await post(fx.LIVE, '/assistants/search', {}, fx.OTHER_KEY)).status).toBe(403)
  })

  it('/runs/wait echoes the input by default; an unknown assistant is a plain-text 404', async () => {
    const run = { assistant_id: 'agent', input: { text: 'hi' }, on_completion: 'delete' }
    expect(await post(fx.LIVE, '/runs/wait', run)).toMatchObject({
      status: 200,
      json: { text: 'hi' }
    })
    const unknown = await post(fx.LIVE, '/runs/wait', { ...run, assistant_id: 'nope' })
    expect(unknown.status).toBe(404)
    expect(unknown.text).toMatch(/^No assistant found for "nope"/)
  })

  it('/runs/wait scripted: outputs in turn, then an error body, a delay, a 401', async () => {
    const run = { assistant_id: 'agent', input: { text: 'hi' } }
    await admin('POST', `/${fx.LIVE}/app`, { runs: { outputs: [{ answer: 42 }] } })
    expect((await post(fx.LIVE, '/runs/wait', run)).json).toEqual({ answer: 42 })
    expect((await post(fx.LIVE, '/runs/wait', run)).json).toEqual({ text: 'hi' })
    await admin('POST', `/${fx.LIVE}/app`, { runs: { error: 'graph exploded' } })
    expect(await post(fx.LIVE, '/runs/wait', run)).toMatchObject({
      status: 200,
      json: { __error__: { error: 'Error', message: 'graph exploded' } }
    })
    await admin('POST', `/${fx.LIVE}/app`, { runs: { status: 401 } })
    expect((await post(fx.LIVE, '/runs/wait', run)).status).toBe(401)
    await admin('POST', `/${fx.LIVE}/app`, { runs: { delayMs: 60_000 } })
    const slow = fetch(`${emu.url}/_agents/${fx.LIVE}/runs/wait`, {
      method: 'POST',
      headers: { 'x-api-key': fx.CLOUD_KEY },
      body: JSON.stringify(run),
      signal: AbortSignal.timeout(50)
    })
    await expect(slow).rejects.toThrow()
  })

  it('a bad app script is 400 naming the field', async () => {
    const bad = await admin('POST', `/${fx.LIVE}/app`, { previousFirst: -1 })
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toMatch(/previousFirst/)
  })
})

describe("the server's own log in its revision's deploy log", () => {
  it('a probe that fails is a line at the end of the live revision’s deploy log, so the log agrees with what the probes saw', async () => {
    const rid = await latestRevision(fx.LIVE)
    const deployLog = () =>
      (emu.revisionLogs(rid) as { deploy: { message: string; level: string }[] }).deploy
    const before = deployLog().length
    // A healthy answer prints nothing.
    expect((await probe(fx.LIVE)).status).toBe(200)
    expect(deployLog()).toHaveLength(before)
    await admin('POST', `/${fx.LIVE}/health`, {
      health: 'failing',
      status: 500,
      body: 'graph "agent" failed to load: KeyError: OPENAI_API_BASE'
    })
    clock.advance(1000)
    expect((await probe(fx.LIVE, '/ok?check_db=1')).status).toBe(500)
    expect(deployLog().at(-1)).toMatchObject({
      level: 'ERROR',
      message:
        '"GET /ok?check_db=1 HTTP/1.1" 500: graph "agent" failed to load: KeyError: OPENAI_API_BASE'
    })
    expect(deployLog()).toHaveLength(before + 1)
  })
})
