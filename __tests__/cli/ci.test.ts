import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { detectDefaults, gitlabContext } from '../../src/cli/ci.ts'
import { githubContext } from '../../src/runner/context.ts'
import { githubRepository, readGit, type GitFacts } from '../../src/cli/git.ts'
import { AZURE_FORK, TRAVIS_FORK } from '../builders/fork-ci.ts'
import { expect, test, describe } from '@jest/globals'

// Ref, commit, repository and pull (merge) request from the CI the CLI runs in, else from the git
// checkout, and the sentence that says which.

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const HEAD = 'fedcba9876543210fedcba9876543210fedcba98'
const CHECKOUT: GitFacts = {
  sha: '0123456789abcdef0123456789abcdef01234567',
  branch: 'local-branch',
  originUrl: 'git@github.com:acme/agent.git'
}

/** The checkout as a fake that counts its reads. */
function checkout(facts: GitFacts = CHECKOUT) {
  const git = () => {
    git.reads++
    return facts
  }
  git.reads = 0
  return git
}

describe('GitLab CI', () => {
  const GITLAB = { GITLAB_CI: 'true', CI_COMMIT_SHA: SHA, CI_COMMIT_REF_NAME: 'main' }

  test('a push to a branch: the branch and its commit; the repository from the origin remote', () => {
    const detected = detectDefaults({ ...GITLAB, CI_COMMIT_BRANCH: 'main' }, checkout())
    expect(detected.defaults).toEqual({ ref: 'main', expectedSha: SHA, repository: 'acme/agent' })
    expect(detected.source).toBe(
      'Defaults from GitLab CI (branch main): ref main, commit a1b2c3d4e5f6, repository acme/agent (origin remote).'
    )
  })

  test('a tag pipeline deploys refs/tags/<tag>', () => {
    const detected = detectDefaults(
      { ...GITLAB, CI_COMMIT_TAG: 'v1.2.0', CI_COMMIT_REF_NAME: 'v1.2.0' },
      checkout({})
    )
    expect(detected.defaults).toEqual({
      ref: 'refs/tags/v1.2.0',
      expectedSha: SHA,
      codeHost: 'GitLab'
    })
    expect(detected.source).toBe(
      'Defaults from GitLab CI (tag v1.2.0): ref refs/tags/v1.2.0, commit a1b2c3d4e5f6.'
    )
  })

  test('a merge request pipeline: the source branch, its head commit, the merge request number', () => {
    const mr = {
      ...GITLAB,
      CI_COMMIT_SHA: SHA,
      CI_COMMIT_REF_NAME: 'feature/login',
      CI_MERGE_REQUEST_IID: '12',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/login'
    }
    expect(detectDefaults(mr, checkout({})).defaults).toEqual({
      ref: 'feature/login',
      expectedSha: SHA,
      pullRequestNumber: 12,
      codeHost: 'GitLab'
    })
    // A merged results pipeline builds a merge commit: the expected commit is the branch's head.
    const merged = { ...mr, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD }
    const detected = detectDefaults(merged, checkout({}))
    expect(detected.defaults.expectedSha).toBe(HEAD)
    expect(detected.source).toBe(
      'Defaults from GitLab CI (merge request !12): ref feature/login, commit fedcba987654.'
    )
  })
})

