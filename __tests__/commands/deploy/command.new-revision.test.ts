import { expect, test, describe } from '@jest/globals'
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmulator, type Emulator } from '../../../emulator/server.ts'
import { PUSH_MAIN } from '../../../scripts/runner-env.ts'
import { run } from '../../../src/run.ts'
import { gitIn } from '../../builders/upload.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import {
  expectRolledBackTo,
  heldIn,
  loadSeeded,
  seededDeployment,
  withEmulators,
  DEPLOYS_AT_ONCE,
  type Seeded
} from '../../builders/in-process.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

// The checks of the new revision, in process: run() through a fake port against the emulator,
// whose agent servers say which revision answers (`/info`'s host block, scripted through the
// admin API), list the graphs' assistants and run smoke cases. The workspace (the event's) holds
// the graph config and the smoke-test file. What only the bundle shows (the masking lines, the
// runner's files) stays in __tests__/e2e/action.test.ts. Nothing here depends on the
// machine's speed: a drain is scripted by a count of probes, a slow case by a delay far beyond
// its timeout.

const GATE = { 'health-check': 'true', 'health-check-window': '2s' }
const REPO = 'https://github.com/acme/agent-server'
const MAIN_AT_PUSH = { [`${REPO}@main`]: PUSH_MAIN.sha! }

/** A workspace with a graph config of `graphs` and, when given, a smoke-test file. */
function workspace(graphs: string[] = [], smoke?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
  if (graphs.length === 0) return dir
  const config = { graphs: Object.fromEntries(graphs.map(g => [g, `./src/${g}.py:graph`])) }
  writeFileSync(join(dir, 'langgraph.json'), JSON.stringify(config))
  if (smoke !== undefined) writeFileSync(join(dir, 'smoke.json'), JSON.stringify(smoke))
  return dir
}

interface T {
  emu: Emulator
  /** A run of the deploy with these inputs (name `name`), in `ws`, on a push of main at `sha`. */
  run(over: Record<string, string>, ws?: string, sha?: string): Promise<Result>
  /** A READY deployment of main with one DEPLOYED revision, made without a run: its id. */
  seed(name: string): string
}

interface Result {
  code: number
  outputs: Record<string, string>
  /** Every line the run said, in order, as `kind: text`. */
  log: string
  errors: string[]
  summary: string
}

const withEmu = withEmulators()

/** A test with its own emulator (speed 4, main at the push's commit, as the bundle's tests have). */
function withRun(title: string, body: (t: T) => Promise<void>): void {
  withEmu(title, async emu => {
    emu.configure({ repoCommits: MAIN_AT_PUSH })
    await body({
      emu,
      run: (over, ws, sha) => runIn(emu, over, ws, sha),
      seed: n => loadSeeded(emu, [seededDeployment(emu, n)], MAIN_AT_PUSH)
    })
  })
}

async function runIn(
  emu: Emulator,
  over: Record<string, string>,
  ws = workspace(),
  sha = PUSH_MAIN.sha!
): Promise<Result> {
  const port = fakePort(emulatorInputs(emu, { 'poll-interval': '2s', ...over }), {
    event: { ref: 'main', expectedSha: sha, repository: 'acme/agent-server', workspace: ws }
  })
  const result = await run(port)
  return {
    code: result.exitCode,
    outputs: result.outputs,
    log: port.calls.join('\n'),
    errors: port.calls.filter(c => c.startsWith('error: ')),
    summary: port.summaries.join('\n')
  }
}

const paths = (emu: Emulator, path: string) => emu.agents.probes().filter(p => p.path === path)
const redeploys = (emu: Emulator) => emu.requests().filter(r => r.path.endsWith('/redeploy'))
const lines = (log: string, kind: string) => log.split('\n').filter(l => l.startsWith(`${kind}: `))
const ECHO = [{ name: 'echo', graph: 'agent', input: { q: 'ping' }, expect: { contains: 'ping' } }]
/** A gated run whose workspace holds graph `agent` and the smoke cases `cases` (smoke.json). */
const smokeRun = (t: T, cases: unknown, over: Record<string, string>) =>
  t.run({ ...GATE, 'smoke-test': 'smoke.json', ...over }, workspace(['agent'], cases))

