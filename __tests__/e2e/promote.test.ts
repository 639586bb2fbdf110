import { expect, describe } from '@jest/globals'
import * as promotion from '../builders/promotion.ts'
import {
  activeOf,
  BUILT,
  codehost,
  one,
  seed,
  ECHO,
  MOVED,
  moveMain,
  promotionWorkspace,
  TAG
} from '../builders/promotion.ts'
import {
  e2eWithGitHub,
  pullRequest,
  runAction as run,
  uniqueName,
  e2e,
  redeploys,
  ROOT,
  warnings,
  type E2E
} from './harness.ts'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runBin } from '../package/run-bin.ts'
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'

// Promotion end to end (the action's bundle against the emulator): the target gets the material
// of the source's active revision (a codehost commit), keeps its own secrets, and says what it
// promoted from where (log, summary, GitHub records). An upload's digest: e2e/check.test.ts,
// 'promote an upload'. An image, the production dialect, a dry run, a failed health gate and the
// other refusals (a ref beside promote-from, no such source, a newer revision in progress, a ref
// known to point elsewhere): in-process, commands/deploy/command.promote.test.ts; a source of another
// repository or source, or with no active revision: commands/deploy/steps/promote.test.ts ("refusals").

// The ref moved on since staging built it (a different commit is an error, rolled back):
// e2e/promote.test.ts, 'main moved on, production built another commit'.
e2eWithGitHub(
  'promote: codehost, the commit staging built, with production’s secrets kept; the GitHub deployment record and the pull request comment say what was promoted',
  async (t, gh) => {
    const [staging, production] = [uniqueName('staging'), uniqueName('production')]
    seed(t, [
      codehost(t, staging, { KEY: 'staging' }),
      codehost(t, production, { KEY: 'prod-secret' })
    ])
    const source = activeOf(t, staging)
    const token = 'ghs_promote0token000000000000000000000001'
    const r = await run({
      inputs: t.inputs({
        name: production,
        'promote-from': staging,
        'github-token': token,
        environment: 'production',
        'pr-comment': 'true'
      }),
      event: pullRequest(31),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['promoted-from-revision-id']).toBe(source.id)
    expect(r.outputs['repo-commit-sha']).toBe(BUILT)
    const patch = t.writes().find(w => w.method === 'PATCH')!
    expect(patch.body).toEqual({
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' }
    })
    expect(one(t, production).secrets).toEqual([{ name: 'KEY', value: 'prod-secret' }])
    const line = `Promoted ${staging} revision ${source.id} (commit ${BUILT}) to ${production}: revision ${r.outputs['revision-id']}`
    expect(r.stdout).toContain(line)
    expect(r.summary).toContain(`| Promoted from | ${staging} revision \`${source.id}\``)
    const final = gh.requests.filter(q => q.path.endsWith('/statuses')).at(-1)!
    expect(final.body).toMatchObject({
      state: 'success',
      description: expect.stringContaining(`Promoted ${staging} revision ${source.id}`)
    })
    expect(gh.comments(31)[0]!.body).toContain(
      `| Promoted from | ${staging} revision ${source.id} (commit ${BUILT}) |`
    )
  }
)

// Promotion with evidence, end to end (the action's bundle, and the CLI, against the emulator):
// the ways a promotion ends, as docs/promotion.md's table lists them, that the bundle shows: the
// source checked on its own agent server before any write (folds, summary, smoke cases), a target
// left on material the source did not verify going back to the revision it ran before the run
// (said in the GitHub records too, or when superseded mid-run), and the CLI's flag. The other
// endings (a failing smoke case, an unhealthy source, one serving another revision,
// `verify-source: false`, a ref with a line break, a new revision with no commit, a created
// target): in-process, commands/deploy/command.promote.test.ts.
describe('evidence', () => {
  const OTHER = '5a1e0c2b-3d4f-4a6b-8c7d-9e0f1a2b3c4d'
  const CHECKS = { 'health-check': 'true', 'health-check-window': '0s' }

  /** staging on main, production on the tag v1: both at BUILT. */
  function pipeline(t: E2E): { staging: string; production: string } {
    const [staging, production] = [uniqueName('staging'), uniqueName('production')]
    seed(t, [codehost(t, staging, {}), codehost(t, production, { KEY: 'prod' }, TAG)])
    return { staging, production }
  }

  e2e(
    'promote evidence: a verified source is promoted, and the summary says what verified it',
    async t => {
      const { staging, production } = pipeline(t)
      const ws = promotionWorkspace(ECHO)
      const r = await run({
        inputs: t.inputs({
          name: production,
          'promote-from': staging,
          ...CHECKS,
          'smoke-test': 'smoke.json'
        }),
        env: { GITHUB_WORKSPACE: ws }
      })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      const source = one(t, staging)
      const staged = t.emu.agents.probes().filter(p => p.deployment_id === source.id)
      expect(staged.map(p => p.path)).toEqual(
        expect.arrayContaining(['/ok', '/info', '/runs/wait'])
      )
      expect(r.stdout).toContain(
        `Verified revision ${activeOf(t, staging).id} of "${staging}" on its agent server: healthy, serves its active revision, 1 smoke case passed.`
      )
      expect(r.summary).toMatch(
        /\| Source verified \| yes: healthy, serves its active revision, 1 smoke case passed \|/
      )
      expect(r.stdout).toContain(`answers, its active revision.`)
      // The runner's folds do not nest: the source's health check is a heading in its fold.
      expect(deepestFold(r.stdout)).toBe(1)
      expect(r.stdout).toMatch(
        /::group::Verify the promotion's source[^\n]*\nHealth check of the agent server\n/
      )
      expect(r.outputs['promoted-from-revision-id']).toBe(activeOf(t, staging).id)
    }
  )

  /** How deep the log's `::group::` folds go (the runner shows 1 at most). */
  function deepestFold(stdout: string): number {
    let [depth, deepest] = [0, 0]
    for (const line of stdout.split('\n')) {
      if (line.startsWith('::group::')) deepest = Math.max(deepest, ++depth)
      if (line.startsWith('::endgroup::')) depth--
    }
    return deepest
  }

  e2eWithGitHub(
    'promote evidence: main moved on, production built another commit: exit 1, back on the revision it ran, said everywhere',
    async (t, gh) => {
      const { staging, production } = pipeline(t)
      const good = one(t, production).active_revision_id!
      await moveMain(t)
      const r = await run({
        inputs: t.inputs({
          name: production,
          'promote-from': staging,
          'github-token': 'ghs_promote0token000000000000000000000002',
          environment: 'production',
          'pr-comment': 'true'
        }),
        event: pullRequest(41),
        env: { GITHUB_API_URL: gh.url }
      })
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toContain(`built commit ${MOVED}, not ${BUILT}`)
      expect(r.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
      expect(redeploys(t.emu)).toHaveLength(1)
      expect(redeploys(t.emu)[0]!.path).toContain(good)
      expect(r.outputs['rollback-status']).toBe('DEPLOYED')
      const back = r.outputs['rollback-revision-id']!
      expect(one(t, production).active_revision_id).toBe(back)
      // production runs what it ran before: the tag's commit.
      expect(activeOf(t, production).id).toBe(back)
      expect(warnings(r.stdout).join('\n')).toContain(`going back to revision ${good}`)
      expect(r.summary).toContain(`**Rollback**: revision \`${back}\``)
      const final = gh.requests.filter(q => q.path.endsWith('/statuses')).at(-1)!
      expect(final.body).toMatchObject({
        state: 'error',
        description: expect.stringContaining(
          `Unverified commit ${MOVED.slice(0, 12)} ran on "${production}"; rolled back to revision ${good}.`
        )
      })
      expect(gh.comments(41)[0]!.body).toContain('Rolled back: revision')
    }
  )

  e2e(
    'promote evidence: superseded by a revision of another ref: exit 1, back on the revision it ran',
    async t => {
      const { staging, production } = pipeline(t)
      const good = one(t, production).active_revision_id!
      const r = await run({
        inputs: t.inputs({ name: production, 'promote-from': staging }),
        onStdout: {
          when: '::group::Wait for revision',
          run: async () => {
            // Another run deploys the tag v2 (MOVED) meanwhile.
            await fetch(`${t.emu.url}/v2/deployments/${one(t, production).id}`, {
              method: 'PATCH',
              headers: { 'X-Api-Key': t.key, 'Content-Type': 'application/json' },
              body: JSON.stringify({ source_revision_config: { repo_ref: 'refs/tags/v2' } })
            })
            t.emu.setSpeed(1000)
          }
        }
      })
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toContain(`runs commit ${MOVED}, not commit ${BUILT}`)
      expect(r.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
      expect(redeploys(t.emu)[0]!.path).toContain(good)
      expect(r.outputs['rollback-status']).toBe('DEPLOYED')
    },
    { speed: 0.0001 }
  )

  /** The CLI from the sources, in a clean environment but `env`. */
  const cli = (args: string[], env: Record<string, string>) =>
    runBin(join(ROOT, 'src/cli/index.ts'), args, { cwd: tmpdir(), env })

  e2e(
    'promote evidence, the CLI: --promote-revision-id other than the active revision is refused before any write; the active one is promoted',
    async t => {
      const { staging, production } = pipeline(t)
      const c = t.emu.credentials()
      const env = {
        CONTROL_PLANE_API_KEY: c.apiKey,
        CONTROL_PLANE_BASE_URL: t.emu.url,
        CONTROL_PLANE_INTEGRATION_ID: c.integrationId ?? '',
        CONTROL_PLANE_POLL_INTERVAL: '2s'
      }
      const args = ['deploy', '--name', production, '--promote-from', staging]
      const before = t.writes().length
      const wrong = await cli([...args, '--promote-revision-id', OTHER], env)
      expect(wrong.code).toBe(1)
      expect(wrong.stderr).toContain(`\`--promote-revision-id\` is ${OTHER}`)
      expect(wrong.stderr).toContain(`is ${activeOf(t, staging).id}`)
      expect(t.writes()).toHaveLength(before)
      const right = await cli([...args, '--promote-revision-id', activeOf(t, staging).id], env)
      expect(right.stderr).not.toContain('::error')
      expect(right.code).toBe(0)
      expect(right.stdout).toContain(`promoted-from-revision-id=${activeOf(t, staging).id}`)
      expect(right.stderr).toContain(`Verified revision ${activeOf(t, staging).id}`)
    }
  )
})

// The GitHub promotion examples as a user runs them, through the bundle against the emulator: each
// job's action step with its inputs as written (the `${{ }}` ones given as the runner would), one
// job after the other. examples/promote-pipeline.yml: push -> staging -> production with the
// staging job's revision-id; main moving on in between never leaves production on a commit staging
// did not verify. examples/promote.yml: a release promotes staging's tag, or refuses.
describe('pipeline', () => {
  interface Step {
    id?: string
    uses?: string
    with?: Record<string, string | boolean>
  }
  type Jobs = Record<string, { steps: Step[] }>

  const jobsOf = (file: string) =>
    (
      parseYaml(readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8')) as {
        jobs: Jobs
      }
    ).jobs

  /** The action's step of a job, its inputs as the runner passes them: `values` for `${{ }}`. */
  function stepOf(jobs: Jobs, job: string, values: Record<string, string>): Record<string, string> {
    const step = jobs[job]!.steps.find(s =>
      s.uses?.startsWith('control-plane-deploy/control-plane-deploy@')
    )!
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(step.with ?? {})) {
      const text = String(v).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e: string) => values[e] ?? '')
      // Secrets and variables come from the emulator's inputs.
      if (!String(v).includes('secrets.') && !String(v).includes('vars.')) out[k] = text
    }
    return { ...out, 'health-check-window': '1s' }
  }

  const workspace = promotion.promotionWorkspace(promotion.ECHO, 'smoke.yaml')
  const env = { GITHUB_WORKSPACE: workspace }

  /** The deployments the examples name, existing before the run: staging and production on `ref`. */
  function existing(t: E2E, stagingRef: string, productionRef = promotion.TAG) {
    promotion.seed(t, [
      {
        ...promotion.codehost(t, 'my-agent-staging', {}, stagingRef),
        deployment_type: 'serverless'
      },
      {
        ...promotion.codehost(t, 'my-agent', { KEY: 'prod' }, productionRef),
        deployment_type: 'dedicated'
      }
    ])
  }

  e2e(
    'pipeline example: push -> staging -> production promotes what staging verified; staging deployed again after its job: the promotion of the job’s revision is refused before any write',
    async t => {
      existing(t, 'main')
      const jobs = jobsOf('promote-pipeline.yml')
      const staging = await run({ inputs: { ...stepOf(jobs, 'staging', {}), ...t.inputs() }, env })
      expect(staging.errors).toEqual([])
      expect(staging.code).toBe(0)
      const needs = { 'needs.staging.outputs.revision-id': staging.outputs['revision-id']! }
      const production = stepOf(jobs, 'production', needs)
      const r = await run({ inputs: { ...production, ...t.inputs() }, env })
      expect(r.errors).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs['promoted-from-revision-id']).toBe(staging.outputs['revision-id'])
      expect(promotion.activeOf(t, 'my-agent').id).toBe(r.outputs['revision-id'])
      expect(r.outputs['repo-commit-sha']).toBe(promotion.BUILT)
      // build-on-push: false, so that production changes only by promotion.
      const patch = t
        .writes()
        .find(w => w.method === 'PATCH' && w.path.endsWith(promotion.one(t, 'my-agent').id))
      expect(patch?.body).toMatchObject({ source_config: { build_on_push: false } })

      // Staging deployed again: the production job of the first staging job is refused.
      const again = await run({ inputs: { ...stepOf(jobs, 'staging', {}), ...t.inputs() }, env })
      expect(again.outputs['revision-id']).not.toBe(staging.outputs['revision-id'])
      const writes = t.writes().length
      const late = await run({ inputs: { ...production, ...t.inputs() }, env })
      expect(late.code).toBe(1)
      expect(late.errors[0]).toContain(
        `\`promote-revision-id\` is ${staging.outputs['revision-id']}`
      )
      expect(t.writes()).toHaveLength(writes)
    }
  )

  e2e(
    'pipeline example: main moves on between staging and production: production stays on a verified commit',
    async t => {
      existing(t, 'main')
      const jobs = jobsOf('promote-pipeline.yml')
      const before = promotion.one(t, 'my-agent').active_revision_id!
      const staging = await run({ inputs: { ...stepOf(jobs, 'staging', {}), ...t.inputs() }, env })
      expect(staging.code).toBe(0)
      await promotion.moveMain(t)
      const needs = { 'needs.staging.outputs.revision-id': staging.outputs['revision-id']! }
      const r = await run({ inputs: { ...stepOf(jobs, 'production', needs), ...t.inputs() }, env })
      expect(r.code).toBe(1)
      expect(r.errors[0]).toContain(`built commit ${promotion.MOVED}, not ${promotion.BUILT}`)
      // Back on the revision production ran before, from its tag: BUILT, never MOVED.
      expect(r.outputs['rollback-status']).toBe('DEPLOYED')
      expect(r.errors[0]).toContain(`a redeploy of ${before}`)
      expect(r.errors[0]).not.toContain('It built commit')
    }
  )

  e2e('release example: the release’s tag is promoted; a staging on main is refused', async t => {
    existing(t, 'main')
    const jobs = jobsOf('promote.yml')
    const release = { 'github.event.release.tag_name': 'v1' }
    // Staging runs main, not the release's tag: refused before any write.
    const writes = t.writes().length
    const needs = {
      ...release,
      'needs.staging.outputs.revision-id': promotion.activeOf(t, 'my-agent-staging').id
    }
    const refused = await run({
      inputs: { ...stepOf(jobs, 'production', needs), ...t.inputs() },
      env
    })
    expect(refused.code).toBe(1)
    expect(refused.errors[0]).toContain('deploys main: a promotion deploys the source')
    expect(t.writes()).toHaveLength(writes)
    // The release as written: staging from the tag, then production.
    const staging = await run({
      inputs: { ...stepOf(jobs, 'staging', release), ...t.inputs() },
      env
    })
    expect(staging.errors).toEqual([])
    expect(promotion.activeOf(t, 'my-agent-staging').source_revision_config.repo_ref).toBe(
      promotion.TAG
    )
    const ids = { ...release, 'needs.staging.outputs.revision-id': staging.outputs['revision-id']! }
    const r = await run({ inputs: { ...stepOf(jobs, 'production', ids), ...t.inputs() }, env })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['repo-commit-sha']).toBe(promotion.BUILT)
  })
})
