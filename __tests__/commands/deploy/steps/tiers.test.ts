// Types and sizes without the wire: legacy words read as their type, sizes as tiers, what a
// resize sends (and when nothing), the outputs read from a deployment, and the input rule.
import { COMMAND_RULES } from '../../../../src/run.ts'
import { describe, expect, test } from '@jest/globals'
import { kindOf, sizeOfTier, tierOf } from '../../../../src/control-plane/vocabulary.ts'
import { newJournal, record, seen } from '../../../../src/commands/deploy/facts.ts'
import { deletedState } from '../../../../src/commands/deploy/steps/gone.ts'
import * as tiers from '../../../../src/commands/deploy/steps/tiers.ts'
import { checkInputs } from '../../../../src/inputs/index.ts'
import { renderComment } from '../../../../src/github/comment-body.ts'
import { outputsOf } from '../../../../src/report/outputs.ts'
import { renderSummary, typeAndSize } from '../../../../src/report/summary.ts'
import {
  ACTION_SAY,
  EVENT,
  INTEGRATION,
  refusedOr,
  testDeployment,
  testOptions
} from '../../../builders.ts'

const say = ACTION_SAY
const typed = (deployment_type: string, tiers: object = {}) =>
  testDeployment({
    source_config: { integration_id: INTEGRATION, repo_url: 'https://x/a/b', deployment_type },
    ...tiers
  })

describe('the words', () => {
  test('legacy words read as today’s types; unknown words as none', () => {
    expect(['dev', 'dev_free', 'dev_zero', 'dev_free_zero', 'serverless'].map(kindOf)).toEqual(
      Array(5).fill('serverless')
    )
    expect(['prod', 'dedicated'].map(kindOf)).toEqual(['dedicated', 'dedicated'])
    expect(kindOf('enterprise')).toBeUndefined()
    expect(kindOf(null)).toBeUndefined()
  })

  test('a size is the type’s tier, and back', () => {
    expect(tierOf('serverless', 'medium')).toBe('SERVERLESS_M')
    expect(tierOf('dedicated', 'large')).toBe('DEDICATED_L')
    expect(sizeOfTier('DEDICATED_S')).toBe('small')
    expect(sizeOfTier('GPU_XL')).toBeUndefined()
  })
})

/** A resize, or its refusal thrown. */
const resizeOf = (...args: Parameters<typeof tiers.resizeOf>) => refusedOr(tiers.resizeOf(...args))

describe('what a resize sends', () => {
  test('only the tiers that differ; nothing when both are as asked', () => {
    const d = typed('prod', { deployment_tier: 'DEDICATED_M', database_tier: 'DEDICATED_S' })
    expect(resizeOf({ size: 'medium', databaseSize: 'large' }, d, say)?.body).toEqual({
      database_tier: 'DEDICATED_L'
    })
    expect(resizeOf({ size: 'medium', databaseSize: 'small' }, d, say)).toBeUndefined()
    expect(resizeOf({}, d, say)).toBeUndefined()
  })

  test('a tier the service does not report is sent, and said', () => {
    const r = resizeOf({ size: 'large' }, typed('dev_zero'), say)
    expect(r).toEqual({
      body: { compute_tier: 'SERVERLESS_L' },
      unreported: ['size'],
      described: ['compute_tier (not reported) -> SERVERLESS_L']
    })
  })

  test('a database size for a deployment the service made Serverless: refused, no resize sent', () => {
    expect(() => resizeOf({ databaseSize: 'small' }, typed('serverless'), say)).toThrow(
      /is Serverless, which shares its database.*No resize was sent/
    )
  })

  test('a deployment of a type not known cannot be sized', () => {
    expect(() => resizeOf({ size: 'small' }, typed('enterprise'), say)).toThrow(
      /no deployment type/
    )
  })
})

describe('what the outputs say', () => {
  test('deployment-type and size from what the service reports; empty where it does not', () => {
    const state = newJournal(testOptions())
    record(
      state,
      seen(typed('dev_zero', { deployment_tier: 'SERVERLESS_L' }), { warning: () => {} }, state)
    )
    expect(outputsOf(state)).toMatchObject({ 'deployment-type': 'serverless', size: 'large' })
    record(state, seen(typed('prod'), { warning: () => {} }, state))
    expect(outputsOf(state)).toMatchObject({ 'deployment-type': 'dedicated', size: undefined })
  })

  test('the summary and the pull-request comment show the type and the size', () => {
    const state = newJournal(testOptions())
    record(
      state,
      seen(typed('dev', { deployment_tier: 'SERVERLESS_M' }), { warning: () => {} }, state)
    )
    const facts = { durationMs: 1000, requests: 3, error: undefined }
    expect(renderSummary(state, facts)).toContain(
      '| Type and size | serverless, medium (`SERVERLESS_M`) |'
    )
    const comment = renderComment({
      name: 'agent-prod',
      outcome: 'deployed',
      tier: typeAndSize(state)?.replace(/`/g, '')
    })
    expect(comment).toContain('| Type and size | serverless, medium (SERVERLESS_M) |')
  })

  test('the top-level url where present, else the custom_url', () => {
    const state = newJournal(testOptions())
    const d = typed('prod')
    d.source_config.custom_url = 'https://custom.example.com'
    record(state, seen(d, { warning: () => {} }, state))
    expect(state.url).toBe('https://custom.example.com')
    record(state, seen({ ...d, url: 'https://agent.example.com' }, { warning: () => {} }, state))
    expect(state.url).toBe('https://agent.example.com')
  })
})

describe('what the service says now', () => {
  test('AWAITING_FINAL_DELETE is a deployment being deleted, like AWAITING_DELETE', async () => {
    const reading = (status: string) =>
      ({ getDeployment: async () => testDeployment({ status }) }) as never
    expect(await deletedState(reading('AWAITING_FINAL_DELETE'), 'id')).toBe('AWAITING_DELETE')
    expect(await deletedState(reading('AWAITING_DELETE'), 'id')).toBe('AWAITING_DELETE')
    expect(await deletedState(reading('READY'), 'id')).toBeUndefined()
  })
})

describe('the inputs', () => {
  test('a size word that is not one of the three, and a database size on Serverless: refused', () => {
    const r = checkInputs(
      {
        'api-key': 'k',
        name: 'a',
        'integration-id': INTEGRATION,
        size: 'huge',
        'deployment-type': 'dev',
        'database-size': 'small'
      },
      EVENT,
      ACTION_SAY,
      COMMAND_RULES
    )
    expect(r.ok).toBe(false)
    const text = JSON.stringify(r.ok ? [] : r.problems)
    expect(text).toMatch(/`size` must be one of/)
    expect(text).toMatch(
      /`database-size` applies only to a Dedicated deployment.*`deployment-type: dev` is Serverless/
    )
  })

  test('size is for the cloud sources, not external_docker', () => {
    const r = checkInputs(
      { 'api-key': 'k', name: 'a', source: 'external_docker', size: 'small' },
      EVENT,
      ACTION_SAY,
      COMMAND_RULES
    )
    expect(JSON.stringify(r.ok ? [] : r.problems)).toMatch(/`size` applies only to/)
  })
})