withRun(
  'the previous revision answers the first probes (drain): the probes go on until this one does',
  async t => {
    t.seed('drain')
    t.emu.agents.scriptApp('*', { previousFirst: 2 })
    const r = await t.run({ name: 'drain', ...GATE })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['served-revision']).toBe('this')
    expect(paths(t.emu, '/info').length).toBeGreaterThanOrEqual(3)
    expect(r.log).toMatch(/GET \/info: revision \S+ answers, not yet this run's/)
    expect(r.log).toMatch(/GET \/info: revision \S+ answers, this run's/)
  }
)

withRun(
  'the previous revision answers until the timeout: stale, the error names both revisions, rolled back',
  async t => {
    t.seed('stale')
    const good = heldIn(t.emu, 'stale').active_revision_id!
    t.emu.agents.scriptApp('*', { previous: true })
    const r = await t.run({ name: 'stale', ...GATE, timeout: '14s', 'on-failure': 'rollback' })
    expect(r.code).toBe(1)
    expect(r.outputs['served-revision']).toBe('stale')
    expect(r.outputs.health).toBe('healthy')
    const revision = r.outputs['revision-id']!
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/^error: New revision not served: /)
    expect(r.errors[0]).toContain(`serves revision ${good}`)
    expect(r.errors[0]).toContain(`not this run's revision ${revision}`)
    expectRolledBackTo(r, t.emu, good)
    expect(r.summary).toContain('New revision failed its checks')
  }
)

withRun('no host block in /info: unknown, one notice, the run succeeds', async t => {
  t.emu.agents.scriptApp('*', { host: false })
  const r = await t.run({ name: 'nohost', ...GATE })
  expect(r.code).toBe(0)
  expect(r.outputs['served-revision']).toBe('unknown')
  expect(lines(r.log, 'notice').filter(l => /Served revision unknown/.test(l))).toHaveLength(1)
  // Settled at the first answer: /info is not asked again.
  expect(paths(t.emu, '/info')).toHaveLength(1)
})

withRun('a graph of the config without an assistant fails the deploy, naming it', async t => {
  const r = await t.run({ name: 'graph', ...GATE }, workspace(['agent', 'planner']))
  expect(r.code).toBe(1)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(
    /^error: Graph not served: [\s\S]*graph "planner": the agent server has no assistant/
  )
  expect(r.errors[0]).not.toMatch(/graph "agent"/)
  expect(r.outputs.health).toBe('healthy')
  expect(r.summary).toMatch(/\| Graphs \| failed: `agent`, `planner` \(missing\) \|/)
})

withRun('401 on /assistants/search: a warning, inconclusive, the run succeeds', async t => {
  t.emu.agents.scriptApp('*', { assistantsStatus: 401 })
  const r = await t.run({ name: 'auth', ...GATE }, workspace(['agent']))
  expect(r.code).toBe(0)
  expect(
    lines(r.log, 'warning').filter(w => /^warning: Graphs not checked: /.test(w))
  ).toHaveLength(1)
  expect(r.summary).toMatch(/\| Graphs \| inconclusive: `agent` \|/)
})

withRun(
  'a smoke case that misses its expectation fails the deploy; with on-failure: rollback, rolled back',
  async t => {
    t.seed('smokefail')
    const cases = [
      { name: 'answers', graph: 'agent', input: { q: 'hi' }, expect: { contains: 'pong' } }
    ]
    const r = await smokeRun(t, cases, { name: 'smokefail', 'on-failure': 'rollback' })
    expect(r.code).toBe(1)
    expect(r.outputs.smoke).toBe('failed')
    expect(r.errors[0]).toMatch(
      /^error: Smoke test failed: [\s\S]*smoke case "answers" failed \(the output does not contain "pong"\)/
    )
    expect(r.errors[0]).toMatch(/Rolled back/)
    expect(redeploys(t.emu)).toHaveLength(1)
    expect(r.summary).toMatch(
      /\| answers \(`agent`\) \| failed \| the output does not contain "pong"\. \{"q":"hi"\} \|/
    )
  }
)

