// Promotion with evidence, end to end (the action's bundle, and the CLI, against the emulator):
// the ways a promotion ends, as docs/promotion.md's table lists them, that the bundle shows: the
// source checked on its own agent server before any write (folds, summary, smoke cases), a target
// left on material the source did not verify going back to the revision it ran before the run
// (said in the GitHub records too, or when superseded mid-run), and the CLI's flag. The other
// endings (a failing smoke case, an unhealthy source, one serving another revision,
// `verify-source: false`, a ref with a line break, a new revision with no commit, a created
// target): in-process, commands/deploy/command.promote.test.ts.
import { expect } from '@jest/globals'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  activeOf,
  BUILT,
  codehost,
  ECHO,
  MOVED,
  moveMain,
  one,
  promotionWorkspace,
  seed,
  TAG
} from '../builders/promotion.ts'
import { runBin } from '../package/run-bin.ts'
import {
  e2e,
  e2eWithGitHub,
  pullRequest,
  redeploys,
  ROOT,
  runAction as run,
  uniqueName,
  warnings,
  type E2E
} from './harness.ts'

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
    expect(staged.map(p => p.path)).toEqual(expect.arrayContaining(['/ok', '/info', '/runs/wait']))
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
