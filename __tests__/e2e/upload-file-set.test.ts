// The upload's file set end to end through the bundle: what only the bundle shows, the runner's
// own files (GITHUB_OUTPUT in the workspace) never archived. The rules of the file set (the trees
// of fixtures/upload/rules, what the log says of each file left out, the dry run's listing) run
// in process: __tests__/commands/deploy/command.upload-set.test.ts.
import { expect } from '@jest/globals'

import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { copyFixture } from '../builders/upload.ts'
import { e2e, runAction as run, uniqueName, type E2E } from './harness.ts'

/** An upload deploy of `workspace` (no integration, repository or ref) and what it built. */
async function uploadRun(t: E2E, workspace: string, env: Record<string, string>) {
  const name = uniqueName('upload-set')
  const { 'integration-id': _none, ...inputs } = t.inputs({
    source: 'internal_source',
    name
  })
  const r = await run({ inputs, env: { GITHUB_WORKSPACE: workspace, ...env } })
  return Object.assign(r, { built: () => built(t, name) })
}

/** The files the emulator unpacked from the upload of deployment `name`, and what it built. */
function built(t: E2E, name: string) {
  const last = t.named(name)[0]?.revisions.at(-1)
  return { files: last?.source_files, graphs: last?.graphs, status: last?.status }
}

e2e('upload set: the runner’s output file in the workspace is never archived', async t => {
  const workspace = await copyFixture('ignores')
  const out = join(workspace, 'step-outputs.txt')
  await writeFile(out, '')
  const first = await uploadRun(t, workspace, { GITHUB_OUTPUT: out })
  expect(first.stdout).toContain('Left out: step-outputs.txt: written by this run')
  expect(first.built().files).not.toContain('step-outputs.txt')
})
