// A failed revision in-process: run() through a fake port with the runner's context of a push,
// against a real emulator over loopback HTTP. A deploy failure's log, a log's absence costing one
// warning, `failure-logs: 0`, an unhealthy revision's deploy log ending with its server's errors,
// and `on-failure: rollback` (restored, nothing to restore, not for a timeout, a lost redeploy
// answer, a revision superseded, another revision active meanwhile); GitHub's side of a failure
// (a failed build's deployment status, GitHub refusing or failing). The build log as the runner
// shows it (redacted, its workflow commands inert) is in __tests__/e2e/failure.test.ts.
import { expect } from '@jest/globals'
import { demoFixture, type Emulator, type EmulatorOptions } from '../../../emulator/server.ts'
import type { FakeGitHub } from '../../../scripts/fake-github.ts'
import { PUSH_MAIN, type GitHubEvent } from '../../../scripts/runner-env.ts'
import { run } from '../../../src/run.ts'
import {
  emulatorTest,
  expectRolledBackTo,
  inRunner,
  loadSeeded,
  pullRequest,
  seededDeployment,
  withGitHub,
  type Seeded
} from '../../builders/in-process.ts'
import { failureLogRead, startGateProxy } from '../../e2e/gate.ts'

/** What a user reads of one run: its exit, outputs, log (lines as the runner prints them), errors. */
interface Deploy {
  code: number
  outputs: Record<string, string>
  stdout: string
  errors: string[]
  summary: string
  /** Everything the run said: its log, summary and outputs. */
  said: string
}

/** Called once, when the run opens the group that starts with `when`. */
interface OnGroup {
  when: string
  run: () => void | Promise<void>
}

/** A deploy with these inputs, in the runner's context of `event` (a push to main by default). */
async function deploy(
  inputs: Record<string, string>,
  onGroup?: OnGroup,
  runner: { event?: GitHubEvent; github?: FakeGitHub } = {}
): Promise<Deploy> {
  return inRunner(
    'cpd-failure-',
    inputs,
    async port => {
      let hooked = false
      port.group = async (name, fn) => {
        port.calls.push(`group: ${name}`)
        if (onGroup && !hooked && name.startsWith(onGroup.when)) {
          hooked = true
          void onGroup.run()
        }
        try {
          return await fn()
        } finally {
          port.calls.push('endgroup')
        }
      }
      const result = await run(port)
      const stdout = port.calls
        .map(c =>
          c === 'endgroup'
            ? '::endgroup::'
            : c.replace(/^info: /, '').replace(/^group: /, '::group::')
        )
        .join('\n')
      return {
        code: result.exitCode,
        outputs: result.outputs,
        stdout,
        said: [...port.calls, ...port.summaries, ...Object.values(result.outputs)].join('\n'),
        errors: port.calls.filter(c => c.startsWith('error: ')),
        summary: port.summaries.join('')
      }
    },
    { ...runner, workspace: true }
  )
}

interface T {
  emu: Emulator
  key: string
  inputs(over?: Record<string, string>): Record<string, string>
  named(name: string): ReturnType<Emulator['state']>['tenants'][number]['deployments']
  /** A deployment READY with one DEPLOYED revision of main, before the run; its id. */
  seed(name: string): string
}

const MAIN_AT_PUSH = {
  [`${demoFixture().integrations![0]!.repositories![0]!.url}@main`]: PUSH_MAIN.sha!
}

/** A test with its own emulator (speed 4 unless `options` say otherwise), main at the push. */
function failureTest(title: string, body: (t: T) => Promise<void>, options: EmulatorOptions = {}) {
  emulatorTest(
    title,
    async emu => {
      emu.configure({ repoCommits: MAIN_AT_PUSH })
      const c = emu.credentials()
      const seeded: Seeded[] = []
      const named = (name: string) =>
        emu
          .state()
          .tenants.flatMap(x => x.deployments)
          .filter(d => d.name === name)
      await body({
        emu,
        key: c.apiKey,
        named,
        inputs: (over = {}) => ({
          'api-key': c.apiKey,
          'base-url': emu.url,
          'integration-id': c.integrationId!,
          'poll-interval': '2s',
          ...over
        }),
        seed: name => {
          seeded.push(seededDeployment(emu, name))
          return loadSeeded(emu, seeded, MAIN_AT_PUSH)
        }
      })
    },
    options
  )
}

