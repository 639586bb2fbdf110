// The checks of the new revision, in process: run() through a fake port against the emulator,
// whose agent servers say which revision answers (`/info`'s host block, scripted through the
// admin API), list the graphs' assistants and run smoke cases. The workspace (the event's) holds
// the graph config and the smoke-test file. What only the bundle shows (the masking lines, the
// runner's files) stays in __tests__/e2e/new-revision.test.ts. Nothing here depends on the
// machine's speed: a drain is scripted by a count of probes, a slow case by a delay far beyond
// its timeout.
import { expect } from '@jest/globals'
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../../emulator/server.ts'
import { PUSH_MAIN } from '../../../scripts/runner-env.ts'
import { run } from '../../../src/run.ts'
import { gitIn } from '../../builders/upload.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import {
  expectRolledBackTo,
  heldIn,
  loadSeeded,
  seededDeployment,
  withEmulators
} from '../../builders/in-process.ts'

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
