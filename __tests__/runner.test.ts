// The runner protocol of the entry layer writes exactly what @actions/core writes, for the strings
// that need escaping: the runner parses both the same way only if they are byte for byte equal.
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals'
import * as core from '@actions/core'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as runner from '../src/runner.ts'

const TRICKY = [
  'plain',
  '',
  '100% done',
  'two\nlines',
  'crlf\r\nline',
  'colon: and, comma',
  '::error::injected',
  '%0A already escaped %25',
  'a % b\r\n:c,d\n%',
  'ünïcödé ✅'
]

/** What `fn` writes to stdout. */
function stdoutOf(fn: () => void): string {
  let out = ''
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation(chunk => {
    out += String(chunk)
    return true
  })
  try {
    fn()
  } finally {
    spy.mockRestore()
  }
  return out
}

let dir: string
const saved = { ...process.env }
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runner-test-'))
})
afterEach(() => {
  process.env = { ...saved }
  process.exitCode = undefined
  rmSync(dir, { recursive: true, force: true })
})

describe('workflow commands are written as @actions/core writes them', () => {
  test.each(TRICKY)('messages and titles: %j', text => {
    const cases: [() => void, () => void][] = [
      [() => core.info(text), () => runner.info(text)],
      [() => core.debug(text), () => runner.debug(text)],
      [() => core.setSecret(text), () => runner.setSecret(text)],
      [() => core.warning(text), () => runner.warning(text)],
      [() => core.warning(text, {}), () => runner.warning(text, {})],
      [() => core.warning(text, { title: text }), () => runner.warning(text, { title: text })],
      [() => core.error(text, { title: text }), () => runner.error(text, { title: text })],
      [
        () => core.error(text, { title: undefined }),
        () => runner.error(text, { title: undefined })
      ],
      [() => core.setFailed(text), () => runner.setFailed(text)]
    ]
    for (const [theirs, ours] of cases) expect(stdoutOf(ours)).toBe(stdoutOf(theirs))
  })

  test('a group opens and closes around its work, also when the work fails', async () => {
    const run = async (group: typeof core.group) => {
      let out = ''
      const spy = jest.spyOn(process.stdout, 'write').mockImplementation(chunk => {
        out += String(chunk)
        return true
      })
      try {
        await group('step: 1, 50%', async () => {
          process.stdout.write('inside\n')
        })
        await group('fails', async () => {
          throw new Error('boom')
        }).catch(() => undefined)
      } finally {
        spy.mockRestore()
      }
      return out
    }
    expect(await run(runner.group)).toBe(await run(core.group))
  })

  test('setFailed sets the exit code to 1', () => {
    stdoutOf(() => runner.setFailed('broken'))
    expect(process.exitCode).toBe(1)
  })

  test('debug is on exactly when RUNNER_DEBUG is 1', () => {
    for (const value of ['1', '0', 'true', undefined]) {
      if (value === undefined) delete process.env.RUNNER_DEBUG
      else process.env.RUNNER_DEBUG = value
      expect(runner.isDebug()).toBe(core.isDebug())
    }
  })
})

describe('outputs are appended to GITHUB_OUTPUT as @actions/core appends them', () => {
  /** The file's text with each random delimiter replaced by the same placeholder. */
  const normalized = (file: string) =>
    readFileSync(file, 'utf8').replace(/ghadelimiter_[0-9a-f-]{36}/g, 'ghadelimiter_X')

  test('every tricky value, in order, with a fresh delimiter each', () => {
    const theirs = join(dir, 'theirs')
    const ours = join(dir, 'ours')
    writeFileSync(theirs, '')
    writeFileSync(ours, '')
    process.env.GITHUB_OUTPUT = theirs
    TRICKY.forEach((v, i) => core.setOutput(`out-${i}`, v))
    TRICKY.forEach((v, i) => runner.setOutput(`out-${i}`, v, { GITHUB_OUTPUT: ours }))
    expect(normalized(ours)).toBe(normalized(theirs))
    const delimiters = readFileSync(ours, 'utf8').match(/ghadelimiter_[0-9a-f-]{36}/g) ?? []
    expect(new Set(delimiters).size).toBe(TRICKY.length)
  })

  test('without GITHUB_OUTPUT, the set-output command', () => {
    delete process.env.GITHUB_OUTPUT
    for (const v of TRICKY) {
      expect(stdoutOf(() => runner.setOutput('a:b,c', v, {}))).toBe(
        stdoutOf(() => core.setOutput('a:b,c', v))
      )
    }
  })

  test('a GITHUB_OUTPUT that does not exist is an error, as in @actions/core', () => {
    const missing = join(dir, 'missing')
    process.env.GITHUB_OUTPUT = missing
    expect(() => core.setOutput('x', 'y')).toThrow(`Missing file at path: ${missing}`)
    expect(() => runner.setOutput('x', 'y', { GITHUB_OUTPUT: missing })).toThrow(
      `Missing file at path: ${missing}`
    )
  })
})

describe('the job summary', () => {
  test('is appended as @actions/core appends raw text', async () => {
    const theirs = join(dir, 'theirs')
    const ours = join(dir, 'ours')
    writeFileSync(theirs, 'before\n')
    writeFileSync(ours, 'before\n')
    const text = `### Title\n\n| a | b |\n${TRICKY.join('\n')}`
    process.env.GITHUB_STEP_SUMMARY = theirs
    await core.summary.addRaw(text).write()
    await runner.appendSummary(text, { GITHUB_STEP_SUMMARY: ours })
    expect(readFileSync(ours, 'utf8')).toBe(readFileSync(theirs, 'utf8'))
  })

  test('a summary file that cannot be reached is an error naming it', async () => {
    const file = join(dir, 'missing', 'summary.md')
    await expect(runner.appendSummary('x', { GITHUB_STEP_SUMMARY: file })).rejects.toThrow(
      `Unable to access summary file: '${file}'`
    )
  })
})