let unique = 0
const uniqueName = (prefix: string) => `${prefix}-${++unique}`
const logRequests = (emu: Emulator) => emu.requests().filter(r => /\/logs$|_logs$/.test(r.path))
const warnings = (r: Deploy) => r.stdout.split('\n').filter(l => l.startsWith('warning: '))
const redeploys = (emu: Emulator) => emu.requests().filter(r => r.path.endsWith('/redeploy'))
/** A run whose revision fails its build (`ref: fail-build`), with `over`. */
const failing = (inputs: T['inputs'], over: Record<string, string>) =>
  deploy(inputs({ ref: 'fail-build', ...over }))
const ROLLBACK = { 'on-failure': 'rollback' }
/** Revisions BUILDING as soon as they exist and for a day: only a timeout ends the run. */
const BUILDS_FOR_A_DAY = { CREATING: 0, QUEUED: 0, AWAITING_BUILD: 0, BUILDING: 24 * 3600_000 }

failureTest(
  'the log of a failed revision: a deploy failure shows the deploy log',
  async ({ emu, inputs }) => {
    emu.script({
      outcome: 'DEPLOY_FAILED',
      logLines: ['Starting server', 'Health check failed: port 8000 not open']
    })
    const r = await deploy(inputs({ name: uniqueName('deploy-log') }))
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/::group::Deploy log of revision/)
    expect(r.errors[0]).toMatch(/ended DEPLOY_FAILED .*Health check failed/)
  }
)

for (const status of [404, 500]) {
  failureTest(
    `the log of a failed revision: a log that answers ${status} costs one warning and changes nothing else`,
    async ({ emu, inputs }) => {
      emu.addFaults({ kind: 'status', status, path: '**/*logs' })
      const r = await failing(inputs, { name: uniqueName('no-log') })
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(/ended BUILD_FAILED/)
      expect(warnings(r).filter(w => /Could not show the log/.test(w))).toHaveLength(1)
    }
  )
}

failureTest(
  'the log of a failed revision: failure-logs: 0 makes no log request, not even while it builds',
  async ({ emu, inputs }) => {
    const r = await failing(inputs, { name: uniqueName('off'), 'failure-logs': '0' })
    expect(r.code).toBe(1)
    const ok = await deploy(inputs({ name: uniqueName('ok'), 'failure-logs': '0' }))
    expect(ok.code).toBe(0)
    expect(logRequests(emu)).toEqual([])
    expect(ok.stdout).not.toMatch(/^build \| /m)
  }
)

