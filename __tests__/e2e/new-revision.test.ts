// The checks of the new revision end to end: the bundle deploys to the emulator, whose agent
// servers say which revision answers (`/info`'s host block, scripted through the admin API), list
// the graphs' assistants and run smoke cases. The workspace (GITHUB_WORKSPACE) holds the graph
// config and the smoke-test file. Nothing here depends on the machine's speed: a drain is scripted
// by a count of probes, a slow case by a delay far beyond its timeout.
import { expect } from '@jest/globals'

import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import {
  e2e,
  leaks,
  runAction as run,
  uniqueName,
  warnings,
  redeploys,
  expectRolledBackTo,
  type E2E
} from './harness.ts'
import { gitIn } from '../builders/upload.ts'

const GATE = { 'health-check': 'true', 'health-check-window': '2s' }

/** A workspace with a graph config of `graphs` and, when given, a smoke-test file. */
function workspace(graphs: string[], smoke?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
  const config = { graphs: Object.fromEntries(graphs.map(g => [g, `./src/${g}.py:graph`])) }
  writeFileSync(join(dir, 'langgraph.json'), JSON.stringify(config))
  if (smoke !== undefined) writeFileSync(join(dir, 'smoke.json'), JSON.stringify(smoke))
  return dir
}

/** A gated run whose workspace holds graph `agent` and the smoke cases `cases` (smoke.json). */
const smokeRun = (t: E2E, cases: unknown, inputs: Record<string, string>) =>
  run({
    inputs: t.inputs({ ...GATE, 'smoke-test': 'smoke.json', ...inputs }),
    env: { GITHUB_WORKSPACE: workspace(['agent'], cases) }
  })

const paths = (emu: Emulator, path: string) => emu.agents.probes().filter(p => p.path === path)
const ECHO = [{ name: 'echo', graph: 'agent', input: { q: 'ping' }, expect: { contains: 'ping' } }]

e2e(
  'this revision from the start: served-revision=this, each graph has an assistant, the smoke case passes; one request per graph and per case',
  async t => {
    const r = await smokeRun(t, ECHO, { name: uniqueName('fresh') })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({
      health: 'healthy',
      'served-revision': 'this',
      smoke: 'passed'
    })
    expect(paths(t.emu, '/assistants/search')).toHaveLength(1)
    expect(paths(t.emu, '/runs/wait')).toHaveLength(1)
    expect(r.stdout).toMatch(/graph "agent": it has an assistant/)
    expect(r.stdout).toMatch(
      /Smoke case "echo" \(graph agent\): passed in .*Output: \{"q":"ping"\}/
    )
    expect(r.summary).toMatch(/\| Served revision \| this \|/)
    expect(r.summary).toMatch(/\| echo \(`agent`\) \| passed \| \{"q":"ping"\} \|/)
  }
)

e2e(
  'the previous revision answers the first probes (drain): the probes go on until this one does',
  async t => {
    const name = uniqueName('drain')
    t.seed(name)
    t.emu.agents.scriptApp('*', { previousFirst: 2 })
    const r = await run({ inputs: t.inputs({ name, ...GATE }) })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['served-revision']).toBe('this')
    expect(paths(t.emu, '/info').length).toBeGreaterThanOrEqual(3)
    expect(r.stdout).toMatch(/GET \/info: revision \S+ answers, not yet this run's/)
    expect(r.stdout).toMatch(/GET \/info: revision \S+ answers, this run's/)
  }
)

e2e(
  'the previous revision answers until the timeout: stale, the error names both revisions, rolled back',
  async t => {
    const name = uniqueName('stale')
    t.seed(name)
    const good = t.named(name)[0]!.active_revision_id!
    t.emu.agents.scriptApp('*', { previous: true })
    const r = await run({
      inputs: t.inputs({ name, ...GATE, timeout: '14s', 'on-failure': 'rollback' })
    })
    expect(r.code).toBe(1)
    expect(r.outputs['served-revision']).toBe('stale')
    expect(r.outputs.health).toBe('healthy')
    const revision = r.outputs['revision-id']!
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/title=New revision not served::/)
    expect(r.errors[0]).toContain(`serves revision ${good}`)
    expect(r.errors[0]).toContain(`not this run's revision ${revision}`)
    expectRolledBackTo(r, t.emu, good)
    expect(r.summary).toContain('New revision failed its checks')
  }
)

