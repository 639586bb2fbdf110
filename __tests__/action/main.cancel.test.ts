// The action's door on the runner's cancel: GitHub sends SIGINT, then SIGTERM 7.5 s later, then
// kills the step. The step aborts the run at once and exits by its own timer whatever is still
// pending, read on a fake clock: the machine's load cannot move it.
import { afterEach, beforeEach, expect, jest, test } from '@jest/globals'
import type { RunPort } from '../../src/port.ts'

let port: RunPort | undefined
let finish: (() => void) | undefined
// A run that never ends by itself: only the door's timer can end the step.
jest.unstable_mockModule('../../src/run.ts', () => ({
  run: (p: RunPort) => {
    port = p
    return new Promise(resolve => (finish = () => resolve({ outputs: {}, exitCode: 1 })))
  }
}))
const { run } = await import('../../src/action/main.ts')

/** The runner's escalation: SIGTERM this long after SIGINT. */
const RUNNER_SIGTERM_AFTER_MS = 7500

let exit: ReturnType<typeof jest.spyOn>
let written: string[]
beforeEach(() => {
  jest.useFakeTimers()
  written = []
  exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never)
  jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string) => {
    written.push(String(chunk))
    return true
  }) as never)
})
afterEach(() => {
  finish?.()
  jest.useRealTimers()
  jest.restoreAllMocks()
})

test('SIGINT aborts the run at once, says so, and the step exits 1 by its own timer, before the runner sends SIGTERM', async () => {
  const step = run()
  await Promise.resolve()
  expect(port!.signal.aborted).toBe(false)

  process.emit('SIGINT', 'SIGINT')
  expect(port!.signal.aborted).toBe(true)
  expect(written.join('')).toContain('Received SIGINT: stopping.')

  // Time to stop and report first: not at once.
  jest.advanceTimersByTime(1000)
  expect(exit).not.toHaveBeenCalled()
  jest.advanceTimersByTime(RUNNER_SIGTERM_AFTER_MS - 1000 - 1)
  expect(exit).toHaveBeenCalledTimes(1)
  expect(exit).toHaveBeenCalledWith(1)

  finish!()
  await step
})

test('SIGTERM alone (a runner that skips SIGINT) is a cancel too, with the same exit', async () => {
  const step = run()
  await Promise.resolve()
  process.emit('SIGTERM', 'SIGTERM')
  expect(port!.signal.aborted).toBe(true)
  jest.advanceTimersByTime(RUNNER_SIGTERM_AFTER_MS - 1)
  expect(exit).toHaveBeenCalledWith(1)
  finish!()
  await step
})
