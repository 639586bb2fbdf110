import { expect, beforeEach, test, describe } from '@jest/globals'
import {
  demoFixture,
  startEmulator,
  type Emulator,
  type EmulatorOptions
} from '../../../emulator/server.ts'
import { type FakeGitHub } from '../../../scripts/fake-github.ts'
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
  heldIn,
  type Seeded
} from '../../builders/in-process.ts'
import { failureLogRead, startGateProxy, withGateProxy as withProxy } from '../../e2e/gate.ts'
import { randomUUID } from 'node:crypto'
import { SHA } from '../../builders.ts'
import { emulatorInputs, fakePort, type FakePort } from '../../builders/fake-port.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

// A failed revision in-process: run() through a fake port with the runner's context of a push,
// against a real emulator over loopback HTTP. A deploy failure's log, a log's absence costing one
// warning, `failure-logs: 0`, an unhealthy revision's deploy log ending with its server's errors,
// and `on-failure: rollback` (restored, nothing to restore, not for a timeout, a lost redeploy
// answer, a revision superseded, another revision active meanwhile); GitHub's side of a failure
// (a failed build's deployment status, GitHub refusing or failing). The build log as the runner
// shows it (redacted, its workflow commands inert) is in __tests__/e2e/action.test.ts.

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

// What the run does on its own (rollback, delete, the wait on a deployment being deleted), the
// run's rules: run() in-process through a fake port against the emulator on one virtual clock,
// among other writers and a control plane that answers wrongly. It acts only on what this run
// owns, re-checks before it writes, and says when it holds back. Races are decided by events (a
// request held until the other writer has acted, a write made as the run starts waiting), never by
// timing. The bundle's share (workflow commands in server text, the url output, the pull-request
// comment): __tests__/e2e/trust.test.ts.
describe('command.autonomy', () => {
  const v = virtualEmulator()
  const { now, sleep } = v

  /** On the code host, main is at the commit the run's event names: what a push builds. */
  const MAIN_AT_EVENT = { 'https://github.com/acme/agent-server@main': SHA }
  /** The deployments the running test seeded: each seed loads them all. */
  let seeded: Seeded[] = []
  beforeEach(() => {
    seeded = []
    v.emu.configure({ repoCommits: MAIN_AT_EVENT })
  })

  const portOf = (over: Record<string, string>, emu: Emulator = v.emu) =>
    fakePort(emulatorInputs(emu, { 'poll-interval': '2s', ...over }))

  async function deploy(over: Record<string, string>, port: FakePort = portOf(over)) {
    const result = await run(port, { now, sleep })
    const errors = port.calls.filter(c => c.startsWith('error: '))
    return {
      ...result,
      port,
      errors,
      log: port.calls.join('\n'),
      summary: port.summaries.join('\n')
    }
  }

  /**
   * A deployment READY with one DEPLOYED revision of `main` (what a first good deploy leaves), made
   * a minute before the run, beside those seeded before it; its id.
   */
  function seed(name: string, secrets: Record<string, string> = {}, emu: Emulator = v.emu): string {
    // Its own id: every seed loads the fixture again, which would give the others new ids.
    seeded.push(seededDeployment(emu, name, secrets, { id: randomUUID() }))
    loadSeeded(emu, seeded, MAIN_AT_EVENT)
    v.t += 60_000
    return named(name, emu).id
  }
  const named = (name: string, emu: Emulator = v.emu) => heldIn(emu, name)
  /** A run of `name` whose revision fails its build, rolled back, through the control plane at `url`. */
  const rollingBack = (name: string, url: string) =>
    deploy({ name, ref: 'fail-build', 'on-failure': 'rollback', 'base-url': url })
  const writesTo = (id: string) =>
    v.emu.requests().filter(r => r.method !== 'GET' && r.path.startsWith(`/v2/deployments/${id}`))
  const redeploys = () => v.emu.requests().filter(r => r.path.endsWith('/redeploy'))

  /** A request to the emulator as another run (or a person) would send it. */
  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${v.emu.url}${path}`, {
      method,
      headers: { 'X-Api-Key': v.emu.credentials().apiKey, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await res.text()
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  }

  /** Calls `act` once, as the run opens the group of that title (before what the group does). */
  function onGroup(port: FakePort, title: RegExp, act: () => Promise<void>): void {
    const group = port.group
    let done = false
    port.group = async (name, fn) => {
      if (!done && title.test(name)) {
        done = true
        await act()
      }
      return group(name, fn)
    }
  }

  // ---------------------------------------------------------------------------------------------
  // An answer about another deployment is an error naming both ids, before any write.

  for (const command of ['deploy', 'delete'] as const) {
    test(`another id: a GET of deployment A answered with B (${command}) writes nothing and names both`, async () => {
      const a = seed('mine')
      const b = seed('other')
      const bBody = await call('GET', `/v2/deployments/${b}`)
      await withProxy(v.emu, async proxy => {
        proxy.rewrite(
          x => x.method === 'GET' && x.path === `/v2/deployments/${a}`,
          () => bBody
        )
        const inputs = { name: '', 'deployment-id': a, 'base-url': proxy.url }
        const r = await deploy(
          command === 'delete' ? { ...inputs, command, 'integration-id': '' } : inputs
        )
        expect(r.exitCode).toBe(1)
        expect(r.errors).toHaveLength(1)
        expect(r.errors[0]).toContain(`about deployment ${b}, not about deployment ${a}`)
        expect(r.outputs['deployment-id']).not.toBe(b)
        if (command === 'delete') expect(r.outputs.deleted).toBe('false')
        expect(writesTo(a)).toEqual([])
        expect(writesTo(b)).toEqual([])
        expect(named('other').status).not.toBe('AWAITING_DELETE')
      })
    })
  }

  test('another id: a PATCH answered with another deployment is an error, not followed', async () => {
    const a = seed('mine')
    const b = seed('other')
    const bBody = await call('GET', `/v2/deployments/${b}`)
    await withProxy(v.emu, async proxy => {
      proxy.rewrite(
        x => x.method === 'PATCH',
        () => bBody
      )
      const r = await deploy({ name: 'mine', 'base-url': proxy.url })
      expect(r.exitCode).toBe(1)
      expect(r.errors[0]).toContain(`about deployment ${b}, not about deployment ${a}`)
      // One PATCH, never sent again on the strength of the lie, and nothing sent to B.
      expect(writesTo(a)).toHaveLength(1)
      expect(writesTo(b)).toEqual([])
      expect(r.outputs['deployment-id']).toBe(a)
    })
  })

  // ---------------------------------------------------------------------------------------------
  // The rollback.

  test('rollback vs a newer write: another run wrote after the failed revision, so nothing is redeployed', async () => {
    const name = 'overtaken'
    const id = seed(name)
    await withProxy(v.emu, async proxy => {
      // The failed revision's log is read before the rollback: held until the other run wrote.
      const logs = proxy.gate(failureLogRead)
      let other = ''
      void logs.reached.then(async () => {
        const d = await call('PATCH', `/v2/deployments/${id}`, {
          source_revision_config: { repo_ref: 'main' }
        })
        other = d.latest_revision_id as string
        logs.open()
      })
      const r = await rollingBack(name, proxy.url)
      expect(r.exitCode).toBe(1)
      expect(other).toMatch(/^[0-9a-f-]{36}$/)
      expect(redeploys()).toEqual([])
      expect(r.errors[0]).toContain(
        `Not rolled back: revision ${other} came after this run's revision ${r.outputs['revision-id']}`
      )
      expect(r.outputs['rollback-revision-id']).toBe('')
      // The other run's revision goes on: not superseded by a rollback.
      expect(named(name).latest_revision_id).toBe(other)
    })
  })

  test('rollback: a redeploy answered with the old latest revision is followed to its own new revision', async () => {
    const name = 'late-redeploy'
    seed(name)
    // Made, but the answer still shows the revision from before.
    v.emu.addFaults({ kind: 'old-revision', method: 'POST', path: '**/redeploy' })
    const r = await deploy({ name, ref: 'fail-build', 'on-failure': 'rollback' })
    expect(r.exitCode).toBe(1)
    const d = named(name)
    expect(redeploys()).toHaveLength(1)
    expect(r.outputs['rollback-revision-id']).toBe(d.latest_revision_id)
    expect(r.outputs['rollback-revision-id']).not.toBe(r.outputs['revision-id'])
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    expect(r.log).toContain("The redeploy's answer names no new revision")
    expect(r.errors[0]).toContain(`Rolled back: revision ${d.latest_revision_id}`)
  })

  test('rollback: a redeploy that made no revision is reported as not confirmed', async () => {
    const name = 'dropped-redeploy'
    const id = seed(name)
    await withProxy(v.emu, async proxy => {
      // The redeploy is never made: its answer is the deployment as it is.
      proxy.divert(x => x.path.endsWith('/redeploy'), {
        method: 'GET',
        path: `/v2/deployments/${id}`
      })
      const r = await rollingBack(name, proxy.url)
      expect(r.exitCode).toBe(1)
      expect(r.errors[0]).toContain('The rollback could not be confirmed')
      expect(r.errors[0]).not.toContain('Rolled back')
      expect(r.outputs['rollback-revision-id']).toBe('')
      expect(named(name).active_revision_id).not.toBe(r.outputs['revision-id'])
      expect(r.summary).toContain('**Rollback**: not confirmed')
    })
  })

  test('rollback: the message and the summary name the secrets and settings it did not undo', async () => {
    const name = 'partial'
    seed(name, { KEEP_ME: 'keep-value-1234', DROP_ME: 'drop-value-5678' })
    const r = await deploy({
      name,
      ref: 'fail-build',
      'on-failure': 'rollback',
      secrets: 'KEEP_ME=keep-value-1234',
      'install-command': 'pip install -e .[extra]'
    })
    expect(r.exitCode).toBe(1)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    for (const text of [r.errors[0]!, r.summary]) {
      expect(text).toContain('secret DROP_ME (removed)')
      expect(text).toContain('install-command')
      expect(text).toContain('stay as this run set them')
    }
    // Indeed: the redeploy brought the old revision back, not the secret.
    expect(named(name).secrets.map(s => s.name)).toEqual(['KEEP_ME'])
  })

  // ---------------------------------------------------------------------------------------------
  // A deployment being deleted, and a deployment deleted during the wait.

  test('deploy meets AWAITING_DELETE: waits until it is gone, then creates it anew', async () => {
    const name = 'reborn'
    const old = seed(name)
    // No time passes before the run's first sleep: it reads AWAITING_DELETE first.
    await call('DELETE', `/v2/deployments/${old}?delete_tracing_project=true`)
    const r = await deploy({ name })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    expect(r.log).toMatch(
      /is being deleted \(AWAITING_DELETE\), so it cannot be updated: waiting until it is gone \(at most the timeout/
    )
    expect(r.outputs.created).toBe('true')
    expect(r.outputs['deployment-id']).not.toBe(old)
    expect(writesTo(old)).toEqual([expect.objectContaining({ method: 'DELETE' })])
  })

  test('a dry run that meets AWAITING_DELETE says what a run would do, and neither waits nor writes', async () => {
    const name = 'reborn-dry'
    const old = seed(name)
    await call('DELETE', `/v2/deployments/${old}`)
    const started = v.t
    const r = await deploy({ name, 'dry-run': 'true' })
    expect(r.exitCode).toBe(0)
    expect(r.log).toContain('a run would wait until it is gone, then create it anew')
    expect(r.log).toMatch(/Create deployment/)
    expect(v.emu.requests().filter(q => q.method === 'POST' || q.method === 'PATCH')).toEqual([])
    expect(named(name).status).toBe('AWAITING_DELETE')
    // Not a moment of its clock spent waiting.
    expect(v.t).toBe(started)
  })

  test('deploy vs delete: a deployment deleted during the wait is reported as deleted', async () => {
    const name = 'deleted-meanwhile'
    const port = portOf({ name })
    onGroup(port, /^Wait for revision/, async () => {
      await call('DELETE', `/v2/deployments/${named(name).id}?delete_tracing_project=true`)
    })
    const r = await deploy({}, port)
    expect(r.exitCode).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/was deleted while this run waited for revision/)
    expect(r.errors[0]).not.toMatch(/check the id/)
  })

  // ---------------------------------------------------------------------------------------------
  // The wrong dialect on the update path.

  test('an update through the wrong dialect names api-dialect, not source', async () => {
    const emu = await startEmulator({ port: 0, now, dialect: 'langsmith' })
    try {
      const name = 'dialect'
      seed(name, {}, emu)
      const r = await deploy(
        { name, 'api-dialect': 'interface' },
        portOf({ name, 'api-dialect': 'interface' }, emu)
      )
      expect(r.exitCode).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toContain('api-dialect: langsmith')
      expect(r.errors[0]).not.toContain('set source: github')
    } finally {
      await emu.close()
    }
  })
})
