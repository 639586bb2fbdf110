// GitHub deployments in process: which status each outcome gets, where the deployment goes (or why
// there is none), and the module against a local fake of GitHub with a recording log and an
// injected sleep. The bundle end to end is in e2e/action.test.ts ("github-deployment").
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'

import { Redactor } from '../../src/control-plane/redact.ts'
import { githubContext } from '../../src/runner/context.ts'
import type { Journal } from '../../src/interface/journal.ts'
import type { Outcome } from '../../src/interface/outcomes.ts'
import {
  describeDeploymentError as describeGitHubError,
  finalStatus,
  githubDeploymentTarget,
  startGitHubDeployment
} from '../../src/github/deployment.ts'
import { startFakeGitHub, type FakeGitHub } from '../../scripts/fake-github.ts'
import type { RawInputs } from '../../src/inputs/index.ts'
import { recordingLog, SHA, testOptions, closedPort } from '../builders.ts'
import type { Options } from '../../src/inputs/options.ts'

const TOKEN = 'ghs_unit0token0000000000000000000000000001'
const ENV_VARS = {
  GITHUB_REPOSITORY: 'acme/agent-server',
  GITHUB_SHA: 'ffff000000000000000000000000000000000000',
  GITHUB_SERVER_URL: 'https://github.example.com',
  GITHUB_RUN_ID: '42',
  GITHUB_API_URL: 'https://github.example.com/api/v3'
}
/** The workflow run's context as the door reads it, with variables replaced. */
const context = (over: Record<string, string> = {}) => githubContext({ ...ENV_VARS, ...over }, {})
const ENV = context()
/** A pause that takes no time (the tests that count pauses pass their own). */
const clock = { sleep: async () => undefined }

/** Options of a codehost deployment recorded in the GitHub environment `production`. */
const options = (over: Partial<RawInputs> = {}): Options =>
  testOptions({ 'github-token': TOKEN, environment: 'production', ...over })

