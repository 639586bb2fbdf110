// The checks of the new revision end to end: the bundle deploys to the emulator, whose agent
// servers say which revision answers (`/info`'s host block), list the graphs' assistants and run
// smoke cases. The workspace (GITHUB_WORKSPACE) holds the graph config and the smoke-test file.
// Here, what only the bundle shows (the masking lines, the outputs and summary files); every other
// rule of the checks runs in process (__tests__/commands/deploy/command.new-revision.test.ts).
import { expect } from '@jest/globals'

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { e2e, leaks, runAction as run, uniqueName } from './harness.ts'

const GATE = { 'health-check': 'true', 'health-check-window': '2s' }

/** A workspace with graph `agent` and the smoke cases `cases` (smoke.json). */
function workspace(cases: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
  writeFileSync(
    join(dir, 'langgraph.json'),
    JSON.stringify({ graphs: { agent: './src/agent.py:graph' } })
  )
  writeFileSync(join(dir, 'smoke.json'), JSON.stringify(cases))
  return dir
}

const paths = (emu: Emulator, path: string) => emu.agents.probes().filter(p => p.path === path)

e2e(
  'this revision from the start: served-revision=this, each graph has an assistant, every smoke case passes, one request per graph and per case; secret values are masked in a case output, in the log and the summary',
  async t => {
    const secret = 'sk-smoke-0123456789abcdef'
    const cases = [
      { name: 'echo', graph: 'agent', input: { q: 'ping' }, expect: { contains: 'ping' } },
      // The server echoes the input, which carries the secret's value.
      { name: 'leaky', graph: 'agent', input: { token: secret } },
      // A text output that tries to start a workflow command on a line of its own.
      { name: 'lines', graph: 'agent', input: 'fine\n::error title=Injected::from the server' }
    ]
    const r = await run({
      inputs: t.inputs({
        ...GATE,
        'smoke-test': 'smoke.json',
        name: uniqueName('fresh'),
        secrets: `SMOKE_TOKEN=${secret}`
      }),
      env: { GITHUB_WORKSPACE: workspace(cases) }
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({
      health: 'healthy',
      'served-revision': 'this',
      smoke: 'passed'
    })
    expect(paths(t.emu, '/assistants/search')).toHaveLength(1)
    expect(paths(t.emu, '/runs/wait')).toHaveLength(cases.length)
    expect(r.stdout).toMatch(/graph "agent": it has an assistant/)
    expect(r.stdout).toMatch(
      /Smoke case "echo" \(graph agent\): passed in .*Output: \{"q":"ping"\}/
    )
    expect(r.summary).toMatch(/\| Served revision \| this \|/)
    expect(r.summary).toMatch(/\| echo \(`agent`\) \| passed \| \{"q":"ping"\} \|/)
    expect(leaks(r, [secret, t.key])).toEqual([])
    expect(r.stdout).toMatch(
      /Smoke case "lines" .*Output: fine : :error title=Injected: :from the server/
    )
    expect(r.summary).toMatch(/\| leaky \(`agent`\) \| passed \| \{"token":"\*\*\*"\} \|/)
  }
)