test('Azure Pipelines and Travis CI: branch, tag, pull request and commit', () => {
  const none = () => checkout({})
  const HEAD = 'b'.repeat(40)
  expect(
    detectDefaults(
      {
        TF_BUILD: 'True',
        BUILD_SOURCEBRANCH: 'refs/heads/main',
        BUILD_SOURCEVERSION: SHA,
        BUILD_REPOSITORY_URI: 'https://github.com/acme/agent'
      },
      none()
    ).defaults
  ).toEqual({ ref: 'main', expectedSha: SHA, repository: 'acme/agent' })
  expect(
    detectDefaults({ TF_BUILD: 'True', BUILD_SOURCEBRANCH: 'refs/tags/v3' }, none()).defaults.ref
  ).toBe('refs/tags/v3')
  const azurePr = detectDefaults(
    {
      TF_BUILD: 'True',
      BUILD_SOURCEBRANCH: 'refs/pull/7/merge',
      BUILD_SOURCEVERSION: SHA,
      SYSTEM_PULLREQUEST_PULLREQUESTNUMBER: '7',
      SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/fix',
      SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD,
      SYSTEM_PULLREQUEST_ISFORK: 'False'
    },
    none()
  )
  expect(azurePr.defaults).toEqual({ ref: 'fix', expectedSha: HEAD, pullRequestNumber: 7 })
  expect(azurePr.fork).toBeUndefined()
  expect(
    detectDefaults(
      { TRAVIS: 'true', TRAVIS_BRANCH: 'main', TRAVIS_PULL_REQUEST: 'false', TRAVIS_COMMIT: SHA },
      none()
    ).defaults
  ).toEqual({ ref: 'main', expectedSha: SHA })
  expect(
    detectDefaults(
      {
        TRAVIS: 'true',
        TRAVIS_BRANCH: 'main',
        TRAVIS_PULL_REQUEST: '8',
        TRAVIS_PULL_REQUEST_BRANCH: 'fix',
        TRAVIS_PULL_REQUEST_SHA: HEAD,
        TRAVIS_COMMIT: SHA
      },
      none()
    ).defaults
  ).toEqual({ ref: 'fix', expectedSha: HEAD, pullRequestNumber: 8 })
  expect(
    detectDefaults({ TRAVIS: 'true', TRAVIS_TAG: 'v4', TRAVIS_BRANCH: 'v4' }, none()).defaults.ref
  ).toBe('refs/tags/v4')
})

test('Bitbucket Pipelines, CircleCI, Buildkite and Jenkins: branch, tag, pull request and commit', () => {
  const none = () => checkout({})
  expect(
    detectDefaults(
      { BITBUCKET_BUILD_NUMBER: '7', BITBUCKET_BRANCH: 'dev', BITBUCKET_COMMIT: SHA },
      none()
    ).defaults
  ).toEqual({ ref: 'dev', expectedSha: SHA, codeHost: 'Bitbucket' })
  expect(
    detectDefaults(
      {
        BITBUCKET_BUILD_NUMBER: '7',
        BITBUCKET_BRANCH: 'fix',
        BITBUCKET_PR_ID: '4',
        BITBUCKET_COMMIT: SHA
      },
      none()
    ).defaults
  ).toEqual({ ref: 'fix', expectedSha: SHA, pullRequestNumber: 4, codeHost: 'Bitbucket' })
  expect(
    detectDefaults(
      { BITBUCKET_BUILD_NUMBER: '7', BITBUCKET_TAG: 'v2', BITBUCKET_COMMIT: SHA },
      none()
    ).defaults.ref
  ).toBe('refs/tags/v2')

  const circle = detectDefaults(
    {
      CIRCLECI: 'true',
      CIRCLE_BRANCH: 'feature',
      CIRCLE_SHA1: SHA,
      CIRCLE_PULL_REQUEST: 'https://github.com/acme/agent/pull/31',
      CIRCLE_REPOSITORY_URL: 'git@github.com:acme/agent.git'
    },
    none()
  )
  expect(circle.defaults).toEqual({
    ref: 'feature',
    expectedSha: SHA,
    repository: 'acme/agent',
    pullRequestNumber: 31
  })
  expect(circle.source).toBe(
    'Defaults from CircleCI (pull request #31): ref feature, commit a1b2c3d4e5f6, repository acme/agent.'
  )

  const kite = detectDefaults(
    {
      BUILDKITE: 'true',
      BUILDKITE_BRANCH: 'main',
      BUILDKITE_COMMIT: 'HEAD',
      BUILDKITE_PULL_REQUEST: 'false',
      BUILDKITE_REPO: 'https://github.com/acme/agent.git'
    },
    checkout()
  )
  // `HEAD` is no commit: the checkout says which one it is.
  expect(kite.defaults).toEqual({
    ref: 'main',
    expectedSha: CHECKOUT.sha,
    repository: 'acme/agent'
  })
  expect(kite.source).toBe(
    'Defaults from Buildkite (branch main): ref main, commit 0123456789ab (git checkout), repository acme/agent.'
  )

  expect(
    detectDefaults(
      { JENKINS_URL: 'https://ci.example.com/', GIT_BRANCH: 'origin/release', GIT_COMMIT: SHA },
      none()
    ).defaults
  ).toEqual({ ref: 'release', expectedSha: SHA })
  expect(
    detectDefaults(
      {
        JENKINS_URL: 'https://ci.example.com/',
        BRANCH_NAME: 'PR-9',
        CHANGE_ID: '9',
        CHANGE_BRANCH: 'feature/x',
        GIT_COMMIT: SHA
      },
      none()
    ).defaults
  ).toEqual({ ref: 'feature/x', expectedSha: SHA, pullRequestNumber: 9 })
  expect(
    detectDefaults(
      { JENKINS_URL: 'https://ci.example.com/', TAG_NAME: 'v3', GIT_COMMIT: SHA },
      none()
    ).defaults.ref
  ).toBe('refs/tags/v3')
})