withRun('a run that errors fails its case', async t => {
  t.emu.agents.scriptApp('*', { runs: { error: 'graph raised ValueError' } })
  const r = await smokeRun(t, ECHO, { name: 'smokeerr' })
  expect(r.code).toBe(1)
  expect(r.outputs.smoke).toBe('failed')
  expect(r.errors[0]).toMatch(/smoke case "echo" failed \(the run ended in an error\)/)
  expect(r.log).toMatch(/graph raised ValueError/)
})

withRun('a slow case times out at its own timeout and fails the deploy', async t => {
  // The answer would come after 10 minutes; the case allows 2 s.
  t.emu.agents.scriptApp('*', { runs: { delayMs: 600_000 } })
  const r = await smokeRun(t, [{ ...ECHO[0], timeout: '2s' }], { name: 'slow' })
  expect(r.code).toBe(1)
  expect(r.outputs.smoke).toBe('failed')
  expect(r.errors[0]).toMatch(/smoke case "echo" timed out \(no answer within 2 s\)/)
})

withRun('health-check off: no request to the agent server, even with a graph config', async t => {
  const r = await t.run({ name: 'off' }, workspace(['agent']))
  expect(r.code).toBe(0)
  expect(t.emu.agents.probes()).toEqual([])
  expect(r.outputs['served-revision']).toBe('')
  expect(r.outputs.smoke).toBe('')
})

// A file that is not there and a smoke-test without health-check: inputs/smoke-cases.test.ts and
// inputs/index.test.ts; here, a case the file holds wrong.
withRun('a bad smoke-test file: one error naming the input, nothing sent', async t => {
  const ws = workspace(['agent'])
  writeFileSync(join(ws, 'smoke.json'), JSON.stringify([{ name: 'x', graph: 'agent' }]))
  const bad = await t.run({ name: 'bad', ...GATE, 'smoke-test': 'smoke.json' }, ws)
  expect(bad.code).toBe(2)
  expect(bad.errors).toHaveLength(1)
  expect(bad.errors[0]).toMatch(/^error: Invalid inputs: [\s\S]*smoke-test/)
  expect(bad.errors[0]).toMatch(
    /`smoke-test` \(smoke.json\), case 1 \(line 1, column 2\): `input` is required/
  )
  expect(t.emu.requests()).toEqual([])
})

// A 204 and a 200 HTML page are no run either: health/verify/smoke.test.ts, with the redirect.
withRun(
  'a smoke case of only name, graph and input fails when /runs/wait answers no run: a sign-in redirect',
  async t => {
    t.emu.agents.scriptApp('*', { runs: { answer: 'sign-in-redirect' } })
    const bare = [{ name: 'bare', graph: 'agent', input: { q: 'ping' } }]
    const r = await smokeRun(t, bare, { name: 'norun' })
    expect(r.code).toBe(1)
    expect(r.outputs.smoke).toBe('failed')
    expect(r.outputs.health).toBe('healthy')
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/^error: Smoke test failed: [\s\S]*smoke case "bare" failed/)
    expect(r.errors[0]).toMatch(
      /\/runs\/wait answered 302: "redirect to login\.example\.invalid, not followed", not the end of a run/
    )
  }
)

withRun(
  'one 503 on /assistants/search and one on /runs/wait: each is tried again, the deploy passes and nothing is rolled back',
  async t => {
    t.seed('blip')
    t.emu.agents.scriptApp('*', { assistantsFailFirst: 1, runs: { failFirst: 1 } })
    const r = await smokeRun(t, ECHO, { name: 'blip', 'on-failure': 'rollback' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ health: 'healthy', smoke: 'passed' })
    expect(paths(t.emu, '/assistants/search').map(p => p.status)).toEqual([503, 200])
    expect(paths(t.emu, '/runs/wait').map(p => p.status)).toEqual([503, 200])
    expect(redeploys(t.emu)).toEqual([])
    expect(r.log).toMatch(/graph "agent": it has an assistant/)
  }
)