e2e('no host block in /info: unknown, one notice, the run succeeds', async t => {
  t.emu.agents.scriptApp('*', { host: false })
  const r = await run({ inputs: t.inputs({ name: uniqueName('nohost'), ...GATE }) })
  expect(r.code).toBe(0)
  expect(r.outputs['served-revision']).toBe('unknown')
  const notices = r.stdout.split('\n').filter(l => l.startsWith('::notice'))
  expect(notices.filter(l => /Served revision unknown/.test(l))).toHaveLength(1)
  // Settled at the first answer: /info is not asked again.
  expect(paths(t.emu, '/info')).toHaveLength(1)
})

e2e('a graph of the config without an assistant fails the deploy, naming it', async t => {
  const ws = workspace(['agent', 'planner'])
  const r = await run({
    inputs: t.inputs({ name: uniqueName('graph'), ...GATE }),
    env: { GITHUB_WORKSPACE: ws }
  })
  expect(r.code).toBe(1)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(
    /title=Graph not served::.*graph "planner": the agent server has no assistant/
  )
  expect(r.errors[0]).not.toMatch(/graph "agent"/)
  expect(r.outputs.health).toBe('healthy')
  expect(r.summary).toMatch(/\| Graphs \| failed: `agent`, `planner` \(missing\) \|/)
})

e2e('401 on /assistants/search: a warning, inconclusive, the run succeeds', async t => {
  t.emu.agents.scriptApp('*', { assistantsStatus: 401 })
  const r = await run({
    inputs: t.inputs({ name: uniqueName('auth'), ...GATE }),
    env: { GITHUB_WORKSPACE: workspace(['agent']) }
  })
  expect(r.code).toBe(0)
  expect(warnings(r.stdout).filter(w => /title=Graphs not checked/.test(w))).toHaveLength(1)
  expect(r.summary).toMatch(/\| Graphs \| inconclusive: `agent` \|/)
})

e2e(
  'a smoke case that misses its expectation fails the deploy; with on-failure: rollback, rolled back',
  async t => {
    const name = uniqueName('smokefail')
    t.seed(name)
    const cases = [
      { name: 'answers', graph: 'agent', input: { q: 'hi' }, expect: { contains: 'pong' } }
    ]
    const r = await smokeRun(t, cases, { name, 'on-failure': 'rollback' })
    expect(r.code).toBe(1)
    expect(r.outputs.smoke).toBe('failed')
    expect(r.errors[0]).toMatch(
      /title=Smoke test failed::.*smoke case "answers" failed \(the output does not contain "pong"\)/
    )
    expect(r.errors[0]).toMatch(/Rolled back/)
    expect(redeploys(t.emu)).toHaveLength(1)
    expect(r.summary).toMatch(
      /\| answers \(`agent`\) \| failed \| the output does not contain "pong"\. \{"q":"hi"\} \|/
    )
  }
)

e2e('a run that errors fails its case', async t => {
  t.emu.agents.scriptApp('*', { runs: { error: 'graph raised ValueError' } })
  const r = await smokeRun(t, ECHO, { name: uniqueName('smokeerr') })
  expect(r.code).toBe(1)
  expect(r.outputs.smoke).toBe('failed')
  expect(r.errors[0]).toMatch(/smoke case "echo" failed \(the run ended in an error\)/)
  expect(r.stdout).toMatch(/graph raised ValueError/)
})

e2e('a slow case times out at its own timeout and fails the deploy', async t => {
  // The answer would come after 10 minutes; the case allows 2 s.
  t.emu.agents.scriptApp('*', { runs: { delayMs: 600_000 } })
  const cases = [{ ...ECHO[0], timeout: '2s' }]
  const r = await smokeRun(t, cases, { name: uniqueName('slow') })
  expect(r.code).toBe(1)
  expect(r.outputs.smoke).toBe('failed')
  expect(r.errors[0]).toMatch(/smoke case "echo" timed out \(no answer within 2 s\)/)
})

