// What the action does on its own (rollback, delete, the pull-request comment), end to end through
// the bundle, among other runs and against a control plane that answers wrongly: it acts only on
// what this run owns, re-checks before it writes, and says when it holds back. Races are decided
// by events (a request held until the other run has acted), never by timing.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import { failureLogRead, withGateProxy as withProxy } from './gate.ts'
import {
  e2e,
  e2eWithGitHub,
  pullRequest,
  runAction as run,
  uniqueName,
  warnings,
  type E2E,
  redeploys
} from './harness.ts'

const TOKEN = 'ghs_e2eAutonomyToken0123456789'
const writesTo = (emu: Emulator, id: string) =>
  emu.requests().filter(r => r.method !== 'GET' && r.path.startsWith(`/v2/deployments/${id}`))

/** A request to the emulator as another run (or a person) would send it. */
async function call(
  emu: Emulator,
  key: string,
  method: string,
  path: string,
  body?: unknown
): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await res.text()
  return text ? (JSON.parse(text) as Record<string, unknown>) : {}
}

/** Another run's update: a new revision of the deployment; its id. */
async function otherUpdate(emu: Emulator, key: string, id: string): Promise<string> {
  const d = await call(emu, key, 'PATCH', `/v2/deployments/${id}`, {
    source_revision_config: { repo_ref: 'main' }
  })
  return d.latest_revision_id as string
}

/** Two seeded deployments, A and B; the inputs of a run that names A by id through `proxy`. */
function twoDeployments(t: E2E) {
  const a = uniqueName('mine')
  const b = uniqueName('other')
  t.seed(a)
  t.seed(b)
  return { a: t.named(a)[0]!, b: t.named(b)[0]! }
}

// ---------------------------------------------------------------------------------------------
// Defect 1: an answer about another deployment is an error naming both ids, before any write.

// Each run reads five times (the answer may be a passing glitch) with the client's backoff: one
// run per test keeps each well inside the test timeout.
for (const command of ['deploy', 'delete'] as const) {
  e2e(
    `another id: a GET of deployment A answered with B (${command}) writes nothing and names both`,
    async t => {
      const { a, b } = twoDeployments(t)
      const bBody = await call(t.emu, t.key, 'GET', `/v2/deployments/${b.id}`)
      await withProxy(t.emu, async proxy => {
        proxy.rewrite(
          x => x.method === 'GET' && x.path === `/v2/deployments/${a.id}`,
          () => bBody
        )
        const inputs = t.inputs({ 'deployment-id': a.id, 'base-url': proxy.url })
        const { 'integration-id': _deployOnly, ...common } = inputs
        const r = await run({ inputs: command === 'delete' ? { ...common, command } : inputs })
        expect(r.code).toBe(1)
        expect(r.errors).toHaveLength(1)
        expect(r.errors[0]).toContain(`about deployment ${b.id}, not about deployment ${a.id}`)
        expect(r.outputs['deployment-id']).not.toBe(b.id)
        if (command === 'delete') expect(r.outputs.deleted).toBe('false')
        expect(writesTo(t.emu, a.id)).toEqual([])
        expect(writesTo(t.emu, b.id)).toEqual([])
        expect(t.named(b.name)[0]!.status).not.toBe('AWAITING_DELETE')
      })
    }
  )
}

e2e('another id: a PATCH answered with another deployment is an error, not followed', async t => {
  const { a, b } = twoDeployments(t)
  const bBody = await call(t.emu, t.key, 'GET', `/v2/deployments/${b.id}`)
  await withProxy(t.emu, async proxy => {
    proxy.rewrite(
      x => x.method === 'PATCH',
      () => bBody
    )
    const r = await run({ inputs: t.inputs({ name: a.name, 'base-url': proxy.url }) })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toContain(`about deployment ${b.id}, not about deployment ${a.id}`)
    // One PATCH, never sent again on the strength of the lie, and nothing sent to B.
    expect(writesTo(t.emu, a.id)).toHaveLength(1)
    expect(writesTo(t.emu, b.id)).toEqual([])
    expect(r.outputs['deployment-id']).toBe(a.id)
  })
})

