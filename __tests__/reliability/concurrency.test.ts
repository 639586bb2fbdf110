// Two runs racing to create the same new name, and a matrix of 20 runs for 20
// environments at once against a control plane that answers 429 above a request rate.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe } from '@jest/globals'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { demoFixture, type RateLimit } from '../../emulator/server.ts'
import { uniqueName, type RunResult } from '../e2e/harness.ts'
import { copyFixture } from '../builders/upload.ts'
import {
  caseInputs,
  debugEnv,
  deployInputs,
  deploymentsNamed,
  errorText,
  existingDeployment,
  inBothLogModes,
  lane,
  reliabilityCase,
  withEmulator,
  type Case
} from './support.ts'

/**
 * Both runs start together. `forced`: every create is held back 1.5 s by the emulator, so both
 * lookups are sure to find nothing and both creates reach the server: one wins, one gets 409.
 */
describe(GROUPS.race, () => {
  // Two cases (four runs) at a time.
  const two = lane(2)
  for (const forced of [true, false])
    inBothLogModes(
      GROUPS.race,
      forced
        ? 'both creates reach the server: one deployment, the loser adopts it'
        : 'two runs started together: one deployment, both end clearly',
      (c, debug) => raceCase(c, forced, debug),
      { lane: two }
    )
  reliabilityCase(
    GROUPS.race,
    'two upload deploys create one new name at once: one deployment, each run deploys its own upload',
    uploadRaceCase,
    { lane: two }
  )
  reliabilityCase(
    GROUPS.race,
    'two runs promote one deployment to one new name at once: one revision each, each run naming its own',
    promoteRaceCase,
    { lane: two }
  )
})

/**
 * Two promotions of the fixture's deployment to one new name, both creates held back so both reach
 * the server: the winner's create and the loser's update each make one revision, each run reports
 * its own, and both name the source's active revision as what they promoted.
 */
async function promoteRaceCase(c: Case): Promise<void> {
  await withEmulator({}, async emu => {
    const built = 'a1'.repeat(20)
    emu.loadFixture({
      ...demoFixture(),
      repo_commits: { 'https://github.com/acme/support-bot@main': built }
    })
    const source = existingDeployment(emu)
    const name = uniqueName('race-promote')
    emu.setFaults({ kind: 'delay', ms: 1500, method: 'POST', path: '/v2/deployments', times: 2 })
    const inputs = deployInputs(c, emu, name, { 'promote-from': source.name })
    const runs = await Promise.all([c.run({ inputs }), c.run({ inputs })])
    c.tally(emu, name, { deployments: 1, revisions: 2 })
    for (const r of runs) expectClearSuccess(c, r)
    const ids = new Set(runs.map(r => r.outputs['revision-id']))
    c.check(ids.size === 2, `the runs report revisions ${[...ids].join(', ')}`)
    const [d] = deploymentsNamed(emu, name)
    for (const r of runs) {
      const own = d?.revisions.find(v => v.id === r.outputs['revision-id'])
      c.check(
        own?.source_revision_config.repo_ref === 'main' &&
          r.outputs['promoted-from-revision-id'] === source.active_revision_id &&
          // A revision superseded by the other run's (SKIPPED) built nothing of its own.
          (r.outputs['repo-commit-sha'] === built || r.outputs['revision-status'] === 'SKIPPED'),
        `a run reports ${r.outputs['revision-id']} promoted from ${r.outputs['promoted-from-revision-id']}, built ${r.outputs['repo-commit-sha']}`
      )
    }
  })
}

/**
 * Two upload runs of two workspaces for one new name, both creates held back so both reach the
 * server. Each run's revision is its own upload: the loser adopts the deployment, then uploads and
 * patches; neither reports the other's revision or the other's files as its own.
 */
async function uploadRaceCase(c: Case): Promise<void> {
  await withEmulator({}, async emu => {
    const name = uniqueName('race-upload')
    emu.setFaults({ kind: 'delay', ms: 1500, method: 'POST', path: '/v2/deployments', times: 2 })
    const workspaces = [await copyFixture('monorepo'), await copyFixture('monorepo')]
    await writeFile(join(workspaces[1]!, 'apps/agent/second.py'), 'graph = "second"\n')
    const { 'integration-id': _none, ...inputs } = deployInputs(c, emu, name, {
      source: 'internal_source',
      'graph-config-path': 'apps/agent/langgraph.json'
    })
    const runs = await Promise.all(
      workspaces.map(w => c.run({ inputs, env: { GITHUB_WORKSPACE: w } }))
    )
    // The create's revision (nothing uploaded yet: it ends CREATE_FAILED, as the service's first
    // revision of an upload deploy does), then each run's PATCH of its own upload.
    c.tally(emu, name, { deployments: 1, revisions: 3 })
    for (const r of runs) expectClearSuccess(c, r)
    const [d] = deploymentsNamed(emu, name)
    const created = runs.map(r => r.outputs.created).sort()
    c.check(created.join() === 'false,true', `created outputs ${created.join()}`)
    const digests = new Set(runs.map(r => r.outputs['source-digest']))
    c.check(digests.size === 2, `the runs report source digests ${[...digests].join(', ')}`)
    runs.forEach((r, i) => {
      const revision = d?.revisions.find(v => v.id === r.outputs['revision-id'])
      const hasSecond = revision?.source_files?.includes('apps/agent/second.py')
      c.check(
        revision !== undefined && hasSecond === (i === 1),
        `run ${i + 1} reports revision ${r.outputs['revision-id']}, which is not its own upload`
      )
    })
  })
}

