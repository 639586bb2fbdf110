// The pure parts of GitHub deployments: which status each outcome gets, and where the deployment
// goes (or why there is none). The bundle end to end is in github-deployment.test.ts.
import { describe, expect, test } from '@jest/globals'
import { Redactor } from '../../src/control-plane/redact.ts'
import type { DeployState, Outcome } from '../../src/deploy/flow.ts'
import {
  describeGitHubError,
  finalStatus,
  githubDeploymentTarget
} from '../../src/github-deployment.ts'
import { parseInputs, type RawInputs } from '../../src/inputs.ts'
import type { Options } from '../../src/options.ts'

const TOKEN = 'ghs_unit0token0000000000000000000000000001'
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const ENV = {
  GITHUB_REPOSITORY: 'acme/agent-server',
  GITHUB_SHA: 'ffff000000000000000000000000000000000000',
  GITHUB_SERVER_URL: 'https://github.example.com',
  GITHUB_RUN_ID: '42',
  GITHUB_API_URL: 'https://github.example.com/api/v3'
}

function options(over: Partial<RawInputs> = {}): Options {
  const result = parseInputs(
    {
      'api-key': 'lsv2_pt_unit',
      name: 'my-agent',
      'integration-id': '123e4567-e89b-12d3-a456-426614174000',
      'github-token': TOKEN,
      environment: 'production',
      ...over
    },
    { ref: 'main', expectedSha: SHA, repository: 'acme/agent-server' }
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.options
}

function state(outcome: Outcome | undefined, over: Partial<DeployState> = {}): DeployState {
  return {
    name: 'my-agent',
    deploymentId: 'd-1',
    created: false,
    plan: undefined,
    revisionId: 'r-1',
    revisionStatus: undefined,
    deploymentStatus: undefined,
    url: undefined,
    repoCommitSha: undefined,
    expectedSha: SHA,
    ref: 'main',
    newerRevisionId: undefined,
    timeline: [],
    outcome,
    ...over
  }
}

describe('finalStatus: the GitHub state follows the control plane’s outcome', () => {
  test.each([
    ['deployed', 'success'],
    ['no-revision', 'success'],
    ['accepted', 'success'],
    ['skipped', 'inactive'],
    ['failed', 'failure'],
    ['timeout', 'failure'],
    ['cancelled', 'inactive'],
    ['error', 'error'],
    [undefined, 'error']
  ] as const)('%s -> %s', (outcome, expected) => {
    const s = finalStatus(state(outcome, { revisionStatus: 'BUILD_FAILED' }), 'it failed')
    expect(s.state).toBe(expected)
    expect(s.description.length).toBeGreaterThan(5)
  })

  test('descriptions name the revision, its status and the newer revision', () => {
    expect(finalStatus(state('failed', { revisionStatus: 'DEPLOY_FAILED' }), undefined)).toEqual({
      state: 'failure',
      description: 'Revision r-1 ended DEPLOY_FAILED.'
    })
    expect(finalStatus(state('skipped', { newerRevisionId: 'r-2' }), undefined).description).toBe(
      'Revision r-1 was superseded by revision r-2.'
    )
    expect(finalStatus(state('error'), 'HTTP 401 ...').description).toBe('HTTP 401 ...')
  })
})

describe('githubDeploymentTarget', () => {
  test('the expected commit, the workflow repository, the API URL and the run as log URL', () => {
    expect(
      githubDeploymentTarget(options({ 'environment-url': 'https://a.example' }), ENV)
    ).toEqual({
      token: TOKEN,
      apiUrl: 'https://github.example.com/api/v3',
      owner: 'acme',
      repo: 'agent-server',
      sha: SHA,
      environment: 'production',
      environmentUrl: 'https://a.example',
      logUrl: 'https://github.example.com/acme/agent-server/actions/runs/42',
      description: 'Deploy "my-agent" through the control plane'
    })
  })

  test('GITHUB_SHA when no commit is expected (an image deploy, another ref)', () => {
    const target = githubDeploymentTarget(options({ ref: 'release' }), ENV)
    expect(target).toMatchObject({ sha: ENV.GITHUB_SHA })
  })

  test('off without environment, and in a dry run', () => {
    expect(githubDeploymentTarget(options({ environment: '' }), ENV)).toBeUndefined()
    expect(githubDeploymentTarget(options({ 'dry-run': 'true' }), ENV)).toBeUndefined()
  })

  test('a reason instead when it cannot be done safely', () => {
    const o = options()
    expect(githubDeploymentTarget(o, { ...ENV, GITHUB_REPOSITORY: '' })).toMatch(
      /GITHUB_REPOSITORY/
    )
    expect(
      githubDeploymentTarget(o, { ...ENV, GITHUB_API_URL: 'http://github.example.com' })
    ).toMatch(/https/)
    expect(
      githubDeploymentTarget(o, { ...ENV, GITHUB_API_URL: 'http://127.0.0.1:9' })
    ).toMatchObject({ apiUrl: 'http://127.0.0.1:9' })
  })
})

describe('describeGitHubError', () => {
  const redactor = new Redactor([TOKEN])
  test('status, GitHub’s message and what to do; never the token', () => {
    const err = Object.assign(new Error(`Bad credentials for ${TOKEN}`), { status: 401 })
    const text = describeGitHubError(err, redactor)
    expect(text).toMatch(/^HTTP 401: Bad credentials/)
    expect(text).toContain('github-token')
    expect(text).not.toContain(TOKEN)
    expect(describeGitHubError(Object.assign(new Error('x'), { status: 403 }), redactor)).toContain(
      'deployments: write'
    )
    expect(describeGitHubError(new Error('fetch failed'), redactor)).toContain(
      'could not be reached'
    )
  })

  test('a message that tries to act as a workflow command is defused', () => {
    const err = Object.assign(new Error('bad\n::error::fake'), { status: 422 })
    expect(describeGitHubError(err, redactor)).not.toContain('\n::')
  })
})
