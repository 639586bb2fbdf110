// What the check counts as a planned change: the dry run's plan, taken as it is, except a secret
// whose value the control plane does not return (it cannot be known to differ, only its name).
import { describe, expect, test } from '@jest/globals'
import * as check from '../../../src/commands/check/planned.ts'
import { ACTION_SAY, refusedOr, testDeployment, testOptions } from '../../builders.ts'

const say = ACTION_SAY
const secrets = (text: string) => testOptions({ secrets: text })

/** The planned changes, or the deploy's refusal thrown. */
const plannedChanges = (...args: Parameters<typeof check.plannedChanges>) =>
  refusedOr(check.plannedChanges(...args))

describe('plannedChanges', () => {
  test('in sync: no lines', () => {
    expect(plannedChanges(secrets('OPENAI_API_KEY=sk-old-value'), testDeployment(), say)).toEqual({
      lines: [],
      unread: []
    })
  })

  test('a value that differs, a secret added and one removed: by name only', () => {
    const current = testDeployment({
      secrets: [
        { name: 'OPENAI_API_KEY', value: 'sk-old-value' },
        { name: 'LEFT_OVER', value: 'left-over-value' }
      ]
    })
    const { lines } = plannedChanges(
      secrets('OPENAI_API_KEY=sk-new-value\nNEW_ONE=new-value-1'),
      current,
      say
    )
    expect(lines).toEqual(
      expect.arrayContaining([
        '  secrets.OPENAI_API_KEY: *** -> ***',
        '  secrets.NEW_ONE: ***',
        '  secrets.LEFT_OVER: *** -> (removed)'
      ])
    )
    expect(lines.join('\n')).not.toMatch(/sk-old-value|sk-new-value|new-value-1|left-over-value/)
  })

  test('a value the service hides is not compared: only its name, and it is said', () => {
    const current = testDeployment({ secrets: [{ name: 'OPENAI_API_KEY', value: null }] })
    expect(plannedChanges(secrets('OPENAI_API_KEY=sk-new-value'), current, say)).toEqual({
      lines: [],
      unread: ['OPENAI_API_KEY']
    })
  })

  test('a setting: the plan line as the dry run prints it', () => {
    const o = testOptions({ 'build-command': 'make agent' })
    expect(plannedChanges(o, testDeployment(), say).lines).toEqual([
      '  source_config.build_command: make agent'
    ])
  })
})