// ---------------------------------------------------------------------------------------------
// Defects 2, 3 and 5: the rollback.

e2e(
  'rollback vs a newer write: another run wrote after the failed revision, so nothing is redeployed',
  async t => {
    const name = uniqueName('overtaken')
    const id = t.seed(name)
    await withProxy(t.emu, async proxy => {
      // The failed revision's log is read before the rollback: held until the other run wrote.
      const logs = proxy.gate(failureLogRead)
      let other = ''
      void logs.reached.then(async () => {
        other = await otherUpdate(t.emu, t.key, id)
        logs.open()
      })
      const r = await run({
        inputs: t.inputs({
          name,
          ref: 'fail-build',
          'on-failure': 'rollback',
          'base-url': proxy.url
        })
      })
      expect(r.code).toBe(1)
      expect(other).toMatch(/^[0-9a-f-]{36}$/)
      expect(redeploys(t.emu)).toEqual([])
      expect(r.errors[0]).toContain(
        `Not rolled back: revision ${other} came after this run's revision ${r.outputs['revision-id']}`
      )
      expect(r.outputs['rollback-revision-id']).toBe('')
      // The other run's revision goes on: not superseded by a rollback.
      expect(t.named(name)[0]!.latest_revision_id).toBe(other)
    })
  }
)

e2e(
  'rollback: a redeploy answered with the old latest revision is followed to its own new revision',
  async t => {
    const name = uniqueName('late-redeploy')
    t.seed(name)
    // Made, but the answer still shows the revision from before.
    t.emu.addFaults({ kind: 'old-revision', method: 'POST', path: '**/redeploy' })
    const r = await run({
      inputs: t.inputs({ name, ref: 'fail-build', 'on-failure': 'rollback' })
    })
    expect(r.code).toBe(1)
    const d = t.named(name)[0]!
    expect(redeploys(t.emu)).toHaveLength(1)
    expect(r.outputs['rollback-revision-id']).toBe(d.latest_revision_id)
    expect(r.outputs['rollback-revision-id']).not.toBe(r.outputs['revision-id'])
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    expect(r.stdout).toContain("The redeploy's answer names no new revision")
    expect(r.errors[0]).toContain(`Rolled back: revision ${d.latest_revision_id}`)
  }
)

e2e('rollback: a redeploy that made no revision is reported as not confirmed', async t => {
  const name = uniqueName('dropped-redeploy')
  t.seed(name)
  await withProxy(t.emu, async proxy => {
    // The redeploy is never made: its answer is the deployment as it is.
    const id = t.named(name)[0]!.id
    proxy.divert(x => x.path.endsWith('/redeploy'), {
      method: 'GET',
      path: `/v2/deployments/${id}`
    })
    const r = await run({
      inputs: t.inputs({ name, ref: 'fail-build', 'on-failure': 'rollback', 'base-url': proxy.url })
    })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toContain('The rollback could not be confirmed')
    expect(r.errors[0]).not.toContain('Rolled back')
    expect(r.outputs['rollback-revision-id']).toBe('')
    expect(t.named(name)[0]!.active_revision_id).not.toBe(r.outputs['revision-id'])
    expect(r.summary).toContain('**Rollback**: not confirmed')
  })
})

