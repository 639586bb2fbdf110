// The sweep's pure parts: the `sweep-names` pattern (whole names only, `*` and `{pr}`), ages with
// days, and which matching deployments go and why (choose.ts).
import { describe, expect, test } from '@jest/globals'
import { choose, type Candidate } from '../../../src/commands/sweep/choose.ts'
import { formatAge, parseAge } from '../../../src/duration.ts'
import { matchName, parseSweepNames, type NamePattern } from '../../../src/inputs/sweep-names.ts'

function pattern(text: string): NamePattern {
  const problems: string[] = []
  const p = parseSweepNames(text, m => void problems.push(m))
  if (!p) throw new Error(problems.join('; '))
  return p
}

describe('sweep-names', () => {
  test.each([
    ['my-agent-pr-{pr}', 'my-agent-pr-12', { pr: 12 }],
    ['my-agent-pr-{pr}', 'my-agent-pr-12-old', undefined],
    ['my-agent-pr-{pr}', 'x-my-agent-pr-12', undefined],
    ['my-agent-pr-{pr}', 'my-agent-pr-012', undefined],
    ['my-agent-pr-{pr}', 'my-agent-pr-', undefined],
    ['my-agent-pr-{pr}', 'my-agent-pr-1a', undefined],
    // `*` is one character or more: `my-agent*` never takes production's `my-agent`.
    ['preview-*', 'preview-', undefined],
    ['my-agent*', 'my-agent', undefined],
    ['my-agent*', 'my-agent2', {}],
    ['preview-*', 'preview-feature-x', {}],
    ['preview-*', 'my-preview-x', undefined],
    ['*-pr-{pr}', 'agent-pr-3', { pr: 3 }],
    ['*-pr-{pr}', '-pr-3', undefined],
    ['app-*-pr-{pr}', 'app-a-b-pr-44', { pr: 44 }],
    // A name the service answered with other characters than a deployment name's: never matched.
    ['preview-*', 'preview-$(touch x)', undefined],
    ['preview-*', 'preview-a\n::error::x', undefined],
    ['preview-*', 'preview-A', undefined]
  ])('%s against %s', (text, name, expected) => {
    expect(matchName(pattern(text), name)).toEqual(expected)
  })

  test('the longest plain part filters the list', () => {
    expect(pattern('my-agent-pr-{pr}').literal).toBe('my-agent-pr-')
    expect(pattern('x-*-previews').literal).toBe('-previews')
  })

  test.each([
    ['*', /must name a part/],
    ['*-{pr}', /must name a part/],
    ['My-Agent-*', /lowercase letters/],
    ['a-{pr}-{pr}', /`\{pr\}` once/],
    ['agent-{n}', /lowercase letters/],
    ['agent.*', /lowercase letters/],
    [
      'my-agent',
      /must hold `\{pr\}` or `\*`, like `my-agent-pr-\{pr\}`: `my-agent` names one deployment alone/
    ]
  ])('%s is refused', (text, says) => {
    const problems: string[] = []
    parseSweepNames(text, m => void problems.push(m))
    expect(problems.join('\n')).toMatch(says)
  })
})

describe('ages', () => {
  test.each([
    ['7d', 7 * 86_400_000],
    ['1d12h', 36 * 3_600_000],
    ['36h', 36 * 3_600_000],
    ['90m', 5_400_000],
    ['600', 600_000]
  ])('%s', (text, ms) => expect(parseAge(text)).toBe(ms))
  test.each(['', 'd', '7 d', '7days', '1d5', '-1d'])('%j is not an age', text =>
    expect(parseAge(text)).toBeUndefined()
  )
  test('printed with days', () => {
    expect(formatAge(7 * 86_400_000)).toBe('7d')
    expect(formatAge(50 * 3_600_000)).toBe('2d02h')
    expect(formatAge(90_000)).toBe('1m30s')
  })
})

describe('choose', () => {
  const now = Date.parse('2026-06-30T00:00:00Z')
  const day = 86_400_000
  const candidate = (name: string, daysOld: number, pr?: number): Candidate => ({
    id: name,
    name,
    status: 'READY',
    updatedAt: new Date(now - daysOld * day).toISOString(),
    updatedMs: now - daysOld * day,
    latestRevisionId: null,
    ...(pr === undefined ? {} : { pr })
  })
  const none = { pulls: undefined, mark: '#', maxAgeMs: undefined, maxCount: undefined, now }

  test('the count keeps the newest of those the other criteria leave; a date that is no date stays', () => {
    const odd = { ...candidate('odd', 0), updatedAt: 'yesterday', updatedMs: NaN }
    const rows = choose([candidate('a', 1), candidate('b', 9), odd, candidate('c', 5)], {
      ...none,
      maxAgeMs: 7 * day,
      maxCount: 1
    })
    expect(rows.map(r => [r.name, r.fate])).toEqual([
      ['b', 'would-delete'],
      ['c', 'would-delete'],
      ['a', 'would-delete'],
      ['odd', 'kept']
    ])
    expect(rows[0]!.why).toEqual(['last change 9d ago, older than 7d'])
    expect(rows[1]!.why[0]).toMatch(
      /beyond the count: only the newest 1 of the 3 that the other criteria keep stay/
    )
  })

  test('a pull request not read, or not found, says nothing: the deployment stays', () => {
    const pulls = new Map([
      [1, { kind: 'closed' as const, merged: true }],
      [2, { kind: 'failed' as const, reason: 'HTTP 502' }],
      [3, { kind: 'absent' as const }],
      [4, { kind: 'open' as const }]
    ])
    const rows = choose(
      [1, 2, 3, 4].map(n => candidate(`pr-${n}`, 0, n)),
      { ...none, pulls }
    )
    expect(rows.map(r => [r.name, r.fate, r.why.join('; ')])).toEqual([
      ['pr-1', 'would-delete', 'pull request #1 is merged'],
      ['pr-2', 'kept', 'pull request #2 could not be read'],
      ['pr-3', 'kept', 'no pull request #3'],
      ['pr-4', 'kept', 'pull request #4 is open']
    ])
  })

  test('one already being deleted is left as it is', () => {
    const going = { ...candidate('x', 30), status: 'AWAITING_DELETE' }
    expect(choose([going], { ...none, maxAgeMs: day })[0]!.fate).toBe('being-deleted')
  })
})