failureTest(
  'on-failure: rollback: a failed revision is followed by the previous one, redeployed and DEPLOYED',
  async ({ emu, inputs, named, seed }) => {
    const name = uniqueName('rollback')
    seed(name)
    const good = named(name)[0]!.active_revision_id!
    const r = await failing(inputs, { name, ...ROLLBACK })
    expect(r.code).toBe(1)
    expectRolledBackTo(r, emu, good)
    const [d] = named(name)
    expect(r.outputs['rollback-revision-id']).toBe(d!.active_revision_id)
    expect(r.errors[0]).toMatch(/ended BUILD_FAILED.*Rolled back: revision \S+ \(a redeploy of /)
    expect(r.summary).toContain('Rollback timeline')
  }
)

failureTest(
  'on-failure: rollback: a first deploy that fails has nothing to roll back to, and says so',
  async ({ emu, inputs }) => {
    const r = await failing(inputs, { name: uniqueName('first'), ...ROLLBACK })
    expect(r.code).toBe(1)
    expect(redeploys(emu)).toEqual([])
    expect(r.errors[0]).toMatch(/Not rolled back: nothing to roll back to/)
    expect(r.outputs['rollback-revision-id']).toBe('')
  }
)

failureTest(
  'on-failure: rollback: a timeout is not rolled back',
  async ({ emu, inputs, seed }) => {
    const name = uniqueName('slow')
    seed(name)
    const r = await deploy(
      inputs({
        name,
        ref: 'release',
        timeout: '2s',
        'poll-interval': '1s',
        'on-failure': 'rollback'
      })
    )
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(/Still BUILDING after 2s/)
    expect(redeploys(emu)).toEqual([])
  },
  // The new revision builds for a day: only the timeout ends the run, however slow the machine.
  { stageDurationsMs: BUILDS_FOR_A_DAY }
)

failureTest(
  'on-failure: rollback: a lost redeploy answer is read back: one redeploy, never two',
  async ({ emu, inputs, seed }) => {
    const name = uniqueName('lost-redeploy')
    seed(name)
    emu.addFaults({ kind: 'lost-response', method: 'POST', path: '**/redeploy', times: 1 })
    const r = await failing(inputs, { name, ...ROLLBACK })
    expect(r.code).toBe(1)
    expect(redeploys(emu)).toHaveLength(1)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
  }
)

failureTest(
  'on-failure: rollback: a revision superseded (SKIPPED) is not rolled back',
  async ({ emu, key, inputs, named, seed }) => {
    const name = uniqueName('skipped')
    seed(name)
    // This run's revision would fail its build, but a newer revision supersedes it first.
    const r = await deploy(inputs({ name, ref: 'fail-build', 'on-failure': 'rollback' }), {
      when: 'Wait for revision',
      run: async () => {
        await patch(emu, key, named(name)[0]!.id)
        emu.setSpeed(1000)
      }
    })
    expect(r.code).toBe(0)
    expect(r.outputs['revision-status']).toBe('SKIPPED')
    expect(redeploys(emu)).toEqual([])
    expect(r.outputs['rollback-revision-id']).toBe('')
    expect(r.stdout).not.toMatch(/Rolling back/)
  },
  // Near-frozen until the newer revision has arrived (however loaded the machine, this run's cannot
  // fail first), then fast: the run follows the newer revision to its end.
  { speed: 0.0001 }
)

failureTest(
  'on-failure: rollback: not done when another revision became active meanwhile, and says why',
  async ({ emu, key, inputs, named, seed }) => {
    const name = uniqueName('overtaken')
    seed(name)
    const good = named(name)[0]!.active_revision_id!
    const proxy = await startGateProxy(emu.url)
    try {
      // The failed revision's log is read before the rollback: held until another run's
      // revision is DEPLOYED (the emulator fast-forwarded until then), whatever the timing.
      const logs = proxy.gate(failureLogRead)
      let other = ''
      void logs.reached.then(async () => {
        other = await patch(emu, key, named(name)[0]!.id)
        emu.setSpeed(1000)
        while (named(name)[0]!.active_revision_id !== other)
          await new Promise(res => setTimeout(res, 5))
        emu.setSpeed(4)
        logs.open()
      })
      const r = await deploy(
        inputs({ name, ref: 'fail-build', 'on-failure': 'rollback', 'base-url': proxy.url })
      )
      expect(r.code).toBe(1)
      expect(other).not.toBe('')
      expect(named(name)[0]!.active_revision_id).toBe(other)
      expect(redeploys(emu)).toEqual([])
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(/ended BUILD_FAILED/)
      // The other run's revision is the latest: that alone holds the rollback back.
      expect(r.errors[0]).toContain(
        `Not rolled back: revision ${other} came after this run's revision ${r.outputs['revision-id']}`
      )
      expect(r.errors[0]).not.toContain(good)
      expect(r.outputs['rollback-revision-id']).toBe('')
    } finally {
      await proxy.close()
    }
  }
)

/** Another run's update: PATCHes the deployment over HTTP; the id of the new revision. */
async function patch(emu: Emulator, key: string, deploymentId: string): Promise<string> {
  const res = await fetch(`${emu.url}/v2/deployments/${deploymentId}`, {
    method: 'PATCH',
    headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ source_revision_config: { repo_ref: 'main' } })
  })
  return ((await res.json()) as { latest_revision_id: string }).latest_revision_id
}

