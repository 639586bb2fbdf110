// A failed revision end to end: its log in the job (secrets redacted), the log's absence costing
// one warning and nothing else, and `on-failure: rollback` restoring the previous revision.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.ts'
import { leaks, runAction, uniqueName, type RunOptions } from './harness.ts'

let emu: Emulator
let key: string
let integration: string

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 4 })
  key = emu.credentials().apiKey
  integration = emu.credentials().integrationId!
})
afterAll(() => emu.close())
beforeEach(() => {
  emu.clearFaults()
  emu.clearRequests()
})

const inputs = (over: Record<string, string> = {}): Record<string, string> => ({
  'api-key': key,
  'base-url': emu.url,
  'integration-id': integration,
  'poll-interval': '2s',
  ...over
})
const run = (o: Partial<RunOptions> & { inputs: Record<string, string> }) => runAction(o)
const named = (name: string) =>
  emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .filter(d => d.name === name)
const logRequests = () => emu.requests().filter(r => /\/logs$|_logs$/.test(r.path))
const redeploys = () => emu.requests().filter(r => r.path.endsWith('/redeploy'))
const warnings = (stdout: string) => stdout.split('\n').filter(l => l.startsWith('::warning'))
const PLANTED = 'planted-secret-value-42'

describe('the log of a failed revision', () => {
  test('a build failure shows its last lines, redacted, and names the telling line', async () => {
    const name = uniqueName('build-log')
    emu.script({
      outcome: 'BUILD_FAILED',
      logLines: [
        'Installing dependencies',
        `Using token ${PLANTED}`,
        '::error::injected',
        'ModuleNotFoundError: No module named agentlib'
      ]
    })
    const r = await run({ inputs: inputs({ name, secrets: `TOKEN=${PLANTED}` }) })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/::group::Build log of revision [0-9a-f-]+ \(last \d+ lines\)/)
    expect(r.stdout).toContain('Using token ***')
    expect(r.stdout).not.toMatch(/^::error::injected/m)
    expect(leaks(r, [PLANTED])).toEqual([])
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /ended BUILD_FAILED after \S+: ModuleNotFoundError: No module named agentlib/
    )
    expect(r.summary).toContain('<details><summary>')
    expect(r.summary).toContain('ModuleNotFoundError')
  })

  test('a deploy failure shows the deploy log', async () => {
    const name = uniqueName('deploy-log')
    emu.script({
      outcome: 'DEPLOY_FAILED',
      logLines: ['Starting server', 'Health check failed: port 8000 not open']
    })
    const r = await run({ inputs: inputs({ name }) })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/::group::Deploy log of revision/)
    expect(r.errors[0]).toMatch(/ended DEPLOY_FAILED .*Health check failed/)
  })

  test.each([
    ['404', { kind: 'status' as const, status: 404 }],
    ['500', { kind: 'status' as const, status: 500 }]
  ])('a log that answers %s costs one warning and changes nothing else', async (_n, fault) => {
    const name = uniqueName('no-log')
    emu.addFaults({ ...fault, path: '**/*logs' })
    const r = await run({ inputs: inputs({ name, ref: 'fail-build' }) })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/ended BUILD_FAILED/)
    expect(warnings(r.stdout).filter(w => /Could not show the log/.test(w))).toHaveLength(1)
  })

  test('failure-logs: 0 makes no log request; a successful deploy makes none either', async () => {
    const r = await run({
      inputs: inputs({ name: uniqueName('off'), ref: 'fail-build', 'failure-logs': '0' })
    })
    expect(r.code).toBe(1)
    const ok = await run({ inputs: inputs({ name: uniqueName('ok') }) })
    expect(ok.code).toBe(0)
    expect(logRequests()).toEqual([])
  })
})

describe('on-failure: rollback', () => {
  test('a failed revision is followed by the previous one, redeployed and DEPLOYED', async () => {
    const name = uniqueName('rollback')
    const good = await run({ inputs: inputs({ name }) })
    expect(good.code).toBe(0)
    emu.clearRequests()
    const r = await run({ inputs: inputs({ name, ref: 'fail-build', 'on-failure': 'rollback' }) })
    expect(r.code).toBe(1)
    expect(redeploys()).toHaveLength(1)
    expect(redeploys()[0]!.path).toContain(good.outputs['revision-id']!)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    const [d] = named(name)
    expect(r.outputs['rollback-revision-id']).toBe(d!.active_revision_id)
    expect(r.errors[0]).toMatch(/ended BUILD_FAILED.*Rolled back: revision \S+ \(a redeploy of /)
    expect(r.summary).toContain('Rollback timeline')
  })

  test('a first deploy that fails has nothing to roll back to, and says so', async () => {
    const r = await run({
      inputs: inputs({ name: uniqueName('first'), ref: 'fail-build', 'on-failure': 'rollback' })
    })
    expect(r.code).toBe(1)
    expect(redeploys()).toEqual([])
    expect(r.errors[0]).toMatch(/Not rolled back: nothing to roll back to/)
    expect(r.outputs['rollback-revision-id']).toBeUndefined()
  })

  test('a timeout is not rolled back', async () => {
    const name = uniqueName('slow')
    await run({ inputs: inputs({ name }) })
    emu.clearRequests()
    emu.setSpeed(0.5)
    const r = await run({
      inputs: inputs({
        name,
        ref: 'release',
        timeout: '1s',
        'poll-interval': '1s',
        'on-failure': 'rollback'
      })
    })
    expect(r.code).toBe(1)
    emu.setSpeed(4)
    expect(r.errors[0]).toMatch(/Timed out/)
    expect(redeploys()).toEqual([])
  })

  test('a lost redeploy answer is read back: one redeploy, never two', async () => {
    const name = uniqueName('lost-redeploy')
    await run({ inputs: inputs({ name }) })
    emu.clearRequests()
    emu.addFaults({ kind: 'lost-response', method: 'POST', path: '**/redeploy', times: 1 })
    const r = await run({ inputs: inputs({ name, ref: 'fail-build', 'on-failure': 'rollback' }) })
    expect(r.code).toBe(1)
    expect(redeploys()).toHaveLength(1)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  })
})
