// `command: sweep` end to end, through the built bundle against the emulator and a fake GitHub:
// each criterion (closed pull request, age, count), names that almost match, a preview redeployed
// between the listing and its delete, a dry run, a pull request read that fails, and a workspace
// of 1,000 deployments read over many pages.
import { expect } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import {
  daysAgo,
  largeWorkspace,
  previewsFixture,
  type PreviewSpec
} from '../../scripts/previews.ts'
import {
  e2e,
  e2eWithGitHub,
  emulatorInputs,
  leaks,
  namesLeft,
  runAction as run,
  warnings
} from './harness.ts'

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

e2e('sweep: sweep-max-age deletes what changed longest ago; the rest stays', async ({ emu }) => {
  load(emu, [
    { name: 'feature-a-preview', updatedAt: daysAgo(10) },
    { name: 'feature-b-preview', updatedAt: daysAgo(3) },
    { name: 'feature-c-preview' },
    { name: 'feature-old-previews', updatedAt: daysAgo(30) }
  ])
  const r = await run({
    inputs: sweepInputs(emu, { 'sweep-names': 'feature-*-preview', 'sweep-max-age': '7d' })
  })
  expect(r.code).toBe(0)
  expect(swept(r.outputs)).toEqual(['feature-a-preview'])
  expect(names(emu)).toEqual(
    expect.arrayContaining(['feature-b-preview', 'feature-c-preview', 'feature-old-previews'])
  )
  expect(r.summary).toMatch(
    /`feature-a-preview` \| 10d ago \| 🗑️ deleted \| last change 10d ago, older than 7d/
  )
  // No `{pr}` in the pattern: the closed criterion is off, and nothing is said about it.
  expect(r.stdout).not.toMatch(/Closed pull requests not checked/)
})

e2e('sweep: sweep-max-count keeps the newest, deleting the oldest first', async ({ emu }) => {
  load(
    emu,
    [5, 1, 4, 2, 3].map(d => ({ name: `pv-${d}d`, updatedAt: daysAgo(d) }))
  )
  const r = await run({
    inputs: sweepInputs(emu, { 'sweep-names': 'pv-*', 'sweep-max-count': '2' })
  })
  expect(r.code).toBe(0)
  expect(swept(r.outputs)).toEqual(['pv-5d', 'pv-4d', 'pv-3d'])
  expect(names(emu)).toEqual(expect.arrayContaining(['pv-1d', 'pv-2d']))
  expect(r.summary).toContain(
    'beyond the count: only the newest 2 of the 5 that the other criteria keep stay'
  )
})

