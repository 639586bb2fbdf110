// 50 concurrent clients leave the state consistent.
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { Deployment } from '../../src/control-plane/schema.ts'
import type { Emulator } from '../../emulator/server.ts'
import { call, codehostBody, manualClock, start } from '../builders/emulator.ts'

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
