// The GitLab pipeline as the CLI's door reads it (ci.ts) for the sweep's merge request reads: its
// API root, project and CONTROL_PLANE_GITLAB_TOKEN; nothing outside GitLab CI.
import { expect, test } from '@jest/globals'
import { gitlabContext } from '../../src/cli/ci.ts'

const PIPELINE = {
  GITLAB_CI: 'true',
  CI_API_V4_URL: 'https://gitlab.example.com/api/v4',
  CI_PROJECT_ID: '42'
}

test('a GitLab pipeline: the API root, the project and the token', () => {
  expect(gitlabContext({ ...PIPELINE, CONTROL_PLANE_GITLAB_TOKEN: ' glpat-x ' })).toEqual({
    apiUrl: 'https://gitlab.example.com/api/v4',
    projectId: '42',
    token: 'glpat-x'
  })
  // Without the token the context is there, and says none: the sweep skips that rule with a notice.
  expect(gitlabContext(PIPELINE)).toEqual({
    apiUrl: 'https://gitlab.example.com/api/v4',
    projectId: '42'
  })
})

test('outside GitLab CI, or without its API root or project: none', () => {
  expect(gitlabContext({ ...PIPELINE, GITLAB_CI: undefined })).toBeUndefined()
  expect(gitlabContext({ ...PIPELINE, CI_API_V4_URL: '' })).toBeUndefined()
  expect(gitlabContext({ ...PIPELINE, CI_PROJECT_ID: undefined })).toBeUndefined()
})