describe('the ref, with the variable each CI gave it in (a refused ref names it)', () => {
  const none = () => checkout({})
  const GITLAB = { GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'main' }
  const JENKINS = { JENKINS_URL: 'https://ci.example.com/' }
  const cases: [string, NodeJS.ProcessEnv, string, string][] = [
    ['GitLab branch', { ...GITLAB, CI_COMMIT_BRANCH: 'main' }, 'main', 'CI_COMMIT_BRANCH'],
    ['GitLab, no CI_COMMIT_BRANCH', GITLAB, 'main', 'CI_COMMIT_REF_NAME'],
    ['GitLab tag', { ...GITLAB, CI_COMMIT_TAG: 'v1' }, 'refs/tags/v1', 'CI_COMMIT_TAG'],
    [
      'GitLab merge request',
      {
        ...GITLAB,
        CI_MERGE_REQUEST_IID: '3',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'main',
        CI_COMMIT_BRANCH: 'main'
      },
      'main',
      'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME'
    ],
    [
      'Bitbucket',
      { BITBUCKET_BUILD_NUMBER: '1', BITBUCKET_BRANCH: 'dev' },
      'dev',
      'BITBUCKET_BRANCH'
    ],
    [
      'Bitbucket tag',
      { BITBUCKET_BUILD_NUMBER: '1', BITBUCKET_TAG: 'v2' },
      'refs/tags/v2',
      'BITBUCKET_TAG'
    ],
    ['CircleCI', { CIRCLECI: 'true', CIRCLE_BRANCH: 'pull/5' }, 'pull/5', 'CIRCLE_BRANCH'],
    ['CircleCI tag', { CIRCLECI: 'true', CIRCLE_TAG: 'v1' }, 'refs/tags/v1', 'CIRCLE_TAG'],
    ['Buildkite', { BUILDKITE: 'true', BUILDKITE_BRANCH: 'a:b' }, 'a:b', 'BUILDKITE_BRANCH'],
    ['Buildkite tag', { BUILDKITE: 'true', BUILDKITE_TAG: 'v1' }, 'refs/tags/v1', 'BUILDKITE_TAG'],
    ['Jenkins', { ...JENKINS, BRANCH_NAME: 'main', GIT_BRANCH: 'origin/x' }, 'main', 'BRANCH_NAME'],
    ['Jenkins, GIT_BRANCH', { ...JENKINS, GIT_BRANCH: 'origin/release' }, 'release', 'GIT_BRANCH'],
    [
      'Jenkins pull request',
      { ...JENKINS, CHANGE_ID: '9', CHANGE_BRANCH: 'fix', BRANCH_NAME: 'PR-9' },
      'fix',
      'CHANGE_BRANCH'
    ],
    ['Jenkins tag', { ...JENKINS, TAG_NAME: 'v3', BRANCH_NAME: 'v3' }, 'refs/tags/v3', 'TAG_NAME'],
    [
      'Azure Pipelines',
      { TF_BUILD: 'True', BUILD_SOURCEBRANCH: 'refs/heads/main' },
      'main',
      'BUILD_SOURCEBRANCH'
    ],
    [
      'Azure Pipelines pull request',
      {
        TF_BUILD: 'True',
        BUILD_SOURCEBRANCH: 'refs/pull/7/merge',
        SYSTEM_PULLREQUEST_PULLREQUESTID: '7',
        SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/fix'
      },
      'fix',
      'SYSTEM_PULLREQUEST_SOURCEBRANCH'
    ],
    ['Travis CI', { TRAVIS: 'true', TRAVIS_BRANCH: 'main' }, 'main', 'TRAVIS_BRANCH'],
    [
      'Travis CI pull request',
      {
        TRAVIS: 'true',
        TRAVIS_PULL_REQUEST: '8',
        TRAVIS_BRANCH: 'main',
        TRAVIS_PULL_REQUEST_BRANCH: 'main'
      },
      'main',
      'TRAVIS_PULL_REQUEST_BRANCH'
    ],
    [
      'Travis CI tag',
      { TRAVIS: 'true', TRAVIS_TAG: 'v4', TRAVIS_BRANCH: 'v4' },
      'refs/tags/v4',
      'TRAVIS_TAG'
    ]
  ]
  test.each(cases)('%s', (_, env, ref, refFrom) => {
    const detected = detectDefaults(env, none())
    expect([detected.defaults.ref, detected.refFrom]).toEqual([ref, refFrom])
  })

  test('outside any CI, the checkout; a CI that names no ref, nothing', () => {
    expect(detectDefaults({}, checkout()).refFrom).toBe('the git checkout')
    const kite = detectDefaults({ BUILDKITE: 'true' }, checkout())
    expect([kite.defaults.ref, kite.refFrom]).toEqual([undefined, undefined])
  })

  test('GitHub Actions: the runner variable the event ref is in; none when the payload gave it', () => {
    const run = (env: NodeJS.ProcessEnv, payload: Record<string, unknown> = {}) =>
      detectDefaults(env, none(), githubContext({ GITHUB_ACTIONS: 'true', ...env }, payload))
    const push = run({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main'
    })
    expect([push.defaults.ref, push.refFrom]).toEqual(['main', 'GITHUB_REF_NAME'])
    const tag = run({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/tags/v1',
      GITHUB_REF_NAME: 'v1'
    })
    expect([tag.defaults.ref, tag.refFrom]).toEqual(['refs/tags/v1', 'GITHUB_REF_NAME'])
    const pr = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/5/merge' }
    const headRef = run({ ...pr, GITHUB_HEAD_REF: 'feat' })
    expect([headRef.defaults.ref, headRef.refFrom]).toEqual(['feat', 'GITHUB_HEAD_REF'])
    const payload = run(pr, { pull_request: { head: { ref: 'feat' } } })
    expect([payload.defaults.ref, payload.refFrom]).toEqual(['feat', undefined])
  })
})

