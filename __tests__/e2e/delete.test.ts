// `command: delete` end to end: only the exact name, an absent name a success with a notice,
// deploy-only inputs refused; and the pull-request comment. An absent id, dry runs, the tracing
// project, the wait through AWAITING_DELETE and a lost answer are the flow's:
// __tests__/commands/delete/command.test.ts.
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
  uniqueName
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
  'command: delete: an absent name is a success with a notice, and writes nothing',
  async ({ emu }) => {
    const name = uniqueName('absent')
    const r = await run({ inputs: deleteInputs(emu, name) })
    expect(r.code).toBe(0)
    expect(r.outputs.deleted).toBe('false')
    expect(r.errors).toEqual([])
    expect(r.stdout).toContain(
      `::notice title=Nothing to delete::No deployment is named "${name}".`
    )
    expect(emu.requests().filter(q => q.method !== 'GET')).toEqual([])
  }
)

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
