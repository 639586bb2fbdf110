// The pull-request comment's text: what a reviewer reads for each outcome, and what a server's
// text cannot do to it (close the marker, inject HTML, notify people, end the log's code fence).
import { describe, expect, test } from '@jest/globals'
import {
  commentMarker,
  isCommentFor,
  renderComment,
  type PrCommentReport
} from '../../src/github/comment-body.ts'

const base: PrCommentReport = {
  name: 'my-agent-pr-3',
  outcome: 'deployed',
  deploymentId: 'd-1',
  revisionId: 'r-1',
  revisionStatus: 'DEPLOYED',
  url: 'https://preview.example.com',
  commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
}

describe('the headline says what happened', () => {
  test.each([
    [{}, '✅ Deployed'],
    [{ outcome: 'accepted' }, '🚀 Accepted'],
    [{ outcome: 'no-revision' }, '✅ Up to date'],
    [{ outcome: 'dry-run' }, '📝 Dry run'],
    [{ outcome: 'skipped' }, '⏭️ Superseded'],
    [{ outcome: 'failed', revisionStatus: 'BUILD_FAILED' }, '❌ Failed'],
    [{ outcome: 'unhealthy' }, '❌ Unhealthy'],
    [{ outcome: 'timeout' }, '⏱️ Timed out'],
    [{ outcome: 'cancelled' }, '🚫 Cancelled'],
    [{ outcome: 'error', error: 'HTTP 401' }, '❌ Failed'],
    [{ outcome: undefined }, '❌ Failed'],
    [{ removal: true, outcome: 'deleted' }, '🗑️ Preview removed'],
    [{ removal: true, outcome: 'absent' }, '🗑️ Nothing to remove'],
    [{ removal: true, outcome: 'dry-run' }, '📝 Dry run'],
    [{ removal: true, outcome: 'timeout' }, '⏱️ Removal not confirmed'],
    [{ removal: true, outcome: 'cancelled' }, '🚫 Cancelled'],
    [{ removal: true, outcome: 'error', error: 'HTTP 500' }, '❌ Removing the preview failed'],
    [{ removal: true, outcome: undefined }, '❌ Removing the preview failed']
  ] as Array<[Partial<PrCommentReport>, string]>)('%o -> %s', (over, title) => {
    const body = renderComment({ ...base, ...over })
    expect(body.split('\n')[2]).toBe(`### \`my-agent-pr-3\`: ${title}`)
  })

  test('a failure shows its status, the reason and the log excerpt, collapsed', () => {
    const body = renderComment({
      ...base,
      outcome: 'failed',
      revisionStatus: 'DEPLOY_FAILED',
      error: 'Revision r-1 ended DEPLOY_FAILED.',
      logExcerpt: 'booting\nTraceback: KeyError OPENAI_API_KEY\n'
    })
    expect(body).toContain('Revision `r-1` ended `DEPLOY_FAILED`.')
    expect(body).toContain('**Reason:** Revision r-1 ended DEPLOY_FAILED.')
    expect(body).toContain(
      '<details><summary>Log excerpt</summary>\n\n```text\nbooting\nTraceback: KeyError OPENAI_API_KEY\n```\n\n</details>'
    )
  })

  test('a delete says whether the tracing project went, and shows no URL', () => {
    const kept = renderComment({
      ...base,
      removal: true,
      outcome: 'deleted',
      tracingProjectDeleted: false
    })
    expect(kept).toContain('tracing project was kept, so the name stays taken')
    expect(kept).not.toContain('https://preview.example.com')
  })

  test('the deployment page in the web app, when known; not for a delete', () => {
    const page = 'https://smith.langchain.com/o/t-1/host/deployments/d-1'
    expect(renderComment({ ...base, statusUrl: page })).toContain(
      `| Deployment page | [${page}](${page}) |`
    )
    expect(renderComment(base)).not.toContain('Deployment page')
    expect(
      renderComment({ ...base, statusUrl: page, removal: true, outcome: 'deleted' })
    ).not.toContain(page)
  })

  test('the run link and the commit link, when known', () => {
    const body = renderComment(base, {
      run: 'https://github.com/o/r/actions/runs/9/attempts/1',
      repository: 'https://github.com/o/r'
    })
    expect(body).toContain(
      '| Run | [workflow run](https://github.com/o/r/actions/runs/9/attempts/1) |'
    )
    expect(body).toContain(
      '| Commit | [a1b2c3d](https://github.com/o/r/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678) |'
    )
  })
})

describe('what a server’s text cannot do', () => {
  test('no HTML, no mention, no line break out of the reason', () => {
    const body = renderComment({
      ...base,
      outcome: 'error',
      error: 'bad <img src=x onerror=alert(1)> ask @octocat\n### fake heading'
    })
    expect(body).toContain(
      '**Reason:** bad &lt;img src=x onerror=alert(1)&gt; ask @\u200boctocat ### fake heading'
    )
  })

  test('a URL that is not plain http(s) is shown as code, not as a link', () => {
    const body = renderComment({ ...base, url: 'javascript:alert(1)' })
    expect(body).toContain('| URL | `javascript:alert(1)` |')
  })

  test('backticks and pipes in a value neither end the code nor split the cell', () => {
    const body = renderComment({ ...base, revisionId: 'r`|x' })
    expect(body).toContain("| Revision | `r'¦x` (`DEPLOYED`) |")
  })

  test('a log with a code fence in it stays inside a longer fence; terminal codes go', () => {
    const body = renderComment({
      ...base,
      outcome: 'failed',
      logExcerpt: '\u001b[31mred\u001b[0m\n````\nend'
    })
    expect(body).toContain('`````text\nred\n````\nend\n`````')
  })

  test('only the last 100 lines of a long log', () => {
    const lines = Array.from({ length: 250 }, (_, i) => `line ${i}`)
    const body = renderComment({ ...base, outcome: 'failed', logExcerpt: lines.join('\n') })
    expect(body).toContain('line 249')
    expect(body).toContain('line 150\n')
    expect(body).not.toContain('line 149\n')
  })
})

describe('the marker', () => {
  test('is the first line, and finds the comment of that name only', () => {
    const body = renderComment(base)
    expect(body.startsWith(`${commentMarker('my-agent-pr-3')}\n`)).toBe(true)
    expect(isCommentFor(body, 'my-agent-pr-3')).toBe(true)
    expect(isCommentFor(body, 'my-agent-pr')).toBe(false)
    expect(isCommentFor(renderComment({ ...base, name: 'my-agent-pr-3x' }), 'my-agent-pr-3')).toBe(
      false
    )
    expect(isCommentFor(`> ${body}`, 'my-agent-pr-3')).toBe(false)
    expect(isCommentFor(undefined, 'my-agent-pr-3')).toBe(false)
  })

  test('no name can close the HTML comment', () => {
    expect(commentMarker('x --> <b>')).toBe(
      '<!-- control-plane-deploy:comment name=x%20--%3E%20%3Cb%3E -->'
    )
  })
})
