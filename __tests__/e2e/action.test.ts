import { afterAll, expect, describe } from '@jest/globals'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commitFixtureRepo } from '../../scripts/fixture-repo.ts'
import { deployedAt, monorepo, type Monorepo } from '../../scripts/monorepo.ts'
import { demoFixture, type Emulator } from '../../emulator/server.ts'
import {
  BUILDS_FOR_A_DAY,
  e2e,
  leaks,
  PUSH_MAIN,
  runAction as run,
  uniqueName,
  pullRequestFrom,
  warnings,
  bundlePath,
  NODE24,
  parseOutputs,
  e2eWithGitHub,
  emulatorInputs,
  runAction,
  type E2E,
  type RunOptions,
  ROOT
} from './harness.ts'
import { runBin } from '../package/run-bin.ts'
import { ACTION_OUTPUTS } from '../../src/interface/action-yml.ts'
import { requestProblems } from '../builders/openapi.ts'
import { spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { runnerEnv } from '../../scripts/runner-env.ts'
import { type FakeGitHub } from '../../scripts/fake-github.ts'

// The action end to end: the bundle on Node 24 against the emulator over real HTTP.
// Every expectation is read from what a user sees (exit code, outputs, summary, log) or from
// what the emulator recorded, never from the action's own account of itself. Each test has its
// own emulator, so the tests run concurrently.

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

// Inputs end to end, through the bundle as the runner runs it: a mistyped command is one problem,
// every declared output is written on every run, `ref` is checked as git checks ref names, and
// secrets whose values are common words are named once instead of blotting out the log, and a
// smoke-test file in a workspace nobody checked out says to check it out.
describe('inputs', () => {
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
      '::error title=Invalid inputs::One input is not valid:%0A- command: `command` must be one of `deploy`, `delete`, `sweep`, `check`, `plan`'
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
      expect(r.errors[0]).toMatch(
        /- ref: `ref` must be a branch name or `refs\/tags\/<tag>` as git/
      )
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
})

// A long build through the bundle, as the runner runs it: the build lasts until the run has said
// "Still BUILDING after ..." (its own clock, 30 s), then ends; nothing here races the machine.
describe('progress', () => {
  e2e(
    'a long build: inside the wait group, a progress line with status and time, and the build log as it comes',
    async ({ emu, inputs }) => {
      const r = await run({
        inputs: inputs({ name: uniqueName('progress') }),
        onStdout: {
          when: /^Still BUILDING after \d+s$/m,
          run: () => void emu.configure({ stageDurationsMs: { BUILDING: 1000 } })
        },
        timeoutMs: 120_000
      })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      const lines = r.stdout.split('\n')
      const open = lines.findIndex(l => l.startsWith('::group::Wait for revision'))
      const close = lines.indexOf('::endgroup::', open)
      expect(open).toBeGreaterThanOrEqual(0)
      const wait = lines.slice(open, close)
      const progress = wait.findIndex(l => /^Still BUILDING after \d+s$/.test(l))
      expect(progress).toBeGreaterThan(0)
      // The build's first line came while it was building, before the progress line.
      const cloning = wait.findIndex(l => l.startsWith('build | Cloning '))
      expect(cloning).toBeGreaterThan(0)
      expect(cloning).toBeLessThan(progress)
      // Build lines only inside the group.
      const outside = [...lines.slice(0, open), ...lines.slice(close)]
      expect(outside.filter(l => l.startsWith('build | '))).toEqual([])
    },
    { stageDurationsMs: BUILDS_FOR_A_DAY }
  )
})

// A failed revision end to end: its build log in the job as the runner shows it (secrets redacted,
// workflow commands in it inert), its telling line in the error and the summary. The rest of a
// failure's rules (other logs, `failure-logs`, `on-failure: rollback`) are the flow's:
// __tests__/commands/deploy/command.failure.test.ts.
describe('failure', () => {
  const PLANTED = 'planted-secret-value-42'

  e2e(
    'the log of a failed revision: a build failure shows its last lines, redacted, and names the telling line',
    async ({ emu, inputs }) => {
      const name = uniqueName('build-log')
      emu.script({
        outcome: 'BUILD_FAILED',
        logLines: [
          'Installing dependencies',
          `Using token ${PLANTED}`,
          '::error::injected',
          'ModuleNotFoundError: No module named agentlib'
        ]
      })
      const r = await run({ inputs: inputs({ name, secrets: `TOKEN=${PLANTED}` }) })
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/::group::Build log of revision [0-9a-f-]+ \(last \d+ lines\)/)
      expect(r.stdout).toContain('Using token ***')
      expect(r.stdout).not.toMatch(/^::error::injected/m)
      expect(leaks(r, [PLANTED])).toEqual([])
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(
        /ended BUILD_FAILED after \S+: ModuleNotFoundError: No module named agentlib/
      )
      expect(r.summary).toContain('<details><summary>')
      expect(r.summary).toContain('ModuleNotFoundError')
    }
  )
})

