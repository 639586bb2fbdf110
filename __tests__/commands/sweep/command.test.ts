// `command: sweep` in-process: run() through a fake port with the runner's GitHub context, against
// a real emulator over loopback HTTP (and a fake GitHub where pull requests are read). Each
// criterion (age, count), a preview redeployed between the listing and its delete, a dry run, no
// token, lost and refused deletes, a re-read about another deployment, and a workspace of 1,000
// deployments read over many pages. What only the bundle shows (the token masked, an invalid input
// as the runner sees it) is in __tests__/e2e/sweep.test.ts.
import { expect } from '@jest/globals'
import type { Emulator } from '../../../emulator/server.ts'
import type { FakeGitHub } from '../../../scripts/fake-github.ts'
import {
  daysAgo,
  largeWorkspace,
  previewsFixture,
  type PreviewSpec
} from '../../../scripts/previews.ts'
import { run } from '../../../src/run.ts'
import {
  emulatorTest,
  inRunner,
  liveNames,
  readRun,
  withGitHub
} from '../../builders/in-process.ts'

const TOKEN = 'ghs_e2eSweepTokenValue0123456789'

/** What a user reads of one run: its exit, outputs, log, annotations and summary. */
interface Sweep {
  code: number
  outputs: Record<string, string>
  log: string
  errors: string[]
  warnings: string
  summary: string
}

/** A sweep of `emu` with `over`, in the runner's context of a push (its GitHub API at `github`). */
async function sweep(
  emu: Emulator,
  over: Record<string, string>,
  github?: FakeGitHub
): Promise<Sweep> {
  const inputs = {
    'api-key': emu.credentials().apiKey,
    'base-url': emu.url,
    command: 'sweep',
    ...over
  }
  return inRunner(
    'cpd-sweep-',
    inputs,
    async port => {
      const r = readRun(port, await run(port))
      return { ...r, warnings: r.warnings.join('\n'), summary: port.summaries.join('') }
    },
    { github }
  )
}

/** A test with its own emulator (speed 4), and a fake GitHub when it reads pull requests. */
function sweepTest(title: string, body: (emu: Emulator, gh: FakeGitHub) => Promise<void>): void {
  emulatorTest(title, emu => withGitHub(gh => body(emu, gh)))
}

const deletes = (emu: Emulator) => emu.requests().filter(r => r.method === 'DELETE')
const load = (emu: Emulator, specs: PreviewSpec[]) => emu.loadFixture(previewsFixture(specs))
const swept = (outputs: Record<string, string>) => JSON.parse(outputs.swept ?? 'null') as string[]
const idOf = (emu: Emulator, name: string) =>
  emu.state().tenants[0]!.deployments.find(d => d.name === name)!.id

sweepTest('sweep: sweep-max-age deletes what changed longest ago; the rest stays', async emu => {
  load(emu, [
    { name: 'feature-a-preview', updatedAt: daysAgo(10) },
    { name: 'feature-b-preview', updatedAt: daysAgo(3) },
    { name: 'feature-c-preview' },
    { name: 'feature-old-previews', updatedAt: daysAgo(30) }
  ])
  const r = await sweep(emu, { 'sweep-names': 'feature-*-preview', 'sweep-max-age': '7d' })
  expect(r.code).toBe(0)
  expect(swept(r.outputs)).toEqual(['feature-a-preview'])
  expect(liveNames(emu)).toEqual(
    expect.arrayContaining(['feature-b-preview', 'feature-c-preview', 'feature-old-previews'])
  )
  expect(r.summary).toMatch(
    /`feature-a-preview` \| 10d ago \| 🗑️ deleted \| last change 10d ago, older than 7d/
  )
  // No `{pr}` in the pattern: the closed criterion is off, and nothing is said about it.
  expect(r.log).not.toMatch(/Closed pull requests not checked/)
})

sweepTest('sweep: sweep-max-count keeps the newest, deleting the oldest first', async emu => {
  load(
    emu,
    [5, 1, 4, 2, 3].map(d => ({ name: `pv-${d}d`, updatedAt: daysAgo(d) }))
  )
  const r = await sweep(emu, { 'sweep-names': 'pv-*', 'sweep-max-count': '2' })
  expect(r.code).toBe(0)
  expect(swept(r.outputs)).toEqual(['pv-5d', 'pv-4d', 'pv-3d'])
  expect(liveNames(emu)).toEqual(expect.arrayContaining(['pv-1d', 'pv-2d']))
  expect(r.summary).toContain(
    'beyond the count: only the newest 2 of the 5 that the other criteria keep stay'
  )
})

sweepTest(
  'sweep: a preview redeployed between the listing and its delete is held back, with a warning',
  async (emu, gh) => {
    load(emu, [{ name: 'app-pr-7' }, { name: 'app-pr-8' }])
    const id = idOf(emu, 'app-pr-7')
    gh.setPull(8, 'closed')
    // Someone redeploys pr-7 from the web app after the listing, before its delete.
    gh.setPull(7, 'closed', () => void emu.outOfBand(id, { redeploy: {} }))
    const r = await sweep(emu, { 'sweep-names': 'app-pr-{pr}', 'github-token': TOKEN }, gh)
    expect(r.code).toBe(0)
    expect(swept(r.outputs)).toEqual(['app-pr-8'])
    expect(liveNames(emu)).toContain('app-pr-7')
    expect(deletes(emu).map(d => d.path)).not.toContain(`/v2/deployments/${id}`)
    expect(r.warnings).toMatch(
      /Held back "app-pr-7": it changed since the listing \(last change .*: someone may deploy it now\)/
    )
    expect(r.summary).toMatch(
      /`app-pr-7` .* ⚠️ held back \| pull request #7 is closed; it changed since the listing/
    )
  }
)

