// `command: delete` end to end: only the exact name, absent names a success, dry runs, the tracing
// project, the wait through AWAITING_DELETE and a lost answer; and the pull-request comment.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import {
  e2e,
  e2eWithGitHub,
  emulatorInputs,
  leaks,
  namesLeft,
  pullRequest,
  runAction as run,
  uniqueName,
  type E2E
} from './harness.ts'

const TOKEN = 'ghs_e2eTokenValue0123456789'

const deployInputs = (emu: Emulator, name: string, over: Record<string, string> = {}) =>
  emulatorInputs(emu, { 'poll-interval': '2s', name, ...over })
const deleteInputs = (emu: Emulator, name: string, over: Record<string, string> = {}) => {
  const { 'integration-id': _unused, ...inputs } = emulatorInputs(emu)
  return { ...inputs, 'poll-interval': '2s', command: 'delete', name, ...over }
}
const names = namesLeft
const deletes = (emu: Emulator) => emu.requests().filter(r => r.method === 'DELETE')
/** A deployment of a new name seeded before the run, the requests of the seeding forgotten. */
function seeded({ emu, seed }: E2E, prefix: string): string {
  const name = uniqueName(prefix)
  seed(name)
  emu.clearRequests()
  return name
}

e2e(
  'command: delete: deletes only the exact name among look-alikes, and waits until it is gone',
  async ({ emu, seed }) => {
    const base = uniqueName('pv')
    for (const n of [`${base}-1`, `${base}-12`, `my-${base}-1`]) seed(n)
    const r = await run({ inputs: deleteInputs(emu, `${base}-1`) })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('true')
    expect(deletes(emu)).toHaveLength(1)
    expect(names(emu)).not.toContain(`${base}-1`)
    expect(names(emu)).toEqual(expect.arrayContaining([`${base}-12`, `my-${base}-1`]))
    expect(r.stdout).toMatch(/Gone after \S+: reads answer 404/)
    expect(r.stdout).toMatch(/tracing project .* was kept/)
  }
)

// The interface says an absent deployment is "a success with a notice": an annotation the job page shows.
e2e(
  'command: delete: an absent name or id is a success with a notice, and writes nothing',
  async ({ emu }) => {
    const name = uniqueName('absent')
    const r = await run({ inputs: deleteInputs(emu, name) })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('false')
    expect(r.errors).toEqual([])
    expect(r.stdout).toContain(
      `::notice title=Nothing to delete::No deployment is named "${name}".`
    )
    const id = '99999999-9999-4999-8999-999999999999'
    const byId = await run({ inputs: deleteInputs(emu, '', { 'deployment-id': id }) })
    expect(byId.code).toBe(0)
    expect(byId.outputs.deleted).toBe('false')
    expect(byId.stdout).toContain(
      `::notice title=Nothing to delete::No deployment has the id ${id}.`
    )
    expect(emu.requests().filter(q => q.method !== 'GET')).toEqual([])
  }
)

e2e(
  'command: delete: waits through AWAITING_DELETE until reads answer 404',
  async ({ emu, named, seed }) => {
    const name = uniqueName('awaiting')
    seed(name)
    const id = named(name)[0]!.id
    // The emulator's time nearly stands still until the run has read AWAITING_DELETE; then it
    // runs fast until the deployment is gone: the order is decided by events, not by speed.
    emu.setSpeed(0.0001)
    const r = await run({
      inputs: deleteInputs(emu, name),
      onStdout: { when: /^AWAITING_DELETE after /m, run: () => emu.setSpeed(1000) }
    })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('true')
    // The wait saw the deployment going, then gone, in that order.
    const awaiting = r.stdout.search(/^AWAITING_DELETE after \S+$/m)
    const gone = r.stdout.search(/^Gone after \S+: reads answer 404\.$/m)
    expect(awaiting).toBeGreaterThan(0)
    expect(gone).toBeGreaterThan(awaiting)
    const reads = emu
      .requests()
      .filter(q => q.method === 'GET' && q.path === `/v2/deployments/${id}`)
    expect(reads.map(q => q.status)).toContain(200)
    expect(reads.at(-1)!.status).toBe(404)
  }
)

e2e(
  'command: delete: a dry run says what it would delete and deletes nothing',
  async ({ emu, seed }) => {
    const name = uniqueName('dry-delete')
    seed(name)
    const r = await run({ inputs: deleteInputs(emu, name, { 'dry-run': 'true' }) })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Dry run: would delete deployment/)
    expect(deletes(emu)).toEqual([])
    expect(names(emu)).toContain(name)
  }
)

e2e('command: delete: delete-tracing-project sends the query that frees the name', async t => {
  const { emu } = t
  const name = seeded(t, 'free-name')
  const r = await run({ inputs: deleteInputs(emu, name, { 'delete-tracing-project': 'true' }) })
  expect(r.code).toBe(0)
  expect(deletes(emu)[0]!.query).toMatchObject({ delete_tracing_project: 'true' })
})

e2e('command: delete: a lost delete answer is reconciled: one deletion, success', async t => {
  const { emu } = t
  const name = seeded(t, 'lost-delete')
  emu.addFaults({ kind: 'lost-response', method: 'DELETE', times: 1 })
  const r = await run({ inputs: deleteInputs(emu, name) })
  expect(r.code).toBe(0)
  expect(r.outputs.deleted).toBe('true')
  expect(names(emu)).not.toContain(name)
})

e2e(
  'command: delete: deploy-only inputs are refused with command: delete, before any request',
  async ({ emu }) => {
    const r = await run({ inputs: deleteInputs(emu, uniqueName('bad'), { secrets: 'A=abcdefgh' }) })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/secrets.*applies only to deploying/)
    expect(emu.requests()).toEqual([])
  }
)

e2eWithGitHub(
  'pr-comment: one comment per pull request and name, updated in place, then marked deleted',
  async ({ emu }, gh) => {
    const name = uniqueName('pr')
    const withComment = { 'pr-comment': 'true', 'github-token': TOKEN }
    const onPullRequest7 = (inputs: Record<string, string>) =>
      run({ inputs, event: pullRequest(7), env: { GITHUB_API_URL: gh.url } })
    const first = await onPullRequest7(deployInputs(emu, name, withComment))
    expect(first.code).toBe(0)
    expect(gh.comments(7)).toHaveLength(1)
    const second = await onPullRequest7(deployInputs(emu, name, withComment))
    expect(second.code).toBe(0)
    expect(gh.comments(7)).toHaveLength(1)
    const removed = await onPullRequest7(deleteInputs(emu, name, withComment))
    expect(removed.code).toBe(0)
    expect(gh.comments(7)).toHaveLength(1)
    expect(gh.comments(7)[0]!.body).toMatch(/removed|deleted/i)
    for (const r of [first, second, removed]) expect(leaks(r, [TOKEN])).toEqual([])
  }
)

e2eWithGitHub(
  'pr-comment: a GitHub 500 costs one warning and never the deploy',
  async ({ emu }, gh) => {
    gh.failWith(500, 'boom')
    const r = await run({
      inputs: deployInputs(emu, uniqueName('pr-500'), {
        'pr-comment': 'true',
        'github-token': TOKEN
      }),
      event: pullRequest(8),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(0)
    const comment = r.stdout
      .split('\n')
      .filter(l => /^::warning title=Pull request comment/.test(l))
    expect(comment).toHaveLength(1)
    expect(leaks(r, [TOKEN])).toEqual([])
  }
)