async function raceCase(c: Case, forced: boolean, debug: boolean): Promise<void> {
  await withEmulator({}, async emu => {
    const name = uniqueName('race')
    if (forced)
      emu.setFaults({ kind: 'delay', ms: 1500, method: 'POST', path: '/v2/deployments', times: 2 })
    const inputs = deployInputs(c, emu, name)
    const env = debugEnv(debug)
    const runs = await Promise.all([c.run({ inputs, env }), c.run({ inputs, env })])

    const [d] = deploymentsNamed(emu, name)
    // Each run made one revision of its own: the winner's create, the loser's patch.
    c.tally(emu, name, { deployments: 1, revisions: 2 })
    if (forced) {
      const posts = emu.requests().filter(q => q.method === 'POST')
      c.check(
        posts
          .map(p => p.status)
          .sort()
          .join() === '201,409',
        `creates answered ${posts.map(p => p.status).join()}, expected one 201 and one 409`
      )
    }
    for (const r of runs) expectClearSuccess(c, r)
    c.check(
      runs.every(r => r.outputs['deployment-id'] === d?.id),
      `the runs report deployments ${runs.map(r => r.outputs['deployment-id']).join(', ')}, not ${d?.id}`
    )
    const created = runs.map(r => r.outputs.created).sort()
    c.check(created.join() === 'false,true', `created outputs ${created.join()}`)
    const loser = runs.find(r => r.outputs.created === 'false')
    if (forced && loser) {
      c.check(
        loser.stdout.includes('was created by another run at the same time'),
        'the loser does not say it adopted the winner’s deployment'
      )
    }
  })
}

/** A clear result: exit 0 with DEPLOYED, or exit 0 with SKIPPED and the warning naming the newer. */
function expectClearSuccess(c: Case, r: RunResult) {
  const status = r.outputs['revision-status']
  c.check(r.code === 0, `exit ${r.code}: ${errorText(r).slice(0, 300)}`)
  if (status === 'SKIPPED') {
    c.check(
      /::warning title=Superseded by a newer revision::/.test(r.stdout),
      'SKIPPED without the warning naming the newer revision'
    )
  } else c.check(status === 'DEPLOYED', `revision-status ${status}`)
}

describe(GROUPS.matrix, () => {
  const limits: Array<[string, RateLimit]> = [
    [
      '20 environments at once, 10 requests/s per key, 429 with Retry-After: 1: all DEPLOYED',
      { rps: 10, retryAfter: 1 }
    ],
    [
      '20 environments at once, 10 requests/s per key, 429 without Retry-After: all DEPLOYED',
      { rps: 10, retryAfter: null }
    ]
  ]
  // One matrix at a time: they would share the machine's two cores, not the emulator.
  for (const [title, limit] of limits)
    reliabilityCase(GROUPS.matrix, title, c => matrixCase(c, limit), { serial: true })
})

async function matrixCase(c: Case, rateLimit: RateLimit): Promise<void> {
  await withEmulator({ rateLimit }, async emu => {
    const creds = emu.credentials()
    const base = caseInputs(c, emu)
    const names = Array.from({ length: 20 }, (_, i) => uniqueName(`env${i}`))
    const runs = await Promise.all(
      names.map((name, i) =>
        c.run({
          inputs: { ...base, 'integration-id': creds.integrationId!, name, timeout: '5m' },
          env: debugEnv(i % 4 === 0),
          timeoutMs: 110_000
        })
      )
    )
    const limited = emu.requests().filter(q => q.fault === 'rate-limit').length
    c.check(limited > 0, 'the rate limit never answered 429: the case proves nothing')
    runs.forEach((r, i) => {
      c.check(
        r.code === 0 && r.outputs['revision-status'] === 'DEPLOYED',
        `${names[i]}: exit ${r.code}, ${r.outputs['revision-status']}: ${errorText(r).slice(0, 200)}`
      )
    })
    for (const name of names) c.tally(emu, name, { deployments: 1, revisions: 1 })
    c.note(`${limited} of ${emu.requests().length} requests answered 429`)
  })
}
