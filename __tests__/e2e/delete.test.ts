// `command: delete` end to end: only the exact name, absent names a success, dry runs, the tracing
// project, the wait through AWAITING_DELETE and a lost answer; and the pull-request comment.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.ts'
import { startFakeGitHub, type FakeGitHub } from '../../scripts/fake-github.ts'
import { leaks, runAction, uniqueName, type RunOptions } from './harness.ts'

let emu: Emulator
let gh: FakeGitHub
let key: string
let integration: string
const TOKEN = 'ghs_e2eTokenValue0123456789'

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 4 })
  gh = await startFakeGitHub()
  key = emu.credentials().apiKey
  integration = emu.credentials().integrationId!
})
afterAll(async () => {
  await emu.close()
  await gh.close()
})
beforeEach(() => {
  emu.clearFaults()
  emu.clearRequests()
  gh.reset()
})

const deployInputs = (name: string, over: Record<string, string> = {}) => ({
  'api-key': key,
  'base-url': emu.url,
  'integration-id': integration,
  'poll-interval': '2s',
  name,
  ...over
})
const deleteInputs = (name: string, over: Record<string, string> = {}) => ({
  'api-key': key,
  'base-url': emu.url,
  'poll-interval': '2s',
  command: 'delete',
  name,
  ...over
})
const run = (o: Partial<RunOptions> & { inputs: Record<string, string> }) => runAction(o)
/** Names of the deployments still there (one being deleted is as good as gone). */
const names = () =>
  emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .filter(d => d.status !== 'AWAITING_DELETE')
    .map(d => d.name)
const deletes = () => emu.requests().filter(r => r.method === 'DELETE')

describe('command: delete', () => {
  test('deletes only the exact name among look-alikes, and waits until it is gone', async () => {
    const base = uniqueName('pv')
    for (const n of [`${base}-1`, `${base}-12`, `my-${base}-1`])
      await run({ inputs: deployInputs(n) })
    emu.clearRequests()
    const r = await run({ inputs: deleteInputs(`${base}-1`) })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('true')
    expect(deletes()).toHaveLength(1)
    expect(names()).not.toContain(`${base}-1`)
    expect(names()).toEqual(expect.arrayContaining([`${base}-12`, `my-${base}-1`]))
    expect(r.stdout).toMatch(/Gone after \S+: reads answer 404/)
    expect(r.stdout).toMatch(/tracing project .* was kept/)
  })

  test('an absent name is a success that writes nothing', async () => {
    const r = await run({ inputs: deleteInputs(uniqueName('absent')) })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('false')
    expect(emu.requests().filter(q => q.method !== 'GET')).toEqual([])
  })

  test('a dry run says what it would delete and deletes nothing', async () => {
    const name = uniqueName('dry-delete')
    await run({ inputs: deployInputs(name) })
    const r = await run({ inputs: deleteInputs(name, { 'dry-run': 'true' }) })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Dry run: would delete deployment/)
    expect(deletes()).toEqual([])
    expect(names()).toContain(name)
  })

  test('delete-tracing-project sends the query that frees the name', async () => {
    const name = uniqueName('free-name')
    await run({ inputs: deployInputs(name) })
    emu.clearRequests()
    const r = await run({ inputs: deleteInputs(name, { 'delete-tracing-project': 'true' }) })
    expect(r.code).toBe(0)
    expect(deletes()[0]!.query).toMatchObject({ delete_tracing_project: 'true' })
  })

  test('a lost delete answer is reconciled: one deletion, success', async () => {
    const name = uniqueName('lost-delete')
    await run({ inputs: deployInputs(name) })
    emu.clearRequests()
    emu.addFaults({ kind: 'lost-response', method: 'DELETE', times: 1 })
    const r = await run({ inputs: deleteInputs(name) })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('true')
    expect(names()).not.toContain(name)
  })

  test('deploy-only inputs are refused with command: delete, before any request', async () => {
    const r = await run({ inputs: deleteInputs(uniqueName('bad'), { secrets: 'A=abcdefgh' }) })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/secrets.*applies only to deploying/)
    expect(emu.requests()).toEqual([])
  })
})

describe('pr-comment', () => {
  const pullRequest = (n: number) => ({
    name: 'pull_request',
    headRef: 'feature',
    sha: 'a'.repeat(40),
    payload: {
      number: n,
      pull_request: {
        number: n,
        head: { ref: 'feature', sha: 'a'.repeat(40), repo: { full_name: 'acme/agent-server' } },
        base: { ref: 'main', repo: { full_name: 'acme/agent-server' } }
      }
    }
  })

  test('one comment per pull request and name, updated in place, then marked deleted', async () => {
    const name = uniqueName('pr')
    const env = { GITHUB_API_URL: gh.url }
    const withComment = { 'pr-comment': 'true', 'github-token': TOKEN }
    const first = await run({ inputs: deployInputs(name, withComment), event: pullRequest(7), env })
    expect(first.code).toBe(0)
    expect(gh.comments(7)).toHaveLength(1)
    const second = await run({
      inputs: deployInputs(name, withComment),
      event: pullRequest(7),
      env
    })
    expect(second.code).toBe(0)
    expect(gh.comments(7)).toHaveLength(1)
    const removed = await run({
      inputs: deleteInputs(name, withComment),
      event: pullRequest(7),
      env
    })
    expect(removed.code).toBe(0)
    expect(gh.comments(7)).toHaveLength(1)
    expect(gh.comments(7)[0]!.body).toMatch(/removed|deleted/i)
    for (const r of [first, second, removed]) expect(leaks(r, [TOKEN])).toEqual([])
  })

  test('a GitHub 500 costs one warning and never the deploy', async () => {
    gh.failWith(500, 'boom')
    const r = await run({
      inputs: deployInputs(uniqueName('pr-500'), { 'pr-comment': 'true', 'github-token': TOKEN }),
      event: pullRequest(8),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(0)
    const comment = r.stdout
      .split('\n')
      .filter(l => /^::warning title=Pull request comment/.test(l))
    expect(comment).toHaveLength(1)
    expect(leaks(r, [TOKEN])).toEqual([])
  })
})
