// Whether the graphs check may hold the agent server to the workspace's config: only where the
// workspace is what was built (an upload, or a codehost build of the commit it holds).
import { describe, expect, test } from '@jest/globals'

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { graphsSkippedBecause, type BuiltFrom } from '../../src/health/built-workspace.ts'
import { gitIn } from '../builders/upload.ts'

const SHA = '9f1c2e7a4b8d3f6e0a5c1b9d7e2f4a6c8b0d3e5f'
const OTHER = '1111111111111111111111111111111111111111'
const codehost: BuiltFrom = {
  source: 'codehost',
  revisionSource: undefined,
  repositoryExplicit: false,
  expectedSha: SHA
}
const plain = () => mkdtempSync(join(tmpdir(), 'cpd-built-'))

describe('graphs checked against what was built', () => {
  test('an upload: always', async () => {
    const facts = { files: 1, size: 1, digest: 'sha256:x' }
    const upload = { ...codehost, source: 'internal_source' as const }
    expect(
      await graphsSkippedBecause(upload, { source: facts, repoCommitSha: undefined }, plain())
    ).toBeUndefined()
  })

  test('an image source: skipped, saying so', async () => {
    const image = { ...codehost, source: 'external_docker' as const }
    expect(
      await graphsSkippedBecause(image, { source: undefined, repoCommitSha: undefined }, plain())
    ).toMatch(/^source external_docker deploys an image, not the workspace/)
  })

  test('codehost, no git checkout: the event’s commit of the workflow’s repository only', async () => {
    const ws = plain()
    const built = { source: undefined, repoCommitSha: SHA }
    expect(await graphsSkippedBecause(codehost, built, ws)).toBeUndefined()
    expect(
      await graphsSkippedBecause({ ...codehost, repositoryExplicit: true }, built, ws)
    ).toMatch(/the workspace is not a git checkout of commit 9f1c2e7a4b8d/)
    expect(await graphsSkippedBecause({ ...codehost, expectedSha: undefined }, built, ws)).toMatch(
      /not a git checkout/
    )
    expect(
      await graphsSkippedBecause(codehost, { source: undefined, repoCommitSha: undefined }, ws)
    ).toMatch(/the revision does not say which commit it built/)
  })

  test('codehost, a git checkout: its HEAD must be the commit built, whatever the event says', async () => {
    const ws = plain()
    writeFileSync(join(ws, 'langgraph.json'), '{}')
    const git = gitIn(ws)
    git('init', '-q')
    git('add', '-A')
    git('commit', '-qm', 'one')
    const head = git('rev-parse', 'HEAD')
    expect(
      await graphsSkippedBecause(codehost, { source: undefined, repoCommitSha: head }, ws)
    ).toBeUndefined()
    expect(
      await graphsSkippedBecause(codehost, { source: undefined, repoCommitSha: OTHER }, ws)
    ).toBe(
      `the revision built commit 111111111111, and the workspace holds ${head.slice(0, 12)}: its config may name other graphs`
    )
  })
})