// The production wire names end to end: the bundle against an emulator that speaks the `langsmith`
// dialect, every request it sent checked against the production service's own description.
describe('dialect', () => {
  /** Each request the emulator received, with what the production description says is wrong. */
  const offProduction = (emu: Emulator) =>
    emu
      .requests()
      .map(q => ({ request: `${q.method} ${q.path}`, problems: requestProblems(q) }))
      .filter(q => q.problems.length > 0)

  e2e(
    'api-dialect: auto speaks langsmith to a base-url ending in /api-host; langsmith creates, updates and waits, in the production names only',
    async ({ emu, inputs, named, writes }) => {
      expect(emu.url).toMatch(/\/api-host$/)
      const name = uniqueName('prod')
      // The create on `auto`, the update on `langsmith` set.
      const created = await run({ inputs: inputs({ name }) })
      expect(created.errors).toEqual([])
      expect(created.code).toBe(0)
      expect(created.stdout).toContain(
        'API dialect: langsmith (auto: the base URL ends in /api-host, as a self-hosted installation does).'
      )
      expect(created.outputs).toMatchObject({
        created: 'true',
        'deployment-id': named(name)[0]!.id,
        'revision-status': 'DEPLOYED'
      })
      const updated = await run({ inputs: inputs({ name, 'api-dialect': 'langsmith' }) })
      expect(updated.code).toBe(0)
      expect(updated.stdout).toContain('API dialect: langsmith.')
      const [d] = named(name)
      expect(updated.outputs).toMatchObject({
        created: 'false',
        'deployment-id': d!.id,
        'revision-id': d!.latest_revision_id,
        'revision-status': 'DEPLOYED'
      })
      expect(d!.revisions).toHaveLength(2)

      // On the wire: `github`, `langgraph_config_path` and the forge's github path, never the
      // interface's names.
      const [create, patch] = writes()
      expect(create).toMatchObject({ method: 'POST', path: '/v2/deployments' })
      expect(create!.body).toMatchObject({
        source: 'github',
        source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' }
      })
      expect(patch).toMatchObject({ method: 'PATCH', path: `/v2/deployments/${d!.id}` })
      expect(patch!.body).toMatchObject({
        source_revision_config: { langgraph_config_path: 'langgraph.json' }
      })
      const sent = JSON.stringify(emu.requests().map(q => q.body))
      expect(sent).not.toContain('"graph_config_path"')
      expect(sent).not.toContain('codehost')
      const paths = emu.requests().map(q => q.path)
      expect(paths.some(p => p.startsWith('/v1/integrations/forge/github/'))).toBe(true)
      expect(paths.some(p => p.includes('/forge/codehost/'))).toBe(false)
      // Every request of both runs, path, query and body, is one production accepts.
      expect(emu.requests().length).toBeGreaterThan(4)
      expect(offProduction(emu)).toEqual([])
    },
    { dialect: 'langsmith', basePath: '/api-host' }
  )
})

// The checks of the new revision end to end: the bundle deploys to the emulator, whose agent
// servers say which revision answers (`/info`'s host block), list the graphs' assistants and run
// smoke cases. The workspace (GITHUB_WORKSPACE) holds the graph config and the smoke-test file.
// Here, what only the bundle shows (the masking lines, the outputs and summary files); every other
// rule of the checks runs in process (__tests__/commands/deploy/command.new-revision.test.ts).
describe('new-revision', () => {
  const GATE = { 'health-check': 'true', 'health-check-window': '2s' }

  /** A workspace with graph `agent` and the smoke cases `cases` (smoke.json). */
  function workspace(cases: unknown): string {
    const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
    writeFileSync(
      join(dir, 'langgraph.json'),
      JSON.stringify({ graphs: { agent: './src/agent.py:graph' } })
    )
    writeFileSync(join(dir, 'smoke.json'), JSON.stringify(cases))
    return dir
  }

  const paths = (emu: Emulator, path: string) => emu.agents.probes().filter(p => p.path === path)

  e2e(
    'this revision from the start: served-revision=this, each graph has an assistant, every smoke case passes, one request per graph and per case; secret values are masked in a case output, in the log and the summary',
    async t => {
      const secret = 'sk-smoke-0123456789abcdef'
      const cases = [
        { name: 'echo', graph: 'agent', input: { q: 'ping' }, expect: { contains: 'ping' } },
        // The server echoes the input, which carries the secret's value.
        { name: 'leaky', graph: 'agent', input: { token: secret } },
        // A text output that tries to start a workflow command on a line of its own.
        { name: 'lines', graph: 'agent', input: 'fine\n::error title=Injected::from the server' }
      ]
      const r = await run({
        inputs: t.inputs({
          ...GATE,
          'smoke-test': 'smoke.json',
          name: uniqueName('fresh'),
          secrets: `SMOKE_TOKEN=${secret}`
        }),
        env: { GITHUB_WORKSPACE: workspace(cases) }
      })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs).toMatchObject({
        health: 'healthy',
        'served-revision': 'this',
        smoke: 'passed'
      })
      expect(paths(t.emu, '/assistants/search')).toHaveLength(1)
      expect(paths(t.emu, '/runs/wait')).toHaveLength(cases.length)
      expect(r.stdout).toMatch(/graph "agent": it has an assistant/)
      expect(r.stdout).toMatch(
        /Smoke case "echo" \(graph agent\): passed in .*Output: \{"q":"ping"\}/
      )
      expect(r.summary).toMatch(/\| Served revision \| this \|/)
      expect(r.summary).toMatch(/\| echo \(`agent`\) \| passed \| \{"q":"ping"\} \|/)
      expect(leaks(r, [secret, t.key])).toEqual([])
      expect(r.stdout).toMatch(
        /Smoke case "lines" .*Output: fine : :error title=Injected: :from the server/
      )
      expect(r.summary).toMatch(/\| leaky \(`agent`\) \| passed \| \{"token":"\*\*\*"\} \|/)
    }
  )
})

