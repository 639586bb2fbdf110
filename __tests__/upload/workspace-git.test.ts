// What git says of the workspace: nothing outside a checkout, the commit in one, and "with
// uncommitted changes" only when a tracked file differs (an untracked one does not count).

import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import {
  describeWorkspaceGit,
  readWorkspaceGit,
  untrackedMembers
} from '../../src/upload/workspace-git.ts'
import { gitIn, tempDir } from '../builders/upload.ts'

const git = (cwd: string, ...args: string[]) => gitIn(cwd)(...args)

describe('the workspace in git', () => {
  it('outside a checkout: nothing', async () => {
    // A directory of its own under the system's temporary folder, in no repository.
    expect(await readWorkspaceGit(await tempDir())).toEqual({})
  })

  it('a checkout: its commit; with uncommitted changes only when a tracked file differs', async () => {
    const dir = await tempDir()
    git(dir, 'init', '-q')
    expect(await readWorkspaceGit(dir)).toEqual({}) // no commit yet
    await writeFile(join(dir, 'langgraph.json'), '{}')
    git(dir, 'add', '.')
    git(dir, 'commit', '-q', '-m', 'first')
    const sha = git(dir, 'rev-parse', 'HEAD')
    expect(await readWorkspaceGit(dir)).toEqual({ commit: sha, uncommittedChanges: false })
    await writeFile(join(dir, 'untracked.py'), 'x = 1\n')
    expect(await readWorkspaceGit(dir)).toEqual({ commit: sha, uncommittedChanges: false })
    await writeFile(join(dir, 'langgraph.json'), '{"graphs": {}}')
    const dirty = await readWorkspaceGit(dir)
    expect(dirty).toEqual({ commit: sha, uncommittedChanges: true })
    expect(describeWorkspaceGit(dirty)).toBe(`${sha.slice(0, 12)} (with uncommitted changes)`)
  })

  it('the untracked members, from the archive root (a folder of the checkout); none outside one', async () => {
    const dir = await tempDir()
    expect(await untrackedMembers(dir, ['a.py'])).toBeUndefined()
    git(dir, 'init', '-q')
    await mkdir(join(dir, 'apps', 'a'), { recursive: true })
    await writeFile(join(dir, 'apps', 'a', 'tracked.py'), '')
    await writeFile(join(dir, 'apps', 'a', 'new file.py'), '')
    git(dir, 'add', 'apps/a/tracked.py')
    const root = join(dir, 'apps', 'a')
    expect(await untrackedMembers(root, ['new file.py', 'tracked.py'])).toEqual(['new file.py'])
  })
})