describe('a change from a fork: named, with the variable that says so', () => {
  const none = () => checkout({})
  const cases: [string, NodeJS.ProcessEnv, string, string][] = [
    [
      'GitLab, by project path',
      {
        GITLAB_CI: 'true',
        CI_COMMIT_SHA: SHA,
        CI_MERGE_REQUEST_IID: '12',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'main',
        CI_MERGE_REQUEST_PROJECT_PATH: 'acme/agent',
        CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'mallory/agent'
      },
      'mallory/agent',
      'CI_MERGE_REQUEST_SOURCE_PROJECT_PATH'
    ],
    [
      'GitLab, by project id',
      {
        GITLAB_CI: 'true',
        CI_COMMIT_SHA: SHA,
        CI_MERGE_REQUEST_IID: '12',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'main',
        CI_PROJECT_ID: '100',
        CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '200'
      },
      'project 200',
      'CI_MERGE_REQUEST_SOURCE_PROJECT_ID'
    ],
    [
      'Jenkins',
      {
        JENKINS_URL: 'https://ci.example.com/',
        CHANGE_ID: '9',
        CHANGE_BRANCH: 'main',
        CHANGE_FORK: 'mallory',
        GIT_COMMIT: SHA
      },
      'mallory',
      'CHANGE_FORK'
    ],
    [
      'CircleCI',
      {
        CIRCLECI: 'true',
        CIRCLE_BRANCH: 'pull/5',
        CIRCLE_PR_NUMBER: '5',
        CIRCLE_PR_USERNAME: 'mallory',
        CIRCLE_PR_REPONAME: 'agent',
        CIRCLE_SHA1: SHA
      },
      'mallory/agent',
      'CIRCLE_PR_USERNAME'
    ],
    [
      'Buildkite',
      {
        BUILDKITE: 'true',
        BUILDKITE_BRANCH: 'mallory:main',
        BUILDKITE_PULL_REQUEST: '6',
        BUILDKITE_REPO: 'git@github.com:acme/agent.git',
        BUILDKITE_PULL_REQUEST_REPO: 'https://github.com/mallory/agent.git',
        BUILDKITE_COMMIT: SHA
      },
      'mallory/agent',
      'BUILDKITE_PULL_REQUEST_REPO'
    ],
    [
      'Azure Pipelines',
      { ...AZURE_FORK, BUILD_SOURCEVERSION: SHA },
      'https://github.com/mallory/agent.git',
      'SYSTEM_PULLREQUEST_ISFORK'
    ],
    [
      'Travis CI',
      { ...TRAVIS_FORK, TRAVIS_COMMIT: SHA },
      'mallory/agent',
      'TRAVIS_PULL_REQUEST_SLUG'
    ]
  ]
  test.each(cases)('%s', (_, env, name, variable) => {
    const detected = detectDefaults(env, none())
    expect(detected.fork).toMatchObject({ name, variable })
    expect(detected.defaults.forkHead).toBe(name)
    expect(detected.source).toContain(`from the fork ${name}`)
  })

  test('the same project, in any spelling, is no fork', () => {
    const same = [
      {
        GITLAB_CI: 'true',
        CI_MERGE_REQUEST_IID: '1',
        CI_MERGE_REQUEST_PROJECT_PATH: 'Acme/Agent',
        CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'acme/agent',
        CI_PROJECT_ID: '100',
        CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '100'
      },
      {
        BUILDKITE: 'true',
        BUILDKITE_PULL_REQUEST: '6',
        BUILDKITE_REPO: 'git@github.com:acme/agent.git',
        BUILDKITE_PULL_REQUEST_REPO: 'https://github.com/acme/agent'
      },
      { BUILDKITE: 'true', BUILDKITE_PULL_REQUEST: 'false', BUILDKITE_PULL_REQUEST_REPO: '' },
      { CIRCLECI: 'true', CIRCLE_PR_NUMBER: '5', CIRCLE_PR_USERNAME: '' },
      { JENKINS_URL: 'https://ci.example.com/', CHANGE_ID: '9', CHANGE_FORK: '' },
      {
        TF_BUILD: 'True',
        SYSTEM_PULLREQUEST_PULLREQUESTID: '3',
        SYSTEM_PULLREQUEST_ISFORK: 'False'
      },
      {
        TRAVIS: 'true',
        TRAVIS_PULL_REQUEST: '8',
        TRAVIS_REPO_SLUG: 'Acme/Agent',
        TRAVIS_PULL_REQUEST_SLUG: 'acme/agent'
      },
      { TRAVIS: 'true', TRAVIS_PULL_REQUEST: 'false', TRAVIS_REPO_SLUG: 'acme/agent' }
    ]
    for (const env of same) {
      const detected = detectDefaults(env, none())
      expect({ env, fork: detected.fork, head: detected.defaults.forkHead }).toEqual({
        env,
        fork: undefined,
        head: undefined
      })
    }
  })

  test("a fork name with anything but a name's characters is shown neutralised", () => {
    const detected = detectDefaults(
      {
        JENKINS_URL: 'https://ci.example.com/',
        CHANGE_ID: '9',
        CHANGE_FORK: 'x`id`$(id)\n::error::'
      },
      none()
    )
    expect(detected.fork?.name).toBe('x?id??(id)?::error::'.replace(/[()]/g, '?'))
  })
})

