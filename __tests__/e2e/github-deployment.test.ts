// GitHub deployments end to end: the bundle (`node index.js` on Node 24, see e2e/harness.ts) against
// the control-plane emulator and a local fake of the GitHub REST API (GITHUB_API_URL). What is
// asserted is what GitHub would have received, the exit code, the outputs and the log. A failed
// build's status and GitHub refusing are the flow's: __tests__/commands/deploy/command.failure.test.ts.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import {
  BUILDS_FOR_A_DAY,
  e2eWithGitHub,
  emulatorInputs,
  leaks,
  PUSH_MAIN,
  runAction,
  uniqueName,
  type RunOptions,
  pullRequestFrom
} from './harness.ts'
import type { FakeGitHub } from '../../scripts/fake-github.ts'

const TOKEN = 'ghs_fake0token0for0the0e2e0test0000000001'
const LOG_URL = 'https://github.com/acme/agent-server/actions/runs/1'

/** Each test has its own emulator (at speed 10) and its own fake GitHub: they run concurrently. */
const e2e = (title: string, body: (emu: Emulator, github: FakeGitHub) => Promise<void>) =>
  e2eWithGitHub(title, ({ emu }, github) => body(emu, github), { speed: 10 })

function run(
  emu: Emulator,
  github: FakeGitHub,
  inputs: Record<string, string>,
  more: Partial<RunOptions> = {}
) {
  return runAction({
    inputs: emulatorInputs(emu, { 'poll-interval': '1s', name: uniqueName('gh'), ...inputs }),
    env: { GITHUB_API_URL: github.url },
    ...more
  })
}

const creates = (github: FakeGitHub) => github.requests.filter(r => r.path.endsWith('/deployments'))
const statusBodies = (github: FakeGitHub) =>
  github.requests.filter(r => r.path.endsWith('/statuses'))

e2e(
  'with github-token and environment: a deploy that succeeds: deployment for the commit, in_progress, then success',
  async (emu, github) => {
    const r = await run(emu, github, {
      'github-token': TOKEN,
      environment: 'production',
      'environment-url': 'https://agent.example.com'
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')

    expect(creates(github)).toHaveLength(1)
    const [create] = creates(github)
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
    const [progress, success] = statusBodies(github)
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
  }
)

e2e(
  'with github-token and environment: a pull request: the deployment is for its head commit, not the merge commit',
  async (emu, github) => {
    const head = 'c0ffee0000000000000000000000000000000002'
    const r = await run(
      emu,
      github,
      { 'github-token': TOKEN, environment: 'preview', wait: 'false' },
      {
        event: pullRequestFrom(9, 'feature-y', head, 'aaaa000000000000000000000000000000000009')
      }
    )
    expect(r.code).toBe(0)
    expect(creates(github)[0]!.body).toMatchObject({ ref: head, environment: 'preview' })
    expect(github.statuses(Number(r.outputs['github-deployment-id']))).toEqual([
      'in_progress',
      'success'
    ])
  }
)

// Builds for a day: the signal lands while the run waits however slow the machine. The 7.5 s the
// runner allows before SIGTERM is the door's own timer, held on a fake clock in
// __tests__/action/main.cancel.test.ts; here, the order of events: the signal seen while waiting,
// then the step's own exit (1, not the harness's kill), with GitHub told before it.
e2eWithGitHub(
  'with github-token and environment: cancelled while waiting: inactive, and the step exits on its own',
  async ({ emu }, github) => {
    const r = await run(
      emu,
      github,
      { name: uniqueName('gh-cancel'), 'github-token': TOKEN, environment: 'production' },
      { cancel: { signal: 'SIGINT', when: '::group::Wait for revision' } }
    )
    expect(r.code).toBe(1)
    const waiting = r.stdout.indexOf('::group::Wait for revision')
    expect(waiting).toBeGreaterThanOrEqual(0)
    expect(r.stdout.indexOf('Received SIGINT: stopping.')).toBeGreaterThan(waiting)
    const id = Number(r.outputs['github-deployment-id'])
    expect(github.statuses(id)).toEqual(['in_progress', 'inactive'])
    expect(String(statusBodies(github).at(-1)!.body.description)).toContain('Cancelled')
  },
  { speed: 10, stageDurationsMs: BUILDS_FOR_A_DAY }
)

e2e(
  'nothing reaches GitHub: without environment, even with the default token',
  async (emu, github) => {
    const r = await run(emu, github, { 'github-token': TOKEN })
    expect(r.code).toBe(0)
    expect(github.requests).toEqual([])
    expect(r.outputs['github-deployment-id']).toBe('')
  }
)

e2e('nothing reaches GitHub: in a dry run', async (emu, github) => {
  const r = await run(emu, github, {
    'github-token': TOKEN,
    environment: 'production',
    'dry-run': 'true'
  })
  expect(r.code).toBe(0)
  expect(github.requests).toEqual([])
  expect(r.stdout).toContain('Dry run: no GitHub deployment')
})

e2e(
  'nothing reaches GitHub: with environment but no token: an input error before any request',
  async (emu, github) => {
    emu.clearRequests()
    const r = await run(emu, github, { environment: 'production' })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toContain('github-token')
    expect(github.requests).toEqual([])
    expect(emu.requests()).toEqual([])
  }
)
