// GitHub deployments end to end: the committed bundle (`node dist/index.js` on Node 24) against
// the control-plane emulator and a local fake of the GitHub REST API (GITHUB_API_URL). What is
// asserted is what GitHub would have received, the exit code, the outputs and the log.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.ts'
import { PUSH_MAIN, leaks, runAction, uniqueName, type RunOptions } from '../e2e/harness.ts'
import { startFakeGitHub, type FakeGitHub } from '../../scripts/fake-github.ts'

const TOKEN = 'ghs_fake0token0for0the0e2e0test0000000001'
const LOG_URL = 'https://github.com/acme/agent-server/actions/runs/1'

let emu: Emulator
let github: FakeGitHub

beforeAll(async () => {
  ;[emu, github] = await Promise.all([startEmulator({ port: 0, speed: 10 }), startFakeGitHub()])
})
afterAll(() => Promise.all([emu.close(), github.close()]))
beforeEach(() => github.reset())

function run(inputs: Record<string, string>, more: Partial<RunOptions> = {}) {
  const c = emu.credentials()
  return runAction({
    inputs: {
      'api-key': c.apiKey,
      'base-url': emu.url,
      'integration-id': c.integrationId!,
      'poll-interval': '1s',
      name: uniqueName('gh'),
      ...inputs
    },
    env: { GITHUB_API_URL: github.url },
    ...more
  })
}

const creates = () => github.requests.filter(r => r.path.endsWith('/deployments'))
const statusBodies = () => github.requests.filter(r => r.path.endsWith('/statuses'))

describe('with github-token and environment', () => {
  test('a deploy that succeeds: deployment for the commit, in_progress, then success', async () => {
    const r = await run({
      'github-token': TOKEN,
      environment: 'production',
      'environment-url': 'https://agent.example.com'
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')

    expect(creates()).toHaveLength(1)
    const [create] = creates()
    expect(create!.path).toBe('/repos/acme/agent-server/deployments')
    expect(create!.headers.authorization).toBe(`token ${TOKEN}`)
    expect(create!.body).toMatchObject({
      ref: PUSH_MAIN.sha,
      environment: 'production',
      auto_merge: false,
      required_contexts: []
    })

    const id = Number(r.outputs['github-deployment-id'])
    expect(id).toBeGreaterThan(0)
    expect(github.statuses(id)).toEqual(['in_progress', 'success'])
    const [progress, success] = statusBodies()
    expect(progress!.body).toMatchObject({ state: 'in_progress', log_url: LOG_URL })
    expect(success!.body).toMatchObject({
      state: 'success',
      log_url: LOG_URL,
      environment_url: 'https://agent.example.com'
    })
    expect(String(success!.body.description)).toContain('DEPLOYED')
    // The token is masked at once and written nowhere else.
    expect(r.stdout).toContain(`::add-mask::${TOKEN}`)
    expect(leaks(r, [TOKEN])).toEqual([])
  })

  test('a failed build: failure with the log URL, and the step fails on its own account', async () => {
    const r = await run({
      'github-token': TOKEN,
      environment: 'staging',
      ref: 'fail-build-branch'
    })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('BUILD_FAILED')
    const id = Number(r.outputs['github-deployment-id'])
    expect(github.statuses(id)).toEqual(['in_progress', 'failure'])
    const failure = statusBodies().at(-1)!
    expect(failure.body).toMatchObject({ state: 'failure', log_url: LOG_URL })
    expect(failure.body.environment_url).toBeUndefined()
    expect(String(failure.body.description)).toContain('BUILD_FAILED')
  })

  test('a pull request: the deployment is for its head commit, not the merge commit', async () => {
    const head = 'c0ffee0000000000000000000000000000000002'
    const r = await run(
      { 'github-token': TOKEN, environment: 'preview', wait: 'false' },
      {
        event: {
          name: 'pull_request',
          ref: 'refs/pull/9/merge',
          refName: '9/merge',
          headRef: 'feature-y',
          sha: 'aaaa000000000000000000000000000000000009',
          payload: { pull_request: { number: 9, head: { ref: 'feature-y', sha: head } } }
        }
      }
    )
    expect(r.code).toBe(0)
    expect(creates()[0]!.body).toMatchObject({ ref: head, environment: 'preview' })
    expect(github.statuses(Number(r.outputs['github-deployment-id']))).toEqual([
      'in_progress',
      'success'
    ])
  })

  test('GitHub refusing (403) is one warning; the deploy goes on and decides the result', async () => {
    github.failWith(403, 'Resource not accessible by integration')
    const r = await run({ 'github-token': TOKEN, environment: 'production' })
    expect(r.code).toBe(0)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')
    expect(r.outputs['github-deployment-id']).toBeUndefined()
    const warnings = r.stdout.split('\n').filter(l => l.startsWith('::warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('GitHub deployment not created')
    expect(warnings[0]).toContain('HTTP 403')
    expect(warnings[0]).toContain('deployments: write')
    expect(statusBodies()).toEqual([])
  })

  test('cancelled while waiting: inactive, and the step still exits within 2 s', async () => {
    const slow = await startEmulator({ port: 0, speed: 0.05 })
    try {
      const c = slow.credentials()
      const r = await runAction({
        inputs: {
          'api-key': c.apiKey,
          'base-url': slow.url,
          'integration-id': c.integrationId!,
          name: uniqueName('gh-cancel'),
          'github-token': TOKEN,
          environment: 'production'
        },
        env: { GITHUB_API_URL: github.url },
        cancel: { signal: 'SIGINT', when: '::group::Wait for revision' }
      })
      expect(r.code).not.toBe(0)
      expect(r.exitAfterSignalMs).toBeLessThan(2000)
      const id = Number(r.outputs['github-deployment-id'])
      expect(github.statuses(id)).toEqual(['in_progress', 'inactive'])
      expect(String(statusBodies().at(-1)!.body.description)).toContain('Cancelled')
    } finally {
      await slow.close()
    }
  })
})

describe('nothing reaches GitHub', () => {
  test('without environment, even with the default token', async () => {
    const r = await run({ 'github-token': TOKEN })
    expect(r.code).toBe(0)
    expect(github.requests).toEqual([])
    expect(r.outputs['github-deployment-id']).toBeUndefined()
  })

  test('in a dry run', async () => {
    const r = await run({ 'github-token': TOKEN, environment: 'production', 'dry-run': 'true' })
    expect(r.code).toBe(0)
    expect(github.requests).toEqual([])
    expect(r.stdout).toContain('Dry run: no GitHub deployment')
  })

  test('with environment but no token: an input error before any request', async () => {
    emu.clearRequests()
    const r = await run({ environment: 'production' })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toContain('github-token')
    expect(github.requests).toEqual([])
    expect(emu.requests()).toEqual([])
  })
})