e2e(
  'rollback: the message and the summary name the secrets and settings it did not undo',
  async t => {
    const name = uniqueName('partial')
    t.seed(name, { KEEP_ME: 'keep-value-1234', DROP_ME: 'drop-value-5678' })
    const r = await run({
      inputs: t.inputs({
        name,
        ref: 'fail-build',
        'on-failure': 'rollback',
        secrets: 'KEEP_ME=keep-value-1234',
        'install-command': 'pip install -e .[extra]'
      })
    })
    expect(r.code).toBe(1)
    expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    for (const text of [r.errors[0]!, r.summary]) {
      expect(text).toContain('secret DROP_ME (removed)')
      expect(text).toContain('install-command')
      expect(text).toContain('stay as this run set them')
    }
    // Indeed: the redeploy brought the old revision back, not the secret.
    expect(t.named(name)[0]!.secrets.map(s => s.name)).toEqual(['KEEP_ME'])
  }
)

// ---------------------------------------------------------------------------------------------
// Defect 4: workflow commands in server text, and the url output.

e2e('##[ in build-log lines and error details is neutralised', async ({ emu, inputs }) => {
  emu.script({
    outcome: 'BUILD_FAILED',
    logLines: ['##[add-mask]visible-word', '##[stop-commands]tok', 'then ##[error]raised']
  })
  const r = await run({ inputs: inputs({ name: uniqueName('legacy') }) })
  expect(r.code).toBe(1)
  expect(r.stdout).not.toContain('##[')
  expect(r.stdout).toContain('# #[add-mask]visible-word')
  expect(r.stdout).toContain('then # #[error]raised')
  expect(r.errors).toHaveLength(1)
})

e2e('##[ in an error detail is neutralised', async ({ emu, inputs }) => {
  emu.addFaults({
    kind: 'detail',
    status: 400,
    method: 'POST',
    path: '/v2/deployments',
    detail: '##[error]forged ##[set-output name=url]x ::error::also'
  })
  const r = await run({ inputs: inputs({ name: uniqueName('legacy-detail') }) })
  expect(r.code).toBe(1)
  expect(r.stdout).not.toContain('##[')
  expect(r.stdout).toContain('# #[error]forged')
  expect(r.errors).toHaveLength(1)
})

e2e(
  'the url output: a custom_url that is not a plain http(s) URL is left out, with one warning',
  async t => {
    const name = uniqueName('bad-url')
    await withProxy(t.emu, async proxy => {
      // A service without the newer top-level `url`, whose custom_url is the lie.
      const lie = (body: unknown) => {
        const d = body as { source_config?: Record<string, unknown>; url?: unknown }
        if (d && typeof d === 'object' && d.source_config) {
          d.source_config.custom_url = 'https://ok.example/ ##[add-mask]x'
          delete d.url
        }
        return d
      }
      proxy.rewrite(
        x => x.path.startsWith('/v2/deployments') && !x.path.includes('/revisions'),
        (_s, b) => {
          const list = b as { resources?: unknown[] }
          if (Array.isArray(list?.resources)) list.resources.forEach(lie)
          else lie(b)
          return b
        }
      )
      const r = await run({ inputs: t.inputs({ name, 'base-url': proxy.url }) })
      expect(r.code).toBe(0)
      expect(r.outputs.url ?? '').toBe('')
      expect(warnings(r.stdout).filter(w => w.includes('custom_url'))).toHaveLength(1)
    })
  }
)

// ---------------------------------------------------------------------------------------------
// A deployment being deleted, and a deployment deleted during the wait.

