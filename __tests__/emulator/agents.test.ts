// The emulated agent servers: /_agents/<id>/ok and /info per deployment, the key checked, health
// scripted through the admin API, probes logged apart from the API's request log.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import {
  call,
  CLOUD,
  CLOUD_KEY,
  codehostBody,
  dockerBody,
  manualClock,
  OTHER_KEY,
  REPO,
  INTEGRATION,
  SELF_KEY,
  start,
  testFixture,
  type Json
} from './helpers.ts'

const LIVE = '44444444-4444-4444-8444-444444444444'
let emu: Emulator
let clock: ReturnType<typeof manualClock>

beforeEach(async () => {
  clock = manualClock()
  emu = await start({
    now: clock.now,
    fixture: {
      ...testFixture,
      deployments: [
        {
          id: LIVE,
          tenant_id: CLOUD,
          name: 'live',
          source: 'codehost',
          source_config: { integration_id: INTEGRATION, repo_url: REPO },
          source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
          image_version: '0.4.12'
        }
      ]
    }
  })
})
afterEach(async () => {
  await emu.close()
})

/** A GET to the agent server of `id` with the tenant's key (or `key`). */
async function probe(id: string, route = '/ok', key: string | null = CLOUD_KEY) {
  const res = await fetch(`${emu.url}/_agents/${id}${route}`, {
    headers: key === null ? {} : { 'x-api-key': key },
    redirect: 'manual'
  })
  const text = await res.text()
  return { status: res.status, location: res.headers.get('location'), body: text }
}

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}/_emulator/agents${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: res.status, body: (await res.json()) as Json }
}

describe('where the agent server is', () => {
  it('a codehost deployment without a custom_url of its own has the emulator’s agent server as its custom_url', async () => {
    const d = await call(emu, 'GET', `/v2/deployments/${LIVE}`)
    const url = (d.body as Json).source_config.custom_url as string
    expect(url).toBe(`http://127.0.0.1:${emu.port}/_agents/${LIVE}`)
    const ok = await fetch(`${url}/ok`, { headers: { 'x-api-key': CLOUD_KEY } })
    expect(await ok.json()).toEqual({ ok: true })
  })

  it('a custom_url given is kept; a docker deployment gets none', async () => {
    const given = await call(emu, 'POST', '/v2/deployments', {
      body: codehostBody('given', {
        source_config: {
          integration_id: INTEGRATION,
          repo_url: REPO,
          custom_url: 'https://agent.example.com'
        }
      })
    })
    expect((given.body as Json).source_config.custom_url).toBe('https://agent.example.com')
    const docker = await call(emu, 'POST', '/v2/deployments', {
      body: dockerBody('img'),
      key: SELF_KEY
    })
    expect((docker.body as Json).source_config.custom_url).toBeNull()
  })
})

describe('GET /ok and /info', () => {
  it('healthy by default: /ok answers {"ok": true}, /info the version', async () => {
    expect(await probe(LIVE)).toMatchObject({ status: 200, body: '{"ok":true}' })
    expect(JSON.parse((await probe(LIVE, '/info')).body)).toEqual({ version: '0.4.12' })
  })

  it('the key is checked: none is 401, another tenant’s is 403; unknown deployments and routes 404', async () => {
    expect((await probe(LIVE, '/ok', null)).status).toBe(401)
    expect((await probe(LIVE, '/ok', OTHER_KEY)).status).toBe(403)
    expect((await probe('55555555-5555-4555-8555-555555555555')).status).toBe(404)
    expect((await probe(LIVE, '/docs')).status).toBe(404)
  })

  it('probes are logged with whether the key was right, never the key, and not in the API request log', async () => {
    await probe(LIVE, '/ok?check_db=1')
    await probe(LIVE, '/ok', OTHER_KEY)
    expect(emu.agents.probes(LIVE)).toEqual([
      expect.objectContaining({ path: '/ok?check_db=1', key: 'valid', status: 200 }),
      expect.objectContaining({ path: '/ok', key: 'wrong', status: 403 })
    ])
    expect(JSON.stringify(emu.agents.probes())).not.toContain(CLOUD_KEY)
    expect(emu.requests()).toEqual([])
  })

  it('a deployment whose first revision is not DEPLOYED yet answers 503', async () => {
    const created = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('fresh') })
    const id = (created.body as Json).id as string
    expect((await probe(id)).status).toBe(503)
    clock.advance(60 * 60_000)
    expect((await probe(id)).status).toBe(200)
  })
})