withRun(
  '/assistants/search answering 503 until the timeout fails naming that answer, not a graph that did not load',
  async t => {
    t.emu.agents.scriptApp('*', { assistantsFailFirst: 1000 })
    const r = await t.run({ name: 'down', ...GATE, timeout: '20s' }, workspace(['agent']))
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /^error: Graphs not listed: [\s\S]*graph "agent": \/assistants\/search answered 503 on \d+ tries over .*: "\{"detail":"Service temporarily unavailable, try again\."\}", not a list of assistants/
    )
    expect(r.errors[0]).not.toMatch(/did not load/)
    expect(paths(t.emu, '/assistants/search').length).toBeGreaterThan(1)
  }
)

/** A git checkout of a workspace (one commit): its commit id. */
function commitWorkspace(dir: string): string {
  const git = gitIn(dir)
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', 'agent')
  return git('rev-parse', 'HEAD')
}

withRun(
  'the graphs are checked only when the workspace is what was built: a checkout of another commit is skipped, and said why',
  async t => {
    // The workspace names a graph the server does not serve.
    const ws = workspace(['agent', 'planner'])
    const head = commitWorkspace(ws)
    const other = await t.run({ name: 'othercommit', ...GATE }, ws)
    expect(other.errors).toEqual([])
    expect(other.code).toBe(0)
    expect(other.log).toContain(
      `Graphs not checked: the revision built commit 9f1c2e7a4b8d, and the workspace holds ${head.slice(0, 12)}`
    )
    expect(paths(t.emu, '/assistants/search')).toEqual([])
    // The ref now points at the workspace's commit: that build is checked, and its missing graph fails.
    t.emu.configure({ repoCommits: { [`${REPO}@main`]: head } })
    const same = await t.run({ name: 'samecommit', ...GATE }, ws, head)
    expect(same.code).toBe(1)
    expect(same.errors[0]).toMatch(/^error: Graph not served: [\s\S]*graph "planner"/)
  }
)

// Each path and file kind the smoke-test input refuses, at its units (inputs/index.test.ts,
// inputs/smoke-cases.test.ts); here, a link out of the workspace and a case whose text holds a
// token, through a whole run.
withRun(
  'smoke-test must name a regular file inside the workspace, and its errors never show the text found there',
  async t => {
    const token = 'ghp_smoke0token000000000000000000000000'
    const ws = workspace(['agent'])
    symlinkSync('/proc/self/environ', join(ws, 'environ.yaml'))
    writeFileSync(
      join(ws, 'token.yaml'),
      `- {name: a, graph: agent, input: 1, timeout: ${token}}\n`
    )
    const runs = await Promise.all(
      ['environ.yaml', 'token.yaml'].map(file =>
        t.run({ name: `smokefile-${file.split('.')[0]}`, ...GATE, 'smoke-test': file }, ws)
      )
    )
    for (const r of runs) {
      expect(r.code).toBe(2)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(/^error: Invalid inputs: [\s\S]*`smoke-test`/)
      expect(r.log + r.summary).not.toContain(token)
    }
    const [environ, timeout] = runs.map(r => r.errors[0])
    expect(environ).toMatch(/\(environ\.yaml\) could not be read: it leads outside the workspace/)
    expect(timeout).toMatch(
      /\(token\.yaml\), case 1 \(line 1, column 3\): `timeout` must be a duration such as 60s or 2m \(at most 30m\)/
    )
    expect(t.emu.requests()).toEqual([])
  }
)

withRun(
  '/info naming this revision under another deployment: the log and the error say which deployment answers, not the same revision twice',
  async t => {
    const other = '0b6f7c1e-2d3a-4e5f-8a9b-0c1d2e3f4a5b'
    t.emu.agents.scriptApp('*', { projectId: other })
    const r = await t.run({ name: 'project', ...GATE, timeout: '14s' })
    const revision = r.outputs['revision-id']!
    const deployment = r.outputs['deployment-id']!
    expect(r.code).toBe(1)
    expect(r.outputs['served-revision']).toBe('stale')
    expect(r.log).toContain(
      `GET /info: revision ${revision} answers, but as deployment ${other}, not this run's deployment ${deployment}`
    )
    expect(r.log).not.toContain(`${revision} answers, not yet this run's ${revision}`)
    expect(r.errors[0]).toContain(
      `the agent server answers as deployment ${other}, not this run's deployment ${deployment}, though with this run's revision ${revision}`
    )
  }
)

