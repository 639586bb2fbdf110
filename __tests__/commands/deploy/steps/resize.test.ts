// The resize waits only on a revision this run made: in-process against the emulator on one
// virtual clock, a resize answered with a revision from before the run (the emulator's
// `old-revision` fault naming the deployment's first revision) is read again, and when the reads
// keep naming it the run fails saying so; never a success on the old revision.
import { expect, test } from '@jest/globals'
import { ControlPlaneClient } from '../../../../src/control-plane/client.ts'
import { failureText, type Ending } from '../../../../src/interface/ending.ts'
import { deploy } from '../../../../src/commands/deploy/flow.ts'
import { newJournal } from '../../../../src/commands/deploy/facts.ts'
import type { Options } from '../../../../src/inputs/options.ts'
import { ACTION_SAY, linesLog, testOptions } from '../../../builders.ts'
import { virtualEmulator } from '../../../builders/virtual-emulator.ts'

const v = virtualEmulator()
const { now, sleep } = v

function inputs(raw: Record<string, string> = {}): Options {
  const c = v.emu.credentials()
  return testOptions(
    { 'api-key': c.apiKey, 'tenant-id': c.tenantId, 'integration-id': c.integrationId!, ...raw },
    { baseUrl: v.emu.url }
  )
}

async function run(o: Options) {
  const { lines, log } = linesLog()
  const c = v.emu.credentials()
  const client = new ControlPlaneClient({
    baseUrl: v.emu.url,
    apiKey: c.apiKey,
    tenantId: c.tenantId,
    say: ACTION_SAY,
    clock: { now, sleep }
  })
  const state = newJournal(o)
  let ending: Ending
  try {
    ending = await deploy(o, state, { client, log, say: ACTION_SAY, clock: { now, sleep } })
  } finally {
    client.close()
  }
  return { state, lines, ending, error: ending.failure ? failureText(ending.failure) : '' }
}

/** The revisions of the deployment `state` names, oldest first. */
const revisionsOf = (id: string) =>
  v.emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.id === id)!.revisions

const OLDEST = {
  kind: 'old-revision',
  revision: 'oldest',
  path: '/v2/deployments/*/resource-tiers'
} as const

/** A deployment made by an earlier run (its first revision), and another revision after it. */
async function deployedTwice(): Promise<string> {
  const first = await run(inputs())
  expect(first.ending.outcome).toBe('deployed')
  expect((await run(inputs({ ref: 'feature-a' }))).ending.outcome).toBe('deployed')
  return first.state.deploymentId!
}

test('a resize answered with a revision from before the run: read again, waited on the resize’s own', async () => {
  const id = await deployedTwice()
  v.emu.addFaults({ ...OLDEST, times: 1 })
  const r = await run(inputs({ ref: 'feature-a', size: 'medium' }))
  expect(r.error).toBe('')
  expect(r.ending.outcome).toBe('deployed')
  const [oldest] = revisionsOf(id)
  const resized = revisionsOf(id).at(-1)
  expect(r.state.revisionId).toBe(resized!.id)
  expect(r.lines).toContain(`Revision ${resized!.id} appeared for this resize.`)
  expect(r.lines.some(l => l.includes(`names revision ${oldest!.id}, made before`))).toBe(true)
})

test('a resize whose answer and reads keep naming an older revision: the run fails, never on it', async () => {
  const id = await deployedTwice()
  v.emu.addFaults([OLDEST, { kind: 'old-revision', revision: 'oldest', method: 'GET' }])
  const r = await run(inputs({ ref: 'feature-b', size: 'medium' }))
  const [oldest] = revisionsOf(id)
  expect(r.ending.outcome).toBe('error')
  expect(r.ending.failure?.title).toBe('Resize revision not this run’s')
  expect(r.error).toMatch(
    `answered with revision ${oldest!.id}, which was made before this run's revision`
  )
  expect(r.state.revisionId).not.toBe(oldest!.id)
  expect(r.lines.some(l => l.includes(`Wait for revision ${oldest!.id}`))).toBe(false)
})

test('a resize answered with its own new revision is taken as it is, without a re-read', async () => {
  await deployedTwice()
  const r = await run(inputs({ ref: 'feature-a', size: 'medium' }))
  expect(r.ending.outcome).toBe('deployed')
  expect(r.lines.some(l => /Reading the deployment again/.test(l))).toBe(false)
})