describe('scripted health (admin API)', () => {
  const statuses = async (n: number, route = '/ok') => {
    const out: number[] = []
    for (let i = 0; i < n; i++) out.push((await probe(LIVE, route)).status)
    return out
  }

  it('failing with a status, the body given', async () => {
    await admin('POST', `/${LIVE}/health`, { health: 'failing', status: 500, body: 'no graph' })
    expect(await probe(LIVE)).toMatchObject({
      status: 500,
      body: '{"ok":false,"error":"no graph"}'
    })
    expect((await admin('GET', `/${LIVE}/health`)).body).toMatchObject({ health: 'failing' })
  })

  it('flapping: every n-th probe fails', async () => {
    await admin('POST', `/${LIVE}/health`, { health: 'flapping', every: 3, status: 502 })
    expect(await statuses(6)).toEqual([200, 200, 502, 200, 200, 502])
  })

  it('the first probes failing, then healthy', async () => {
    await admin('POST', `/${LIVE}/health`, { failFirst: 2 })
    expect(await statuses(4)).toEqual([503, 503, 200, 200])
  })

  it('a sequence scripts the first probes one by one, then `health` applies', async () => {
    await admin('POST', `/${LIVE}/health`, {
      sequence: ['healthy', 'redirect', 'failing'],
      health: 'unavailable'
    })
    expect(await statuses(5)).toEqual([200, 307, 503, 404, 404])
  })

  it('unavailable: both routes 404, as with the meta routes turned off', async () => {
    await admin('POST', `/${LIVE}/health`, { health: 'unavailable' })
    expect(await statuses(2)).toEqual([404, 404])
    expect((await probe(LIVE, '/info')).status).toBe(404)
  })

  it('a redirect names another host', async () => {
    await admin('POST', `/${LIVE}/health`, {
      health: 'redirect',
      location: 'https://sso.example.net/'
    })
    expect(await probe(LIVE)).toMatchObject({ status: 307, location: 'https://sso.example.net/' })
  })

  it('reset: the connection is closed without an answer', async () => {
    await admin('POST', `/${LIVE}/health`, { health: 'reset' })
    await expect(probe(LIVE)).rejects.toThrow()
    expect(emu.agents.probes(LIVE)).toEqual([expect.objectContaining({ status: null })])
  })

  it('slow: the answer comes after delayMs', async () => {
    await admin('POST', `/${LIVE}/health`, { health: 'slow', delayMs: 60_000 })
    const early = fetch(`${emu.url}/_agents/${LIVE}/ok`, {
      headers: { 'x-api-key': CLOUD_KEY },
      signal: AbortSignal.timeout(50)
    })
    await expect(early).rejects.toThrow()
    await admin('POST', `/${LIVE}/health`, { health: 'slow', delayMs: 1 })
    expect((await probe(LIVE)).status).toBe(200)
  })

  it('a database down fails /ok?check_db=1 only', async () => {
    await admin('POST', `/${LIVE}/health`, { database: 'down', status: 500 })
    expect((await probe(LIVE)).status).toBe(200)
    expect(await probe(LIVE, '/ok?check_db=1')).toMatchObject({
      status: 500,
      body: '{"ok":false,"error":"database unreachable"}'
    })
  })

  it('`*` scripts every server without its own script, deployments created later included', async () => {
    await admin('POST', '/*/health', { health: 'failing' })
    const created = await call(emu, 'POST', '/v2/deployments', { body: codehostBody('later') })
    clock.advance(60 * 60_000)
    expect((await probe((created.body as Json).id as string)).status).toBe(503)
    await admin('POST', `/${LIVE}/health`, { health: 'healthy' })
    expect((await probe(LIVE)).status).toBe(200)
  })

  it('a new script starts the probe count again: a sequence applies from the next probe', async () => {
    await statuses(3)
    await admin('POST', '/*/health', { sequence: ['healthy'], health: 'failing' })
    expect(await statuses(2)).toEqual([200, 503])
    await admin('POST', `/${LIVE}/health`, { sequence: ['healthy'], health: 'failing' })
    expect(await statuses(2)).toEqual([200, 503])
  })

  it('a bad spec is 400 naming the field; DELETE and reset make every server healthy and clear the log', async () => {
    const bad = await admin('POST', `/${LIVE}/health`, { health: 'sick' })
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toMatch(/health/)
    await admin('POST', `/${LIVE}/health`, { health: 'failing' })
    await probe(LIVE)
    expect((await admin('GET', '')).body.probes).toHaveLength(1)
    await admin('DELETE', '')
    expect((await admin('GET', '')).body.probes).toEqual([])
    expect((await probe(LIVE)).status).toBe(200)
    emu.agents.script(LIVE, { health: 'failing' })
    emu.reset()
    expect((await probe(LIVE)).status).toBe(200)
  })
})