failureTest(
  'the log of an unhealthy revision: its deploy log ends with what its server printed when the probes failed, not only with the rollout that passed',
  async ({ emu, inputs }) => {
    // As run 4 of the demo: it answers once, then its graph no longer loads.
    emu.agents.script('*', {
      sequence: ['healthy'],
      health: 'failing',
      status: 500,
      body: 'graph "agent" failed to load: KeyError: OPENAI_API_BASE'
    })
    const r = await deploy(
      inputs({
        name: uniqueName('unhealthy-log'),
        'health-check': 'true',
        'health-check-window': '2s'
      })
    )
    expect(r.code).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    const group = /::group::Deploy log of revision [^\n]*\n([^]*?)::endgroup::/.exec(r.stdout)
    expect(group).not.toBeNull()
    const lines = group![1]!.trim().split('\n')
    expect(lines.at(-1)).toMatch(
      /^ERROR +"GET \/ok HTTP\/1\.1" 500: graph "agent" failed to load: KeyError: OPENAI_API_BASE$/
    )
  }
)

// GitHub's side: each test with its own fake GitHub (GITHUB_API_URL in the runner's context).
const TOKEN = 'ghs_fake0token0for0the0e2e0test0000000001'
const LOG_URL = 'https://github.com/acme/agent-server/actions/runs/1'
const statusBodies = (github: FakeGitHub) =>
  github.requests.filter(r => r.path.endsWith('/statuses'))

function githubTest(title: string, body: (t: T, github: FakeGitHub) => Promise<void>) {
  failureTest(title, t => withGitHub(github => body(t, github)), { speed: 10 })
}

githubTest(
  'with github-token and environment: a failed build: failure with the log URL, and the step fails on its own account',
  async ({ inputs }, github) => {
    const r = await deploy(
      inputs({
        name: uniqueName('gh'),
        'poll-interval': '1s',
        'github-token': TOKEN,
        environment: 'staging',
        ref: 'fail-build-branch'
      }),
      undefined,
      { github }
    )
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('BUILD_FAILED')
    const id = Number(r.outputs['github-deployment-id'])
    expect(github.statuses(id)).toEqual(['in_progress', 'failure'])
    const failure = statusBodies(github).at(-1)!
    expect(failure.body).toMatchObject({ state: 'failure', log_url: LOG_URL })
    expect(failure.body.environment_url).toBeUndefined()
    expect(String(failure.body.description)).toContain('BUILD_FAILED')
  }
)

githubTest(
  'with github-token and environment: GitHub refusing (403) is one warning; the deploy goes on and decides the result',
  async ({ inputs }, github) => {
    github.failWith(403, 'Resource not accessible by integration')
    const r = await deploy(
      inputs({
        name: uniqueName('gh'),
        'poll-interval': '1s',
        'github-token': TOKEN,
        environment: 'production'
      }),
      undefined,
      { github }
    )
    expect(r.code).toBe(0)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')
    expect(r.outputs['github-deployment-id']).toBe('')
    expect(warnings(r)).toHaveLength(1)
    expect(warnings(r)[0]).toContain('GitHub deployment not created')
    expect(warnings(r)[0]).toContain('HTTP 403')
    expect(warnings(r)[0]).toContain('deployments: write')
    expect(statusBodies(github)).toEqual([])
  }
)

githubTest('pr-comment: a GitHub 500 costs one warning and never the deploy', async (t, github) => {
  github.failWith(500, 'boom')
  const r = await deploy(
    t.inputs({ name: uniqueName('pr-500'), 'pr-comment': 'true', 'github-token': TOKEN }),
    undefined,
    { github, event: pullRequest(8) }
  )
  expect(r.code).toBe(0)
  expect(warnings(r).filter(l => /^warning: Pull request comment/.test(l))).toHaveLength(1)
  expect(r.said).not.toContain(TOKEN)
})
