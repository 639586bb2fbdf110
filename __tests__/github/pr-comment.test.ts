// The pull-request comment against a local fake of GitHub's REST API: one comment per pull request
// and deployment name, found again and updated in place; GitHub failing is one warning and never a
// throw; the token is in no log line. In process, with a recording log port.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'

import { Redactor } from '../../src/control-plane/redact.ts'
import { commentMarker, type PrCommentReport } from '../../src/github/comment-body.ts'
import { githubContext } from '../../src/runner/context.ts'
import {
  PR_COMMENT_BUDGET_MS,
  PR_COMMENT_REQUEST_TIMEOUT_MS,
  postPrComment,
  type PrCommentDeps
} from '../../src/github/pr-comment.ts'
import { startFakeGitHub, type FakeGitHub } from '../../scripts/fake-github.ts'
import { recordingLog, closedPort } from '../builders.ts'

const TOKEN = 'ghs_prcomment0token000000000000000000001'
const PR = 17
const COMMENTS = `/repos/acme/agent-server/issues/${PR}/comments`
const ENV = {
  GITHUB_REPOSITORY: 'acme/agent-server',
  GITHUB_SERVER_URL: 'https://github.example',
  GITHUB_RUN_ID: '4242',
  GITHUB_RUN_ATTEMPT: '2'
}

const deployed = (over: Partial<PrCommentReport> = {}): PrCommentReport => ({
  name: 'my-agent-pr-17',
  outcome: 'deployed',
  deploymentId: 'd-1',
  revisionId: 'r-1',
  revisionStatus: 'DEPLOYED',
  url: 'https://my-agent-pr-17.example.com',
  commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  ...over
})

let github: FakeGitHub
beforeAll(async () => {
  github = await startFakeGitHub()
})
afterAll(() => github.close())
beforeEach(() => github.reset())

function deps(
  rec: ReturnType<typeof recordingLog>,
  over: Partial<PrCommentDeps> = {}
): PrCommentDeps {
  return {
    dryRun: false,
    token: TOKEN,
    context: githubContext({ ...ENV, GITHUB_API_URL: github.url }, {}),
    pullRequestNumber: PR,
    redactor: new Redactor([]),
    log: rec.log,
    now: Date.now,
    // The fake GitHub is served by this loaded process, and holds requests for others (holdCreates):
    // no test here is about GitHub's speed but the budget's own, which sets the real limits.
    limits: { requestMs: 120_000, budgetMs: 600_000 },
    ...over
  }
}

