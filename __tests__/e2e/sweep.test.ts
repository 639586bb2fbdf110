import { expect, describe } from '@jest/globals'
import { type Emulator } from '../../emulator/server.ts'
import { previewsFixture, type PreviewSpec } from '../../scripts/previews.ts'
import {
  e2e,
  e2eWithGitHub,
  emulatorInputs,
  leaks,
  namesLeft,
  runAction as run,
  warnings,
  pullRequest,
  uniqueName
} from './harness.ts'

// `command: sweep` end to end, through the built bundle against the emulator and a fake GitHub:
// the closed criterion with names that almost match and a pull request read that fails (the token
// masked, GITHUB_API_URL read), and a bad input refused as the runner sees it. The other criteria,
// held-back previews, dry runs and lost deletes are the flow's: __tests__/commands/sweep/command.test.ts.

const TOKEN = 'ghs_e2eSweepTokenValue0123456789'

/** The inputs of a sweep against `emu` (no integration: a sweep needs none). */
const sweepInputs = (emu: Emulator, over: Record<string, string>) => {
  const { 'integration-id': _unused, ...inputs } = emulatorInputs(emu)
  return { ...inputs, command: 'sweep', ...over }
}
const names = namesLeft
const deletes = (emu: Emulator) => emu.requests().filter(r => r.method === 'DELETE')
const load = (emu: Emulator, specs: PreviewSpec[]) => emu.loadFixture(previewsFixture(specs))
const swept = (outputs: Record<string, string>) => JSON.parse(outputs.swept ?? 'null') as string[]

e2eWithGitHub(
  'sweep: closed and merged pull requests go; open, absent and unreadable ones and look-alikes stay',
  async ({ emu }, gh) => {
    load(emu, [
      ...[1, 2, 3, 4, 6].map(n => ({ name: `app-pr-${n}` })),
      { name: 'app-pr-1-old' },
      { name: 'my-app-pr-3' },
      { name: 'app-pr-03' }
    ])
    gh.setPull(1, 'closed')
    gh.setPull(2, 'open')
    gh.setPull(3, 'merged')
    gh.setPull(6, 'closed')
    gh.failWith(502, 'Bad gateway', /\/pulls\/6$/)
    const r = await run({
      inputs: sweepInputs(emu, {
        'sweep-names': 'app-pr-{pr}',
        'github-token': TOKEN,
        'delete-tracing-project': 'true'
      }),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(0)
    expect(swept(r.outputs).sort()).toEqual(['app-pr-1', 'app-pr-3'])
    expect(names(emu)).toEqual(
      expect.arrayContaining([
        'app-pr-2',
        'app-pr-4',
        'app-pr-6',
        'app-pr-1-old',
        'my-app-pr-3',
        'app-pr-03'
      ])
    )
    expect(deletes(emu)).toHaveLength(2)
    for (const d of deletes(emu)) expect(d.query).toMatchObject({ delete_tracing_project: 'true' })
    // Pull request #6 was not read: a warning, and its deployment stays.
    expect(warnings(r.stdout).join('\n')).toMatch(/Pull request #6: .*502.*kept on this criterion/)
    expect(r.summary).toMatch(/\| `app-pr-1` \| .* \| 🗑️ deleted \| pull request #1 is closed \|/)
    expect(r.summary).toMatch(/\| `app-pr-3` \| .* \| 🗑️ deleted \| pull request #3 is merged \|/)
    expect(r.summary).toMatch(/\| `app-pr-2` \| .* \| ✅ kept \| pull request #2 is open \|/)
    expect(r.summary).toMatch(/\| `app-pr-4` \| .* \| ✅ kept \| no pull request #4 \|/)
    expect(r.summary).toMatch(
      /\| `app-pr-6` \| .* \| ✅ kept \| pull request #6 could not be read \|/
    )
    // Look-alikes are not in the table at all: only whole-name matches are considered.
    expect(r.summary).not.toContain('app-pr-1-old')
    expect(r.summary).not.toContain('my-app-pr-3')
    expect(r.summary).not.toContain('app-pr-03')
    expect(leaks(r, [TOKEN])).toEqual([])
    // One read per pull request, no more.
    expect(
      gh.requests
        .filter(q => q.path.includes('/pulls/'))
        .map(q => q.path)
        .sort()
    ).toEqual(['1', '2', '3', '4', '6'].map(n => `/repos/acme/agent-server/pulls/${n}`))
  }
)

// Each bad sweep input, named with what is expected, in inputs/index.test.ts; here, the one that
// would delete most: a bare `7` read as seconds would take every preview changed a minute ago.
e2e(
  'sweep: a sweep-max-age without a unit is refused before any request; every preview stays',
  async ({ emu }) => {
    const minuteAgo = new Date(Date.now() - 60_000).toISOString()
    load(emu, [
      { name: 'pv-1', updatedAt: minuteAgo },
      { name: 'pv-2', updatedAt: minuteAgo }
    ])
    emu.clearRequests()
    const r = await run({
      inputs: sweepInputs(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7' })
    })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.stdout).toMatch(/`sweep-max-age` needs a unit: `7` would be 7 seconds/)
    expect(emu.requests()).toEqual([])
    expect(names(emu)).toEqual(expect.arrayContaining(['pv-1', 'pv-2']))
  }
)

// `command: delete` end to end: only the exact name, an absent name a success with a notice,
// deploy-only inputs refused; and the pull-request comment. An absent id, dry runs, the tracing
// project, the wait through AWAITING_DELETE and a lost answer are the flow's:
// __tests__/commands/delete/command.test.ts.
describe('delete', () => {
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
      const r = await run({
        inputs: deleteInputs(emu, uniqueName('bad'), { secrets: 'A=abcdefgh' })
      })
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
})