test('GitHub Actions: the same defaults the action takes from the event', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-ci-'))
  try {
    const payload = join(dir, 'event.json')
    writeFileSync(
      payload,
      JSON.stringify({
        number: 5,
        pull_request: {
          number: 5,
          head: { ref: 'feat', sha: HEAD, repo: { full_name: 'acme/agent' } },
          base: { repo: { full_name: 'acme/agent' } }
        }
      })
    )
    const git = checkout()
    const env = {
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: payload,
      GITHUB_REF: 'refs/pull/5/merge',
      GITHUB_HEAD_REF: 'feat',
      GITHUB_SHA: SHA,
      GITHUB_REPOSITORY: 'acme/agent'
    }
    // The CLI's door reads the context once inside GitHub Actions and hands it on.
    const detected = detectDefaults(env, git, githubContext(env))
    expect(detected.defaults).toEqual({
      ref: 'feat',
      expectedSha: HEAD,
      repository: 'acme/agent',
      pullRequestNumber: 5
    })
    expect(detected.source).toBe(
      'Defaults from GitHub Actions (pull_request): ref feat, commit fedcba987654, repository acme/agent.'
    )
    expect(git.reads).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('outside any CI: the checkout; nothing at all says so', () => {
  expect(detectDefaults({}, checkout())).toEqual({
    defaults: { ref: 'local-branch', expectedSha: CHECKOUT.sha, repository: 'acme/agent' },
    source:
      'Defaults from the git checkout: ref local-branch, commit 0123456789ab, repository acme/agent.',
    refFrom: 'the git checkout'
  })
  expect(detectDefaults({}, checkout({ sha: SHA, tag: 'v1.0.0' })).defaults).toEqual({
    ref: 'refs/tags/v1.0.0',
    expectedSha: SHA
  })
  expect(detectDefaults({}, checkout({}))).toEqual({
    defaults: {},
    source:
      'No CI and no git checkout found: ref, commit and repository have no defaults (a build of a GitHub repository needs --ref and --repository; an upload, --source internal_source, needs neither).'
  })
})

test('a GitHub repository from its remote URL in every form git takes; nothing from another host', () => {
  for (const url of [
    'https://github.com/acme/agent',
    'https://github.com/acme/agent.git',
    'https://github.com/acme/agent/',
    'https://x-access-token:ghs_abc@github.com/acme/agent.git',
    'http://github.com/acme/agent.git',
    'git://github.com/acme/agent.git',
    'git@github.com:acme/agent.git',
    'github.com:acme/agent',
    'ssh://git@github.com/acme/agent.git',
    'ssh://git@ssh.github.com:443/acme/agent.git'
  ]) {
    expect([url, githubRepository(url)]).toEqual([url, 'acme/agent'])
  }
  expect(githubRepository('https://github.com/acme/my.agent.git')).toBe('acme/my.agent')
  for (const url of [
    'https://gitlab.com/acme/agent.git',
    'git@gitlab.com:acme/agent.git',
    'https://github.com.evil.example/acme/agent.git',
    'https://github.com/acme',
    'https://github.com/acme/agent/tree/main',
    '/srv/git/agent.git',
    ''
  ]) {
    expect([url, githubRepository(url)]).toEqual([url, undefined])
  }
})

describe('readGit, on a real checkout', () => {
  let dir: string
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe']
    }).trim()

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cpd-git-'))
    git('init', '-q', '-b', 'trunk')
    git(
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'one'
    )
    git('remote', 'add', 'origin', 'https://github.com/acme/agent.git')
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('the branch, the commit and the origin remote', () => {
    expect(readGit(dir)).toEqual({
      sha: git('rev-parse', 'HEAD'),
      branch: 'trunk',
      originUrl: 'https://github.com/acme/agent.git'
    })
  })

  test('detached on a tag: the tag', () => {
    git('tag', 'v0.1.0')
    git('checkout', '-q', '--detach', 'v0.1.0')
    expect(readGit(dir)).toMatchObject({ tag: 'v0.1.0', sha: git('rev-parse', 'HEAD') })
    expect(readGit(dir).branch).toBeUndefined()
  })

  test('not a checkout: nothing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'cpd-nogit-'))
    try {
      expect(readGit(empty)).toEqual({})
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})

describe('a repository that is not on GitHub: where it is, for the hint to upload instead', () => {
  const elsewhere = (originUrl: string | undefined) => checkout({ ...CHECKOUT, originUrl })

  test('GitLab CI and Bitbucket Pipelines name their code host', () => {
    const gitlab = { GITLAB_CI: 'true', CI_COMMIT_SHA: SHA, CI_COMMIT_BRANCH: 'main' }
    expect(detectDefaults(gitlab, elsewhere(undefined)).defaults.codeHost).toBe('GitLab')
    const bitbucket = {
      BITBUCKET_BUILD_NUMBER: '3',
      BITBUCKET_COMMIT: SHA,
      BITBUCKET_BRANCH: 'main',
      BITBUCKET_GIT_HTTP_ORIGIN: 'http://bitbucket.org/acme/agent'
    }
    expect(detectDefaults(bitbucket, elsewhere(undefined)).defaults.codeHost).toBe('Bitbucket')
  })

  test('another CI or a checkout name the host of their remote', () => {
    const jenkins = { JENKINS_URL: 'https://ci', GIT_COMMIT: SHA, BRANCH_NAME: 'main' }
    const onGitea = elsewhere('git@git.example.org:acme/agent.git')
    expect(detectDefaults(jenkins, onGitea).defaults.codeHost).toBe('git.example.org')
    expect(detectDefaults({}, onGitea).defaults.codeHost).toBe('git.example.org')
    expect(
      detectDefaults({}, elsewhere('https://gitlab.example.com/acme/agent.git')).defaults.codeHost
    ).toBe('gitlab.example.com')
  })

  test('a GitHub repository (even built by GitLab CI), or no remote at all, names none', () => {
    const gitlab = { GITLAB_CI: 'true', CI_COMMIT_SHA: SHA, CI_COMMIT_BRANCH: 'main' }
    expect(detectDefaults(gitlab, checkout()).defaults.codeHost).toBeUndefined()
    expect(detectDefaults({}, checkout()).defaults.codeHost).toBeUndefined()
    expect(detectDefaults({}, elsewhere(undefined)).defaults.codeHost).toBeUndefined()
  })
})

// The GitLab pipeline as the CLI's door reads it (ci.ts) for the sweep's merge request reads: its
// API root, project and CONTROL_PLANE_GITLAB_TOKEN; nothing outside GitLab CI.
describe('gitlab', () => {
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
})
