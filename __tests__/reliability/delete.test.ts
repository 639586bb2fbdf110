// `command: delete` under faults on the delete request: a lost answer, errors that pass and errors
// that do not, a reset connection, and a deployment that another job deleted while this run's
// delete was on its way. Judged from the emulator's state (a deleted deployment shows
// AWAITING_DELETE, then reads answer 404) and its request log.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { Emulator, FaultSpec } from '../../emulator/server.ts'
import type { RunResult } from '../e2e/harness.ts'
import {
  debugEnv,
  errorText,
  existingDeployment,
  FIXTURE_SECRET,
  lane,
  settled,
  sleep,
  type Case,
  inBothLogModesWithEmulator
} from './support.ts'

const GROUP = GROUPS.delete
const DELETE_PATH = '/v2/deployments/*'

/** The inputs of a cleanup job: key, URL, the exact name, `command: delete`. */
function deleteInputs(c: Case, emu: Emulator, name: string): Record<string, string> {
  const { apiKey } = emu.credentials()
  c.secrets.push(apiKey, FIXTURE_SECRET)
  return { 'api-key': apiKey, 'base-url': emu.url, name, command: 'delete', timeout: '60s' }
}

/** What a read of the deployment answers now (200, or 404 once it is gone). */
async function readStatus(emu: Emulator, id: string): Promise<number> {
  const res = await fetch(`${emu.url}/v2/deployments/${id}`, {
    headers: { 'x-api-key': emu.credentials().apiKey }
  })
  await res.arrayBuffer()
  return res.status
}

const deletes = (emu: Emulator) => emu.requests().filter(q => q.method === 'DELETE')

/** The fixture's deployment, deleted by a run with `faults` set. */
async function deleteUnder(
  c: Case,
  emu: Emulator,
  debug: boolean,
  faults: FaultSpec[]
): Promise<{ id: string; r: RunResult }> {
  const d = existingDeployment(emu)
  emu.setFaults(faults)
  const r = await c.run({ inputs: deleteInputs(c, emu, d.name), env: debugEnv(debug) })
  await settled(emu)
  c.check(
    emu.requests().some(q => q.fault !== null),
    'the fault was never applied: the case proves nothing'
  )
  c.check(
    deletes(emu).every(q => q.path === `/v2/deployments/${d.id}`),
    `a delete of something else: ${deletes(emu)
      .map(q => q.path)
      .join(', ')}`
  )
  c.note(`${deletes(emu).length} DELETE requests`)
  return { id: d.id, r }
}

/** Exit 0, `deleted=true`, and the emulator shows the deployment gone. */
async function expectDeleted(c: Case, emu: Emulator, id: string, r: RunResult): Promise<void> {
  c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
  c.check(r.errors.length === 0, `an error was reported: ${errorText(r).slice(0, 200)}`)
  c.check(r.outputs.deleted === 'true', `deleted output ${r.outputs.deleted}, expected true`)
  c.check(
    existingDeployment(emu).status === 'AWAITING_DELETE',
    `the emulator shows the deployment ${existingDeployment(emu).status}, not deleted`
  )
  const read = await readStatus(emu, id)
  c.check(read === 404, `a read of the deployment answers ${read}, expected 404 (gone)`)
}

describe(GROUP, () => {
  const four = lane(4)

  inBothLogModesWithEmulator(
    GROUP,
    'the delete answer lost once: one deletion, success, deleted=true',
    async (c, emu, debug) => {
      const { id, r } = await deleteUnder(c, emu, debug, [
        { kind: 'lost-response', method: 'DELETE', path: DELETE_PATH, times: 1 }
      ])
      await expectDeleted(c, emu, id, r)
    },
    { lane: four }
  )

  for (const [key, spec] of [
    ['500', { kind: 'status', status: 500 }],
    ['connection reset', { kind: 'reset' }]
  ] as const)
    inBothLogModesWithEmulator(
      GROUP,
      `${key} on the delete 3 times, then healthy: retried, deleted=true`,
      async (c, emu, debug) => {
        const { id, r } = await deleteUnder(c, emu, debug, [
          { ...spec, method: 'DELETE', path: DELETE_PATH, times: 3 } as FaultSpec
        ])
        await expectDeleted(c, emu, id, r)
        c.check(deletes(emu).length === 4, `${deletes(emu).length} DELETE requests, expected 4`)
      },
      { lane: four }
    )

  inBothLogModesWithEmulator(
    GROUP,
    '500 on the delete for good: exit 1 with a clear error, the deployment still there',
    async (c, emu, debug) => {
      const { id, r } = await deleteUnder(c, emu, debug, [
        { kind: 'status', status: 500, method: 'DELETE', path: DELETE_PATH }
      ])
      c.check(r.code === 1, `exit ${r.code}, expected 1`)
      c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
      const text = errorText(r)
      c.check(
        /delete deployment/.test(text) && /HTTP 500/.test(text),
        `the error does not name the delete and HTTP 500: ${text.slice(0, 300)}`
      )
      c.check(r.outputs.deleted === 'false', `deleted output ${r.outputs.deleted}, expected false`)
      c.check(
        existingDeployment(emu).status === 'READY',
        `the emulator shows the deployment ${existingDeployment(emu).status}, expected READY`
      )
      const read = await readStatus(emu, id)
      c.check(read === 200, `a read of the deployment answers ${read}, expected 200`)
    },
    { lane: four }
  )

  inBothLogModesWithEmulator(
    GROUP,
    'deleted by another job while the delete was on its way (404): success, deleted=false',
    async (c, emu, debug) => {
      const d = existingDeployment(emu)
      // Hold this run's delete back; meanwhile another job deletes the deployment, so that the
      // held delete arrives at a deployment that is gone and is answered 404.
      emu.setFaults({ kind: 'delay', ms: 3000, method: 'DELETE', path: DELETE_PATH, times: 1 })
      const running = c.run({ inputs: deleteInputs(c, emu, d.name), env: debugEnv(debug) })
      const held = async () => {
        for (let i = 0; i < 300; i++) {
          if (deletes(emu).some(q => q.fault === 'delay')) return true
          await sleep(20)
        }
        return false
      }
      if (c.check(await held(), 'the run sent no delete')) {
        const other = await fetch(`${emu.url}/v2/deployments/${d.id}`, {
          method: 'DELETE',
          headers: { 'x-api-key': emu.credentials().apiKey }
        })
        c.check(other.status === 204, `the other job's delete answered ${other.status}`)
        for (let i = 0; i < 100 && (await readStatus(emu, d.id)) !== 404; i++) await sleep(20)
      }
      const r = await running
      await settled(emu)
      const ours = deletes(emu).find(q => q.fault === 'delay')
      c.check(ours?.status === 404, `the run's delete was answered ${ours?.status}, not 404`)
      c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
      c.check(r.errors.length === 0, `an error was reported: ${errorText(r).slice(0, 200)}`)
      c.check(/already gone/.test(r.stdout), 'the log does not say the deployment was already gone')
      // `deleted` is "true when this run deleted the deployment" (action.yml): here
      // another job did, as when no deployment of the name is found (deleted=false).
      c.check(
        r.outputs.deleted === 'false',
        `deleted output ${r.outputs.deleted}, expected false: this run deleted nothing`
      )
    },
    { lane: four }
  )
})