describe('one comment per pull request and deployment name', () => {
  test('created on the first run, updated in place on the next', async () => {
    const rec = recordingLog()
    const first = await postPrComment(deployed(), deps(rec))
    expect(first).toMatchObject({ action: 'created' })
    expect(github.comments(PR)).toHaveLength(1)
    const [comment] = github.comments(PR)
    expect(comment!.body.startsWith(commentMarker('my-agent-pr-17'))).toBe(true)
    expect(comment!.body).toContain('✅ Deployed')
    expect(comment!.body).toContain('https://my-agent-pr-17.example.com')
    expect(comment!.body).toContain('`r-1`')
    expect(comment!.body).toContain(
      '[a1b2c3d](https://github.example/acme/agent-server/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678)'
    )
    expect(comment!.body).toContain(
      '(https://github.example/acme/agent-server/actions/runs/4242/attempts/2)'
    )
    const create = github.requests.find(r => r.method === 'POST')!
    expect(create.path).toBe(COMMENTS)
    expect(create.headers.authorization).toBe(`token ${TOKEN}`)

    const second = await postPrComment(
      deployed({
        outcome: 'failed',
        revisionId: 'r-2',
        revisionStatus: 'BUILD_FAILED',
        error: 'Revision r-2 ended BUILD_FAILED.',
        logExcerpt: 'step 1\nERROR: no module named agent\n'
      }),
      deps(rec)
    )
    expect(second).toMatchObject({ action: 'updated', commentId: comment!.id })
    expect(github.comments(PR)).toHaveLength(1)
    const body = github.comments(PR)[0]!.body
    expect(body).toContain('❌ Failed')
    expect(body).toContain('`BUILD_FAILED`')
    expect(body).toContain('**Reason:** Revision r-2 ended BUILD_FAILED.')
    expect(body).toMatch(/<details><summary>Log excerpt<\/summary>[\s\S]*no module named agent/)
    expect(body).not.toContain('✅ Deployed')
    const patch = github.requests.find(r => r.method === 'PATCH')!
    expect(patch.path).toBe(`/repos/acme/agent-server/issues/comments/${comment!.id}`)
    expect(rec.warnings()).toEqual([])
  })

  test('a different deployment name gets its own comment; each is updated on its own', async () => {
    const rec = recordingLog()
    await postPrComment(deployed(), deps(rec))
    await postPrComment(deployed({ name: 'my-agent-pr-17-worker' }), deps(rec))
    expect(github.comments(PR)).toHaveLength(2)
    await postPrComment(
      { name: 'my-agent-pr-17-worker', removal: true, outcome: 'deleted' },
      deps(rec)
    )
    const [main, worker] = github.comments(PR)
    expect(main!.body).toContain('✅ Deployed')
    expect(worker!.body.startsWith(commentMarker('my-agent-pr-17-worker'))).toBe(true)
    expect(worker!.body).toContain('🗑️ Preview removed')
  })

  test('a delete updates the deploy comment to say the preview was removed', async () => {
    const rec = recordingLog()
    await postPrComment(deployed(), deps(rec))
    await postPrComment(
      {
        name: 'my-agent-pr-17',
        removal: true,
        outcome: 'deleted',
        deploymentId: 'd-1',
        url: 'https://my-agent-pr-17.example.com',
        tracingProjectDeleted: true
      },
      deps(rec)
    )
    expect(github.comments(PR)).toHaveLength(1)
    const body = github.comments(PR)[0]!.body
    expect(body).toContain('🗑️ Preview removed')
    expect(body).toContain('tracing project was deleted too')
    expect(body).not.toContain('https://my-agent-pr-17.example.com')
  })

  test('a comment that only quotes the marker (not on its first line) is not taken over', async () => {
    github.seedComments(PR, [`> ${commentMarker('my-agent-pr-17')}\n> quoted by a reviewer`])
    const rec = recordingLog()
    expect(await postPrComment(deployed(), deps(rec))).toMatchObject({ action: 'created' })
    expect(github.comments(PR)).toHaveLength(2)
    expect(github.comments(PR)[0]!.body).toContain('quoted by a reviewer')
  })

  test('the marker found on the second page of comments: updated, not duplicated', async () => {
    const rec = recordingLog()
    github.seedComments(
      PR,
      Array.from({ length: 100 }, (_, i) => `review comment ${i}`)
    )
    await postPrComment(deployed(), deps(rec))
    github.seedComments(PR, ['one more'])
    expect(github.comments(PR)).toHaveLength(102)
    github.requests.length = 0

    expect(await postPrComment(deployed({ revisionId: 'r-9' }), deps(rec))).toMatchObject({
      action: 'updated'
    })
    expect(github.comments(PR)).toHaveLength(102)
    expect(github.comments(PR)[100]!.body).toContain('`r-9`')
    const pages = github.requests.filter(r => r.method === 'GET').map(r => r.query.get('page'))
    expect(pages).toEqual(['1', '2'])
  })

  test('the same body again: no write', async () => {
    const rec = recordingLog()
    await postPrComment(deployed(), deps(rec))
    github.requests.length = 0
    expect(await postPrComment(deployed(), deps(rec))).toMatchObject({ action: 'unchanged' })
    expect(github.requests.map(r => r.method)).toEqual(['GET'])
  })
})