// Today's deployment types and sizes end to end: the bundle creates Serverless and Dedicated
// deployments with a size, waits on the resize's revision as this run's, sends no resize when the
// size is already right (a database size on Serverless is refused with other bad inputs at once:
// health.test.ts). What is asserted is what the emulator received and holds, the exit code, the outputs, the log and the
// summary. The run's other rules on types and sizes (a resize alone or with a code change, older
// answers, a failed resize, a change of type, legacy words, the langsmith dialect, a Serverless
// wake-up) run in-process, in __tests__/commands/deploy/command.new-revision.test.ts.
describe('tiers', () => {
  /** The resize requests the emulator received. */
  const resizes = (emu: Emulator) =>
    emu.requests().filter(r => r.method === 'PATCH' && r.path.endsWith('/resource-tiers'))

  /** The deployment of that name as the emulator holds it now. */
  const held = (t: E2E, name: string) => t.named(name)[0]!

  e2e(
    'create Serverless with a size: created, then resized once its first revision exists; the resize revision is waited on',
    async t => {
      const name = uniqueName('srv')
      const r = await run({
        inputs: t.inputs({ name, 'deployment-type': 'serverless', size: 'medium' })
      })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      const create = t.writes().find(w => w.method === 'POST' && w.path === '/v2/deployments')
      expect((create?.body as { source_config: object }).source_config).toMatchObject({
        deployment_type: 'serverless'
      })
      expect(resizes(t.emu).map(w => w.body)).toEqual([{ compute_tier: 'SERVERLESS_M' }])
      const d = held(t, name)
      expect(d.deployment_tier).toBe('SERVERLESS_M')
      // Two revisions: the create's, then the resize's, which is this run's.
      expect(d.revisions).toHaveLength(2)
      expect(r.outputs['revision-id']).toBe(d.latest_revision_id)
      expect(d.revisions.at(-1)).toMatchObject({ id: d.latest_revision_id, status: 'DEPLOYED' })
      expect(r.stdout).toContain(`Wait for revision ${d.latest_revision_id}`)
      expect(r.outputs).toMatchObject({ 'deployment-type': 'serverless', size: 'medium' })
      expect(r.summary).toMatch(/\| Type and size \| serverless, medium \(`SERVERLESS_M`\) \|/)
      expect(r.stdout).toMatch(/size: medium \(SERVERLESS_M\)/)
    }
  )

  e2e(
    'create Dedicated with a size and a database size; again with the same sizes sends no resize',
    async t => {
      const name = uniqueName('ded')
      const inputs = t.inputs({
        name,
        'deployment-type': 'dedicated',
        size: 'large',
        'database-size': 'medium'
      })
      const r = await run({ inputs })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(resizes(t.emu).map(w => w.body)).toEqual([
        { compute_tier: 'DEDICATED_L', database_tier: 'DEDICATED_M' }
      ])
      expect(held(t, name)).toMatchObject({
        deployment_tier: 'DEDICATED_L',
        database_tier: 'DEDICATED_M'
      })
      expect(r.outputs).toMatchObject({ 'deployment-type': 'dedicated', size: 'large' })
      const again = await run({ inputs })
      expect(again.code).toBe(0)
      expect(resizes(t.emu)).toHaveLength(1)
      expect(again.stdout).toContain('already of the size asked for: no resize')
    }
  )
})