e2e('secret values are masked in a case output, in the log and the summary', async t => {
  const secret = 'sk-smoke-0123456789abcdef'
  // The server echoes the input, which carries the secret's value.
  const cases = [
    { name: 'leaky', graph: 'agent', input: { token: secret } },
    // A text output that tries to start a workflow command on a line of its own.
    { name: 'lines', graph: 'agent', input: 'fine\n::error title=Injected::from the server' }
  ]
  const r = await smokeRun(t, cases, {
    name: uniqueName('mask'),
    secrets: `SMOKE_TOKEN=${secret}`
  })
  expect(r.code).toBe(0)
  expect(r.outputs.smoke).toBe('passed')
  expect(leaks(r, [secret, t.key])).toEqual([])
  expect(r.errors).toEqual([])
  expect(r.stdout).toMatch(
    /Smoke case "lines" .*Output: fine : :error title=Injected: :from the server/
  )
  expect(r.summary).toMatch(/\| leaky \(`agent`\) \| passed \| \{"token":"\*\*\*"\} \|/)
})

e2e('health-check off: no request to the agent server, even with a graph config', async t => {
  const r = await run({
    inputs: t.inputs({ name: uniqueName('off') }),
    env: { GITHUB_WORKSPACE: workspace(['agent']) }
  })
  expect(r.code).toBe(0)
  expect(t.emu.agents.probes()).toEqual([])
  expect(r.outputs['served-revision']).toBe('')
  expect(r.outputs.smoke).toBe('')
})

// A file that is not there and a smoke-test without health-check: inputs/smoke-cases.test.ts and
// inputs/index.test.ts; here, a case the file holds wrong, through the bundle.
e2e('a bad smoke-test file: one error naming the input, nothing sent', async t => {
  const ws = workspace(['agent'])
  writeFileSync(join(ws, 'smoke.json'), JSON.stringify([{ name: 'x', graph: 'agent' }]))
  const bad = await run({
    inputs: t.inputs({ name: uniqueName('bad'), ...GATE, 'smoke-test': 'smoke.json' }),
    env: { GITHUB_WORKSPACE: ws }
  })
  expect(bad.code).toBe(1)
  expect(bad.errors).toHaveLength(1)
  expect(bad.errors[0]).toMatch(/title=Invalid inputs::.*smoke-test/)
  expect(bad.errors[0]).toMatch(
    /`smoke-test` \(smoke.json\), case 1 \(line 1, column 2\): `input` is required/
  )
  expect(t.emu.requests()).toEqual([])
})

// A 204 and a 200 HTML page are no run either: health/verify/smoke.test.ts, with the redirect.
e2e(
  'a smoke case of only name, graph and input fails when /runs/wait answers no run: a sign-in redirect',
  async t => {
    const bare = [{ name: 'bare', graph: 'agent', input: { q: 'ping' } }]
    t.emu.agents.scriptApp('*', { runs: { answer: 'sign-in-redirect' } })
    const r = await smokeRun(t, bare, { name: uniqueName('norun') })
    expect(r.code).toBe(1)
    expect(r.outputs.smoke).toBe('failed')
    expect(r.outputs.health).toBe('healthy')
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/title=Smoke test failed::.*smoke case "bare" failed/)
    expect(r.errors[0]).toMatch(
      /\/runs\/wait answered 302: "redirect to login\.example\.invalid, not followed", not the end of a run/
    )
  }
)

e2e(
  'one 503 on /assistants/search and one on /runs/wait: each is tried again, the deploy passes and nothing is rolled back',
  async t => {
    const name = uniqueName('blip')
    t.seed(name)
    t.emu.agents.scriptApp('*', { assistantsFailFirst: 1, runs: { failFirst: 1 } })
    const r = await smokeRun(t, ECHO, { name, 'on-failure': 'rollback' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ health: 'healthy', smoke: 'passed' })
    expect(paths(t.emu, '/assistants/search').map(p => p.status)).toEqual([503, 200])
    expect(paths(t.emu, '/runs/wait').map(p => p.status)).toEqual([503, 200])
    expect(redeploys(t.emu)).toEqual([])
    expect(r.stdout).toMatch(/graph "agent": it has an assistant/)
  }
)