e2e('deploy meets AWAITING_DELETE: waits until it is gone, then creates it anew', async t => {
  const name = uniqueName('reborn')
  const old = t.seed(name)
  // Time nearly stands still until the run says it waits, then runs fast: the run reads
  // AWAITING_DELETE first whatever the machine's speed.
  t.emu.setSpeed(0.0001)
  await call(t.emu, t.key, 'DELETE', `/v2/deployments/${old}?delete_tracing_project=true`)
  const r = await run({
    inputs: t.inputs({ name }),
    onStdout: { when: /waiting until it is gone/, run: () => t.emu.setSpeed(1000) }
  })
  expect(r.errors).toEqual([])
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(
    /is being deleted \(AWAITING_DELETE\), so it cannot be updated: waiting until it is gone \(at most the timeout/
  )
  expect(r.outputs.created).toBe('true')
  expect(r.outputs['deployment-id']).not.toBe(old)
  expect(writesTo(t.emu, old)).toEqual([expect.objectContaining({ method: 'DELETE' })])
})

e2e(
  'a dry run that meets AWAITING_DELETE says what a run would do, and neither waits nor writes',
  async t => {
    const name = uniqueName('reborn-dry')
    const old = t.seed(name)
    // Time stands nearly still: a run that waited would wait until the harness kills it.
    t.emu.setSpeed(0.0001)
    await call(t.emu, t.key, 'DELETE', `/v2/deployments/${old}`)
    const r = await run({ inputs: t.inputs({ name, 'dry-run': 'true' }) })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('a run would wait until it is gone, then create it anew')
    expect(r.stdout).toMatch(/Create deployment/)
    expect(t.emu.requests().filter(q => q.method === 'POST' || q.method === 'PATCH')).toEqual([])
    expect(t.named(name)[0]!.status).toBe('AWAITING_DELETE')
  }
)

e2e('deploy vs delete: a deployment deleted during the wait is reported as deleted', async t => {
  const name = uniqueName('deleted-meanwhile')
  t.emu.setSpeed(0.01)
  const r = await run({
    inputs: t.inputs({ name }),
    onStdout: {
      when: /::group::Wait for revision/,
      run: async () => {
        const id = t.named(name)[0]!.id
        await call(t.emu, t.key, 'DELETE', `/v2/deployments/${id}?delete_tracing_project=true`)
        t.emu.setSpeed(1000)
      }
    }
  })
  expect(r.code).toBe(1)
  expect(r.errors).toHaveLength(1)
  expect(r.errors[0]).toMatch(/was deleted while this run waited for revision/)
  expect(r.errors[0]).not.toMatch(/check the id/)
})

// ---------------------------------------------------------------------------------------------
// The wrong dialect on the update path.

e2e(
  'an update through the wrong dialect names api-dialect, not source',
  async t => {
    const name = uniqueName('dialect')
    t.seed(name)
    const r = await run({ inputs: t.inputs({ name, 'api-dialect': 'interface' }) })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('api-dialect: langsmith')
    expect(r.errors[0]).not.toContain('set source: github')
  },
  { dialect: 'langsmith' }
)

// ---------------------------------------------------------------------------------------------
// The pull-request comment.

// Four overlapping runs leave one comment: a race, in reliability/autonomy.test.ts.
e2eWithGitHub(
  'pr-comment: a marked comment by another user is left alone, and said once',
  async (t, gh) => {
    const name = uniqueName('pr-other')
    const { commentMarker } = await import('../../src/github/comment-body.ts')
    gh.seedComments(22, [`${commentMarker(name)}\nwritten by a person`], 'a-person')
    const r = await run({
      inputs: t.inputs({ name, 'pr-comment': 'true', 'github-token': TOKEN }),
      event: pullRequest(22),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(0)
    const [theirs, ours] = gh.comments(22)
    expect(theirs!.body).toContain('written by a person')
    expect(ours!.user.login).toBe('github-actions[bot]')
    expect(r.stdout.split('\n').filter(l => l.includes('a-person'))).toHaveLength(1)
  }
)

e2eWithGitHub(
  'pr-comment: a dry run posts nothing and prints the comment it would post',
  async (t, gh) => {
    const name = uniqueName('pr-dry')
    t.seed(name)
    const r = await run({
      inputs: t.inputs({ name, 'pr-comment': 'true', 'github-token': TOKEN, 'dry-run': 'true' }),
      event: pullRequest(23),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(0)
    expect(gh.requests.filter(q => q.path.includes('/comments'))).toEqual([])
    expect(gh.comments(23)).toHaveLength(0)
    expect(r.stdout).toContain('Dry run: no comment is posted on pull request #23; it would say:')
    expect(r.stdout).toContain(name)
  }
)