// The bundle as GitHub's local runner (`npx @github/local-action run . dist/index.js .env`) uses
// it: imported, it runs nothing and exports `run()`; the importer's one call is the one run.
// Started by node, as the runner starts it, it runs once by itself.
describe('local-action', () => {
  /**
   * Node 24 running `script` as an ES module in the runner's environment; its stdout and outputs.
   * `script` may wait for a line on stdin: `gate` is called when stdout first contains its `when`,
   * and the line is sent once it returns (to look at the emulator between two steps of the script).
   */
  async function node(
    script: string,
    inputs: Record<string, string>,
    gate: { when: string; run: (stdout: string) => void }
  ) {
    const dir = mkdtempSync(join(tmpdir(), 'cpd-local-action-'))
    try {
      const env = runnerEnv(dir, inputs)
      const child = spawn(NODE24, ['--input-type=module', '-e', script], {
        env,
        cwd: dir,
        stdio: ['pipe', 'pipe', 'pipe']
      })
      let stdout = ''
      let opened = false
      const seen = (d: Buffer) => {
        stdout += d.toString()
        if (opened || !stdout.includes(gate.when)) return
        opened = true
        gate.run(stdout)
        child.stdin.end('go\n')
      }
      child.stdout.on('data', seen)
      child.stderr.on('data', seen)
      const code = await new Promise<number | null>(res => child.on('close', res))
      return { code, stdout, outputs: parseOutputs(readFileSync(env.GITHUB_OUTPUT!, 'utf8')) }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  e2e('imported, the bundle runs nothing and exports run(); one call is one run', async t => {
    const url = pathToFileURL(await bundlePath()).href
    const inputs = t.inputs({ name: uniqueName('local') })
    // One process: imported, then (once the test has looked) its run() called.
    let imported = ''
    let writesWhenImported: unknown[] = ['not looked at']
    const called = await node(
      `const m = await import(${JSON.stringify(url)}); console.log('run is a ' + typeof m.run)
     await new Promise(res => process.stdin.once('data', res)); await m.run()`,
      inputs,
      {
        when: 'run is a ',
        run: stdout => {
          imported = stdout
          writesWhenImported = t.writes()
        }
      }
    )
    expect(imported).toBe('run is a function\n')
    expect(writesWhenImported).toEqual([])

    expect(called.code).toBe(0)
    expect(called.outputs['revision-status']).toBe('DEPLOYED')
    // One run: one create, one "Done" line (a run started by the import would make a second).
    expect(t.writes().filter(w => w.method === 'POST')).toHaveLength(1)
    expect(called.stdout.match(/^Done: /gm)).toHaveLength(1)
  })
})

// GitHub deployments end to end: the bundle (`node index.js` on Node 24, see e2e/harness.ts) against
// the control-plane emulator and a local fake of the GitHub REST API (GITHUB_API_URL). What is
// asserted is what GitHub would have received, the exit code, the outputs and the log. A failed
// build's status and GitHub refusing are the flow's: __tests__/commands/deploy/command.failure.test.ts.
describe('github-deployment', () => {
  const TOKEN = 'ghs_fake0token0for0the0e2e0test0000000001'
  const LOG_URL = 'https://github.com/acme/agent-server/actions/runs/1'

  /** Each test has its own emulator (at speed 10) and its own fake GitHub: they run concurrently. */
  const e2e = (title: string, body: (emu: Emulator, github: FakeGitHub) => Promise<void>) =>
    e2eWithGitHub(title, ({ emu }, github) => body(emu, github), { speed: 10 })

  function run(
    emu: Emulator,
    github: FakeGitHub,
    inputs: Record<string, string>,
    more: Partial<RunOptions> = {}
  ) {
    return runAction({
      inputs: emulatorInputs(emu, { 'poll-interval': '1s', name: uniqueName('gh'), ...inputs }),
      env: { GITHUB_API_URL: github.url },
      ...more
    })
  }

  const creates = (github: FakeGitHub) =>
    github.requests.filter(r => r.path.endsWith('/deployments'))
  const statusBodies = (github: FakeGitHub) =>
    github.requests.filter(r => r.path.endsWith('/statuses'))

  e2e(
    'with github-token and environment: a deploy that succeeds: deployment for the commit, in_progress, then success',
    async (emu, github) => {
      const r = await run(emu, github, {
        'github-token': TOKEN,
        environment: 'production',
        'environment-url': 'https://agent.example.com'
      })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs['revision-status']).toBe('DEPLOYED')

      expect(creates(github)).toHaveLength(1)
      const [create] = creates(github)
      expect(create!.path).toBe('/repos/acme/agent-server/deployments')
      expect(create!.headers.authorization).toBe(`token ${TOKEN}`)
      expect(create!.body).toMatchObject({
        ref: PUSH_MAIN.sha,
        environment: 'production',
        auto_merge: false,
        required_contexts: []
      })

      const id = Number(r.outputs['github-deployment-id'])
      expect(id).toBeGreaterThan(0)
      expect(github.statuses(id)).toEqual(['in_progress', 'success'])
      const [progress, success] = statusBodies(github)
      expect(progress!.body).toMatchObject({ state: 'in_progress', log_url: LOG_URL })
      expect(success!.body).toMatchObject({
        state: 'success',
        log_url: LOG_URL,
        environment_url: 'https://agent.example.com'
      })
      expect(String(success!.body.description)).toContain('DEPLOYED')
      // The token is masked at once and written nowhere else.
      expect(r.stdout).toContain(`::add-mask::${TOKEN}`)
      expect(leaks(r, [TOKEN])).toEqual([])
    }
  )

  e2e(
    'with github-token and environment: a pull request: the deployment is for its head commit, not the merge commit',
    async (emu, github) => {
      const head = 'c0ffee0000000000000000000000000000000002'
      const r = await run(
        emu,
        github,
        { 'github-token': TOKEN, environment: 'preview', wait: 'false' },
        {
          event: pullRequestFrom(9, 'feature-y', head, 'aaaa000000000000000000000000000000000009')
        }
      )
      expect(r.code).toBe(0)
      expect(creates(github)[0]!.body).toMatchObject({ ref: head, environment: 'preview' })
      expect(github.statuses(Number(r.outputs['github-deployment-id']))).toEqual([
        'in_progress',
        'success'
      ])
    }
  )

  // Builds for a day: the signal lands while the run waits however slow the machine. The 7.5 s the
  // runner allows before SIGTERM is the door's own timer, held on a fake clock in
  // __tests__/action/main.cancel.test.ts; here, the order of events: the signal seen while waiting,
  // then the step's own exit (1, not the harness's kill), with GitHub told before it.
  e2eWithGitHub(
    'with github-token and environment: cancelled while waiting: inactive, and the step exits on its own',
    async ({ emu }, github) => {
      const r = await run(
        emu,
        github,
        { name: uniqueName('gh-cancel'), 'github-token': TOKEN, environment: 'production' },
        { cancel: { signal: 'SIGINT', when: '::group::Wait for revision' } }
      )
      expect(r.code).toBe(1)
      const waiting = r.stdout.indexOf('::group::Wait for revision')
      expect(waiting).toBeGreaterThanOrEqual(0)
      expect(r.stdout.indexOf('Received SIGINT: stopping.')).toBeGreaterThan(waiting)
      const id = Number(r.outputs['github-deployment-id'])
      expect(github.statuses(id)).toEqual(['in_progress', 'inactive'])
      expect(String(statusBodies(github).at(-1)!.body.description)).toContain('Cancelled')
    },
    { speed: 10, stageDurationsMs: BUILDS_FOR_A_DAY }
  )

  e2e(
    'nothing reaches GitHub: without environment, even with the default token',
    async (emu, github) => {
      const r = await run(emu, github, { 'github-token': TOKEN })
      expect(r.code).toBe(0)
      expect(github.requests).toEqual([])
      expect(r.outputs['github-deployment-id']).toBe('')
    }
  )

  e2e('nothing reaches GitHub: in a dry run', async (emu, github) => {
    const r = await run(emu, github, {
      'github-token': TOKEN,
      environment: 'production',
      'dry-run': 'true'
    })
    expect(r.code).toBe(0)
    expect(github.requests).toEqual([])
    expect(r.stdout).toContain('Dry run: no GitHub deployment')
  })

  e2e(
    'nothing reaches GitHub: with environment but no token: an input error before any request',
    async (emu, github) => {
      emu.clearRequests()
      const r = await run(emu, github, { environment: 'production' })
      expect(r.code).toBe(1)
      expect(r.errors[0]).toContain('github-token')
      expect(github.requests).toEqual([])
      expect(emu.requests()).toEqual([])
    }
  )
})

// The evaluation gate through the bundle and through the CLI's bin (from the sources, as
// e2e/promote.test.ts runs it): the official `langsmith` client bundled and loaded only with
// `evaluate`, against the emulator's LangSmith API. Each case's rules in process, on a virtual
// clock: __tests__/evaluate/gate.test.ts.
describe('evaluate', () => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })))
  /** A workspace with a langgraph.json and `evaluate.yaml` of `text`. */
  const workspace = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'langgraph.json'), JSON.stringify({ graphs: { agent: './a.py:g' } }))
    writeFileSync(join(dir, 'evaluate.yaml'), text)
    return dir
  }
  /** `control-plane-deploy deploy --evaluate evaluate.yaml <args>` in `ws`, on `t`'s emulator. */
  const cli = async (t: E2E, ws: string, args: string[]) => {
    const c = t.emu.credentials()
    const url = (await langsmith()).langsmithUrl(t.emu.url)
    return runBin(
      join(ROOT, 'src/cli/index.ts'),
      ['deploy', '--evaluate', 'evaluate.yaml', '--langsmith-api-url', url, ...args],
      {
        cwd: ws,
        // A hung run fails its case, not the whole file.
        killAfterMs: 120_000,
        env: {
          CONTROL_PLANE_API_KEY: c.apiKey,
          CONTROL_PLANE_TENANT_ID: c.tenantId,
          CONTROL_PLANE_BASE_URL: t.emu.url,
          CONTROL_PLANE_INTEGRATION_ID: c.integrationId ?? '',
          CONTROL_PLANE_POLL_INTERVAL: '2s'
        }
      }
    )
  }
  const CODEHOST = ['--repository', 'acme/agent-server', '--ref', 'main']
  const outputsOf = (stdout: string) =>
    Object.fromEntries(
      [...stdout.matchAll(/^([a-z-]+)=(.*)$/gm)].map(m => [m[1]!, m[2]!] as [string, string])
    )
  const judge = { key: 'judge', type: 'score' as const, score: 1 }
  let builders: typeof import('../builders/langsmith.ts') | undefined
  // Loaded by the tests that use it (the official client with it), once.
  const langsmith = async () => (builders ??= await import('../builders/langsmith.ts'))
  /** The dataset `support` of two numbered examples, judged by `evaluator`; the builders. */
  const seedSupport = async (
    t: E2E,
    evaluator: typeof judge | (typeof judge & { delayMs: 'never' })
  ) => {
    const ls = await langsmith()
    await ls.seedDataset(t.emu.url, {
      name: 'support',
      examples: ls.numberedExamples(2),
      evaluators: [evaluator]
    })
    return ls
  }

  const agentRuns = (t: E2E, deploymentId: string) =>
    t.emu.agents.probes().filter(p => p.path === '/runs/wait' && p.deployment_id === deploymentId)
      .length

  e2e(
    'a dataset that passes records its experiment and deploys; one that fails its threshold and regresses against the baseline fails, names the examples and rolls back (bundle and CLI); the key shows nowhere',
    async t => {
      const { langsmithCalls, langsmithUrl, exampleId } = await seedSupport(t, judge)
      const name = uniqueName('eval')
      const file = (content: string, baseline = '') =>
        [
          'dataset: support',
          'evaluators:',
          `  - { key: answer, type: contains, path: "messages[-1].content", value: "${content}" }`,
          '  - { key: judge, type: langsmith }',
          'thresholds:',
          '  answer: { pass-rate: 1 }',
          baseline
        ].join('\n')
      const inputs = (over: Record<string, string> = {}) =>
        t.inputs({
          name,
          evaluate: 'evaluate.yaml',
          'langsmith-api-url': langsmithUrl(t.emu.url),
          ...over
        })
      const ok = await run({
        inputs: inputs(),
        env: { GITHUB_WORKSPACE: workspace(file('question')) }
      })
      expect(ok.errors).toEqual([])
      expect(ok.code).toBe(0)
      expect(ok.outputs.evaluation).toBe('passed')
      const [experiment] = (await langsmithCalls(t.emu.url)).experiments
      expect(experiment!.metadata).toMatchObject({
        revision_id: ok.outputs['revision-id'],
        verdict: 'passed'
      })
      expect(ok.outputs['evaluation-url']).toContain(`selectedSessions=${experiment!.id}`)
      expect(ok.summary).toMatch(/\*\*Evaluation: passed\*\*, 2 examples/)
      expect(ok.summary).toContain('| `judge` | 1 | 1 | 2 | – | – |')

      // The agent answers otherwise now: below the threshold, and below its own last pass.
      const failing = workspace(file('never said', `baseline: { deployment: ${name} }`))
      const regressed = `2 examples regressed against the baseline (max-regressions 0): ${exampleId(0)} (answer 1 → 0), ${exampleId(1)} (answer 1 → 0)`
      const bad = await run({
        inputs: inputs({ 'on-failure': 'rollback' }),
        env: { GITHUB_WORKSPACE: failing }
      })
      expect(bad.code).toBe(1)
      expect(bad.outputs.evaluation).toBe('failed')
      expect(bad.errors[0]).toContain('it failed its evaluation: answer: pass rate 0 < 1; ')
      expect(bad.errors[0]).toContain(regressed)
      expect(bad.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
      expect(bad.outputs['rollback-status']).toBe('DEPLOYED')
      expect(JSON.parse(bad.outputs['evaluation-scores']!).answer).toMatchObject({
        mean: 0,
        baseline: 1
      })
      expect(bad.summary).toContain(`| \`${exampleId(1)}\` | \`answer\` | 1 | 0 |`)

      const byCli = await cli(t, failing, ['--name', name, ...CODEHOST, '--on-failure', 'rollback'])
      expect(byCli.code).toBe(1)
      const out = outputsOf(byCli.stdout)
      expect(out.evaluation).toBe('failed')
      expect(out['rollback-status']).toBe('DEPLOYED')
      const error = byCli.stderr.split('\n').find(l => l.includes('failed its evaluation'))
      expect(error).toContain('it failed its evaluation: answer: pass rate 0 < 1; ')
      expect(error).toContain(regressed)
      const verdicts = (await langsmithCalls(t.emu.url)).experiments.map(e => e.metadata?.verdict)
      expect(verdicts).toEqual(['passed', 'failed', 'failed'])
      expect(leaks(ok, [t.key])).toEqual([])
      expect(leaks(bad, [t.key])).toEqual([])
      expect(byCli.stdout + byCli.stderr).not.toContain(t.key)
    }
  )

  e2e(
    'an example that errors and feedback that never comes: inconclusive, each said, the verdict recorded (bundle and CLI)',
    async t => {
      const { langsmithCalls, langsmithUrl, exampleId } = await seedSupport(t, {
        ...judge,
        delayMs: 'never'
      })
      // The first run of each agent server raises; the second echoes, and its judge never comes.
      t.emu.agents.scriptApp('*', {
        runs: { outputs: [{ __error__: { error: 'Error', message: 'graph raised' } }] }
      })
      const ws = workspace(
        [
          'dataset: support',
          'concurrency: 1',
          'evaluators:',
          '  - { key: judge, type: langsmith }',
          'thresholds:',
          '  judge: { mean: 0.5 }'
        ].join('\n')
      )
      // The deadline is the feedback's wait: the emulator's stages take no time at this speed.
      const [bundle, byCli] = await Promise.all([
        run({
          inputs: t.inputs({
            name: uniqueName('late'),
            evaluate: 'evaluate.yaml',
            'langsmith-api-url': langsmithUrl(t.emu.url),
            timeout: '30s'
          }),
          env: { GITHUB_WORKSPACE: ws }
        }),
        cli(t, ws, ['--name', uniqueName('late-cli'), ...CODEHOST, '--timeout', '30s'])
      ])
      const said = [
        `1 example errored (max-errors 0): ${exampleId(0)} (`,
        'the feedback judge did not come in time for 1 example'
      ]
      expect(bundle.code).toBe(1)
      expect(bundle.outputs.evaluation).toBe('inconclusive')
      for (const s of said) expect(bundle.errors[0]).toContain(s)
      expect(bundle.summary).toMatch(/\*\*Evaluation: inconclusive\*\*/)
      expect(byCli.code).toBe(1)
      expect(outputsOf(byCli.stdout).evaluation).toBe('inconclusive')
      const error = byCli.stderr.split('\n').find(l => l.includes('inconclusive:'))
      for (const s of said) expect(error).toContain(s)
      const verdicts = (await langsmithCalls(t.emu.url)).experiments.map(e => e.metadata?.verdict)
      expect(verdicts).toEqual(['inconclusive', 'inconclusive'])
    },
    { speed: 1000 }
  )

  e2e(
    'a bad evaluation file: one error naming the input and the line (the CLI exits 2), nothing sent to the control plane or LangSmith (bundle and CLI)',
    async t => {
      const { langsmithCalls, langsmithUrl } = await langsmith()
      const ws = workspace('dataset: support\nevaluators:\n  - { key: k, type: nearly }\n')
      const [bundle, byCli] = await Promise.all([
        run({
          inputs: t.inputs({
            name: uniqueName('bad'),
            evaluate: 'evaluate.yaml',
            'langsmith-api-url': langsmithUrl(t.emu.url)
          }),
          env: { GITHUB_WORKSPACE: ws }
        }),
        cli(t, ws, ['--name', uniqueName('bad-cli'), ...CODEHOST])
      ])
      const why =
        '(evaluate.yaml), line 3: evaluators[0].type must be one of equals, contains, matches, latency, langsmith'
      expect(bundle.errors).toEqual([expect.stringContaining(`\`evaluate\` ${why}`)])
      expect(bundle.code).toBe(1)
      expect(byCli.code).toBe(2)
      expect(byCli.stderr).toContain(`\`--evaluate\` ${why}`)
      expect(t.emu.requests()).toEqual([])
      expect((await langsmithCalls(t.emu.url)).calls).toEqual([])
    }
  )

  e2e(
    'a promotion: the source evaluated before any write when no passing experiment is recorded for it, the recorded one taken after (bundle and CLI)',
    async t => {
      const { seedDataset, numberedExamples, langsmithCalls, langsmithUrl } = await langsmith()
      const { seed, codehost, activeOf, one } = await import('../builders/promotion.ts')
      const names = ['staging', 'prod-a', 'prod-b', 'prod-c', 'prod-d'].map(n => uniqueName(n))
      const [staging, a, b, c, d] = names as [string, string, string, string, string]
      seed(
        t,
        names.map(n => codehost(t, n, {}))
      )
      await seedDataset(t.emu.url, {
        name: 'support',
        examples: numberedExamples(2),
        evaluators: [judge]
      })
      const source = activeOf(t, staging).id
      const stagingId = one(t, staging).id
      // Two evaluation files: the evidence is a pass on the same file (its digest).
      const file = (comment: string) =>
        workspace(
          [
            `# ${comment}`,
            'dataset: support',
            'evaluators:',
            '  - { key: echoes, type: equals, path: "messages[-1].content", reference: "messages[-1].content" }',
            '  - { key: judge, type: langsmith }',
            'thresholds:',
            '  echoes: { mean: 1 }'
          ].join('\n')
        )
      const [first, second] = [file('first'), file('second')]
      const bundle = (target: string, ws: string, onStdout?: RunOptions['onStdout']) =>
        run({
          ...(onStdout ? { onStdout } : {}),
          inputs: t.inputs({
            name: target,
            'promote-from': staging,
            evaluate: 'evaluate.yaml',
            'langsmith-api-url': langsmithUrl(t.emu.url)
          }),
          env: { GITHUB_WORKSPACE: ws }
        })
      const byCli = (target: string, ws: string) =>
        cli(t, ws, ['--name', target, '--promote-from', staging])
      const evaluated = `Evaluation of the promotion's source "${staging}" revision ${source}`
      const evidence = `Evidence: experiment "${staging} ${source.slice(0, 8)}`

      // No experiment yet: the source runs its examples before any write, then the target its own.
      let writesThen: number | undefined
      const before = t.writes().length
      const runsBefore = agentRuns(t, stagingId)
      const evaluatedB = await bundle(a, first, {
        when: evaluated,
        run: () => void (writesThen = t.writes().length)
      })
      expect(evaluatedB.errors).toEqual([])
      expect(evaluatedB.code).toBe(0)
      expect(writesThen).toBe(before)
      expect(agentRuns(t, stagingId) - runsBefore).toBe(2)
      expect(evaluatedB.outputs['promoted-from-revision-id']).toBe(source)
      expect(evaluatedB.outputs.evaluation).toBe('passed')

      // The same file: the source's recorded pass taken, the source not run again.
      const recordedC = await byCli(b, first)
      expect(recordedC.code).toBe(0)
      expect(recordedC.stderr).toContain(evidence)
      expect(recordedC.stderr).not.toContain(evaluated)
      expect(agentRuns(t, stagingId) - runsBefore).toBe(2)
      const outB = outputsOf(recordedC.stdout)
      expect(outB.evaluation).toBe('passed')
      // The target's own gate passed and recorded its experiment.
      const targetB = (await langsmithCalls(t.emu.url)).experiments.find(
        e => e.metadata?.deployment_id === one(t, b).id
      )
      expect(targetB?.metadata).toMatchObject({
        revision_id: outB['revision-id'],
        verdict: 'passed'
      })
      expect(outB['evaluation-url']).toContain(`selectedSessions=${targetB!.id}`)

      // Another file: no pass recorded on it, the source evaluated again (by the CLI) ...
      const evaluatedC = await byCli(c, second)
      expect(evaluatedC.code).toBe(0)
      expect(evaluatedC.stderr).toContain(evaluated)
      expect(agentRuns(t, stagingId) - runsBefore).toBe(4)
      // ... and that pass is the bundle's evidence.
      const recordedB = await bundle(d, second)
      expect(recordedB.errors).toEqual([])
      expect(recordedB.code).toBe(0)
      expect(recordedB.stdout).toContain(evidence)
      expect(recordedB.stdout).not.toContain(evaluated)
      expect(agentRuns(t, stagingId) - runsBefore).toBe(4)
      expect(recordedB.outputs.evaluation).toBe('passed')
    }
  )
})

