// The table of outcomes, as the user meets it: the exit codes the interface promises
// (docs: action-interface "Exit"), and a run that did not do what was asked never reads as a
// success anywhere it is reported.
import { describe, expect, test } from '@jest/globals'
import { OUTCOMES, type Outcome } from '../../src/interface/outcomes.ts'

const outcomes = Object.keys(OUTCOMES) as Outcome[]

describe('the exit code of each outcome', () => {
  test.each([
    ['deployed', 0],
    ['accepted', 0],
    ['dry-run', 0],
    ['skipped', 0],
    ['no-revision', 0],
    ['deleted', 0],
    ['absent', 0],
    ['failed', 1],
    ['unhealthy', 1],
    ['timeout', 1],
    ['error', 1],
    ['cancelled', 130]
  ] as const)('%s exits %d', (outcome, code) => {
    expect(OUTCOMES[outcome].exitCode).toBe(code)
  })
})

describe('an outcome that fails the run never reads as a success', () => {
  const failing = outcomes.filter(o => OUTCOMES[o].exitCode !== 0)

  test.each(failing)('%s: not ✅ in the summary or the comment, not success on GitHub', o => {
    const row = OUTCOMES[o]
    expect(row.headline).not.toMatch(/^✅/)
    expect(row.github).not.toBe('success')
    for (const words of [row.comment({}), row.removal({ error: 'it failed' })])
      expect(words.title).not.toMatch(/^(✅|🚀|🗑️)/)
  })

  test('a deploy that ends without a failure shows no failure on GitHub', () => {
    const done = outcomes.filter(
      o => OUTCOMES[o].exitCode === 0 && o !== 'deleted' && o !== 'absent'
    )
    expect(done.filter(o => ['failure', 'error'].includes(OUTCOMES[o].github))).toEqual([])
  })
})
