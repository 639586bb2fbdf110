// The action end to end: the bundle on Node 24 against the emulator over real HTTP.
// Every expectation is read from what a user sees (exit code, outputs, summary, log) or from
// what the emulator recorded, never from the action's own account of itself. Each test has its
// own emulator, so the tests run concurrently.
import { expect } from '@jest/globals'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commitFixtureRepo } from '../../scripts/fixture-repo.ts'
import { demoFixture } from '../../emulator/server.ts'
import {
  BUILDS_FOR_A_DAY,
  e2e,
  leaks,
  PUSH_MAIN,
  runAction as run,
  uniqueName,
  pullRequestFrom
} from './harness.ts'

e2e(
  'a push to main: creates the deployment, waits for DEPLOYED, and reports it',
  async ({ emu, integration, inputs, named, writes }) => {
    const name = uniqueName('create')
    // On the code host, main is at the pushed commit: a build of main reports it.
    const repo = demoFixture().integrations![0]!.repositories![0]!.url
    emu.configure({ repoCommits: { [`${repo}@main`]: PUSH_MAIN.sha! } })
    // The build lasts until the run has logged it, however late its first poll comes on a slow
    // machine; then it ends in a second (of the emulator's time), and the deploy goes on.
    const r = await run({
      inputs: inputs({ name }),
      onStdout: {
        when: /^BUILDING after /m,
        run: () => void emu.configure({ stageDurationsMs: { BUILDING: 1000 } })
      }
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const [d] = named(name)
    expect(d).toBeDefined()
    expect(r.outputs).toMatchObject({
      'deployment-id': d!.id,
      'revision-id': d!.latest_revision_id,
      'revision-status': 'DEPLOYED',
      created: 'true',
      'repo-commit-sha': PUSH_MAIN.sha
    })
    expect(d!.revisions.find(x => x.id === d!.latest_revision_id)?.status).toBe('DEPLOYED')
    // The progression is logged, one line per status seen, ending with DEPLOYED.
    const statuses = [...r.stdout.matchAll(/^([A-Z_]+) after \S+$/gm)].map(m => m[1])
    expect(statuses.length).toBeGreaterThanOrEqual(2)
    expect(statuses.at(-1)).toBe('DEPLOYED')
    expect(new Set(statuses).size).toBe(statuses.length)
    expect(r.summary).toContain('Deployed')
    expect(r.summary).toContain(d!.id)
    expect(r.summary).toContain('Status timeline')
    // The create carried the repository resolved through the forge and the pushed branch.
    const create = writes().find(w => w.method === 'POST')
    expect(create?.body).toMatchObject({
      name,
      source: 'codehost',
      source_config: {
        integration_id: integration,
        repo_url: 'https://github.com/acme/agent-server'
      },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' }
    })
  },
  { stageDurationsMs: BUILDS_FOR_A_DAY }
)

e2e(
  'a second run patches the same deployment with a new revision: the exact name, found among many similar names across pages',
  async ({ emu, integration, inputs, named, writes }) => {
    const name = uniqueName('pr-1')
    const fixture = demoFixture()
    const tenant = emu.credentials().tenantId
    const similar = []
    // 230 deployments whose names contain the target, the exact one far down the list.
    for (let i = 0; i < 230; i++) similar.push(`${name}${i}`, `x-${name}-${i}`)
    const all = [...similar.slice(0, 300), name, ...similar.slice(300)]
    fixture.deployments = [
      ...(fixture.deployments ?? []),
      ...all.map(n => ({
        id: randomUUID(),
        tenant_id: tenant,
        name: n,
        source: 'codehost' as const,
        source_config: {
          integration_id: integration,
          repo_url: 'https://github.com/acme/agent-server'
        },
        source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
        secrets: []
      }))
    ]
    emu.loadFixture(fixture)
    const r = await run({ inputs: inputs({ name }) })
    expect(r.code).toBe(0)
    expect(named(name)).toHaveLength(1)
    const [exact] = named(name)
    expect(r.stdout).toContain(`Found deployment "${name}" (${exact!.id})`)
    expect(r.outputs).toMatchObject({
      'deployment-id': exact!.id,
      created: 'false',
      'revision-id': exact!.latest_revision_id,
      'revision-status': 'DEPLOYED'
    })
    // The one write went to the exact name; none of its look-alikes got a revision.
    expect(writes().map(w => `${w.method} ${w.path}`)).toEqual([
      `PATCH /v2/deployments/${exact!.id}`
    ])
    expect(exact!.revisions).toHaveLength(2)
    const lists = emu.requests().filter(q => q.path === '/v2/deployments')
    expect(lists.length).toBeGreaterThanOrEqual(5)
    expect(lists.every(q => q.query.name_contains === name)).toBe(true)
  },
  { speed: 2 }
)

e2e(
  'a build failure fails the step, naming the status and the revision',
  async ({ inputs, named }) => {
    const name = uniqueName('broken')
    const r = await run({ inputs: inputs({ name, ref: 'fail-build-branch' }) })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('BUILD_FAILED')
    expect(r.errors[0]).toContain(r.outputs['revision-id']!)
    expect(r.outputs['revision-status']).toBe('BUILD_FAILED')
    expect(r.outputs['deployment-id']).toBe(named(name)[0]!.id)
    expect(r.summary).toContain('Revision failed')
  }
)

e2e(
  'a timeout fails at the deadline, saying the revision goes on',
  async ({ inputs, named }) => {
    const name = uniqueName('slow')
    const r = await run({ inputs: inputs({ name, timeout: '3s', 'poll-interval': '1s' }) })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toMatch(
      /title=Deploy timed out::Still BUILDING after 3s; revision [0-9a-f-]+ goes on on the control plane/
    )
    // The run ended at its own deadline, not at the revision's end: the revision (whose build
    // lasts a day) is still on its way, as the output says.
    expect(r.outputs['revision-status']).toBe('BUILDING')
    expect(named(name)[0]!.revisions.at(-1)!.status).toBe('BUILDING')
  },
  // The timeout counts from the wait's start and the wait reads the revision at least once, so
  // neither the run's set-up nor a slow first answer can turn this into another ending.
  { stageDurationsMs: BUILDS_FOR_A_DAY }
)

e2e(
  'a revision superseded by a newer one succeeds with a warning naming the newer one',
  async ({ emu, key, inputs, named, seed }) => {
    const name = uniqueName('superseded')
    seed(name)
    let newer = ''
    const r = await run({
      inputs: inputs({ name }),
      onStdout: {
        when: '::group::Wait for revision',
        run: async () => {
          const d = named(name)[0]!
          const res = await fetch(`${emu.url}/v2/deployments/${d.id}`, {
            method: 'PATCH',
            headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify({ source_revision_config: { repo_ref: 'main' } })
          })
          newer = ((await res.json()) as { latest_revision_id: string }).latest_revision_id
          emu.setSpeed(1000)
        }
      }
    })
    expect(r.code).toBe(0)
    expect(r.outputs['revision-status']).toBe('SKIPPED')
    expect(newer).not.toBe('')
    expect(r.stdout).toMatch(
      new RegExp(`::warning title=Superseded by a newer revision::.*${newer}`)
    )
  },
  // Near-frozen until the newer write has landed (however loaded the machine, this run's revision
  // cannot finish first), then fast: the run follows the newer revision to its end.
  { speed: 0.0001 }
)

e2e(
  'a dry run resolves everything, prints the plan, and writes nothing; 429 with Retry-After is honoured',
  async ({ emu, inputs, writes }) => {
    const name = uniqueName('dry')
    emu.setFaults({
      kind: 'status',
      status: 429,
      retryAfter: 1,
      method: 'GET',
      path: '/v2/deployments',
      times: 1
    })
    const r = await run({
      inputs: inputs({ name, 'dry-run': 'true', secrets: 'OPENAI_API_KEY=sk-dry-run-secret-value' })
    })
    expect(r.code).toBe(0)
    expect(writes()).toEqual([])
    expect(emu.requests().some(q => q.path.endsWith('/repos'))).toBe(true)
    expect(r.stdout).toContain(`Create deployment "${name}"`)
    expect(r.summary).toContain('Dry run')
    expect(r.summary).toContain('secrets.OPENAI_API_KEY: ***')
    expect(leaks(r, ['sk-dry-run-secret-value'])).toEqual([])
    const lists = emu.requests().filter(q => q.path === '/v2/deployments')
    expect(lists[0]!.status).toBe(429)
    // The backoff of a first retry alone is at most 500 ms.
    const gap = Date.parse(lists[1]!.time) - Date.parse(lists[0]!.time)
    expect(gap).toBeGreaterThanOrEqual(950)
  }
)

/** A clone whose main is a commit of your own, given to the emulator (`--repo DIR`). */
const OWN_CLONE = mkdtempSync(join(tmpdir(), 'cpd-e2e-own-'))
writeFileSync(join(OWN_CLONE, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}\n')
const OWN_SHA = commitFixtureRepo(OWN_CLONE)

e2e(
  'the emulator given your clone: a push of your own commit to main builds it, no warning that main moved on',
  async ({ emu, inputs }) => {
    // The demo fixture again, without the harness's pin of main: main is what the clone says.
    emu.loadFixture(demoFixture())
    const own = { ...PUSH_MAIN, sha: OWN_SHA }
    const r = await run({ inputs: inputs({ name: uniqueName('own') }), event: own })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/Built a different commit|moved on/)
    expect(r.outputs['repo-commit-sha']).toBe(OWN_SHA)
  },
  { repoDir: OWN_CLONE }
)

e2e('events: a release deploys refs/tags/<tag>', async ({ emu, inputs, writes }) => {
  const name = uniqueName('release')
  // On the code host the tag names the released commit.
  const repo = demoFixture().integrations![0]!.repositories![0]!.url
  emu.configure({ repoCommits: { [`${repo}@refs/tags/v1.2.0`]: PUSH_MAIN.sha! } })
  const r = await run({
    inputs: inputs({ name }),
    event: {
      name: 'release',
      ref: 'refs/tags/v1.2.0',
      refName: 'v1.2.0',
      sha: PUSH_MAIN.sha,
      payload: { action: 'published', release: { tag_name: 'v1.2.0' } }
    }
  })
  expect(r.code).toBe(0)
  const create = writes().find(w => w.method === 'POST')
  expect(create?.body).toMatchObject({ source_revision_config: { repo_ref: 'refs/tags/v1.2.0' } })
  expect(r.stdout).not.toMatch(/Built a different commit|moved on/)
  expect(r.outputs['repo-commit-sha']).toBe(PUSH_MAIN.sha)
})

e2e(
  'events: a pull request deploys its head branch and expects its head commit',
  async ({ emu, inputs, writes }) => {
    const name = uniqueName('pr')
    const head = 'c0ffee0000000000000000000000000000000001'
    // feature-x has moved on to another commit on the code host since the event.
    const repo = demoFixture().integrations![0]!.repositories![0]!.url
    emu.configure({ repoCommits: { [`${repo}@feature-x`]: 'beef'.repeat(10) } })
    const r = await run({
      inputs: inputs({ name }),
      event: pullRequestFrom(7, 'feature-x', head, 'aaaa000000000000000000000000000000000000')
    })
    expect(r.code).toBe(0)
    const create = writes().find(w => w.method === 'POST')
    expect(create?.body).toMatchObject({ source_revision_config: { repo_ref: 'feature-x' } })
    // The emulator builds the commit feature-x points to now: the run warns that it moved on.
    expect(r.stdout).toMatch(
      new RegExp(`::warning title=Built a different commit::.*${'beef'.repeat(10)}, not ${head}`)
    )
    expect(r.summary).toContain(head)
  }
)

e2e(
  'bad inputs: one error naming each, exit 1, and no request reaches the control plane',
  async ({ emu, inputs }) => {
    const r = await run({
      inputs: inputs({
        name: 'Not A Valid Name',
        'tenant-id': 'not-a-uuid',
        timeout: 'ten minutes',
        secrets: 'PORT=8080'
      })
    })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    for (const input of ['name', 'tenant-id', 'timeout', 'secrets'])
      expect(r.errors[0]).toContain(`- ${input}:`)
    expect(r.stdout).not.toMatch(/^\s+at /m)
    expect(emu.requests()).toEqual([])
  }
)

e2e(
  'with no inputs at all the bundle fails with one clear error line, not a stack trace',
  async () => {
    const r = await run({ inputs: {} })
    expect(r.code).toBe(1)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain('api-key')
    expect(r.stderr).toBe('')
  }
)

e2e(
  'a repository missing from the integration is named, with close names',
  async ({ integration, inputs, writes }) => {
    const r = await run({
      inputs: inputs({ name: uniqueName('norepo'), repository: 'acme/agent-srever' })
    })
    expect(r.code).toBe(1)
    expect(r.errors[0]).toContain('acme/agent-srever')
    expect(r.errors[0]).toContain(integration)
    expect(r.errors[0]).toContain('acme/agent-server')
    expect(writes()).toEqual([])
  }
)

e2e(
  'SIGINT while waiting: exits on its own, non-zero, with outputs and a summary',
  async ({ inputs, named }) => {
    const name = uniqueName('cancel')
    const r = await run({
      inputs: inputs({ name }),
      cancel: { signal: 'SIGINT', when: '::group::Wait for revision' }
    })
    // Exit code 1, not a kill by the harness (null): the step stopped by itself, and did not
    // wait for the revision, which (building for a day) is still on its way.
    expect(r.code).toBe(1)
    expect(named(name)[0]!.revisions.at(-1)!.status).not.toBe('DEPLOYED')
    expect(r.outputs['deployment-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.outputs['revision-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.errors[0]).toContain(
      `revision ${r.outputs['revision-id']} goes on on the control plane`
    )
    expect(r.summary).toContain('Cancelled')
  },
  { stageDurationsMs: BUILDS_FOR_A_DAY }
)

// With RUNNER_DEBUG=1 too: every run of the reliability suite, in both log modes, is scanned for
// its secrets (reliability/support.ts).
const SECRET_VALUES = ['sk-live-0123456789abcdef', 'multi=part=value-xyz']
e2e(
  'secrets never leak: not in logs, outputs or the summary; a create whose response is lost is reconciled: exactly one deployment',
  async ({ emu, key, inputs, named, writes }) => {
    const name = uniqueName('secret')
    emu.setFaults({ kind: 'lost-response', method: 'POST', path: '/v2/deployments', times: 1 })
    const r = await run({
      inputs: inputs({
        name,
        secrets: `OPENAI_API_KEY=${SECRET_VALUES[0]}\n# comment\nOTHER=${SECRET_VALUES[1]}`
      })
    })
    expect(r.code).toBe(0)
    // Every value was masked at once, and then never printed again.
    for (const v of [key, ...SECRET_VALUES]) expect(r.stdout).toContain(`::add-mask::${v}`)
    expect(leaks(r, [key, ...SECRET_VALUES])).toEqual([])
    // The secrets did reach the control plane (and only it).
    const create = writes().find(w => w.method === 'POST')
    expect(create?.body).toMatchObject({
      secrets: [
        { name: 'OPENAI_API_KEY', value: SECRET_VALUES[0] },
        { name: 'OTHER', value: SECRET_VALUES[1] }
      ]
    })
    expect(named(name)).toHaveLength(1)
    expect(writes().filter(w => w.method === 'POST')).toHaveLength(1)
    expect(r.outputs).toMatchObject({ created: 'true', 'revision-status': 'DEPLOYED' })
  }
)
