// Promotion end to end (the action's bundle against the emulator): the target gets the material
// of the source's active revision (a codehost commit), keeps its own secrets, and says what it
// promoted from where (log, summary, GitHub records). An upload's digest: e2e/check-promote.test.ts,
// 'promote an upload'. An image, the production dialect, a dry run, a failed health gate and the
// other refusals (a ref beside promote-from, no such source, a newer revision in progress, a ref
// known to point elsewhere): in-process, commands/deploy/command.promote.test.ts; a source of another
// repository or source, or with no active revision: commands/deploy/steps/promote.test.ts ("refusals").
import { expect } from '@jest/globals'
import { activeOf, BUILT, codehost, one, seed } from '../builders/promotion.ts'
import { e2eWithGitHub, pullRequest, runAction as run, uniqueName } from './harness.ts'

// The ref moved on since staging built it (a different commit is an error, rolled back):
// e2e/promote-evidence.test.ts, 'main moved on, production built another commit'.
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
