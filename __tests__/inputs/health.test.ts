import { COMMAND_RULES } from '../../src/run.ts'
import { beforeAll, describe, expect, test } from '@jest/globals'
import {
  healthProblems,
  parseHealthCheck,
  parseHealthCheckHosts,
  parseHealthCheckWindow
} from '../../src/inputs/health.ts'
import { checkInputs, loadPublicSuffixes } from '../../src/inputs/index.ts'
import { ACTION_SAY, EVENT, INTEGRATION, testOptions } from '../builders.ts'

/** A check's value and the problems it reported. */
function run<T>(check: (v: string, fail: (m: string) => undefined) => T, v: string) {
  const problems: string[] = []
  const value = check(v, m => {
    problems.push(m)
    return undefined
  })
  return { value, problems }
}

describe('health-check', () => {
  test('off when empty or false; true is /ok; a path is kept with its query', () => {
    expect(run(parseHealthCheck, '').value).toBe(false)
    expect(run(parseHealthCheck, 'false').value).toBe(false)
    expect(run(parseHealthCheck, 'True').value).toBe('/ok')
    expect(run(parseHealthCheck, '/ok?check_db=1').value).toBe('/ok?check_db=1')
    expect(run(parseHealthCheck, '/api/v1/health').value).toBe('/api/v1/health')
  })

  test.each([
    ['yes', /must be `true`, `false`, or a path on the agent server starting with `\/`/],
    ['ok', /starting with `\/`/],
    ['https://other.example.com/ok', /starting with `\/`/],
    ['//other.example.com/ok', /`\/\/` would read as another host/],
    ['/ok now', /without spaces/],
    ['/ok#frag', /without spaces, line breaks, `#`/],
    [`/${'a'.repeat(3000)}`, /at most 2048 characters/]
  ])('%s is refused, naming the input and what it takes', (v, message) => {
    const r = run(parseHealthCheck, v)
    expect(r.value).toBeUndefined()
    expect(r.problems).toEqual([expect.stringMatching(message)])
    expect(r.problems[0]).toMatch(/^`health-check` /)
  })
})

describe('health-check-window', () => {
  test('30s by default; durations and plain seconds; 0 accepts the first 2xx', () => {
    expect(run(parseHealthCheckWindow, '').value).toBe(30_000)
    expect(run(parseHealthCheckWindow, '2m').value).toBe(120_000)
    expect(run(parseHealthCheckWindow, '45').value).toBe(45_000)
    expect(run(parseHealthCheckWindow, '0').value).toBe(0)
  })

  test('not a duration, or longer than an hour: one problem naming the input', () => {
    expect(run(parseHealthCheckWindow, 'half a minute').problems).toEqual([
      expect.stringMatching(/^`health-check-window` must be a duration like `30s`/)
    ])
    expect(run(parseHealthCheckWindow, '2h').problems).toEqual([
      expect.stringMatching(/^`health-check-window` must be at most 1h/)
    ])
  })
})

describe('how the gate fits the other inputs', () => {
  const fit = { healthPath: '/ok', wait: true, command: 'deploy' } as const

  test('a deploy that waits: no problem', () => {
    expect(healthProblems(fit, ACTION_SAY)).toEqual([])
    expect(healthProblems({ ...fit, healthPath: false }, ACTION_SAY)).toEqual([])
    expect(healthProblems({ ...fit, healthPath: false, wait: false }, ACTION_SAY)).toEqual([])
  })

  test('wait: false cannot be gated', () => {
    expect(healthProblems({ ...fit, wait: false }, ACTION_SAY)).toEqual([
      ['health-check', expect.stringMatching(/needs `wait: true`/)]
    ])
  })
})

describe('through the input parser', () => {
  const base = { 'api-key': 'lsv2_pt_test_key', name: 'agent-prod', 'integration-id': INTEGRATION }

  test('off by default; a path and a window as given', () => {
    expect(testOptions()).toMatchObject({ healthCheck: false, healthCheckWindow: 30_000 })
    expect(
      testOptions({ 'health-check': '/ok?check_db=1', 'health-check-window': '1m' })
    ).toMatchObject({ healthCheck: '/ok?check_db=1', healthCheckWindow: 60_000 })
  })

  test('with wait: false or command: delete, one problem naming health-check, nothing else', () => {
    const deleting = { 'api-key': base['api-key'], name: base.name, command: 'delete' }
    for (const raw of [{ ...base, wait: 'false' }, deleting]) {
      const r = checkInputs({ ...raw, 'health-check': 'true' }, EVENT, ACTION_SAY, COMMAND_RULES)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.problems.map(p => p.input)).toEqual(['health-check'])
    }
  })
})

describe('health-check-hosts', () => {
  beforeAll(loadPublicSuffixes)

  test('a *.domain pattern broader than one registrable domain is refused, by the public suffix list', () => {
    const shared = ['*.co.uk', '*.github.io', '*.run.app', '*.vercel.app', '*.amazonaws.com']
    for (const entry of shared) {
      const r = run(parseHealthCheckHosts, `agent.example.com, ${entry}`)
      expect(r.value).toBeUndefined()
      expect(r.problems).toHaveLength(1)
      expect(r.problems[0]).toMatch(/^`health-check-hosts`: /)
      expect(r.problems[0]).toContain(`"${entry}" would match hosts of many owners`)
    }
    expect(run(parseHealthCheckHosts, '*.amazonaws.com').problems[0]).toContain(
      'names below amazonaws.com are public suffixes'
    )
    // One owner's names: under a registrable domain, or one's own under a shared suffix.
    const own = '*.example.co.uk, *.me.github.io, *.agents.example.com, *.x.a.run.app, github.io'
    expect(run(parseHealthCheckHosts, own).problems).toEqual([])
  })

  test('a list of hosts and *.domain patterns; not set is undefined', () => {
    expect(run(parseHealthCheckHosts, '').value).toBeUndefined()
    expect(run(parseHealthCheckHosts, 'agent.example.com,\n*.example.org').value).toEqual([
      { host: 'agent.example.com', wildcard: false, text: 'agent.example.com' },
      { host: 'example.org', wildcard: true, text: '*.example.org' }
    ])
  })

  test('every bad entry is one problem naming the input, the entry and what is expected', () => {
    const r = run(parseHealthCheckHosts, '*, ok.example.com, https://x.example.com')
    expect(r.value).toBeUndefined()
    expect(r.problems).toHaveLength(2)
    for (const p of r.problems) {
      expect(p).toMatch(/^`health-check-hosts`: /)
      expect(p).toMatch(/expected host names, \*\.domain patterns or IP addresses/)
    }
  })

  test('parsed into the options of a deploy; refused before any request when bad', () => {
    const ok = checkInputs(
      {
        'api-key': 'k',
        name: 'a',
        'integration-id': INTEGRATION,
        'health-check-hosts': '*.example.com'
      },
      EVENT,
      ACTION_SAY,
      COMMAND_RULES
    )
    expect(ok.ok && ok.options.healthCheckHosts).toEqual([
      { host: 'example.com', wildcard: true, text: '*.example.com' }
    ])
    const bad = checkInputs(
      { 'api-key': 'k', name: 'a', 'integration-id': INTEGRATION, 'health-check-hosts': '*.com' },
      EVENT,
      ACTION_SAY,
      COMMAND_RULES
    )
    expect(!bad.ok && bad.problems.map(p => p.input)).toEqual(['health-check-hosts'])
  })
})