e2eWithGitHub(
  'sweep: a preview redeployed between the listing and its delete is held back, with a warning',
  async ({ emu }, gh) => {
    load(emu, [{ name: 'app-pr-7' }, { name: 'app-pr-8' }])
    const id = emu.state().tenants[0]!.deployments.find(d => d.name === 'app-pr-7')!.id
    gh.setPull(8, 'closed')
    // Someone redeploys pr-7 from the web app after the listing, before its delete.
    gh.setPull(7, 'closed', () => void emu.outOfBand(id, { redeploy: {} }))
    const r = await run({
      inputs: sweepInputs(emu, { 'sweep-names': 'app-pr-{pr}', 'github-token': TOKEN }),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(0)
    expect(swept(r.outputs)).toEqual(['app-pr-8'])
    expect(names(emu)).toContain('app-pr-7')
    expect(deletes(emu).map(d => d.path)).not.toContain(`/v2/deployments/${id}`)
    expect(warnings(r.stdout).join('\n')).toMatch(
      /Held back "app-pr-7": it changed since the listing \(last change .*: someone may deploy it now\)/
    )
    expect(r.summary).toMatch(
      /`app-pr-7` .* ⚠️ held back \| pull request #7 is closed; it changed since the listing/
    )
  }
)

e2e('sweep: a dry run lists what would go and why, and deletes nothing', async ({ emu }) => {
  load(emu, [{ name: 'pv-old', updatedAt: daysAgo(9) }, { name: 'pv-new' }])
  const r = await run({
    inputs: sweepInputs(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d', 'dry-run': 'true' })
  })
  expect(r.code).toBe(0)
  expect(r.outputs.swept).toBe('[]')
  expect(emu.requests().filter(q => q.method !== 'GET')).toEqual([])
  expect(r.stdout).toContain('Dry run: would delete "pv-old": last change 9d ago, older than 7d.')
  expect(r.summary).toMatch(/`pv-old` .* 📝 would be deleted \| last change 9d ago, older than 7d/)
  expect(names(emu)).toEqual(expect.arrayContaining(['pv-old', 'pv-new']))
})

e2e(
  'sweep: 1,000 deployments over many pages, 40 matching: every page read, each goes with one read and one delete',
  async ({ emu }) => {
    emu.loadFixture(largeWorkspace('big', 1000, 40))
    const r = await run({
      inputs: sweepInputs(emu, {
        'sweep-names': 'big-*pr-{pr}',
        'sweep-max-age': '7d',
        'sweep-closed': 'false'
      })
    })
    expect(r.code).toBe(0)
    expect(swept(r.outputs)).toHaveLength(40)
    expect(new Set(swept(r.outputs))).toEqual(
      new Set(Array.from({ length: 40 }, (_, i) => `big-app-pr-${i + 1}`))
    )
    const requests = emu.requests()
    const pages = requests.filter(q => q.method === 'GET' && q.path === '/v2/deployments')
    expect(pages.length).toBeGreaterThanOrEqual(10)
    expect(requests.filter(q => q.method === 'GET' && q.path !== '/v2/deployments')).toHaveLength(
      40
    )
    expect(deletes(emu)).toHaveLength(40)
    expect(requests).toHaveLength(pages.length + 80)
    expect(r.stdout).toContain(
      '1000 deployments have "big-" in the name; 40 match big-*pr-{pr} as a whole.'
    )
  },
  { speed: 4 }
)

e2e(
  'sweep: without a GitHub token the closed criterion is skipped with a notice, never guessed',
  async ({ emu }) => {
    load(emu, [{ name: 'app-pr-1' }])
    const r = await run({
      inputs: sweepInputs(emu, { 'sweep-names': 'app-pr-{pr}', 'sweep-max-count': '5' })
    })
    expect(r.code).toBe(0)
    expect(r.outputs.swept).toBe('[]')
    expect(r.stdout).toMatch(
      /::notice title=Closed pull requests not checked::`sweep-closed`: `github-token` is empty/
    )
    expect(deletes(emu)).toEqual([])
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

e2e(
  'sweep: a delete whose answer is lost is sent again and the deployment counted as swept once; a delete refused fails the run after the others',
  async ({ emu }) => {
    load(emu, [
      { name: 'pv-a', updatedAt: daysAgo(30) },
      { name: 'pv-b', updatedAt: daysAgo(20) },
      { name: 'pv-c', updatedAt: daysAgo(10) }
    ])
    const id = (name: string) => emu.state().tenants[0]!.deployments.find(d => d.name === name)!.id
    emu.setFaults([
      { kind: 'lost-response', method: 'DELETE', path: `/v2/deployments/${id('pv-a')}`, times: 1 },
      { kind: 'status', status: 403, method: 'DELETE', path: `/v2/deployments/${id('pv-b')}` }
    ])
    const r = await run({
      inputs: sweepInputs(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d' })
    })
    expect(r.code).toBe(1)
    // The outputs say what this run did delete, the failure notwithstanding.
    expect(swept(r.outputs)).toEqual(['pv-a', 'pv-c'])
    const toA = deletes(emu).filter(q => q.path === `/v2/deployments/${id('pv-a')}`)
    expect(toA.map(q => q.fault)).toEqual(['lost-response', null])
    expect(names(emu)).toContain('pv-b')
    expect(r.errors.join('\n')).toMatch(/::error title=Sweep delete failed::.*403/)
    expect(r.summary).toMatch(/`pv-b` .* ❌ delete failed \|/)
  }
)

e2e(
  'sweep: a delete whose answer is lost on every try is read back, as command: delete does; gone is swept, not a failure',
  async ({ emu }) => {
    load(emu, [{ name: 'pv-lost', updatedAt: daysAgo(30) }])
    const id = emu.state().tenants[0]!.deployments.find(d => d.name === 'pv-lost')!.id
    emu.setFaults([
      { kind: 'lost-response', method: 'DELETE', path: `/v2/deployments/${id}`, times: 50 }
    ])
    const r = await run({
      inputs: sweepInputs(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d' })
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(swept(r.outputs)).toEqual(['pv-lost'])
    expect(r.stdout).toMatch(/reading the deployment back/)
    expect(names(emu)).not.toContain('pv-lost')
  }
)

e2e(
  'sweep: a re-read that answers as another deployment is held back; nothing is deleted',
  async ({ emu }) => {
    load(emu, [{ name: 'pv-old', updatedAt: daysAgo(30) }, { name: 'prod-agent' }])
    const id = (name: string) => emu.state().tenants[0]!.deployments.find(d => d.name === name)!.id
    const { apiKey, tenantId } = emu.credentials()
    const other = await fetch(`${emu.url}/v2/deployments/${id('prod-agent')}`, {
      headers: { 'X-Api-Key': apiKey, 'X-Tenant-Id': tenantId }
    })
    // The read of pv-old by its id answers prod-agent, under pv-old's name: another id.
    emu.setFaults({
      kind: 'bad-schema',
      method: 'GET',
      path: `/v2/deployments/${id('pv-old')}`,
      body: { ...((await other.json()) as object), name: 'pv-old' }
    })
    const r = await run({
      inputs: sweepInputs(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d' })
    })
    expect(r.code).toBe(0)
    expect(swept(r.outputs)).toEqual([])
    expect(deletes(emu)).toEqual([])
    // The client refuses an answer about another deployment than asked; the sweep holds it back.
    expect(warnings(r.stdout).join('\n')).toMatch(
      new RegExp(
        `::warning title=Deployment held back::"pv-old" could not be read again before its delete: .*the answer is about deployment ${id('prod-agent')}, not about deployment ${id('pv-old')}`
      )
    )
    expect(names(emu)).toEqual(expect.arrayContaining(['pv-old', 'prod-agent']))
  }
)
