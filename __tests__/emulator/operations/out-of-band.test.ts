// Changes no client of the API made, for drift and the sweep: a dated fixture deployment, and
// `POST /_emulator/deployments/<id>/out-of-band` (a redeploy from the web app, settings and secrets
// changed by hand, the time of the last change), seen through the interface's own reads.
import { afterEach, expect, it } from '@jest/globals'
import type { Emulator } from '../../../emulator/server.ts'
import { call, LIVE, liveFixture, start, type Json } from '../../builders/emulator.ts'

let emu: Emulator | undefined
afterEach(async () => {
  await emu?.close()
})

async function outOfBand(id: string, body: unknown) {
  const res = await fetch(`${emu!.url}/_emulator/deployments/${id}/out-of-band`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })
  return { status: res.status, body: (await res.json()) as Json }
}
const read = async () => (await call(emu!, 'GET', `/v2/deployments/${LIVE}`)).body as Json

it('a fixture deployment keeps the dates it is given; its revision is as old as its last change', async () => {
  const updated = '2026-01-02T03:04:05.000Z'
  const fixture = structuredClone(liveFixture)
  fixture.deployments![0] = { ...fixture.deployments![0]!, updated_at: updated }
  emu = await start({ fixture })
  const d = await read()
  expect(d.updated_at).toBe(updated)
  expect(d.created_at).toBe(updated)
  const rev = (
    await call(emu, 'GET', `/v2/deployments/${LIVE}/revisions/${String(d.latest_revision_id)}`)
  ).body as Json
  expect(rev).toMatchObject({ created_at: updated, status: 'DEPLOYED' })
})

it('a redeploy from the web app makes a new revision the deployment reports; nothing enters the request log', async () => {
  emu = await start({ fixture: liveFixture })
  const before = await read()
  const r = await outOfBand(LIVE, { redeploy: { repo_ref: 'hotfix' } })
  expect(r.status).toBe(200)
  const after = await read()
  expect(after.latest_revision_id).toBe(r.body.revision_id)
  expect(after.latest_revision_id).not.toBe(before.latest_revision_id)
  expect(after.active_revision_id).toBe(before.active_revision_id)
  expect((after.source_revision_config as Json).repo_ref).toBe('hotfix')
  expect(emu.requests().filter(q => q.path.includes('out-of-band'))).toEqual([])
})

it('settings and secrets changed by hand, no new revision; the last change set as asked', async () => {
  emu = await start({ fixture: liveFixture })
  const before = await read()
  const r = await outOfBand(LIVE, {
    source_config: { build_on_push: true },
    secrets: [{ name: 'TOKEN', value: 'changed-by-hand' }],
    updated_at: '2025-12-31T00:00:00Z'
  })
  expect(r.body.revision_id).toBeNull()
  const after = await read()
  expect(after.latest_revision_id).toBe(before.latest_revision_id)
  expect((after.source_config as Json).build_on_push).toBe(true)
  expect(after.secrets).toEqual([{ name: 'TOKEN', value: 'changed-by-hand' }])
  expect(after.updated_at).toBe('2025-12-31T00:00:00.000Z')
})

it('a bad change or an unknown deployment is a 400 that says why', async () => {
  emu = await start({ fixture: liveFixture })
  expect((await outOfBand(LIVE, { redeploy: { repo_ref: 'x' }, color: 'red' })).status).toBe(400)
  const unknown = await outOfBand('99999999-9999-4999-8999-999999999999', { redeploy: {} })
  expect(unknown).toMatchObject({
    status: 400,
    body: { detail: expect.stringMatching(/No deployment/) }
  })
})