describe("only this identity's comment, and only one", () => {
  const marked = (name = 'my-agent-pr-17') => `${commentMarker(name)}\nold text`

  test('four overlapping runs on a new pull request converge on one comment, the oldest', async () => {
    github.holdCreates(4)
    const recs = [1, 2, 3, 4].map(() => recordingLog())
    const results = await Promise.all(
      recs.map((rec, i) => postPrComment(deployed({ revisionId: `r-${i}` }), deps(rec)))
    )
    expect(results.map(r => r?.action)).toEqual(['created', 'created', 'created', 'created'])
    const left = github.comments(PR)
    expect(left).toHaveLength(1)
    // Every run reports the one comment that stays.
    expect(new Set(results.map(r => r!.commentId))).toEqual(new Set([left[0]!.id]))
    expect(recs.flatMap(r => r.warnings())).toEqual([])
  })

  test('a marked comment by another user is not adopted, and that is said once', async () => {
    github.seedComments(PR, [marked(), marked()], 'someone-else')
    const rec = recordingLog()
    expect(await postPrComment(deployed(), deps(rec))).toMatchObject({ action: 'created' })
    const [a, b, ours] = github.comments(PR)
    expect([a!.body, b!.body]).toEqual([marked(), marked()])
    expect(ours!.user.login).toBe('github-actions[bot]')
    const said = rec.lines.filter(l => l.line.includes('someone-else'))
    expect(said).toHaveLength(1)
    expect(said[0]!.line).toContain('left as it is')
  })

  test('the workflow token adopts the comment of github-actions[bot]', async () => {
    github.seedComments(PR, [marked()], 'github-actions[bot]')
    const rec = recordingLog()
    expect(await postPrComment(deployed(), deps(rec))).toMatchObject({ action: 'updated' })
    expect(github.comments(PR)).toHaveLength(1)
    expect(github.comments(PR)[0]!.body).toContain('✅ Deployed')
  })

  test('leftover duplicates of an earlier race are removed when the comment is updated', async () => {
    github.seedComments(PR, [marked(), marked()], 'github-actions[bot]')
    const [oldest] = github.comments(PR)
    const rec = recordingLog()
    expect(await postPrComment(deployed(), deps(rec))).toMatchObject({
      action: 'updated',
      commentId: oldest!.id
    })
    expect(github.comments(PR).map(c => c.id)).toEqual([oldest!.id])
  })

  test('a dry run writes nothing and prints the comment it would post', async () => {
    github.seedComments(PR, [marked()], 'github-actions[bot]')
    const rec = recordingLog()
    expect(await postPrComment(deployed(), deps(rec, { dryRun: true }))).toBeUndefined()
    expect(github.requests).toEqual([])
    expect(github.comments(PR)[0]!.body).toBe(marked())
    const text = rec.lines.map(l => l.line).join('\n')
    expect(text).toContain('Dry run: no comment is posted on pull request #17')
    expect(text).toContain('✅ Deployed')
  })
})

describe('strictly best effort', () => {
  test('GitHub answering 500: one warning, no throw, nothing else', async () => {
    github.failWith(500, 'Internal Server Error')
    const rec = recordingLog()
    await expect(postPrComment(deployed(), deps(rec))).resolves.toBeUndefined()
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.warnings()[0]).toEqual({
      level: 'warning',
      title: 'Pull request comment not posted',
      line: expect.stringMatching(
        /^Could not read the comments of pull request #17: HTTP 500: Internal Server Error.*GitHub had a server error.*The result of the run stands\.$/
      )
    })
  })

  test('a refused connection: one warning that says so, no throw', async () => {
    const port = await closedPort()
    const rec = recordingLog()
    const result = await postPrComment(
      deployed(),
      deps(rec, {
        context: githubContext({ ...ENV, GITHUB_API_URL: `http://127.0.0.1:${port}` }, {})
      })
    )
    expect(result).toBeUndefined()
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.warnings()[0]!.line).toContain(
      `could not connect to 127.0.0.1:${port}: ECONNREFUSED`
    )
    expect(rec.warnings()[0]!.line).not.toMatch(/HTTP 500|server error/)
  })

  test('403 says which permission is missing', async () => {
    github.failWith(403, 'Resource not accessible by integration')
    const rec = recordingLog()
    await postPrComment(deployed(), deps(rec))
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.warnings()[0]!.line).toContain('HTTP 403')
    expect(rec.warnings()[0]!.line).toContain('permissions: pull-requests: write')
  })

  test('a 200 that is not a list of comments says so', async () => {
    github.answerWith(200, '{"message":"sign in to the proxy"}', /\/comments$/, 'GET')
    const rec = recordingLog()
    await postPrComment(deployed(), deps(rec))
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.warnings()[0]!.line).toContain(
      'answered 200 with a body that is not a list of comments'
    )
  })

  test('out of time budget: one warning, no further request', async () => {
    let clock = 0
    const rec = recordingLog()
    github.seedComments(
      PR,
      Array.from({ length: 100 }, (_, i) => `c${i}`)
    )
    const result = await postPrComment(
      deployed(),
      deps(rec, {
        // Each reading of the clock moves it 6 s: two reads fit the 15 s budget, the write does not.
        now: () => (clock += 6_000),
        limits: { requestMs: PR_COMMENT_REQUEST_TIMEOUT_MS, budgetMs: PR_COMMENT_BUDGET_MS }
      })
    )
    expect(result).toBeUndefined()
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.warnings()[0]!.line).toContain('gave up after 15 s')
    expect(github.requests.length).toBeLessThanOrEqual(2)
    expect(github.comments(PR)).toHaveLength(100)
  })

  test('the token appears in no log line, even when GitHub echoes it back', async () => {
    const rec = recordingLog()
    github.failWith(401, `Bad credentials: token ${TOKEN} is not valid`)
    await postPrComment(deployed(), deps(rec))
    github.reset()
    await postPrComment(deployed({ error: `a message with ${TOKEN}` }), deps(rec))
    expect(rec.lines.length).toBeGreaterThanOrEqual(2)
    for (const { line } of rec.lines) expect(line).not.toContain(TOKEN)
    expect(rec.warnings()[0]!.line).toContain('HTTP 401')
    // Nor in the comment: the body is redacted too.
    expect(github.comments(PR)[0]!.body).not.toContain(TOKEN)
  })
})

