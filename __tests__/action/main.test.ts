// The action's door: the files @actions/core writes for this step, which an upload never archives.
import { expect, test } from '@jest/globals'
import { coreFiles } from '../../src/action/main.ts'

test("the step's output and summary files, as the runner names them; none where it names none", () => {
  expect(coreFiles({ GITHUB_OUTPUT: '/w/out', GITHUB_STEP_SUMMARY: ' /w/summary ' })).toEqual([
    '/w/out',
    '/w/summary'
  ])
  expect(coreFiles({ GITHUB_OUTPUT: '' })).toEqual([])
})