withRun(
  '/info that named this revision and then loses its host block: unknown, one notice saying so, the run succeeds',
  async t => {
    t.emu.agents.scriptApp('*', { hostFirst: 1 })
    const r = await t.run({ name: 'losthost', ...GATE, 'health-check-window': '4s' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['served-revision']).toBe('unknown')
    expect(lines(r.log, 'notice').filter(l => /Served revision unknown/.test(l))).toEqual([
      expect.stringMatching(
        /revision \S+ answered, then \/info probe 2 came without its host block .*could not be held through the window/
      )
    ])
  }
)

// Deployment types and sizes, the run's rules: run() in-process through a fake port against the
// emulator on one virtual clock. A resize alone or with a code change is waited on as this run's,
// a resize answered with an older revision is read again (never success on it), a failed resize is
// rolled back with the size kept, a change of type is refused before writing, a legacy word reads
// as its type, the langsmith dialect sends the same create, and a Serverless server's wake-up is
// told from its own error. What is asserted is what the emulator received and holds, the exit
// code, the outputs, the log lines and the summary. The bundle's share: __tests__/e2e/action.test.ts.
describe('command.tiers', () => {
  const v = virtualEmulator()
  const { now, sleep } = v

  async function deploy(over: Record<string, string>, emu: Emulator = v.emu) {
    const port = fakePort(emulatorInputs(emu, { 'poll-interval': '2s', ...over }))
    const result = await run(port, { now, sleep })
    const log = port.calls.join('\n')
    return { ...result, port, log, errors: port.calls.filter(c => c.startsWith('error: ')) }
  }

  /**
   * A deployment READY with one DEPLOYED revision of `main` (what a first good deploy leaves), made
   * a minute before the run.
   */
  function seed(name: string, over: Partial<Seeded> = {}): string {
    const id = loadSeeded(v.emu, [seededDeployment(v.emu, name, {}, over)])
    v.t += 60_000
    return id
  }

  /** The deployment of that name as the emulator holds it now. */
  const held = (name: string, emu: Emulator = v.emu) => heldIn(emu, name)
  const writes = (emu: Emulator = v.emu) =>
    emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')
  /** The resize requests the emulator received. */
  const resizes = (emu: Emulator = v.emu) =>
    emu.requests().filter(r => r.method === 'PATCH' && r.path.endsWith('/resource-tiers'))

  test('a resize alone: the run makes no code revision; the resize revision is this run’s and waited on', async () => {
    const name = 'alone'
    const id = seed(name, {
      source: 'internal_template',
      source_config: {},
      source_revision_config: {},
      deployment_type: 'serverless'
    })
    const r = await deploy({
      name: '',
      'deployment-id': id,
      source: 'internal_template',
      'integration-id': '',
      size: 'large'
    })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    // The update itself sets nothing of a revision: only the resize makes one.
    expect(writes().map(w => [`${w.method} ${w.path.replace(id, ':id')}`, w.body])).toEqual([
      ['PATCH /v2/deployments/:id', {}],
      ['PATCH /v2/deployments/:id/resource-tiers', { compute_tier: 'SERVERLESS_L' }]
    ])
    const d = held(name)
    expect(d.revisions).toHaveLength(2)
    expect(r.outputs['revision-id']).toBe(d.latest_revision_id)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')
    expect(r.log).toContain(`Wait for revision ${d.latest_revision_id}`)
    expect(r.outputs.size).toBe('large')
  })

  test(
    'a resize with a code change in one run: the verdict is on the resize revision, which carries the change',
    async () => {
      const name = 'both'
      seed(name)
      // The code change's revision builds long: the resize, sent right after it, supersedes it.
      v.emu.configure({ stageDurationsMs: { BUILDING: 40_000 } })
      v.emu.addFaults({
        kind: 'delay',
        ms: 1500,
        method: 'PATCH',
        path: '/v2/deployments/*/resource-tiers',
        times: 1
      })
      const r = await deploy({ name, ref: 'feature-x', size: 'medium' })
      expect(r.errors).toEqual([])
      expect(r.exitCode).toBe(0)
      const d = held(name)
      // Seeded, the code change's (superseded by the resize), the resize's.
      expect(d.revisions.map(x => x.status)).toEqual(['DEPLOYED', 'SKIPPED', 'DEPLOYED'])
      const [, code, resized] = d.revisions
      expect(r.outputs['revision-id']).toBe(resized!.id)
      expect(resized!.source_revision_config.repo_ref).toBe('feature-x')
      expect(code!.source_revision_config.repo_ref).toBe('feature-x')
      expect(d.deployment_tier).toBe('DEDICATED_M')
      expect(r.log).toContain(`follows revision ${code!.id} of this run's change and carries both`)
      expect(r.port.summaries.join('\n')).toMatch(
        /size: small \(DEDICATED_S\) -> medium \(DEDICATED_M\)/
      )
    },
    // The resize's answer waits 1.5 s of real time: room beyond jest's 5 s on a loaded machine.
    30_000
  )

  /** The resize answered (and, with `reads`, the deployment read) naming its first revision. */
  const OLD_RESIZE = {
    kind: 'old-revision',
    revision: 'oldest',
    path: '/v2/deployments/*/resource-tiers'
  } as const

  test('a resize answered with a revision from before the run: read again, and the verdict is on the resize’s own revision', async () => {
    const name = 'older'
    seed(name)
    v.emu.addFaults([{ ...OLD_RESIZE, times: 1 }])
    const r = await deploy({ name, ref: 'feature-x', size: 'medium' })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    const [seeded, , resized] = held(name).revisions
    expect(r.outputs['revision-id']).toBe(resized!.id)
    expect(r.log).toContain(`The resize's answer names revision ${seeded!.id}, made before`)
    expect(r.log).not.toContain(`Wait for revision ${seeded!.id}`)
  })

  test('a resize whose answer and reads keep naming a revision from before the run: exit 1 saying so, never success on it', async () => {
    const name = 'older'
    seed(name)
    v.emu.addFaults([OLD_RESIZE, { kind: 'old-revision', revision: 'oldest', method: 'GET' }])
    const r = await deploy({ name, ref: 'feature-x', size: 'medium' })
    expect(r.exitCode).toBe(1)
    const [seeded] = held(name).revisions
    expect(r.errors[0]).toMatch(
      new RegExp(
        `Resize revision not this run’s.*answered with revision ${seeded!.id}, which was made before this run's revision`
      )
    )
    expect(r.outputs['revision-id']).not.toBe(seeded!.id)
    expect(r.outputs['revision-status']).not.toBe('DEPLOYED')
    expect(r.log).not.toContain(`Wait for revision ${seeded!.id}`)
  })

  test('a resize whose revision fails: the status_message is in the error, and the rollback says the size stays', async () => {
    const name = 'oom'
    const id = seed(name)
    v.emu.script({ outcome: 'DEPLOYED', deploymentId: id })
    v.emu.script({
      outcome: 'DEPLOY_FAILED',
      deploymentId: id,
      statusMessage: 'The server ran out of memory while starting'
    })
    const r = await deploy({ name, size: 'medium', 'on-failure': 'rollback' })
    expect(r.exitCode).toBe(1)
    expect(r.outputs['revision-status']).toBe('DEPLOY_FAILED')
    expect(r.errors[0]).toMatch(
      /ended DEPLOY_FAILED.*The control plane says: The server ran out of memory while starting\./s
    )
    expect(r.errors[0]).toMatch(
      /Rolled back: revision .* is DEPLOYED\..*changes to size stay as this run set them/s
    )
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    // The redeploy restores the revision, not the tier: that stays as this run set it.
    expect(held(name).deployment_tier).toBe('DEDICATED_M')
  })

  test('a legacy read of the same type is that type: no refusal, the outputs say serverless', async () => {
    const name = 'legacy'
    seed(name, { deployment_type: 'serverless', compute_tier: 'SERVERLESS_S' })
    v.emu.configure({ legacyTypeReads: true })
    const r = await deploy({ name, 'deployment-type': 'serverless', size: 'small' })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    expect(held(name).source_config.deployment_type).toBe('dev_zero')
    expect(r.outputs).toMatchObject({ 'deployment-type': 'serverless', size: 'small' })
    expect(resizes()).toEqual([])
  })

  test('a change of type is refused before any write, naming the current type and what to do', async () => {
    const name = 'retype'
    seed(name)
    const r = await deploy({ name, 'deployment-type': 'serverless' })
    expect(r.exitCode).toBe(1)
    expect(r.errors[0]).toMatch(/is dedicated \(read as prod\), but `deployment-type: serverless`/)
    expect(r.errors[0]).toMatch(/create a new deployment under another name/)
    expect(writes()).toEqual([])
  })

  test('langsmith dialect: the same create with a size, in the production service’s words', async () => {
    const emu = await startEmulator({ port: 0, now, dialect: 'langsmith' })
    try {
      const r = await deploy(
        { name: 'ls', 'api-dialect': 'langsmith', 'deployment-type': 'dedicated', size: 'medium' },
        emu
      )
      expect(r.errors).toEqual([])
      expect(r.exitCode).toBe(0)
      const create = writes(emu).find(w => w.method === 'POST' && w.path === '/v2/deployments')
      expect(create?.body).toMatchObject({ source: 'github' })
      expect(resizes(emu).map(w => w.body)).toEqual([{ compute_tier: 'DEDICATED_M' }])
      expect(r.outputs).toMatchObject({ 'deployment-type': 'dedicated', size: 'medium' })
    } finally {
      await emu.close()
    }
  })

  const GATE = { 'health-check': 'true', 'health-check-window': '2s' }

  /** A Serverless deployment scaled to zero, whose server answers 503 for `wakeMs` once probed. */
  function asleep(name: string, wakeMs: number) {
    const id = seed(name, { deployment_type: 'serverless' })
    v.emu.agents.script(id, { sleepAfterMs: 60_000, wakeMs, whileWaking: '503' })
    return id
  }

  test('a Serverless cold start within the timeout is healthy; the log says the probe waited on a wake-up', async () => {
    const name = 'cold'
    const id = asleep(name, 4000)
    const r = await deploy({ name, ...GATE })
    expect(r.errors).toEqual([])
    expect(r.exitCode).toBe(0)
    expect(r.outputs.health).toBe('healthy')
    const statuses = v.emu.agents.probes(id).map(p => p.status)
    expect(statuses[0]).toBe(503)
    expect(statuses).toContain(200)
    expect(r.log).toMatch(/Probe 1: 503 .*\(warming: the Serverless agent server is waking up\)/)
    expect(r.log).toMatch(/Probe \d+ waited \d+(\.\d+)?s on a wake-up/)
    // Said as it happens, with its bound.
    expect(r.log).toMatch(/Serverless deployment waking up, waited \d+s of at most 3m\./)
  })

  /** Revisions DEPLOYED as soon as they exist: the run's timeout is spent on the gate's probes. */
  const deploysAtOnce = () => v.emu.configure({ stageDurationsMs: DEPLOYS_AT_ONCE })

  test('a Serverless server answering 503 with its own error is unhealthy, never "did not wake up"', async () => {
    deploysAtOnce()
    const name = 'down'
    const id = seed(name, { deployment_type: 'serverless' })
    v.emu.agents.script(id, { health: 'failing', status: 503, body: 'database unreachable' })
    const r = await deploy({ name, ...GATE, timeout: '20s' })
    expect(r.exitCode).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(r.errors[0]).not.toMatch(/did not wake up|waking/)
    expect(r.errors[0]).toMatch(/an error of its own, so it is awake.*database unreachable/)
    expect(r.log).not.toMatch(/warming|waking up/)
    expect(v.emu.agents.probes(id).every(p => p.status === 503)).toBe(true)
  })

  test('a Serverless server that never wakes is unhealthy at the timeout, and rolled back', async () => {
    deploysAtOnce()
    const name = 'asleep'
    const id = asleep(name, 86_400_000)
    const r = await deploy({ name, ...GATE, timeout: '12s', 'on-failure': 'rollback' })
    expect(r.exitCode).toBe(1)
    expect(r.outputs.health).toBe('unhealthy')
    expect(r.errors[0]).toMatch(/did not wake up before the timeout/)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    expect(v.emu.agents.probes(id).every(p => p.status === 503)).toBe(true)
  })
})