test('a secret that Markdown escaping would change is still redacted from the comment', async () => {
  const secret = 'p<ss&word@prod'
  const rec = recordingLog()
  await postPrComment(
    deployed({
      outcome: 'error',
      error: `connection string ${secret} refused`,
      logExcerpt: secret
    }),
    deps(rec, { redactor: new Redactor([secret]) })
  )
  const body = github.comments(PR)[0]!.body
  expect(body).toContain('connection string *** refused')
  expect(body).not.toContain('p&lt;ss')
  expect(body).not.toContain('p<ss')
})

describe('where the comment goes, and when there is none', () => {
  test('GitHub Enterprise Server: the API under a path (…/api/v3)', async () => {
    const ghes = await startFakeGitHub({ prefix: '/api/v3' })
    try {
      const rec = recordingLog()
      const result = await postPrComment(
        deployed(),
        deps(rec, { context: githubContext({ ...ENV, GITHUB_API_URL: `${ghes.url}/` }, {}) })
      )
      expect(result).toMatchObject({ action: 'created' })
      expect(ghes.requests.map(r => `${r.method} ${r.fullPath}`)).toEqual([
        `GET /api/v3${COMMENTS}`,
        `POST /api/v3${COMMENTS}`,
        // The look again after a create, for another run's comment made at the same time.
        `GET /api/v3${COMMENTS}`
      ])
      expect(ghes.comments(PR)).toHaveLength(1)
    } finally {
      await ghes.close()
    }
  })

  test('the token is never sent to a plain-http host that is not this machine', async () => {
    const rec = recordingLog()
    const result = await postPrComment(
      deployed(),
      deps(rec, {
        context: githubContext({ ...ENV, GITHUB_API_URL: 'http://ghe.example/api/v3' }, {})
      })
    )
    expect(result).toBeUndefined()
    expect(rec.warnings()).toEqual([
      {
        level: 'warning',
        title: 'Pull request comment not posted',
        line: 'GITHUB_API_URL must be https (the token travels with every request): no pull request comment is posted.'
      }
    ])
  })

  test('not a pull request: one info line, no request', async () => {
    const rec = recordingLog()
    expect(
      await postPrComment(deployed(), deps(rec, { pullRequestNumber: undefined }))
    ).toBeUndefined()
    expect(rec.warnings()).toEqual([])
    expect(rec.lines).toHaveLength(1)
    expect(github.requests).toEqual([])
  })

  test('no token: one warning, no request', async () => {
    const rec = recordingLog()
    await postPrComment(deployed(), deps(rec, { token: undefined }))
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.warnings()[0]!.line).toContain('github-token')
    expect(github.requests).toEqual([])
  })
})
