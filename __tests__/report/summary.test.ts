import { describe, expect, test } from '@jest/globals'
import { Redactor } from '../../src/control-plane/redact.ts'
import type { Journal } from '../../src/interface/journal.ts'
import { ACTION_OUTPUTS } from '../../src/interface/action-yml.ts'
import { allOutputs } from '../../src/report/outputs.ts'
import { renderSummary } from '../../src/report/summary.ts'

function state(over: Partial<Journal> = {}): Journal {
  return {
    name: 'agent-prod',
    deploymentId: '44444444-4444-4444-8444-444444444444',
    created: false,
    plan: undefined,
    revisionId: '66666666-6666-4666-8666-666666666666',
    revisionStatus: 'DEPLOYED',
    deploymentStatus: 'READY',
    url: 'https://agent.example.com',
    repoCommitSha: '9f1c2e7',
    expectedSha: '9f1c2e7',
    ref: 'main',
    newerRevisionId: undefined,
    timeline: [
      { status: 'QUEUED', elapsedMs: 5 },
      { status: 'BUILDING', elapsedMs: 61_000 },
      { status: 'DEPLOYED', elapsedMs: 200_000 }
    ],
    outcome: 'deployed',
    ...over
  }
}

const facts = { durationMs: 201_000, requests: 23, error: undefined }

describe('the job summary', () => {
  test('a deployed run shows the ids, statuses, commits, URL, duration, requests and timeline', () => {
    const md = renderSummary(state(), facts)
    expect(md).toContain('### ✅ Deployed: `agent-prod`')
    for (const row of [
      '| Deployment | `44444444-4444-4444-8444-444444444444` |',
      '| Revision | `66666666-6666-4666-8666-666666666666` |',
      '| Revision status | `DEPLOYED` |',
      '| Deployment status | `READY` |',
      '| Commit built / expected | `9f1c2e7` / `9f1c2e7` |',
      '| URL | https://agent.example.com |',
      '| Duration | 3m21s |',
      '| Requests | 23 |',
      '| `BUILDING` | 1m01s |'
    ])
      expect(md).toContain(row)
  })

  test('a failed run says what failed, and a pipe in server text cannot break the table', () => {
    const md = renderSummary(
      state({ outcome: 'failed', revisionStatus: 'BUILD_FAILED', ref: 'a|b' }),
      {
        ...facts,
        error: 'Revision 6666 ended BUILD_FAILED after 3m.'
      }
    )
    expect(md).toContain('### ❌ Revision failed: `agent-prod`')
    expect(md).toContain('Revision 6666 ended BUILD_FAILED after 3m.')
    expect(md).toContain('| Ref | `a\\|b` |')
  })

  test('the health check: its verdict in a row, and an unhealthy server in the headline', () => {
    expect(renderSummary(state({ health: 'healthy' }), facts)).toContain('| Health | healthy |')
    const md = renderSummary(state({ outcome: 'unhealthy', health: 'unhealthy' }), {
      ...facts,
      error: 'Revision 6666 is DEPLOYED, but its agent server is unhealthy.'
    })
    expect(md).toContain('### ❌ Agent server unhealthy: `agent-prod`')
    expect(md).toContain('| Health | unhealthy |')
    expect(renderSummary(state(), facts)).not.toContain('| Health |')
  })

  test('a superseded run names the newer revision', () => {
    const md = renderSummary(
      state({ outcome: 'skipped', revisionStatus: 'SKIPPED', newerRevisionId: 'newer-rev' }),
      facts
    )
    expect(md).toContain('Superseded by a newer revision')
    expect(md).toContain('| Newer revision | `newer-rev` |')
  })

  test('the redactor removes a secret from anything that reached the summary', () => {
    const r = new Redactor(['sk-secret-value-1'])
    const md = r.redact(
      renderSummary(state({ url: 'https://x.example/?t=sk-secret-value-1' }), facts)
    )
    expect(md).not.toContain('sk-secret-value-1')
    expect(md).toContain('https://x.example/?t=***')
  })
})

describe('the outputs: every one action.yml declares, on every run', () => {
  const declared = Object.keys(ACTION_OUTPUTS).sort()

  test('a deploy writes `deleted` false and the rollback outputs empty', () => {
    const out = allOutputs(state(), { 'github-deployment-id': undefined })
    expect(Object.keys(out).sort()).toEqual(declared)
    expect(out).toMatchObject({
      'deployment-id': '44444444-4444-4444-8444-444444444444',
      created: 'false',
      deleted: 'false',
      'github-deployment-id': '',
      'rollback-revision-id': '',
      'rollback-status': ''
    })
  })

  test('before a run (invalid inputs): nothing created, nothing deleted, the rest empty', () => {
    const out = allOutputs(undefined, {})
    expect(Object.keys(out).sort()).toEqual(declared)
    expect(out).toMatchObject({ created: 'false', deleted: 'false', 'deployment-id': '', url: '' })
  })

  test('a create or delete cut off in flight claims neither way', () => {
    expect(allOutputs(state({ writing: 'create' }), {}).created).toBe('')
    expect(allOutputs(state({ writing: 'delete' }), {}).deleted).toBe('')
    expect(allOutputs(state({ deleted: true }), {}).deleted).toBe('true')
  })
})

describe('status-url: the deployment page', () => {
  const page = 'https://smith.langchain.com/o/t-1/host/deployments/44444444'
  test('an output, and a row of the summary, when known; empty and absent otherwise', () => {
    expect(allOutputs(state({ statusUrl: page }), {})['status-url']).toBe(page)
    expect(renderSummary(state({ statusUrl: page }), facts)).toContain(
      `| Deployment page | ${page} |`
    )
    expect(allOutputs(state(), {})['status-url']).toBe('')
    expect(renderSummary(state(), facts)).not.toContain('Deployment page')
  })
})
