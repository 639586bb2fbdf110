// The action's door: the files @actions/core writes for this step, which an upload never archives,
// and its log folds, which do not nest.
import { expect, test } from '@jest/globals'
import { coreFiles, foldOnce } from '../../src/action/main.ts'

test("the step's output and summary files, as the runner names them; none where it names none", () => {
  expect(coreFiles({ GITHUB_OUTPUT: '/w/out', GITHUB_STEP_SUMMARY: ' /w/summary ' })).toEqual([
    '/w/out',
    '/w/summary'
  ])
  expect(coreFiles({ GITHUB_OUTPUT: '' })).toEqual([])
})

test('a group opened inside another is a heading line in the open fold: the runner cannot nest folds', async () => {
  const log: string[] = []
  const open = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    log.push(`::group::${name}`)
    try {
      return await fn()
    } finally {
      log.push('::endgroup::')
    }
  }
  const group = foldOnce(open, line => log.push(line))
  const value = await group('Verify the source', async () => {
    await group('Health check', async () => log.push('Probe 1: 200'))
    return 7
  })
  await group('Find the deployment', async () => log.push('found'))
  expect(value).toBe(7)
  expect(log).toEqual([
    '::group::Verify the source',
    'Health check',
    'Probe 1: 200',
    '::endgroup::',
    '::group::Find the deployment',
    'found',
    '::endgroup::'
  ])
})