function state(outcome: Outcome | undefined, over: Partial<Journal> = {}): Journal {
  return {
    name: 'agent-prod',
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
    ['unhealthy', 'failure'],
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
    expect(finalStatus(state('unhealthy'), 'unhealthy').description).toBe(
      'Revision r-1 is DEPLOYED, but its agent server is unhealthy.'
    )
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
      description: 'Deploy "agent-prod" through the control plane'
    })
  })

  test('GITHUB_SHA when no commit is expected (an image deploy, another ref)', () => {
    const target = githubDeploymentTarget(options({ ref: 'release' }), ENV)
    expect(target).toMatchObject({ sha: ENV_VARS.GITHUB_SHA })
  })

  test('off without environment, and in a dry run', () => {
    expect(githubDeploymentTarget(options({ environment: '' }), ENV)).toBeUndefined()
    expect(githubDeploymentTarget(options({ 'dry-run': 'true' }), ENV)).toBeUndefined()
  })

  test('a reason instead when it cannot be done safely', () => {
    const o = options()
    expect(githubDeploymentTarget(o, context({ GITHUB_REPOSITORY: '' }))).toMatch(
      /GITHUB_REPOSITORY/
    )
    expect(
      githubDeploymentTarget(o, context({ GITHUB_API_URL: 'http://github.example.com' }))
    ).toMatch(/https/)
    expect(
      githubDeploymentTarget(o, context({ GITHUB_API_URL: 'http://127.0.0.1:9' }))
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

describe('startGitHubDeployment against a local GitHub, through the log port', () => {
  let github: FakeGitHub
  const redactor = new Redactor([TOKEN])
  beforeAll(async () => {
    github = await startFakeGitHub()
  })
  afterAll(() => github.close())
  beforeEach(() => github.reset())
  const env = () => context({ GITHUB_API_URL: github.url })

  /** A deployment started with a log that keeps every line and a sleep that only records its wait. */
  async function startWithRecordedSleep() {
    const rec = recordingLog()
    const slept: number[] = []
    const sleep = async (ms: number) => void slept.push(ms)
    const deployment = await startGitHubDeployment(options(), env(), {
      redactor,
      log: rec.log,
      clock: { sleep }
    })
    return { rec, slept, deployment }
  }

  test('created and in_progress, its id returned; finish sets the final state', async () => {
    const rec = recordingLog()
    const deployment = await startGitHubDeployment(options(), env(), {
      redactor,
      log: rec.log,
      clock
    })
    expect(deployment).toBeDefined()
    expect(deployment!.id).toBeGreaterThan(0)
    await deployment!.finish(state('deployed'), undefined)
    expect(github.statuses(deployment!.id)).toEqual(['in_progress', 'success'])
    expect(rec.warnings()).toEqual([])
    expect(rec.lines.map(l => l.line).join('\n')).toContain(`GitHub deployment ${deployment!.id}`)
  })

  test('a refused connection says so, never "HTTP 500" nor "server error"', async () => {
    const rec = recordingLog()
    const port = await closedPort()
    const deployment = await startGitHubDeployment(
      options(),
      context({ GITHUB_API_URL: `http://127.0.0.1:${port}` }),
      { redactor, log: rec.log, clock }
    )
    expect(deployment).toBeUndefined()
    expect(rec.warnings()).toHaveLength(1)
    const [warning] = rec.warnings()
    expect(warning!.line).toContain(`could not connect to 127.0.0.1:${port}: ECONNREFUSED`)
    expect(warning!.line).not.toMatch(/HTTP 500|server error/)
    expect(warning!.title).toBe('GitHub deployment not created')
  })

  test('a 200 whose body is not a deployment says so, never "could not be reached"', async () => {
    const rec = recordingLog()
    github.answerWith(200, '{"message":"<html>proxy login</html>"}', /\/deployments$/)
    const deployment = await startGitHubDeployment(options(), env(), {
      redactor,
      log: rec.log,
      clock
    })
    expect(deployment).toBeUndefined()
    const [warning] = rec.warnings()
    expect(warning!.line).toContain('answered 200 with a body that is not a deployment')
    expect(warning!.line).not.toContain('could not be reached')
  })

  test('a status that fails is retried once after the injected sleep, then one warning', async () => {
    const { rec, slept, deployment } = await startWithRecordedSleep()
    expect(slept).toEqual([])
    github.failWith(502, 'Bad gateway', /\/statuses$/)
    await deployment!.finish(state('deployed'), undefined)
    expect(slept).toEqual([1000])
    expect(github.requests.filter(r => r.path.endsWith('/statuses'))).toHaveLength(3)
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.warnings()[0]!.line).toMatch(
      /to success: HTTP 502: Bad gateway.*\(GitHub had a server error\.\)$/
    )
  })

  test('a refused status (422) is not retried', async () => {
    const { rec, slept, deployment } = await startWithRecordedSleep()
    github.failWith(422, 'Validation Failed', /\/statuses$/)
    await deployment!.finish(state('failed'), undefined)
    expect(slept).toEqual([])
    expect(rec.warnings()).toHaveLength(1)
  })

  test('the token appears in no line, even when GitHub echoes it', async () => {
    const rec = recordingLog()
    github.failWith(401, `Bad credentials: ${TOKEN}`)
    await startGitHubDeployment(options(), env(), { redactor, log: rec.log, clock })
    expect(rec.warnings()).toHaveLength(1)
    expect(rec.lines.some(l => l.line.includes(TOKEN))).toBe(false)
    expect(rec.warnings()[0]!.line).toContain('HTTP 401')
  })

  test('a dry run is one info line and no request', async () => {
    const rec = recordingLog()
    const deployment = await startGitHubDeployment(options({ 'dry-run': 'true' }), env(), {
      redactor,
      log: rec.log,
      clock
    })
    expect(deployment).toBeUndefined()
    expect(github.requests).toEqual([])
    expect(rec.lines).toEqual([
      {
        level: 'info',
        line: 'Dry run: no GitHub deployment is created in environment "production".'
      }
    ])
  })
})
