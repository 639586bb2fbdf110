// The workspace's own texts, hostile (issue 33, defect 1), in every place they can reach through
// the bundle: a graph id (the graphs check's log line, its failure, the summary's Graphs row), a
// smoke case's name and graph (its log line, its failure, the summary's table, beside a server
// output of the same kind, and the pull request comment), a folder's and a dependency's name (the
// refusal before any request).
// Each carries workflow commands on lines of their own, `##[`, terminal escapes, HTML and a
// Markdown link (__tests__/builders/hostile-workspace.ts): none may steer the log or the summary.
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import type { Emulator } from '../../emulator/server.ts'
import { startFakeGitHub } from '../../scripts/fake-github.ts'
import { pullRequest, type RunResult } from '../e2e/harness.ts'
import {
  HOSTILE,
  hostileWorkspace,
  steeredLog,
  steeredMarkdown,
  type HostileWorkspace
} from '../builders/hostile-workspace.ts'
import { debugEnv, deployInputs, inBothLogModes, lane, withEmulator, type Case } from './support.ts'

const GROUP = GROUPS.hostile

/** An upload of the workspace with every check on (graphs, the smoke case). */
function uploadInputs(c: Case, emu: Emulator, ws: HostileWorkspace, debug: boolean) {
  const { 'integration-id': _none, ...inputs } = deployInputs(c, emu, `hostile-ws-${c.runs}`, {
    source: 'internal_source',
    'graph-config-path': ws.configPath,
    'health-check': 'true',
    'health-check-window': '2s',
    'smoke-test': ws.smokePath
  })
  return { inputs, env: { GITHUB_WORKSPACE: ws.dir, ...debugEnv(debug) } }
}

/** Nothing of the run steered by the workspace: every line, annotation and the summary. */
function checkInert(c: Case, r: RunResult) {
  for (const line of [...steeredLog(r.stdout), ...steeredLog(r.stderr)].slice(0, 3))
    c.check(false, `the log was steered: ${JSON.stringify(line.slice(0, 160))}`)
  for (const what of steeredMarkdown(r.summary)) c.check(false, `the summary holds ${what}`)
  c.check(r.errors.length <= 1, `${r.errors.length} ::error lines`)
}

interface Place {
  title: string
  workspace: () => HostileWorkspace
  /** Set up the agent server before the run. */
  arrange?: (emu: Emulator) => void
  code: 0 | 1
  /** What the outputs say. */
  outputs: Record<string, string>
  /** What the error annotation names, when the run fails. */
  error?: RegExp
}

const PLACES: Place[] = [
  {
    title: 'a graph id, a smoke case name and graph, a folder name; the checks pass',
    workspace: () => hostileWorkspace(),
    code: 0,
    outputs: { health: 'healthy', smoke: 'passed', 'revision-status': 'DEPLOYED' }
  },
  {
    title: 'a smoke case that fails, beside a server output of the same kind',
    workspace: () => hostileWorkspace({ failingCase: true }),
    arrange: emu => emu.agents.scriptApp('*', { runs: { outputs: [`answer ${HOSTILE}`] } }),
    code: 1,
    outputs: { smoke: 'failed' },
    error: /title=Smoke test failed::.*smoke case "case agent/
  },
  {
    title: 'a graph id the agent server does not serve',
    workspace: () => hostileWorkspace(),
    arrange: emu => emu.agents.scriptApp('*', { graphs: ['other'] }),
    code: 1,
    outputs: { health: 'healthy' },
    error: /title=Graph not served::.*graph "agent/
  },
  {
    title: 'a dependency that does not exist, in a hostile folder',
    workspace: () => hostileWorkspace({ missingDependency: true }),
    code: 1,
    outputs: { 'revision-id': '' },
    error: /the dependency '.\/dep agent /
  }
]

/** A failing smoke case on a pull request: the comment shows the case and the reason as text. */
async function commentCase(c: Case, debug: boolean) {
  const gh = await startFakeGitHub()
  try {
    await withEmulator({}, async emu => {
      emu.agents.scriptApp('*', { runs: { outputs: [`answer ${HOSTILE}`] } })
      const { inputs, env } = uploadInputs(c, emu, hostileWorkspace({ failingCase: true }), debug)
      const run = await c.run({
        inputs: { ...inputs, 'pr-comment': 'true', 'github-token': 'ghs_fake_token_for_a_comment' },
        event: pullRequest(33),
        env: { ...env, GITHUB_API_URL: gh.url }
      })
      checkInert(c, run)
      c.check(run.code === 1, `exit ${run.code}, expected 1`)
      const comments = gh.comments(33)
      c.check(comments.length === 1, `${comments.length} comments`)
      for (const what of steeredMarkdown(comments[0]?.body ?? ''))
        c.check(false, `the comment holds ${what}`)
      c.check((comments[0]?.body ?? '').includes('smoke case "case agent'), 'the case is not named')
    })
  } finally {
    await gh.close()
  }
}

async function placeCase(c: Case, p: Place, debug: boolean) {
  await withEmulator({}, async emu => {
    p.arrange?.(emu)
    const run = await c.run(uploadInputs(c, emu, p.workspace(), debug))
    checkInert(c, run)
    c.check(run.code === p.code, `exit ${run.code}, expected ${p.code}`)
    for (const [name, value] of Object.entries(p.outputs))
      c.check(run.outputs[name] === value, `${name}=${run.outputs[name]}, expected ${value}`)
    if (p.error)
      c.check(p.error.test(run.errors[0] ?? ''), `error: ${run.errors[0]?.slice(0, 300)}`)
  })
}

describe(GROUP, () => {
  const four = lane(4)
  for (const p of PLACES)
    inBothLogModes(
      GROUP,
      `hostile workspace text: ${p.title}: nothing steers the log or the summary`,
      (c, d) => placeCase(c, p, d),
      { lane: four }
    )
  inBothLogModes(
    GROUP,
    'hostile workspace text: a smoke case that fails on a pull request: nothing steers the PR comment',
    commentCase,
    { lane: four }
  )
})