sweepTest('sweep: a dry run lists what would go and why, and deletes nothing', async emu => {
  load(emu, [{ name: 'pv-old', updatedAt: daysAgo(9) }, { name: 'pv-new' }])
  const r = await sweep(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d', 'dry-run': 'true' })
  expect(r.code).toBe(0)
  expect(r.outputs.swept).toBe('[]')
  expect(emu.requests().filter(q => q.method !== 'GET')).toEqual([])
  expect(r.log).toContain('Dry run: would delete "pv-old": last change 9d ago, older than 7d.')
  expect(r.summary).toMatch(/`pv-old` .* 📝 would be deleted \| last change 9d ago, older than 7d/)
  expect(liveNames(emu)).toEqual(expect.arrayContaining(['pv-old', 'pv-new']))
})

sweepTest(
  'sweep: 1,000 deployments over many pages, 40 matching: every page read, each goes with one read and one delete',
  async emu => {
    emu.loadFixture(largeWorkspace('big', 1000, 40))
    const r = await sweep(emu, {
      'sweep-names': 'big-*pr-{pr}',
      'sweep-max-age': '7d',
      'sweep-closed': 'false'
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
    expect(r.log).toContain(
      '1000 deployments have "big-" in the name; 40 match big-*pr-{pr} as a whole.'
    )
  }
)

sweepTest(
  'sweep: without a GitHub token the closed criterion is skipped with a notice, never guessed',
  async emu => {
    load(emu, [{ name: 'app-pr-1' }])
    const r = await sweep(emu, { 'sweep-names': 'app-pr-{pr}', 'sweep-max-count': '5' })
    expect(r.code).toBe(0)
    expect(r.outputs.swept).toBe('[]')
    expect(r.log).toMatch(
      /notice: Closed pull requests not checked: `sweep-closed`: `github-token` is empty/
    )
    expect(deletes(emu)).toEqual([])
  }
)

sweepTest(
  'sweep: a delete whose answer is lost is sent again and the deployment counted as swept once; a delete refused fails the run after the others',
  async emu => {
    load(emu, [
      { name: 'pv-a', updatedAt: daysAgo(30) },
      { name: 'pv-b', updatedAt: daysAgo(20) },
      { name: 'pv-c', updatedAt: daysAgo(10) }
    ])
    const id = (name: string) => idOf(emu, name)
    emu.setFaults([
      { kind: 'lost-response', method: 'DELETE', path: `/v2/deployments/${id('pv-a')}`, times: 1 },
      { kind: 'status', status: 403, method: 'DELETE', path: `/v2/deployments/${id('pv-b')}` }
    ])
    const r = await sweep(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d' })
    expect(r.code).toBe(1)
    // The outputs say what this run did delete, the failure notwithstanding.
    expect(swept(r.outputs)).toEqual(['pv-a', 'pv-c'])
    const toA = deletes(emu).filter(q => q.path === `/v2/deployments/${id('pv-a')}`)
    expect(toA.map(q => q.fault)).toEqual(['lost-response', null])
    expect(liveNames(emu)).toContain('pv-b')
    expect(r.errors.join('\n')).toMatch(/error: Sweep delete failed: .*403/)
    expect(r.summary).toMatch(/`pv-b` .* ❌ delete failed \|/)
  }
)

sweepTest(
  'sweep: a delete whose answer is lost on every try is read back, as command: delete does; gone is swept, not a failure',
  async emu => {
    load(emu, [{ name: 'pv-lost', updatedAt: daysAgo(30) }])
    const id = idOf(emu, 'pv-lost')
    emu.setFaults([
      { kind: 'lost-response', method: 'DELETE', path: `/v2/deployments/${id}`, times: 50 }
    ])
    const r = await sweep(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d' })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(swept(r.outputs)).toEqual(['pv-lost'])
    expect(r.log).toMatch(/reading the deployment back/)
    expect(liveNames(emu)).not.toContain('pv-lost')
  }
)

sweepTest(
  'sweep: a re-read that answers as another deployment is held back; nothing is deleted',
  async emu => {
    load(emu, [{ name: 'pv-old', updatedAt: daysAgo(30) }, { name: 'prod-agent' }])
    const id = (name: string) => idOf(emu, name)
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
    const r = await sweep(emu, { 'sweep-names': 'pv-*', 'sweep-max-age': '7d' })
    expect(r.code).toBe(0)
    expect(swept(r.outputs)).toEqual([])
    expect(deletes(emu)).toEqual([])
    // The client refuses an answer about another deployment than asked; the sweep holds it back.
    expect(r.warnings).toMatch(
      new RegExp(
        `warning: Deployment held back: "pv-old" could not be read again before its delete: .*the answer is about deployment ${id('prod-agent')}, not about deployment ${id('pv-old')}`
      )
    )
    expect(liveNames(emu)).toEqual(expect.arrayContaining(['pv-old', 'prod-agent']))
  }
)
