// Smoke cases against the emulator's agent server: /runs/wait per case with on_completion delete,
// expectations on status, text, a path's value; a case's timeout on the injected clock; 401 is
// inconclusive; output excerpts masked, then cut to 300 characters.
import { describe, expect, it } from '@jest/globals'

import type { SmokeCase } from '../../../src/inputs/smoke-cases.ts'
import { runSmokeCases } from '../../../src/health/verify/smoke.ts'
import { agentOf, agentsPerTest, LIVE, scriptApp } from '../../builders/agents.ts'

// A case's timeout fires only when the test moves the clock.
const { emu, clock } = agentsPerTest('manual')

const SECRET = 's3cr3t-value-991'
const mask = (t: string) => t.split(SECRET).join('***')
const smoke = (cases: SmokeCase[], signal = new AbortController().signal) =>
  runSmokeCases({ call: agentOf(emu), cases, clock, signal, mask })
const aCase = (over: Partial<SmokeCase> = {}): SmokeCase => ({
  name: 'echo',
  graph: 'agent',
  input: { text: 'hello' },
  expect: {},
  timeoutMs: 60_000,
  ...over
})

describe('smoke cases', () => {
  it('passed: each case runs /runs/wait on its graph, deleted on completion; expectations met', async () => {
    const runs: unknown[] = []
    const call = agentOf(emu)
    const result = await runSmokeCases({
      call: req => (runs.push(req.body), call(req)),
      clock,
      signal: new AbortController().signal,
      mask,
      cases: [
        aCase({ expect: { contains: 'hello' } }),
        aCase({
          name: 'path',
          input: { a: { b: [1, { c: 'x' }] } },
          expect: { path: 'a.b[1].c', equals: 'x' }
        })
      ]
    })
    expect(result.verdict).toBe('passed')
    expect(result.cases.map(c => [c.name, c.verdict])).toEqual([
      ['echo', 'passed'],
      ['path', 'passed']
    ])
    expect(result.cases[0]!.excerpt).toBe('{"text":"hello"}')
    expect(runs[0]).toEqual({
      assistant_id: 'agent',
      input: { text: 'hello' },
      on_completion: 'delete'
    })
  })

  it('failed: an expectation missed says which; the other cases still run', async () => {
    const result = await smoke([
      aCase({ name: 'wrong', expect: { path: 'text', equals: 'bye' } }),
      aCase({ name: 'absent', expect: { path: 'nope[0]' } }),
      aCase({ name: 'fine' })
    ])
    expect(result.verdict).toBe('failed')
    expect(result.cases.map(c => [c.verdict, c.reason])).toEqual([
      ['failed', 'text is "hello", not "bye"'],
      ['failed', 'the output has nothing at nope[0]'],
      ['passed', undefined]
    ])
  })

  it('a run that errors fails, unless an error is expected', async () => {
    await scriptApp(emu, { runs: { error: 'graph exploded' } })
    const result = await smoke([
      aCase({ name: 'plain' }),
      aCase({ name: 'expected', expect: { status: 'error', contains: 'exploded' } })
    ])
    expect(result.cases.map(c => [c.verdict, c.reason])).toEqual([
      ['failed', 'the run ended in an error'],
      ['passed', undefined]
    ])
    expect(result.cases[0]!.excerpt).toContain('graph exploded')
  })

  it.each([
    [
      'sign-in-redirect',
      /^\/runs\/wait answered 302: "redirect to login\.example\.invalid, not followed", not the end of a run$/
    ],
    ['no-content', /^\/runs\/wait answered 204, an empty answer, not the end of a run$/],
    [
      'html-page',
      /^\/runs\/wait answered 200: "<!doctype html><html><head><title>Sign in.*", not JSON, not the end of a run$/
    ]
  ] as const)(
    'a case that expects nothing fails when /runs/wait answers no run: %s',
    async (answer, says) => {
      await scriptApp(emu, { runs: { answer } })
      const result = await smoke([aCase()])
      expect(result.verdict).toBe('failed')
      expect(result.cases[0]!.verdict).toBe('failed')
      expect(result.cases[0]!.reason).toMatch(says)
    }
  )

  it('an unknown graph fails with the server’s answer', async () => {
    const result = await smoke([aCase({ graph: 'missing-graph' })])
    // A 404 is no run that ended: the case fails naming the answer, whatever it expects.
    expect(result.cases[0]!.verdict).toBe('failed')
    expect(result.cases[0]!.reason).toMatch(
      /^\/runs\/wait answered 404: "No assistant found for "missing-graph"\..*", not the end of a run$/
    )
  })

  it('a slow case times out at its timeout, on the clock', async () => {
    await scriptApp(emu, { runs: { delayMs: 600_000 } })
    const running = smoke([aCase({ name: 'slow', timeoutMs: 5_000 })])
    while (!emu.agents.probes(LIVE).some(p => p.path === '/runs/wait') || clock.pending() === 0)
      await new Promise(r => setTimeout(r, 10))
    clock.advance(4_999)
    expect(clock.pending()).toBe(1)
    clock.advance(1)
    const result = await running
    expect(result.verdict).toBe('failed')
    expect(result.cases[0]).toMatchObject({
      verdict: 'timeout',
      reason: 'no answer within 5 s',
      elapsedMs: 5_000
    })
  })

  it('inconclusive on 401: not a failure', async () => {
    await scriptApp(emu, { runs: { status: 401 } })
    const result = await smoke([aCase()])
    expect(result.verdict).toBe('inconclusive')
    expect(result.cases[0]!.reason).toMatch(/answered 401/)
  })

  it('secret values are masked in the excerpt and the reason, then the excerpt is cut to 300', async () => {
    const long = 'x'.repeat(290)
    await scriptApp(emu, { runs: { outputs: [{ token: SECRET, long }] } })
    const result = await smoke([aCase({ expect: { path: 'token', equals: 'other' } })])
    const c = result.cases[0]!
    expect(c.excerpt).toHaveLength(300)
    expect(c.excerpt.startsWith('{"token":"***"')).toBe(true)
    expect(JSON.stringify(result)).not.toContain(SECRET)
    expect(c.reason).toBe('token is "***", not "other"')
  })

  it('cancelled: no case runs once the signal has aborted', async () => {
    const stop = new AbortController()
    stop.abort()
    expect(await smoke([aCase()], stop.signal)).toEqual({ verdict: 'cancelled', cases: [] })
    expect(emu.agents.probes(LIVE)).toEqual([])
  })
})
