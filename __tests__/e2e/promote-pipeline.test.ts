// The GitHub promotion examples as a user runs them, through the bundle against the emulator: each
// job's action step with its inputs as written (the `${{ }}` ones given as the runner would), one
// job after the other. examples/promote-pipeline.yml: push -> staging -> production with the
// staging job's revision-id; main moving on in between never leaves production on a commit staging
// did not verify. examples/promote.yml: a release promotes staging's tag, or refuses.
import { expect } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import * as promotion from '../builders/promotion.ts'
import { e2e, runAction as run, type E2E } from './harness.ts'

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
    { ...promotion.codehost(t, 'my-agent-staging', {}, stagingRef), deployment_type: 'serverless' },
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
    expect(late.errors[0]).toContain(`\`promote-revision-id\` is ${staging.outputs['revision-id']}`)
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
  const staging = await run({ inputs: { ...stepOf(jobs, 'staging', release), ...t.inputs() }, env })
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
