// What the action does on its own, end to end through the bundle, against a control plane that
// answers wrongly: workflow commands in server text are neutralised in the runner's log, a url
// that is not a plain http(s) URL is left out of the outputs, and the pull-request comment leaves
// another user's comment alone and posts nothing on a dry run. The run's own rules (another
// deployment's answer, the rollback among other runs, a deployment being deleted, the wrong
// dialect) run in-process, in __tests__/commands/deploy/command.autonomy.test.ts.
import { expect } from '@jest/globals'
import { withGateProxy as withProxy } from './gate.ts'
import {
  e2e,
  e2eWithGitHub,
  pullRequest,
  runAction as run,
  uniqueName,
  warnings
} from './harness.ts'

const TOKEN = 'ghs_e2eAutonomyToken0123456789'
// ---------------------------------------------------------------------------------------------
// Workflow commands in server text, the url output and the pull-request comment.

e2e('##[ in build-log lines and error details is neutralised', async ({ emu, inputs }) => {
  emu.script({
    outcome: 'BUILD_FAILED',
    logLines: ['##[add-mask]visible-word', '##[stop-commands]tok', 'then ##[error]raised']
  })
  const r = await run({ inputs: inputs({ name: uniqueName('legacy') }) })
  expect(r.code).toBe(1)
  expect(r.stdout).not.toContain('##[')
  expect(r.stdout).toContain('# #[add-mask]visible-word')
  expect(r.stdout).toContain('then # #[error]raised')
  expect(r.errors).toHaveLength(1)
})

e2e('##[ in an error detail is neutralised', async ({ emu, inputs }) => {
  emu.addFaults({
    kind: 'detail',
    status: 400,
    method: 'POST',
    path: '/v2/deployments',
    detail: '##[error]forged ##[set-output name=url]x ::error::also'
  })
  const r = await run({ inputs: inputs({ name: uniqueName('legacy-detail') }) })
  expect(r.code).toBe(1)
  expect(r.stdout).not.toContain('##[')
  expect(r.stdout).toContain('# #[error]forged')
  expect(r.errors).toHaveLength(1)
})

// Four overlapping runs leave one comment: a race, in reliability/autonomy.test.ts.
// One run on a pull request, through a control plane whose custom_url is the lie.
e2eWithGitHub(
  'the url output: a custom_url that is not a plain http(s) URL is left out, with one warning; pr-comment: a marked comment by another user is left alone, and said once',
  async (t, gh) => {
    const name = uniqueName('pr-other')
    const { commentMarker } = await import('../../src/github/comment-body.ts')
    gh.seedComments(22, [`${commentMarker(name)}\nwritten by a person`], 'a-person')
    await withProxy(t.emu, async proxy => {
      // A service without the newer top-level `url`, whose custom_url is the lie.
      const lie = (body: unknown) => {
        const d = body as { source_config?: Record<string, unknown>; url?: unknown }
        if (d && typeof d === 'object' && d.source_config) {
          d.source_config.custom_url = 'https://ok.example/ ##[add-mask]x'
          delete d.url
        }
        return d
      }
      proxy.rewrite(
        x => x.path.startsWith('/v2/deployments') && !x.path.includes('/revisions'),
        (_s, b) => {
          const list = b as { resources?: unknown[] }
          if (Array.isArray(list?.resources)) list.resources.forEach(lie)
          else lie(b)
          return b
        }
      )
      const r = await run({
        inputs: t.inputs({
          name,
          'base-url': proxy.url,
          'pr-comment': 'true',
          'github-token': TOKEN
        }),
        event: pullRequest(22),
        env: { GITHUB_API_URL: gh.url }
      })
      expect(r.code).toBe(0)
      expect(r.outputs.url ?? '').toBe('')
      expect(warnings(r.stdout).filter(w => w.includes('custom_url'))).toHaveLength(1)
      const [theirs, ours] = gh.comments(22)
      expect(theirs!.body).toContain('written by a person')
      expect(ours!.user.login).toBe('github-actions[bot]')
      expect(r.stdout.split('\n').filter(l => l.includes('a-person'))).toHaveLength(1)
    })
  }
)

e2eWithGitHub(
  'pr-comment: a dry run posts nothing and prints the comment it would post',
  async (t, gh) => {
    const name = uniqueName('pr-dry')
    t.seed(name)
    const r = await run({
      inputs: t.inputs({ name, 'pr-comment': 'true', 'github-token': TOKEN, 'dry-run': 'true' }),
      event: pullRequest(23),
      env: { GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(0)
    expect(gh.requests.filter(q => q.path.includes('/comments'))).toEqual([])
    expect(gh.comments(23)).toHaveLength(0)
    expect(r.stdout).toContain('Dry run: no comment is posted on pull request #23; it would say:')
    expect(r.stdout).toContain(name)
  }
)
