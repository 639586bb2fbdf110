import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventDefaults, MAX_EVENT_PAYLOAD_BYTES, readEventPayload } from '../src/event.ts'

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const HEAD_SHA = 'fedcba9876543210fedcba9876543210fedcba98'
const MERGE_SHA = '1111111111111111111111111111111111111111'

function env(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { GITHUB_REPOSITORY: 'my-org/my-agent', ...vars }
}

describe('eventDefaults: the default-ref table', () => {
  test('push to a branch: the branch name, expected GITHUB_SHA', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_SHA: SHA
    })
    expect(eventDefaults(e, { ref: 'refs/heads/main', after: SHA })).toEqual({
      ref: 'main',
      expectedSha: SHA,
      repository: 'my-org/my-agent'
    })
  })

  test('push to a branch with a slash keeps the whole branch name', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/feature/login',
      GITHUB_REF_NAME: 'feature/login',
      GITHUB_SHA: SHA
    })
    expect(eventDefaults(e, {}).ref).toBe('feature/login')
  })

  test('push of a tag: refs/tags/<tag>, expected GITHUB_SHA', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/tags/v1.2.0',
      GITHUB_REF_NAME: 'v1.2.0',
      GITHUB_SHA: SHA
    })
    expect(eventDefaults(e, {})).toEqual({
      ref: 'refs/tags/v1.2.0',
      expectedSha: SHA,
      repository: 'my-org/my-agent'
    })
  })

  test('push that deletes a branch has no expected commit', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/old',
      GITHUB_REF_NAME: 'old',
      GITHUB_SHA: '0000000000000000000000000000000000000000'
    })
    expect(eventDefaults(e, { deleted: true }).expectedSha).toBeUndefined()
  })

  test('release: refs/tags/<release.tag_name> from the payload, expected GITHUB_SHA', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'release',
      GITHUB_REF: 'refs/tags/v2.0.0',
      GITHUB_REF_NAME: 'v2.0.0',
      GITHUB_SHA: SHA
    })
    expect(eventDefaults(e, { release: { tag_name: 'v2.0.0-final' } })).toEqual({
      ref: 'refs/tags/v2.0.0-final',
      expectedSha: SHA,
      repository: 'my-org/my-agent'
    })
  })

  test('release without a tag_name in the payload falls back to the tag in GITHUB_REF', () => {
    const e = env({ GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/tags/v3', GITHUB_SHA: SHA })
    expect(eventDefaults(e, { release: {} }).ref).toBe('refs/tags/v3')
  })

  test.each(['pull_request', 'pull_request_target'])(
    '%s: the head branch, expected the head commit (not the merge commit)',
    eventName => {
      const e = env({
        GITHUB_EVENT_NAME: eventName,
        GITHUB_REF: 'refs/pull/42/merge',
        GITHUB_REF_NAME: '42/merge',
        GITHUB_HEAD_REF: 'feature/login',
        GITHUB_BASE_REF: 'main',
        GITHUB_SHA: MERGE_SHA
      })
      const payload = { pull_request: { head: { ref: 'feature/login', sha: HEAD_SHA } } }
      expect(eventDefaults(e, payload)).toEqual({
        ref: 'feature/login',
        expectedSha: HEAD_SHA,
        repository: 'my-org/my-agent'
      })
    }
  )

  test('pull_request without a head sha in the payload expects no commit, never the merge commit', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REF: 'refs/pull/42/merge',
      GITHUB_HEAD_REF: 'feature/login',
      GITHUB_SHA: MERGE_SHA
    })
    const defaults = eventDefaults(e, {})
    expect(defaults.ref).toBe('feature/login')
    expect(defaults.expectedSha).toBeUndefined()
  })

  test('other pull request events (refs/pull/...) use the head branch from the payload', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'pull_request_review',
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_REF_NAME: '7/merge',
      GITHUB_SHA: MERGE_SHA
    })
    const payload = { pull_request: { head: { ref: 'fix', sha: HEAD_SHA } } }
    expect(eventDefaults(e, payload)).toMatchObject({ ref: 'fix', expectedSha: HEAD_SHA })
  })

  test.each(['workflow_dispatch', 'schedule', 'repository_dispatch'])(
    '%s on a branch: GITHUB_REF_NAME as a branch, expected GITHUB_SHA',
    eventName => {
      const e = env({
        GITHUB_EVENT_NAME: eventName,
        GITHUB_REF: 'refs/heads/release/1.x',
        GITHUB_REF_NAME: 'release/1.x',
        GITHUB_SHA: SHA
      })
      expect(eventDefaults(e, {})).toEqual({
        ref: 'release/1.x',
        expectedSha: SHA,
        repository: 'my-org/my-agent'
      })
    }
  )

  test('workflow_dispatch on a tag: refs/tags/<tag>, expected GITHUB_SHA', () => {
    const e = env({
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_REF: 'refs/tags/v1.0.1',
      GITHUB_REF_NAME: 'v1.0.1',
      GITHUB_SHA: SHA
    })
    expect(eventDefaults(e, {})).toEqual({
      ref: 'refs/tags/v1.0.1',
      expectedSha: SHA,
      repository: 'my-org/my-agent'
    })
  })

  test('outside a workflow (no GITHUB_* variables) nothing is implied', () => {
    expect(eventDefaults({}, {})).toEqual({})
  })

  test('a payload of the wrong shape is ignored, never a crash', () => {
    const e = env({ GITHUB_EVENT_NAME: 'release', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: SHA })
    expect(eventDefaults(e, { release: 'v1' }).ref).toBe('main')
    expect(eventDefaults(e, null).ref).toBe('main')
    const pr = env({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_HEAD_REF: 'x' })
    expect(eventDefaults(pr, { pull_request: { head: { sha: 42 } } })).toEqual({
      ref: 'x',
      repository: 'my-org/my-agent'
    })
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
