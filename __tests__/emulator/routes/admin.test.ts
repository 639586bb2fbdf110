// Admin routes under /_emulator/: no auth, not logged, drive the emulator over HTTP.
import { describe, expect, it } from '@jest/globals'
import type { RequestLogEntry } from '../../../emulator/server.ts'
import {
  adminCall,
  call,
  CLOUD,
  CLOUD_KEY,
  codehostBody,
  emulatorPerTest,
  manualClock,
  start,
  type Json,
  testFixture
} from '../../builders/emulator.ts'

const { emu } = emulatorPerTest()

const admin = (method: string, path: string, body?: unknown) => adminCall(emu, method, path, body)

describe('admin routes', () => {
  it('GET /requests: method, path, query, redacted key, parsed body, status, fault; admin calls left out', async () => {
    await call(emu, 'POST', '/v2/deployments?dry=1', {
      body: codehostBody('logged'),
      headers: { Authorization: 'Bearer abc' }
    })
    await admin('GET', '/state')
    const { body } = await admin('GET', '/requests')
    const log = body.requests as RequestLogEntry[]
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({
      method: 'POST',
      path: '/v2/deployments',
      query: { dry: '1' },
      status: 201,
      fault: null,
      body: codehostBody('logged')
    })
    expect(log[0]!.headers['x-api-key']).toBe('***')
    expect(log[0]!.headers['authorization']).toBe('***')
    expect(JSON.stringify(log)).not.toContain(CLOUD_KEY)
    expect(Date.parse(log[0]!.time)).not.toBeNaN()
  })

  it('POST/DELETE /faults add one or a list and clear them', async () => {
    const one = await admin('POST', '/faults', {
      kind: 'status',
      status: 503,
      path: '/v2/deployments'
    })
    expect(one.body.faults).toHaveLength(1)
    const two = await admin('POST', '/faults', [
      { kind: 'delay', ms: 1 },
      { kind: 'reset', path: '/nowhere' }
    ])
    expect(two.body.faults).toHaveLength(3)
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(503)
    expect(emu.requests()[0]!.fault).toBe('status')
    await admin('DELETE', '/faults')
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(200)
    const bad = await admin('POST', '/faults', { kind: 'status' })
    expect(bad.status).toBe(400)
  })

  it('GET /state shows deployments with their revisions', async () => {
    // On a clock that stands still: the revision is where a create leaves it, however slow the machine.
    const still = await start({ now: manualClock().now })
    try {
      await call(still, 'POST', '/v2/deployments', { body: codehostBody('s') })
      const { body } = await adminCall(still, 'GET', '/state')
      const cloud = body.tenants.find((t: Json) => t.id === CLOUD)
      expect(cloud.deployments.map((d: Json) => d.name)).toEqual(['s'])
      expect(cloud.deployments[0].revisions).toHaveLength(1)
      expect(cloud.deployments[0].revisions[0].status).toBe('CREATING')
    } finally {
      await still.close()
    }
  })

  it('POST /reset restores the fixture and clears faults and the log', async () => {
    await call(emu, 'POST', '/v2/deployments', { body: codehostBody('gone') })
    emu.setFaults({ kind: 'status', status: 500, path: '/nowhere' })
    expect((await admin('POST', '/reset')).status).toBe(200)
    expect(emu.faults()).toEqual([])
    expect(emu.requests()).toEqual([])
    expect(((await call(emu, 'GET', '/v2/deployments')).body as Json).resources).toEqual([])
  })

  it('POST /fixture replaces the state', async () => {
    const r = await admin('POST', '/fixture', {
      ...testFixture,
      tenants: [{ id: CLOUD, api_keys: ['fresh-key'] }],
      integrations: [],
      listeners: []
    })
    expect(r.status).toBe(200)
    expect(r.body.credentials).toEqual({
      apiKey: 'fresh-key',
      tenantId: CLOUD,
      integrationId: null
    })
    expect((await call(emu, 'GET', '/v2/deployments')).status).toBe(401)
    expect((await call(emu, 'GET', '/v2/deployments', { key: 'fresh-key' })).status).toBe(200)
    expect((await admin('POST', '/fixture', { tenants: [] })).status).toBe(400)
  })

  it('POST /speed and POST /config change the lifecycle settings', async () => {
    expect((await admin('POST', '/speed', { factor: 50 })).body.speed).toBe(50)
    const cfg = await admin('POST', '/config', {
      stageDurationsMs: { BUILDING: 5 },
      rateLimit: { rps: 100, retryAfter: 2 }
    })
    expect(cfg.status).toBe(200)
    expect(cfg.body).toMatchObject({
      speed: 50,
      stageDurationsMs: { BUILDING: 5, CREATING: 200 },
      rateLimit: { rps: 100, retryAfter: 2 }
    })
    expect((await admin('POST', '/speed', { factor: 0 })).status).toBe(400)
    expect((await admin('POST', '/config', { unknown: 1 })).status).toBe(400)
  })

  it('unknown admin routes answer 404, a known one with another method 405', async () => {
    expect((await admin('GET', '/nope')).status).toBe(404)
    const wrong = await admin('PUT', '/faults')
    expect([wrong.status, wrong.body.detail]).toEqual([
      405,
      '/_emulator/faults takes GET, POST, DELETE.'
    ])
  })
})
