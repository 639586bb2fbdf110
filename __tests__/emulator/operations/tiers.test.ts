// The emulator as today's service: the two types and their tiers, `PATCH .../resource-tiers` with
// its validation and a new revision per resize, legacy type reads, status_message on failures,
// driven over HTTP only.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../../emulator/server.ts'
import { call, codehostBody, INTEGRATION, REPO, start, type Json } from '../../builders/emulator.ts'

let emu: Emulator
beforeEach(async () => {
  emu = await start({ speed: 1000 })
})
afterEach(async () => {
  await emu.close()
})

async function create(name: string, deployment_type: string): Promise<Json> {
  const body = codehostBody(name, {
    source_config: { integration_id: INTEGRATION, repo_url: REPO, deployment_type }
  })
  const r = await call(emu, 'POST', '/v2/deployments', { body })
  expect(r.status).toBe(201)
  return r.body as Json
}
const resize = (id: string, body: unknown) =>
  call(emu, 'PATCH', `/v2/deployments/${id}/resource-tiers`, { body })

describe('types and tiers', () => {
  it('a new deployment starts at its type’s smallest tiers', async () => {
    expect(await create('s', 'serverless')).toMatchObject({
      deployment_tier: 'SERVERLESS_S',
      database_tier: null
    })
    expect(await create('d', 'dedicated')).toMatchObject({
      deployment_tier: 'DEDICATED_S',
      database_tier: 'DEDICATED_S'
    })
  })

  it('a resize sets the tiers and makes a new revision of the latest one’s source', async () => {
    const d = await create('d', 'dedicated')
    const r = await resize(d.id as string, {
      compute_tier: 'DEDICATED_L',
      database_tier: 'DEDICATED_M'
    })
    expect(r.status).toBe(200)
    const after = r.body as Json
    expect(after).toMatchObject({ deployment_tier: 'DEDICATED_L', database_tier: 'DEDICATED_M' })
    expect(after.latest_revision_id).not.toBe(d.latest_revision_id)
    expect((after.source_revision_config as Json).repo_ref).toBe('main')
  })

  it('refuses what the service refuses: no tier (422), another type’s tier or a database on Serverless (400)', async () => {
    const s = await create('s', 'serverless')
    const id = s.id as string
    expect((await resize(id, {})).status).toBe(422)
    expect((await resize(id, { compute_tier: 'HUGE' })).status).toBe(422)
    const other = await resize(id, { compute_tier: 'DEDICATED_M' })
    expect([other.status, (other.body as Json).detail]).toEqual([
      400,
      expect.stringMatching(/not a tier of a serverless deployment/)
    ])
    const db = await resize(id, { database_tier: 'DEDICATED_M' })
    expect([db.status, (db.body as Json).detail]).toEqual([
      400,
      expect.stringMatching(/applies only to dedicated deployments/)
    ])
    expect((await call(emu, 'GET', `/v2/deployments/${id}`)).body).toMatchObject({
      deployment_tier: 'SERVERLESS_S',
      latest_revision_id: s.latest_revision_id
    })
  })

  it('legacy reads answer the old word; a PATCH in a word of the same type is no change', async () => {
    const s = await create('s', 'serverless')
    await emu.configure({ legacyTypeReads: true })
    const read = await call(emu, 'GET', `/v2/deployments/${s.id as string}`)
    expect((read.body as Json).source_config).toMatchObject({ deployment_type: 'dev_zero' })
    const same = await call(emu, 'PATCH', `/v2/deployments/${s.id as string}`, {
      body: { source_config: { deployment_type: 'dev' } }
    })
    expect(same.status).toBe(200)
    const other = await call(emu, 'PATCH', `/v2/deployments/${s.id as string}`, {
      body: { source_config: { deployment_type: 'prod' } }
    })
    expect(other.status).toBe(400)
  })

  it('a failed revision says why in status_message; a scripted one says what it was given', async () => {
    const d = await create('d', 'dedicated')
    emu.script({ outcome: 'BUILD_FAILED', deploymentId: d.id as string, statusMessage: 'no space' })
    const r = await resize(d.id as string, { compute_tier: 'DEDICATED_M' })
    const rev = (r.body as Json).latest_revision_id as string
    await new Promise(done => setTimeout(done, 50))
    const read = await call(emu, 'GET', `/v2/deployments/${d.id as string}/revisions/${rev}`)
    expect(read.body).toMatchObject({ status: 'BUILD_FAILED', status_message: 'no space' })
  })
})
