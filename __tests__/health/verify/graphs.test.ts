// The graphs check against the emulator's agent server: each graph of the config must have its
// default assistant; missing names the graph; 401/403 is inconclusive. And reading the config.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../../emulator/server.ts'
import { graphIdsOf, readGraphIds } from '../../../src/health/verify/graph-config.ts'
import { agentProbe } from '../../../src/health/verify/agent-probe.ts'
import { checkGraphs } from '../../../src/health/verify/graphs.ts'
import { OTHER_KEY } from '../../builders/emulator.ts'
import { agentOf, LIVE, scriptApp, startAgents, testClock } from '../../builders/agents.ts'

let emu: Emulator
beforeEach(async () => {
  emu = await startAgents(testClock())
})
afterEach(async () => {
  await emu.close()
})

const signal = new AbortController().signal
const searches = () => emu.agents.probes(LIVE).filter(p => p.path === '/assistants/search')

describe('graphs', () => {
  it('passed: every graph has an assistant, one request per graph', async () => {
    await scriptApp(emu, { graphs: ['agent', 'writer'] })
    const result = await checkGraphs({ call: agentOf(emu), graphs: ['agent', 'writer'], signal })
    expect(result).toEqual({
      verdict: 'passed',
      graphs: [
        { graph: 'agent', verdict: 'found' },
        { graph: 'writer', verdict: 'found' }
      ]
    })
    expect(searches()).toHaveLength(2)
  })

  it('failed: a graph without an assistant is named', async () => {
    const result = await checkGraphs({ call: agentOf(emu), graphs: ['agent', 'planner'], signal })
    expect(result.verdict).toBe('failed')
    expect(result.reason).toMatch(/graph "planner": the agent server has no assistant for it/)
    expect(result.reason).not.toMatch(/"agent"/)
  })

  it('inconclusive on 401 or 403: a warning, never a failure', async () => {
    await scriptApp(emu, { assistantsStatus: 401 })
    const unauthorized = await checkGraphs({ call: agentOf(emu), graphs: ['agent'], signal })
    expect(unauthorized.verdict).toBe('inconclusive')
    expect(unauthorized.reason).toMatch(/answered 401/)
    await scriptApp(emu, {})
    const wrongKey = await checkGraphs({ call: agentOf(emu, OTHER_KEY), graphs: ['agent'], signal })
    expect(wrongKey.verdict).toBe('inconclusive')
    expect(wrongKey.reason).toMatch(/answered 403/)
  })

  it('failed when the search gets no answer within its bound', async () => {
    // A port that takes the connection and never answers.
    const sockets: Socket[] = []
    const silent = createServer(socket => void sockets.push(socket))
    await new Promise<void>(ok => silent.listen(0, '127.0.0.1', ok))
    try {
      const port = (silent.address() as { port: number }).port
      const call = agentProbe({ url: `http://127.0.0.1:${port}`, apiKey: '', vouched: [] })
      const result = await checkGraphs({ call, graphs: ['agent'], signal, requestTimeoutMs: 50 })
      expect(result.verdict).toBe('failed')
      expect(result.reason).toMatch(/graph "agent": its assistants could not be listed: no answer/)
    } finally {
      for (const s of sockets) s.destroy()
      await new Promise(ok => silent.close(ok))
    }
  })

  it('failed when the server does not answer', async () => {
    const port = emu.port
    await emu.close()
    const call = agentOf({ url: `http://127.0.0.1:${port}` } as Emulator)
    const result = await checkGraphs({ call, graphs: ['agent'], signal })
    expect(result.verdict).toBe('failed')
    expect(result.reason).toMatch(/could not be listed: no answer/)
    emu = await startAgents(testClock())
  })
})

describe('the graph ids of the config in the workspace', () => {
  it('the keys of `graphs`; anything else is unreadable, with the reason', async () => {
    expect(graphIdsOf('{"graphs": {"a": "./a.py:g", "b": "./b.ts:g"}}', 'langgraph.json')).toEqual({
      graphs: ['a', 'b']
    })
    expect(graphIdsOf('{"graphs": {}}', 'x.json')).toEqual({ unreadable: 'x.json names no graph' })
    expect(graphIdsOf('{', 'x.json')).toEqual({ unreadable: 'x.json is not JSON' })
    expect(graphIdsOf('[]', 'x.json')).toEqual({ unreadable: 'x.json has no "graphs" object' })
    const dir = await mkdtemp(join(tmpdir(), 'graphs-'))
    try {
      await writeFile(join(dir, 'langgraph.json'), '{"graphs": {"agent": "./g.py:graph"}}')
      expect(await readGraphIds(join(dir, 'langgraph.json'), 'langgraph.json')).toEqual({
        graphs: ['agent']
      })
      expect(await readGraphIds(join(dir, 'none.json'), 'none.json')).toEqual({
        unreadable: 'none.json is not readable in the workspace (ENOENT)'
      })
    } finally {
      await rm(dir, { recursive: true })
    }
  })
})
