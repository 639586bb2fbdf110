// Where the sweep reads whether a pull (merge) request is closed: only an answer about the one
// asked is believed. GitHub's must name its number and repository (`base.repo.full_name`),
// GitLab's its `iid` and project (`project_id`, or `references.full` for a project asked by its
// path); any other answer counts as unread, and its deployment stays.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PullStates } from '../../../src/github/pull-state.ts'
import { gitlabPullStates } from '../../../src/commands/sweep/pull-requests.ts'
import { githubPullStates } from '../../../src/github/pull-state.ts'
import { startFakeGitHub, type FakeGitHub } from '../../../scripts/fake-github.ts'

const reader = (r: PullStates | string): PullStates => {
  if (typeof r === 'string') throw new Error(r)
  return r
}

describe('GitHub', () => {
  let gh: FakeGitHub
  beforeAll(async () => {
    gh = await startFakeGitHub()
  })
  afterAll(() => gh.close())

  const read = (n: number) =>
    reader(
      githubPullStates(
        'ghs_unitToken',
        { apiUrl: gh.url, serverUrl: 'https://github.com', payload: {} },
        'acme/agent-server',
        { redact: t => t }
      )
    ).read(n)

  const answer = (body: Record<string, unknown>) =>
    gh.answerWith(200, JSON.stringify({ state: 'closed', merged: true, ...body }), /\/pulls\/9$/)

  test('the pull request asked for, of the repository asked for (any case): believed', async () => {
    answer({ number: 9, base: { repo: { full_name: 'Acme/Agent-Server' } } })
    await expect(read(9)).resolves.toEqual({ kind: 'closed', merged: true })
  })

  test.each([
    [
      { number: 8, base: { repo: { full_name: 'acme/agent-server' } } },
      'for pull request #8, not #9'
    ],
    [
      { number: '9', base: { repo: { full_name: 'acme/agent-server' } } },
      'for pull request "9", not #9'
    ],
    [
      { number: 9, base: { repo: { full_name: 'evil/agent-server' } } },
      'for repository "evil/agent-server", not acme/agent-server'
    ],
    [{ number: 9 }, 'for repository none, not acme/agent-server']
  ])('%j counts as unread', async (body, says) => {
    answer(body)
    await expect(read(9)).resolves.toEqual({ kind: 'failed', reason: `GitHub answered ${says}` })
  })
})

describe('GitLab', () => {
  let server: Server
  let url: string
  let body: Record<string, unknown> = {}
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    })
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise(r => server.close(r))
  })

  /** `CI_PROJECT_ID` (42), or a project given by its path. */
  const read = (project: string) =>
    reader(
      gitlabPullStates(
        { apiUrl: url, projectId: '42', token: 'glpat-unit' },
        project === 'CI_PROJECT_ID' ? undefined : project
      )
    ).read(5)

  test.each([
    [
      'CI_PROJECT_ID',
      { iid: 5, project_id: 42, state: 'merged' },
      { kind: 'closed', merged: true }
    ],
    ['CI_PROJECT_ID', { iid: 5, project_id: 42, state: 'opened' }, { kind: 'open' }],
    [
      'group/agent',
      { iid: 5, project_id: 7, state: 'closed', references: { full: 'Group/Agent!5' } },
      { kind: 'closed', merged: false }
    ]
  ])('the merge request asked for (%s): believed', async (project, answer, state) => {
    body = answer
    await expect(read(project)).resolves.toEqual(state)
  })

  test.each([
    ['CI_PROJECT_ID', { iid: 4, project_id: 42, state: 'merged' }, 'for merge request !4, not !5'],
    ['CI_PROJECT_ID', { iid: 5, project_id: 41, state: 'merged' }, 'for project 41, not 42'],
    ['CI_PROJECT_ID', { iid: 5, state: 'merged' }, 'for project none, not 42'],
    [
      'group/agent',
      { iid: 5, project_id: 7, state: 'merged', references: { full: 'group/other!5' } },
      'for "group/other!5", not group/agent!5'
    ],
    ['group/agent', { iid: 5, project_id: 7, state: 'merged' }, 'for none, not group/agent!5']
  ])('%s answered %j: unread', async (project, answer, says) => {
    body = answer
    await expect(read(project)).resolves.toEqual({
      kind: 'failed',
      reason: `GitLab answered ${says}`
    })
  })
})
