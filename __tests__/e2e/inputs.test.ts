// Inputs end to end, through the bundle as the runner runs it: a mistyped command is one problem,
// every declared output is written on every run, `ref` is checked as git checks ref names, and
// secrets whose values are common words are named once instead of blotting out the log, and a
// smoke-test file in a workspace nobody checked out says to check it out.
import { expect } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ACTION_OUTPUTS } from '../../src/interface/action-yml.ts'
import { e2e, runAction as run, uniqueName, warnings } from './harness.ts'

const DECLARED = Object.keys(ACTION_OUTPUTS).sort()

const PULL_REQUEST = {
  name: 'pull_request',
  ref: 'refs/pull/7/merge',
  refName: '7/merge',
  headRef: 'feature-login',
  sha: '1111111111111111111111111111111111111111',
  payload: {
    number: 7,
    pull_request: {
      number: 7,
      head: {
        sha: '2222222222222222222222222222222222222222',
        repo: { full_name: 'acme/agent-server' }
      },
      base: { repo: { full_name: 'acme/agent-server' } }
    }
  }
}

// Each bad value of these inputs is a case of inputs/index.test.ts; here, one of each through the
// bundle, as the runner shows it.
e2e('inputs: a mistyped command reports one problem, the command, and sends nothing', async t => {
  const { 'integration-id': _, ...inputs } = t.inputs({ name: uniqueName('cmd') })
  const r = await run({ inputs: { ...inputs, command: 'DELETE' } })
  expect(r.code).toBe(1)
  expect(r.errors).toEqual([
    '::error title=Invalid inputs::One input is not valid:%0A- command: `command` must be one of `deploy`, `delete`, `sweep`, `check`'
  ])
  expect(t.emu.requests()).toEqual([])
})

e2e(
  'inputs: a deploy writes every declared output, `deleted` false; refs/heads/X deploys X, with a notice; secrets that are common words: one warning naming them, not masked',
  async t => {
    const r = await run({
      inputs: t.inputs({
        name: uniqueName('outs'),
        ref: 'refs/heads/main',
        secrets:
          'DEBUG=true\nLOG_LEVEL=info\nMODE=main\nSTATE=READY\nAPI_TOKEN=tok-0123456789abcdef'
      })
    })
    expect(r.code).toBe(0)
    expect(Object.keys(r.outputs).sort()).toEqual(DECLARED)
    expect(r.outputs).toMatchObject({
      deleted: 'false',
      created: 'true',
      'github-deployment-id': '',
      'rollback-revision-id': '',
      'rollback-status': ''
    })
    expect(r.stdout).toMatch(
      /^::notice::`ref`: refs\/heads\/main is deployed as the branch name main/m
    )
    const create = t.writes().find(w => w.method === 'POST')
    expect(create?.body).toMatchObject({ source_revision_config: { repo_ref: 'main' } })
    const masks = r.stdout.split('\n').filter(l => l.startsWith('::add-mask::'))
    expect(masks).toContain('::add-mask::tok-0123456789abcdef')
    for (const word of ['true', 'info', 'main', 'READY']) {
      expect(masks).not.toContain(`::add-mask::${word}`)
    }
    const warned = warnings(r.stdout).filter(w => w.includes('common word'))
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatch(
      /Secrets DEBUG, LOG_LEVEL, MODE, STATE: their values are a common word/
    )
    expect(r.summary).toMatch(/Revision status \| `DEPLOYED`/)
  }
)

// Every problem is reported at once: a bad name and a ref git would refuse, one error line.
e2e(
  'inputs: invalid inputs write every declared output; a ref git would refuse is refused before any request',
  async t => {
    const r = await run({ inputs: t.inputs({ name: 'Not A Name', ref: 'main..x' }) })
    expect(r.code).toBe(1)
    expect(Object.keys(r.outputs).sort()).toEqual(DECLARED)
    expect(r.outputs).toMatchObject({ created: 'false', deleted: 'false', 'deployment-id': '' })
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/- ref: `ref` must be a branch name or `refs\/tags\/<tag>` as git/)
    expect(t.emu.requests()).toEqual([])
  }
)

e2e('inputs: refs/pull/N/merge is refused, naming the head branch', async t => {
  const r = await run({
    inputs: t.inputs({ name: uniqueName('pr'), ref: 'refs/pull/7/merge' }),
    event: PULL_REQUEST
  })
  expect(r.code).toBe(1)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(/head branch, `feature-login`/)
  expect(t.emu.requests()).toEqual([])
})

e2e('inputs: a ref that reads as another is refused before any request', async t => {
  const ref = 'ma\u202Ein'
  const r = await run({ inputs: t.inputs({ name: uniqueName('looks'), ref }) })
  expect(r.code).toBe(1)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(/- ref: `ref` must be a branch name .*U\+202E/)
  expect(t.emu.requests()).toEqual([])
})

e2e(
  'inputs: a smoke-test file in a workspace that was never checked out says to add actions/checkout',
  async t => {
    // A job without actions/checkout: the runner's workspace is an empty folder.
    const empty = mkdtempSync(join(tmpdir(), 'cpd-ws-empty-'))
    const r = await run({
      inputs: t.inputs({
        name: uniqueName('nocheckout'),
        'health-check': 'true',
        'smoke-test': 'smoke.yaml'
      }),
      env: { GITHUB_WORKSPACE: empty }
    })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /`smoke-test` \(smoke\.yaml\) could not be read: there is no such file/
    )
    expect(r.errors[0]).toContain(`The workspace (${empty}) is empty`)
    expect(r.errors[0]).toContain('`actions/checkout`')
    expect(t.emu.requests()).toEqual([])
  }
)
