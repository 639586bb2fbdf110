import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  eventDefaults as defaultsOf,
  forkPullRequestMessage,
  UNKNOWN_FORK,
  type EventDefaults
} from '../../src/runner/event.ts'
import {
  githubContext,
  MAX_EVENT_PAYLOAD_BYTES,
  readEventPayload
} from '../../src/runner/context.ts'

/** The defaults of the runner's variables and a payload, through the context a door reads. */
function eventDefaults(env: NodeJS.ProcessEnv, payload: unknown): EventDefaults {
  return defaultsOf(githubContext(env, payload as Record<string, unknown>))
}

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const HEAD_SHA = 'fedcba9876543210fedcba9876543210fedcba98'
const MERGE_SHA = '1111111111111111111111111111111111111111'

function env(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { GITHUB_REPOSITORY: 'my-org/my-agent', ...vars }
}

const PR_ENV = {
  GITHUB_REF: 'refs/pull/42/merge',
  GITHUB_REF_NAME: '42/merge',
  GITHUB_HEAD_REF: 'feature/login',
  GITHUB_BASE_REF: 'main',
  GITHUB_SHA: MERGE_SHA
}
const PR_PAYLOAD = {
  number: 42,
  pull_request: {
    number: 42,
    head: { ref: 'feature/login', sha: HEAD_SHA, repo: { full_name: 'my-org/my-agent' } },
    base: { ref: 'main', repo: { full_name: 'my-org/my-agent' } }
  }
}
const SAME_REPO_PR = {
  ref: 'feature/login',
  expectedSha: HEAD_SHA,
  repository: 'my-org/my-agent',
  pullRequestNumber: 42
}

