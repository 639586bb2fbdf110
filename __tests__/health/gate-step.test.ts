import { describe, expect, test } from '@jest/globals'
import { Redactor } from '../../src/control-plane/redact.ts'
import { DeployError } from '../../src/deploy/deploy-error.ts'
import type { FlowLog } from '../../src/deploy/deps.ts'
import { healthGate, unhealthyError } from '../../src/health/gate-step.ts'
import { exactHost } from '../../src/control-plane/vouched-hosts.ts'
import type { ProbeRequest, ProbeResponse } from '../../src/health/probe.ts'

const KEY = 'lsv2_pt_gate_step_key_0123456789abcdef'

function setup(answers: ProbeResponse[]) {
  let t = 0
  const sent: ProbeRequest[] = []
  const lines: string[] = []
  const warnings: [string, string | undefined][] = []
  const log: FlowLog = {
    info: l => lines.push(l),
    warning: (l, title) => warnings.push([l, title]),
    notice: l => lines.push(l),
    group: async (name, fn) => {
      lines.push(`[${name}]`)
      return fn()
    }
  }
  const deps = {
    log,
    redactor: new Redactor([KEY]),
    clock: {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms
      }
    },
    probe: async (req: ProbeRequest) => {
      sent.push(req)
      t += 20
      return answers[Math.min(sent.length - 1, answers.length - 1)]!
    }
  }
  const settings = {
    path: '/ok',
    windowMs: 10_000,
    apiKey: KEY,
    deadline: 60_000,
    vouched: [exactHost('https://agent.example.com')!]
  }
  return { deps, settings, sent, lines, warnings }
}

const ok = { status: 200, body: '{"ok":true}' }

describe('the health gate step', () => {
  test('healthy: the log says what was asked, each change of answer once, and the verdict', async () => {
    const s = setup([{ status: 503, body: 'starting' }, { status: 503, body: 'starting' }, ok])
    const r = await healthGate(s.settings, 'https://agent.example.com', s.deps)
    expect(r.health).toBe('healthy')
    expect(s.lines).toEqual([
      '[Health check of the agent server]',
      'GET https://agent.example.com/ok: until a 2xx, then 2xx for 10s.',
      'Probe 1: 503 "starting"',
      'Probe 3: 200 "{"ok":true}"',
      expect.stringMatching(/^Healthy: 5 probes in \d+s, each 2xx from the first 2xx on\.$/)
    ])
    expect(s.warnings).toEqual([])
  })

  test('unavailable: one warning, titled', async () => {
    const s = setup([{ status: 404, body: 'Not Found' }])
    const r = await healthGate(s.settings, 'https://agent.example.com', s.deps)
    expect(r.health).toBe('unavailable')
    expect(s.warnings).toEqual([
      [
        expect.stringMatching(/answered 404: the agent server's health routes are turned off/),
        'Health check unavailable'
      ]
    ])
  })

  test('a URL that may not carry the key: a DeployError, no probe sent', async () => {
    const s = setup([ok])
    const err = await healthGate(s.settings, 'http://agent.example.com', s.deps).catch(e => e)
    expect(err).toBeInstanceOf(DeployError)
    expect((err as DeployError).title).toBe('Health check refused')
    expect((err as Error).message).toMatch(
      /plain http to another machine.*No probe was sent\.\nSet `custom-url` to the https address/s
    )
    expect(s.sent).toEqual([])
  })

  test('the key is in no log line, even when the server echoes it', async () => {
    const s = setup([{ status: 500, body: `bad key ${KEY}` }])
    const r = await healthGate({ ...s.settings, deadline: 100 }, 'https://a.example.com', s.deps)
    expect(r.health).toBe('unhealthy')
    const text = JSON.stringify([s.lines, s.warnings, unhealthyError(r, 'rev', 'n').message])
    expect(text).not.toContain(KEY)
    expect(text).toContain('bad key ***')
  })
})

describe('the error of an unhealthy server', () => {
  test('names the revision, the reason, the last answers and the rollback', () => {
    const err = unhealthyError(
      {
        health: 'unhealthy',
        probes: 4,
        reason: 'probe 4 failed after the agent server had answered 2xx',
        answers: [
          { status: 200, excerpt: '{"ok":true}' },
          { status: 500, excerpt: 'database unreachable' },
          { status: null, excerpt: 'the connection was reset' }
        ],
        elapsedMs: 15_000
      },
      'rev-1',
      'my-agent',
      'Rolled back: revision rev-0 is DEPLOYED.'
    )
    expect(err.title).toBe('Agent server unhealthy')
    expect(err.message.split('\n')[0]).toBe(
      'Revision rev-1 of "my-agent" is DEPLOYED, but its agent server is unhealthy: probe 4 failed after the agent server had answered 2xx. ' +
        'Last answers: 200 "{"ok":true}"; 500 "database unreachable"; no answer: the connection was reset. ' +
        'Rolled back: revision rev-0 is DEPLOYED.'
    )
  })
})