e2e(
  '/assistants/search answering 503 until the timeout fails naming that answer, not a graph that did not load',
  async t => {
    t.emu.agents.scriptApp('*', { assistantsFailFirst: 1000 })
    const r = await run({
      inputs: t.inputs({ name: uniqueName('down'), ...GATE, timeout: '20s' }),
      env: { GITHUB_WORKSPACE: workspace(['agent']) }
    })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /title=Graphs not listed::.*graph "agent": \/assistants\/search answered 503 on \d+ tries over .*: "\{"detail":"Service temporarily unavailable, try again\."\}", not a list of assistants/
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

e2e(
  'the graphs are checked only when the workspace is what was built: a checkout of another commit is skipped, and said why',
  async t => {
    // The workspace names a graph the server does not serve.
    const ws = workspace(['agent', 'planner'])
    const head = commitWorkspace(ws)
    const other = await run({
      inputs: t.inputs({ name: uniqueName('othercommit'), ...GATE }),
      env: { GITHUB_WORKSPACE: ws }
    })
    expect(other.errors).toEqual([])
    expect(other.code).toBe(0)
    expect(other.stdout).toContain(
      `Graphs not checked: the revision built commit 9f1c2e7a4b8d, and the workspace holds ${head.slice(0, 12)}`
    )
    expect(paths(t.emu, '/assistants/search')).toEqual([])
    // The ref now points at the workspace's commit: that build is checked, and its missing graph fails.
    t.emu.configure({ repoCommits: { 'https://github.com/acme/agent-server@main': head } })
    const same = await run({
      inputs: t.inputs({ name: uniqueName('samecommit'), ...GATE }),
      env: { GITHUB_WORKSPACE: ws, GITHUB_SHA: head }
    })
    expect(same.code).toBe(1)
    expect(same.errors[0]).toMatch(/title=Graph not served::.*graph "planner"/)
  }
)

// Each path and file kind the smoke-test input refuses, at its units (inputs/index.test.ts,
// inputs/smoke-cases.test.ts); here, a link out of the workspace and a case whose text holds a
// token, through the bundle.
e2e(
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
        run({
          inputs: t.inputs({ name: uniqueName('smokefile'), ...GATE, 'smoke-test': file }),
          env: { GITHUB_WORKSPACE: ws }
        })
      )
    )
    for (const r of runs) {
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(/title=Invalid inputs::.*`smoke-test`/)
      expect(r.stdout + r.stderr).not.toContain(token)
    }
    const [environ, timeout] = runs.map(r => r.errors[0])
    expect(environ).toMatch(/\(environ\.yaml\) could not be read: it leads outside the workspace/)
    expect(timeout).toMatch(
      /\(token\.yaml\), case 1 \(line 1, column 3\): `timeout` must be a duration such as 60s or 2m \(at most 30m\)/
    )
    expect(t.emu.requests()).toEqual([])
  }
)

e2e(
  '/info naming this revision under another deployment: the log and the error say which deployment answers, not the same revision twice',
  async t => {
    const other = '0b6f7c1e-2d3a-4e5f-8a9b-0c1d2e3f4a5b'
    t.emu.agents.scriptApp('*', { projectId: other })
    const r = await run({
      inputs: t.inputs({ name: uniqueName('project'), ...GATE, timeout: '14s' })
    })
    const revision = r.outputs['revision-id']!
    const deployment = r.outputs['deployment-id']!
    expect(r.code).toBe(1)
    expect(r.outputs['served-revision']).toBe('stale')
    expect(r.stdout).toContain(
      `GET /info: revision ${revision} answers, but as deployment ${other}, not this run's deployment ${deployment}`
    )
    expect(r.stdout).not.toContain(`${revision} answers, not yet this run's ${revision}`)
    expect(r.errors[0]).toContain(
      `the agent server answers as deployment ${other}, not this run's deployment ${deployment}, though with this run's revision ${revision}`
    )
  }
)

e2e(
  '/info that named this revision and then loses its host block: unknown, one notice saying so, the run succeeds',
  async t => {
    t.emu.agents.scriptApp('*', { hostFirst: 1 })
    const r = await run({
      inputs: t.inputs({ name: uniqueName('losthost'), ...GATE, 'health-check-window': '4s' })
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['served-revision']).toBe('unknown')
    const notices = r.stdout.split('\n').filter(l => l.startsWith('::notice'))
    expect(notices.filter(l => /Served revision unknown/.test(l))).toEqual([
      expect.stringMatching(
        /revision \S+ answered, then \/info probe 2 came without its host block .*could not be held through the window/
      )
    ])
  }
)