// `command: plan` and a deploy of one agent's environment through the bundle, as the runner runs
// it, on the fixture monorepo as a git repository with history (the workspace) against the
// emulator: the shared library's dependents planned, one graph's agent, none for a change outside
// every agent; a missing deployment, a deployed commit the checkout lacks and a changed manifest
// entry each a deploy with its reason; then `manifest` + `agent` + `environment` deploys that
// entry. The same through the CLI's door: commands/plan/command.test.ts.
describe('command: plan, through the bundle', () => {
  const STAGING = ['support-staging', 'research-staging', 'triage-staging']
  const allAt = (sha: string) => Object.fromEntries(STAGING.map(n => [n, sha]))

  /** The bundle's plan of staging, in the monorepo's checkout. */
  async function plan(t: E2E, repo: Monorepo) {
    const r = await runAction({
      inputs: {
        'api-key': t.key,
        'base-url': t.emu.url,
        command: 'plan',
        manifest: 'agents.yaml',
        environment: 'staging'
      },
      env: { GITHUB_WORKSPACE: repo.dir }
    })
    expect([r.code, r.errors]).toEqual([0, []])
    return r
  }

  e2e('plan: which agents a change plans, compared with each deployed commit', async t => {
    const repo = monorepo()
    try {
      deployedAt(t.emu, allAt(repo.first))
      const shared = repo.commit({ 'libs/common/common/tone.py': 'TONE = "Be brief."\n' })
      const lib = await plan(t, repo)
      expect(lib.outputs.agents).toBe('["support","research"]')
      expect(JSON.parse(lib.outputs.matrix!)).toEqual({
        include: [
          { agent: 'support', environment: 'staging', name: 'support-staging' },
          { agent: 'research', environment: 'staging', name: 'research-staging' }
        ]
      })
      expect(lib.summary).toContain('| Agent | Deployment | Deployed commit | Verdict | Why |')
      expect(lib.summary).toContain(
        `| \`triage\` | \`triage-staging\` | \`${repo.first.slice(0, 12)}\` | ⏭️ skip |`
      )
      expect(lib.stdout).toContain(
        'triage (triage-staging): skip: nothing it depends on changed since'
      )

      deployedAt(t.emu, allAt(shared))
      const graph = repo.commit({ 'agents/triage/src/graph.ts': 'export const graph = null\n' })
      expect((await plan(t, repo)).outputs.agents).toBe('["triage"]')

      deployedAt(t.emu, allAt(graph))
      repo.commit({ 'README.md': '# Agents, all of them\n' })
      t.emu.clearRequests()
      const outside = await plan(t, repo)
      expect(outside.outputs.agents).toBe('[]')
      expect(outside.outputs.matrix).toBe('{"include":[]}')
      expect(t.emu.requests().length).toBe(6)
      expect(t.writes()).toEqual([])
    } finally {
      repo.remove()
    }
  })

  e2e(
    'plan: no deployment, an unknown deployed commit, a changed manifest entry: each a deploy, with why; then the entry deploys',
    async t => {
      const repo = monorepo()
      try {
        const elsewhere = 'e'.repeat(40)
        const manifest = repo.git('show', 'HEAD:agents.yaml')
        repo.commit({
          'agents.yaml': manifest.replace('triage-staging }', 'triage-staging, size: medium }')
        })
        deployedAt(t.emu, {
          'support-staging': null,
          'research-staging': elsewhere,
          'triage-staging': repo.first
        })
        const r = await plan(t, repo)
        expect(r.outputs.agents).toBe('["support","research","triage"]')
        expect(r.stdout).toContain(
          'support (support-staging): deploy: no deployment is named "support-staging": a deploy creates it.'
        )
        expect(r.stdout).toContain(
          `research (research-staging): deploy: unknown: commit ${elsewhere.slice(0, 12)} is not in this checkout.`
        )
        expect(r.stdout).toContain(
          `triage (triage-staging): deploy: its manifest entry changed since ${repo.first.slice(0, 12)}.`
        )
        expect(t.writes()).toEqual([])

        // The matrix's entry, deployed: the manifest's settings, config as graph-config-path.
        const deploy = await runAction({
          inputs: t.inputs({
            'integration-id': t.integration,
            manifest: 'agents.yaml',
            agent: 'support',
            environment: 'staging',
            'github-token': ''
          }),
          env: { GITHUB_WORKSPACE: repo.dir }
        })
        expect([deploy.code, deploy.errors]).toEqual([0, []])
        const [created] = t.named('support-staging')
        expect(created).toBeDefined()
        const body = t.writes().find(w => w.method === 'POST')!.body as {
          source_revision_config: { graph_config_path: string }
          source_config: { deployment_type: string }
        }
        expect(body.source_revision_config.graph_config_path).toBe('agents/support/langgraph.json')
        expect(body.source_config.deployment_type).toBe('serverless')
      } finally {
        repo.remove()
      }
    }
  )

  e2e(
    'a setting both in the manifest and as an input, and a manifest problem, refused before any request',
    async t => {
      const repo = monorepo()
      try {
        const both = await runAction({
          inputs: t.inputs({
            manifest: 'agents.yaml',
            agent: 'support',
            environment: 'staging',
            name: 'mine'
          }),
          env: { GITHUB_WORKSPACE: repo.dir }
        })
        expect(both.code).toBe(1)
        expect(both.errors.join('\n')).toMatch(
          /`name` is set both as an input and in agents\.yaml line \d+ \(agents\.support\.environments\.staging\.name\)/
        )
        expect(t.emu.requests()).toEqual([])
      } finally {
        repo.remove()
      }
    }
  )
})