describe('eventDefaults: the default-ref table', () => {
  test.each([
    [
      'push to a branch: the branch name, expected GITHUB_SHA',
      { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_REF_NAME: 'main' },
      { ref: 'refs/heads/main', after: SHA },
      { ref: 'main', expectedSha: SHA, repository: 'my-org/my-agent' }
    ],
    [
      'push to a branch with a slash keeps the whole branch name',
      {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/heads/feature/login',
        GITHUB_REF_NAME: 'feature/login'
      },
      {},
      { ref: 'feature/login', expectedSha: SHA, repository: 'my-org/my-agent' }
    ],
    [
      'push of a tag: refs/tags/<tag>, expected GITHUB_SHA',
      { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1.2.0', GITHUB_REF_NAME: 'v1.2.0' },
      {},
      { ref: 'refs/tags/v1.2.0', expectedSha: SHA, repository: 'my-org/my-agent' }
    ],
    [
      'push that deletes a branch has no expected commit',
      {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/heads/old',
        GITHUB_REF_NAME: 'old',
        GITHUB_SHA: '0000000000000000000000000000000000000000'
      },
      { deleted: true },
      { ref: 'old', repository: 'my-org/my-agent' }
    ],
    [
      'release: refs/tags/<release.tag_name> from the payload, expected GITHUB_SHA',
      { GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/tags/v2.0.0', GITHUB_REF_NAME: 'v2.0.0' },
      { release: { tag_name: 'v2.0.0-final' } },
      { ref: 'refs/tags/v2.0.0-final', expectedSha: SHA, repository: 'my-org/my-agent' }
    ],
    [
      'release without a tag_name in the payload falls back to the tag in GITHUB_REF',
      { GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/tags/v3' },
      { release: {} },
      { ref: 'refs/tags/v3', expectedSha: SHA, repository: 'my-org/my-agent' }
    ],
    [
      'pull_request: the head branch, expected the head commit (not the merge commit), its number',
      { GITHUB_EVENT_NAME: 'pull_request', ...PR_ENV },
      PR_PAYLOAD,
      SAME_REPO_PR
    ],
    [
      'pull_request_target: the same as pull_request',
      { GITHUB_EVENT_NAME: 'pull_request_target', ...PR_ENV },
      PR_PAYLOAD,
      SAME_REPO_PR
    ],
    [
      'pull_request without a head sha in the payload expects no commit, never the merge commit',
      { GITHUB_EVENT_NAME: 'pull_request', ...PR_ENV },
      {},
      { ref: 'feature/login', repository: 'my-org/my-agent' }
    ],
    [
      'other pull request events (refs/pull/...) use the head branch from the payload',
      {
        GITHUB_EVENT_NAME: 'pull_request_review',
        GITHUB_REF: 'refs/pull/7/merge',
        GITHUB_SHA: MERGE_SHA
      },
      { pull_request: { number: 7, head: { ref: 'fix', sha: HEAD_SHA } } },
      { ref: 'fix', expectedSha: HEAD_SHA, repository: 'my-org/my-agent', pullRequestNumber: 7 }
    ],
    ...['workflow_dispatch', 'schedule', 'repository_dispatch'].map(
      name =>
        [
          `${name} on a branch: GITHUB_REF_NAME as a branch, expected GITHUB_SHA`,
          {
            GITHUB_EVENT_NAME: name,
            GITHUB_REF: 'refs/heads/release/1.x',
            GITHUB_REF_NAME: 'release/1.x'
          },
          {},
          { ref: 'release/1.x', expectedSha: SHA, repository: 'my-org/my-agent' }
        ] as const
    ),
    [
      'workflow_dispatch on a tag: refs/tags/<tag>, expected GITHUB_SHA',
      {
        GITHUB_EVENT_NAME: 'workflow_dispatch',
        GITHUB_REF: 'refs/tags/v1.0.1',
        GITHUB_REF_NAME: 'v1.0.1'
      },
      {},
      { ref: 'refs/tags/v1.0.1', expectedSha: SHA, repository: 'my-org/my-agent' }
    ]
  ] as Array<readonly [string, Record<string, string>, unknown, EventDefaults]>)(
    '%s',
    (_title, vars, payload, expected) => {
      expect(eventDefaults(env({ GITHUB_SHA: SHA, ...vars }), payload)).toEqual(expected)
    }
  )

  test('outside a workflow (no GITHUB_* variables) nothing is implied', () => {
    expect(eventDefaults({}, {})).toEqual({})
  })

  test('a payload of the wrong shape is ignored, never a crash', () => {
    const e = env({ GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: SHA })
    expect(eventDefaults(e, { release: 'v1' }).ref).toBe('main')
    expect(eventDefaults(e, null).ref).toBe('main')
    const pr = env({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_HEAD_REF: 'x' })
    expect(eventDefaults(pr, { pull_request: { head: { sha: 42 }, number: '7' } })).toEqual({
      ref: 'x',
      repository: 'my-org/my-agent'
    })
  })
})

describe('eventDefaults: pull requests from forks', () => {
  const pr = (head: unknown, base: unknown = { full_name: 'my-org/my-agent' }) => ({
    number: 42,
    pull_request: {
      number: 42,
      head: { ref: 'feature/login', sha: HEAD_SHA, repo: head },
      base: { ref: 'main', repo: base }
    }
  })
  test.each([
    ['a fork', pr({ full_name: 'octo/my-agent', fork: true }), 'octo/my-agent'],
    [
      'a fork of the same name elsewhere',
      pr({ full_name: 'someone/my-agent' }),
      'someone/my-agent'
    ],
    ['a deleted fork (head.repo null)', pr(null), UNKNOWN_FORK],
    [
      'no base repo in the payload: compared with GITHUB_REPOSITORY',
      pr({ full_name: 'octo/x' }, undefined),
      'octo/x'
    ],
    ['the same repository', pr({ full_name: 'my-org/my-agent', fork: false }), undefined],
    ['the same repository, other case', pr({ full_name: 'My-Org/My-Agent' }), undefined],
    [
      'the same repository, itself a fork (head.repo.fork alone proves nothing)',
      pr({ full_name: 'my-org/my-agent', fork: true }),
      undefined
    ],
    ['no head repository in the payload: nothing is guessed', pr(undefined), undefined],
    ['no pull_request in the payload', {}, undefined]
  ])('%s -> %s', (_title, payload, expected) => {
    for (const name of ['pull_request', 'pull_request_target']) {
      const defaults = eventDefaults(env({ GITHUB_EVENT_NAME: name, ...PR_ENV }), payload)
      expect(defaults.forkHead).toBe(expected)
      // The defaults stay what the payload says; the inputs layer decides to stop.
      expect(defaults.ref).toBe('feature/login')
    }
  })

  test('a push never has a fork head, whatever the payload', () => {
    const e = env({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: SHA })
    expect(eventDefaults(e, pr({ full_name: 'octo/my-agent' })).forkHead).toBeUndefined()
  })

  test('the message names the fork and the repository, says nothing was written and what to do', () => {
    const text = forkPullRequestMessage('octo/my-agent', 'my-org/my-agent')
    expect(text).toContain('the fork `octo/my-agent`')
    expect(text).toContain('`my-org/my-agent`')
    expect(text).toContain('Nothing was written')
    expect(text).toContain('`repository` and `ref`')
    expect(text).toContain('head.repo.full_name == github.repository')
    expect(forkPullRequestMessage(UNKNOWN_FORK, undefined)).toContain(
      'a fork that no longer exists'
    )
  })
})

describe('readEventPayload', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'event-test-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name)
    writeFileSync(path, content)
    return path
  }

  test('reads the JSON object at GITHUB_EVENT_PATH', () => {
    const path = write('ok.json', JSON.stringify({ release: { tag_name: 'v1' } }))
    expect(readEventPayload({ GITHUB_EVENT_PATH: path })).toEqual({ release: { tag_name: 'v1' } })
  })

  test('unset, missing, a directory, invalid JSON or not an object give {}', () => {
    expect(readEventPayload({})).toEqual({})
    expect(readEventPayload({ GITHUB_EVENT_PATH: join(dir, 'missing.json') })).toEqual({})
    expect(readEventPayload({ GITHUB_EVENT_PATH: dir })).toEqual({})
    expect(readEventPayload({ GITHUB_EVENT_PATH: write('bad.json', '{"a":') })).toEqual({})
    expect(readEventPayload({ GITHUB_EVENT_PATH: write('list.json', '[1,2]') })).toEqual({})
    expect(readEventPayload({ GITHUB_EVENT_PATH: write('null.json', 'null') })).toEqual({})
  })

  test('a file larger than the cap is not read', () => {
    const body = JSON.stringify({ pad: 'x'.repeat(MAX_EVENT_PAYLOAD_BYTES) })
    const path = write('big.json', body)
    expect(readEventPayload({ GITHUB_EVENT_PATH: path })).toEqual({})
  })
})
