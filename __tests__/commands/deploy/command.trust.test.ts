// What a run claims, the run's rules: run() in-process through a fake port against the emulator on
// one virtual clock. Listing the same secrets warns of nothing, the deployment's repository is
// kept, a 404 right after the write and an undocumented status are waited through, a name and an
// id of two deployments are refused, and a short timeout alone is accepted. What is asserted is
// what the emulator received, the exit code, the outputs and the log lines. The bundle's share
// (masks, the runner's files, signals, hostile text): __tests__/e2e/trust.test.ts.
import { beforeEach, expect, test } from '@jest/globals'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort, type FakePort } from '../../builders/fake-port.ts'
import { SHA } from '../../builders.ts'
import { DEPLOYS_AT_ONCE, loadSeeded, seededDeployment } from '../../builders/in-process.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

const v = virtualEmulator()
const { now, sleep } = v

/** On the code host, main is at the commit the run's event names: what a push builds. */
const MAIN_AT_EVENT = { 'https://github.com/acme/agent-server@main': SHA }
beforeEach(() => void v.emu.configure({ repoCommits: MAIN_AT_EVENT }))

async function deploy(over: Record<string, string>, port: FakePort = portOf(over)) {
  const result = await run(port, { now, sleep })
  const lines = (kind: string) => port.calls.filter(c => c.startsWith(`${kind}: `))
  return { ...result, port, errors: lines('error'), warnings: lines('warning') }
}
const portOf = (over: Record<string, string>) =>
  fakePort(emulatorInputs(v.emu, { 'poll-interval': '2s', ...over }))

/**
 * A deployment READY with one DEPLOYED revision of `main` (what a first good deploy leaves), made
 * a minute before the run.
 */
function seed(name: string, secrets: Record<string, string> = {}): string {
  const id = loadSeeded(v.emu, [seededDeployment(v.emu, name, secrets)], MAIN_AT_EVENT)
  v.t += 60_000
  return id
}
const writes = () => v.emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')

test('secrets the list leaves out: listing the same secrets again warns of nothing', async () => {
  const name = 'secrets-same'
  seed(name, { ALPHA: 'alpha-1111', BETA: 'beta-2222' })
  const r = await deploy({ name, secrets: 'ALPHA=alpha-1111\nBETA=beta-2222' })
  expect(r.exitCode).toBe(0)
  expect(r.warnings).toEqual([])
})

test('the deployment’s repository is kept: an explicit other repository is an error naming both, before any write', async () => {
  const name = 'repo'
  seed(name)
  const r = await deploy({ name, repository: 'acme/support-bot' })
  expect(r.exitCode).toBe(1)
  expect(r.errors.join('\n')).toMatch(
    /builds https:\/\/github.com\/acme\/agent-server, but `repository` is acme\/support-bot/
  )
  expect(writes()).toEqual([])
})

test('what a run claims: a 404 on the revision right after the write is waited through', async () => {
  v.emu.addFaults({
    kind: 'status',
    status: 404,
    method: 'GET',
    path: '/v2/deployments/*/revisions/*',
    times: 2
  })
  const r = await deploy({ name: 'late-read' })
  expect(r.errors).toEqual([])
  expect(r.exitCode).toBe(0)
  expect(r.outputs['revision-status']).toBe('DEPLOYED')
})

test('what a run claims: an undocumented status is waited through with one warning', async () => {
  const port = portOf({ name: 'unknown-status' })
  // Once the run names its revision, the next three reads of it answer a status nobody documents.
  const info = port.info
  port.info = line => {
    const id = /Revision ([0-9a-f-]{36})\./.exec(line)?.[1]
    if (id && !v.emu.faults().length) {
      const body = { id, status: 'FAILED', created_at: 'x', updated_at: 'x', source: 'codehost' }
      v.emu.addFaults({
        kind: 'bad-schema',
        method: 'GET',
        path: `/v2/deployments/*/revisions/${id}`,
        body,
        times: 3
      })
    }
    info(line)
  }
  const r = await deploy({}, port)
  expect(r.exitCode).toBe(0)
  const w = r.warnings.filter(l => /does not document/.test(l))
  expect(w).toHaveLength(1)
  // Shown neutralised, as UNKNOWN: only the model's words are shown as they came.
  expect(w[0]).toContain('status UNKNOWN (undocumented "FAILED")')
})

test('what a run claims: name and deployment-id of two deployments are refused before any write', async () => {
  const id = seed('by-id')
  v.emu.clearRequests()
  const r = await deploy({ name: 'someone-else', 'deployment-id': id })
  expect(r.exitCode).toBe(1)
  expect(r.errors.join('\n')).toMatch(/is named "[^"]+", not "someone-else"/)
  expect(writes()).toEqual([])
})

test('what a run claims: timeout: 10s alone is accepted (the poll interval follows it)', async () => {
  // Deployed at the first read: the 10 s are the run's to accept, not the stages' to race.
  v.emu.configure({ stageDurationsMs: DEPLOYS_AT_ONCE })
  const r = await deploy({ name: 'short-timeout', timeout: '10s', 'poll-interval': '' })
  expect(r.errors).toEqual([])
  expect(r.exitCode).toBe(0)
})
