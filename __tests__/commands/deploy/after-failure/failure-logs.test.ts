// The log excerpt of a failed revision: what is fetched, how it is cleaned, and that a log that
// cannot be read never throws.
import { describe, expect, test } from '@jest/globals'
import { ApiError } from '../../../../src/control-plane/errors.ts'
import { Redactor } from '../../../../src/control-plane/redact.ts'
import { mdFenced as fenced } from '../../../../src/inert.ts'
import {
  cleanLog,
  logTypesFor,
  MAX_EXCERPT_CHARS,
  MAX_LINE_CHARS,
  readFailureLog,
  type LogEntry,
  type LogReader
} from '../../../../src/commands/deploy/after-failure/failure-logs.ts'
import { ACTION_SAY } from '../../../builders.ts'

const SECRET = 'sk-live-0123456789abcdef'
const redactor = new Redactor([SECRET])
const ids = { deploymentId: 'd', revisionId: 'r' }
const notFound = () =>
  new ApiError(
    { operation: 'get revision logs', method: 'GET', path: '/x', say: ACTION_SAY },
    404,
    'no log'
  )

/** A reader whose logs are given per type, newest first as the service answers `desc`. */
function reader(logs: Partial<Record<'build' | 'deploy', LogEntry[] | Error>>) {
  const calls: { type: string; order?: string; limit?: number; deadline?: number }[] = []
  const r: LogReader = {
    async getRevisionLogs(_d, _r, q, call) {
      calls.push({ ...q, deadline: call?.deadline })
      const l = logs[q.type]
      if (l instanceof Error) throw l
      if (!l) throw notFound()
      return { logs: l.slice(0, q.limit) }
    }
  }
  return { r, calls }
}

describe('readFailureLog', () => {
  test('fetches newest first and returns the lines oldest first, with the telling line', async () => {
    const { r, calls } = reader({
      build: [
        { message: 'Build step 3 failed', level: 'ERROR' },
        { message: 'ModuleNotFoundError: agentlib', level: 'ERROR' },
        { message: 'pip install', level: 'INFO' }
      ]
    })
    const res = await readFailureLog(r, ids, 'BUILD_FAILED', 50, redactor, 123)
    expect(calls).toEqual([{ type: 'build', order: 'desc', limit: 50, deadline: 123 }])
    expect(res).toMatchObject({ kind: 'log' })
    if (res.kind !== 'log') return
    expect(res.log.lines).toEqual([
      'INFO    pip install',
      'ERROR   ModuleNotFoundError: agentlib',
      'ERROR   Build step 3 failed'
    ])
    expect(res.log.telling).toBe('Build step 3 failed')
  })

  test.each([
    ['BUILD_FAILED', ['build']],
    ['DEPLOY_FAILED', ['deploy']],
    ['CREATE_FAILED', ['build', 'deploy']]
  ])('%s reads the %j log', (status, types) => {
    expect(logTypesFor(status)).toEqual(types)
  })

  test('CREATE_FAILED falls back to the deploy log when there is no build log', async () => {
    const { r, calls } = reader({ deploy: [{ message: 'quota exceeded', level: 'ERROR' }] })
    const res = await readFailureLog(r, ids, 'CREATE_FAILED', 10, redactor, 0)
    expect(calls.map(c => c.type)).toEqual(['build', 'deploy'])
    expect(res).toMatchObject({ kind: 'log', log: { type: 'deploy', telling: 'quota exceeded' } })
  })

  test('no log (404) and a failing service are answers, never throws', async () => {
    expect(await readFailureLog(reader({}).r, ids, 'BUILD_FAILED', 10, redactor, 0)).toMatchObject({
      kind: 'none'
    })
    const failing = reader({ build: new Error(`socket hang up near ${SECRET}\nmore`) })
    const res = await readFailureLog(failing.r, ids, 'BUILD_FAILED', 10, redactor, 0)
    expect(res).toEqual({ kind: 'error', reason: 'socket hang up near ***' })
  })

  test('asks for at most the service’s page size', async () => {
    const { r, calls } = reader({ build: [{ message: 'x' }] })
    await readFailureLog(r, ids, 'BUILD_FAILED', 5000, redactor, 0)
    expect(calls[0]!.limit).toBe(1000)
  })
})

describe('cleanLog', () => {
  test('secrets are redacted before lines are cut, commands and control codes neutralised', () => {
    const long = `${'x'.repeat(MAX_LINE_CHARS - 5)}${SECRET}`
    const log = cleanLog(
      'build',
      [
        { message: `token=${SECRET}` },
        { message: '::error::fake annotation' },
        { message: '\u001b[31mred\u001b[0m\nsecond line' },
        { message: long }
      ],
      redactor
    )
    expect(log.lines.join('\n')).not.toContain(SECRET)
    expect(log.lines.join('\n')).not.toContain(SECRET.slice(0, 12))
    expect(log.lines[0]).toBe('token=***')
    expect(log.lines[1]).not.toMatch(/^::/)
    expect(log.lines[2]).toBe('red second line')
    expect(log.lines.every(l => l.length <= MAX_LINE_CHARS + 40)).toBe(true)
  })

  test('the whole excerpt is bounded, keeping the end of the log', () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({ message: `${i} ${'y'.repeat(300)}` }))
    const log = cleanLog('build', entries, redactor)
    expect(log.lines.join('\n').length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS)
    expect(log.lines.at(-1)).toMatch(/^499 /)
  })

  test('without an ERROR level, the last line that says it failed is the telling one', () => {
    const log = cleanLog(
      'deploy',
      [
        { message: 'starting' },
        { message: 'health check failed on port 8000' },
        { message: 'bye' }
      ],
      redactor
    )
    expect(log.telling).toBe('health check failed on port 8000')
  })
})

test('a fenced block cannot be closed early by a line of the log', () => {
  const block = fenced(['before', '```', 'after ````'])
  const fence = block.split('\n')[0]!
  expect(fence.length).toBeGreaterThan(4)
  expect(block.split('\n').at(-1)).toBe(fence)
})
