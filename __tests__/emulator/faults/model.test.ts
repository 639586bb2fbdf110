// Fault kinds that lie about the model (for the reliability suite): an update answered with the
// old revision, a revision answer about another revision, a 404 right after the write, a list
// that never ends. Each is scripted as a client would see it.
import { describe, expect, it } from '@jest/globals'
import { Deployment, DeploymentList, Revision } from '../../../src/control-plane/schema.ts'

import {
  call,
  codehostBody,
  emulatorPerTest,
  type Json,
  STAGES_100_MS,
  patchRef as patchRefOf
} from '../../builders/emulator.ts'

const { emu, clock } = emulatorPerTest({ stageDurationsMs: STAGES_100_MS }, { manualClock: true })

async function create(name = 'model') {
  const r = await call(emu, 'POST', '/v2/deployments', { body: codehostBody(name) })
  expect(r.status).toBe(201)
  return Deployment.parse(r.body)
}

const patchRef = (id: string, ref: string) => patchRefOf(emu, id, ref)

const getDeployment = async (id: string) =>
  Deployment.parse((await call(emu, 'GET', `/v2/deployments/${id}`)).body)

const getRevision = (id: string, rid: string) =>
  call(emu, 'GET', `/v2/deployments/${id}/revisions/${rid}`)

const revisionsOf = (name: string) =>
  emu.state().tenants.flatMap(t => t.deployments.filter(d => d.name === name))[0]!.revisions

describe('old-revision', () => {
  it('applies the update but answers with the previous latest_revision_id', async () => {
    const d = await create()
    emu.setFaults({ kind: 'old-revision', times: 1 })
    const r = await patchRef(d.id, 'feature')
    expect(r.status).toBe(200)
    expect(Deployment.parse(r.body).latest_revision_id).toBe(d.latest_revision_id)
    const after = await getDeployment(d.id)
    expect(after.latest_revision_id).not.toBe(d.latest_revision_id)
    expect(after.source_revision_config.repo_ref).toBe('feature')
    expect(revisionsOf('model')).toHaveLength(2)
    expect(emu.requests().at(-2)?.fault).toBe('old-revision')
  })

  it('write: dropped changes nothing and answers the deployment as it is', async () => {
    const d = await create()
    emu.setFaults({ kind: 'old-revision', write: 'dropped' })
    const r = await patchRef(d.id, 'feature')
    expect(r.status).toBe(200)
    expect(Deployment.parse(r.body).latest_revision_id).toBe(d.latest_revision_id)
    emu.clearFaults()
    const after = await getDeployment(d.id)
    expect(after.latest_revision_id).toBe(d.latest_revision_id)
    expect(after.source_revision_config.repo_ref).toBe('main')
    expect(revisionsOf('model')).toHaveLength(1)
  })

  it('hits only PATCH of a deployment by default', async () => {
    emu.setFaults({ kind: 'old-revision' })
    const d = await create()
    expect(d.latest_revision_id).not.toBeNull()
    expect((await getDeployment(d.id)).latest_revision_id).toBe(d.latest_revision_id)
  })
})

describe('other-revision', () => {
  it('answers a revision GET with another, DEPLOYED revision of the deployment', async () => {
    const d = await create()
    clock.advance(700)
    const second = Deployment.parse((await patchRef(d.id, 'next')).body)
    emu.setFaults({ kind: 'other-revision', times: 1 })
    const lie = Revision.parse((await getRevision(d.id, second.latest_revision_id!)).body)
    expect(lie.id).toBe(d.latest_revision_id)
    expect(lie.status).toBe('DEPLOYED')
    const truth = Revision.parse((await getRevision(d.id, second.latest_revision_id!)).body)
    expect([truth.id, truth.status]).toEqual([second.latest_revision_id, 'CREATING'])
  })

  it('previous and made-up answers; a status override', async () => {
    const d = await create()
    const second = Deployment.parse((await patchRef(d.id, 'next')).body)
    const asked = second.latest_revision_id!
    emu.setFaults({ kind: 'other-revision', answer: 'previous', times: 1 })
    expect((await getRevision(d.id, asked)).body).toMatchObject({ id: d.latest_revision_id })
    emu.setFaults({ kind: 'other-revision', answer: 'made-up', status: 'DEPLOYED', times: 1 })
    const madeUp = Revision.parse((await getRevision(d.id, asked)).body)
    expect(madeUp.status).toBe('DEPLOYED')
    const known = revisionsOf('model').map(r => r.id)
    expect(known).not.toContain(madeUp.id)
  })

  it('without another DEPLOYED revision, answers a made-up DEPLOYED one', async () => {
    const d = await create()
    emu.setFaults({ kind: 'other-revision' })
    const lie = Revision.parse((await getRevision(d.id, d.latest_revision_id!)).body)
    expect(lie.id).not.toBe(d.latest_revision_id)
    expect(lie.status).toBe('DEPLOYED')
    expect((await getRevision(d.id, '99999999-9999-4999-8999-999999999999')).status).toBe(404)
  })
})

describe('a 404 right after the write (the status kind)', () => {
  it('answers 404 {detail} to the first N GETs of the new revision, then the revision', async () => {
    const d = await create()
    emu.setFaults({
      kind: 'status',
      status: 404,
      method: 'GET',
      path: '/v2/deployments/*/revisions/*',
      times: 2
    })
    for (let i = 0; i < 2; i++) {
      const r = await getRevision(d.id, d.latest_revision_id!)
      expect([r.status, r.body]).toEqual([404, { detail: 'Not Found' }])
    }
    expect((await getDeployment(d.id)).id).toBe(d.id)
    expect((await getRevision(d.id, d.latest_revision_id!)).status).toBe(200)
  })
})

describe('endless-list', () => {
  it('answers full pages of look-alike deployments with an offset that advances for ever', async () => {
    await create('agent')
    emu.setFaults({ kind: 'endless-list' })
    let offset = 0
    const seen = new Set<string>()
    for (let page = 0; page < 3; page++) {
      const r = await call(
        emu,
        'GET',
        `/v2/deployments?name_contains=agent&limit=5&offset=${offset}`
      )
      const list = DeploymentList.parse(r.body)
      expect(list.resources).toHaveLength(5)
      expect(list.offset).toBe(offset + 5)
      for (const d of list.resources) {
        expect(d.name).toMatch(/^agent-\d+$/)
        seen.add(d.id)
      }
      offset = list.offset
    }
    expect(seen.size).toBe(15)
    expect((await call(emu, 'GET', '/v2/deployments', { key: null })).status).toBe(401)
  })

  it('advance: false answers the requested offset again', async () => {
    emu.setFaults({ kind: 'endless-list', advance: false })
    const r = await call(emu, 'GET', '/v2/deployments?offset=40')
    const body = r.body as Json
    expect(body.offset).toBe(40)
    expect(body.resources).toHaveLength(20)
  })
})
