import { describe, expect, test } from '@jest/globals'
import { Redactor } from '../../../../src/control-plane/redact.ts'
import { failureText, stopped } from '../../../../src/interface/ending.ts'
import type { FlowLog } from '../../../../src/log.ts'
import * as gate from '../../../../src/commands/deploy/steps/gate.ts'
import { unhealthy } from '../../../../src/commands/deploy/steps/gate.ts'
import { exactHost } from '../../../../src/control-plane/vouched-hosts.ts'
import type { ProbeRequest, ProbeResponse } from '../../../../src/health/probe.ts'
import { ACTION_SAY } from '../../../builders.ts'

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
  const deps = { log, say: ACTION_SAY }
  const settings = {
    url: 'https://agent.example.com',
    path: '/ok',
    windowMs: 10_000,
    apiKey: KEY,
    deadline: 60_000,
    vouched: [exactHost('https://agent.example.com')!],
    redactor: new Redactor([KEY]),
    say: ACTION_SAY,
    clock: {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms
      }
    },
    transport: async (req: ProbeRequest) => {
      sent.push(req)
      t += 20
      return answers[Math.min(sent.length - 1, answers.length - 1)]!
    }
  }
  return { deps, settings, sent, lines, warnings }
}

const ok = { status: 200, body: '{"ok":true}' }

/** The gate's result, where the gate is expected to probe (not to stop the run). */
async function healthGate(...args: Parameters<typeof gate.healthGate>) {
  const r = await gate.healthGate(...args)
  if (stopped(r)) throw new Error(`the gate stopped the run: ${failureText(r.failure)}`)
  return r
}

describe('the health gate step', () => {
  test('healthy: the log says what was asked, each change of answer once, and the verdict', async () => {
    const s = setup([{ status: 503, body: 'starting' }, { status: 503, body: 'starting' }, ok])
    const r = await healthGate(s.settings, s.deps)
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

  test('healthy at the first probe with no window to hold: one probe, said as one', async () => {
    const s = setup([ok])
    s.settings.windowMs = 0
    const r = await healthGate(s.settings, s.deps)
    expect(r.health).toBe('healthy')
    expect(s.lines.at(-1)).toMatch(/^Healthy: 1 probe in \d+ms, a 2xx\.$/)
  })

  test('unavailable: one warning, titled', async () => {
    const s = setup([{ status: 404, body: 'Not Found' }])
    const r = await healthGate(s.settings, s.deps)
    expect(r.health).toBe('unavailable')
    expect(s.warnings).toEqual([
      [
        expect.stringMatching(/answered 404: the agent server's health routes are turned off/),
        'Health check unavailable'
      ]
    ])
  })

  test('a URL that may not carry the key: the run stops, no probe sent', async () => {
    const s = setup([ok])
    const r = await gate.healthGate({ ...s.settings, url: 'http://agent.example.com' }, s.deps)
    expect(stopped(r)).toBe(true)
    const failure = stopped(r) ? r.failure : undefined
    expect(failure?.title).toBe('Health check refused')
    expect(failure && failureText(failure)).toMatch(
      /plain http to another machine.*No probe was sent\.\nSet `custom-url` to the https address/s
    )
    expect(s.sent).toEqual([])
  })

  test('a Serverless wake-up is said as it happens: how long so far, of at most how long', async () => {
    const asleep = { status: 503, body: 'waking' }
    const s = setup([...Array<ProbeResponse>(8).fill(asleep), ok])
    const r = await healthGate({ ...s.settings, deadline: 600_000, wakes: true }, s.deps)
    expect(r.health).toBe('healthy')
    const said = s.lines.filter(l => l.startsWith('Serverless deployment waking up'))
    // Said at its first probe, then again once 15 s more went by; never after it woke.
    expect(said).toEqual([
      'Serverless deployment waking up, waited 0s of at most 3m.',
      'Serverless deployment waking up, waited 15s of at most 3m.',
      'Serverless deployment waking up, waited 30s of at most 3m.'
    ])
    const woke = s.lines.findIndex(l => /^Probe 9 waited \d+s on a wake-up/.test(l))
    expect(woke).toBeGreaterThan(s.lines.indexOf(said.at(-1)!))
  })

  test('the key is in no log line, even when the server echoes it', async () => {
    const s = setup([{ status: 500, body: `bad key ${KEY}` }])
    const r = await healthGate(
      { ...s.settings, url: 'https://a.example.com', deadline: 100 },
      s.deps
    )
    expect(r.health).toBe('unhealthy')
    const text = JSON.stringify([s.lines, s.warnings, unhealthy(r, 'rev', 'n').message])
    expect(text).not.toContain(KEY)
    expect(text).toContain('bad key ***')
  })
})

describe('the error of an unhealthy server', () => {
  test('names the revision, the reason, the last answers and the rollback', () => {
    const err = unhealthy(
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
