// `command: delete` in-process: run() through a fake port with the runner's context of a push,
// against a real emulator over loopback HTTP. An absent id, the wait through AWAITING_DELETE, a
// dry run, the tracing project's query and a lost answer. What only the bundle shows (the notice
// of an absent name as an annotation, deploy-only inputs refused as the runner sees it, the
// pull-request comment with its token) is in __tests__/e2e/sweep.test.ts.
import { expect } from '@jest/globals'
import type { Emulator } from '../../../emulator/server.ts'
import { run } from '../../../src/run.ts'
import {
  emulatorTest,
  heldIn,
  inRunner,
  liveNames,
  loadSeeded,
  seededDeployment
} from '../../builders/in-process.ts'

/** What a user reads of one run: its exit, outputs and log. */
interface Delete {
  code: number
  outputs: Record<string, string>
  /** Every line the run said, `info: ` lines as the runner prints them. */
  stdout: string
}

/** A delete of `name` on `emu` with `over`; `onInfo` sees each line of the log as it is said. */
async function remove(
  emu: Emulator,
  name: string,
  over: Record<string, string> = {},
  onInfo?: (line: string) => void
): Promise<Delete> {
  const inputs = {
    'api-key': emu.credentials().apiKey,
    'base-url': emu.url,
    'poll-interval': '2s',
    command: 'delete',
    name,
    ...over
  }
  return inRunner('cpd-delete-', inputs, async port => {
    const info = port.info
    port.info = line => {
      info(line)
      onInfo?.(line)
    }
    const result = await run(port)
    return {
      code: result.exitCode,
      outputs: result.outputs,
      stdout: port.calls.map(c => c.replace(/^info: /, '')).join('\n')
    }
  })
}

/** A test with its own emulator (speed 4) and a deployment of a new name seeded in it. */
function deleteTest(title: string, body: (emu: Emulator, name: string) => Promise<void>) {
  emulatorTest(title, async emu => {
    const name = `pv-${Math.random().toString(16).slice(2, 10)}`
    loadSeeded(emu, [seededDeployment(emu, name)])
    emu.clearRequests()
    await body(emu, name)
  })
}

const deletes = (emu: Emulator) => emu.requests().filter(r => r.method === 'DELETE')
const idOf = (emu: Emulator, name: string) => heldIn(emu, name).id

deleteTest(
  'command: delete: an absent id is a success with a notice, and writes nothing',
  async emu => {
    const id = '99999999-9999-4999-8999-999999999999'
    const byId = await remove(emu, '', { 'deployment-id': id })
    expect(byId.code).toBe(0)
    expect(byId.outputs.deleted).toBe('false')
    expect(byId.stdout).toContain(`notice: Nothing to delete: No deployment has the id ${id}.`)
    expect(emu.requests().filter(q => q.method !== 'GET')).toEqual([])
  }
)

deleteTest(
  'command: delete: waits through AWAITING_DELETE until reads answer 404',
  async (emu, name) => {
    const id = idOf(emu, name)
    // The emulator's time nearly stands still until the run has read AWAITING_DELETE; then it
    // runs fast until the deployment is gone: the order is decided by events, not by speed.
    emu.setSpeed(0.0001)
    const r = await remove(emu, name, {}, line => {
      if (/^AWAITING_DELETE after /.test(line)) emu.setSpeed(1000)
    })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('true')
    // The wait saw the deployment going, then gone, in that order.
    const awaiting = r.stdout.search(/^AWAITING_DELETE after \S+$/m)
    const gone = r.stdout.search(/^Gone after \S+: reads answer 404\.$/m)
    expect(awaiting).toBeGreaterThan(0)
    expect(gone).toBeGreaterThan(awaiting)
    const reads = emu
      .requests()
      .filter(q => q.method === 'GET' && q.path === `/v2/deployments/${id}`)
    expect(reads.map(q => q.status)).toContain(200)
    expect(reads.at(-1)!.status).toBe(404)
  }
)

deleteTest(
  'command: delete: a dry run says what it would delete and deletes nothing',
  async (emu, name) => {
    const r = await remove(emu, name, { 'dry-run': 'true' })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Dry run: would delete deployment/)
    expect(deletes(emu)).toEqual([])
    expect(liveNames(emu)).toContain(name)
  }
)

deleteTest(
  'command: delete: delete-tracing-project sends the query that frees the name',
  async (emu, name) => {
    const r = await remove(emu, name, { 'delete-tracing-project': 'true' })
    expect(r.code).toBe(0)
    expect(deletes(emu)[0]!.query).toMatchObject({ delete_tracing_project: 'true' })
  }
)

deleteTest(
  'command: delete: a lost delete answer is reconciled: one deletion, success',
  async (emu, name) => {
    emu.addFaults({ kind: 'lost-response', method: 'DELETE', times: 1 })
    const r = await remove(emu, name)
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('true')
    expect(liveNames(emu)).not.toContain(name)
  }
)
