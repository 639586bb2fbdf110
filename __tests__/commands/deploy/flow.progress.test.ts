// A whole run of a 90 s build against the emulator, on one virtual clock: inside the wait's
// group, a line at least every 30 s with the status and the time waited, and the build's own log
// lines as they come, each once.
import { expect, test } from '@jest/globals'
import type { RunPort } from '../../../src/port.ts'
import { run } from '../../../src/run.ts'
import { ACTION_SAY, EVENT } from '../../builders.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

const v = virtualEmulator()

function recordingPort(inputs: Record<string, string>) {
  const lines: { at: number; text: string }[] = []
  const say = (text: string) => lines.push({ at: v.t, text })
  const port: RunPort = {
    input: name => inputs[name] ?? '',
    say: ACTION_SAY,
    event: EVENT,
    mask: () => {},
    info: say,
    warning: line => say(`warning: ${line}`),
    notice: line => say(`notice: ${line}`),
    error: line => say(`error: ${line}`),
    group: async (name, fn) => {
      say(`group: ${name}`)
      try {
        return await fn()
      } finally {
        say('endgroup')
      }
    },
    signal: new AbortController().signal
  }
  return { port, lines }
}

test('a 90 s build: progress and the build log inside the wait group, never 30 s silent', async () => {
  v.emu.configure({ stageDurationsMs: { BUILDING: 90_000 } })
  const c = v.emu.credentials()
  const { port, lines } = recordingPort({
    'api-key': c.apiKey,
    'tenant-id': c.tenantId,
    'base-url': v.emu.url,
    'integration-id': c.integrationId!,
    name: 'agent-progress',
    'poll-interval': '60s'
  })
  const result = await run(port, { now: v.now, sleep: v.sleep })
  expect(result.exitCode).toBe(0)
  const texts = lines.map(l => l.text)
  const open = texts.findIndex(t => t.startsWith('group: Wait for revision'))
  const close = texts.indexOf('endgroup', open)
  const inWait = lines.slice(open, close + 1)
  expect(inWait.map(l => l.text)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^Still BUILDING after \d+s$/)])
  )
  for (let i = 1; i < inWait.length; i++)
    expect(inWait[i]!.at - inWait[i - 1]!.at).toBeLessThanOrEqual(30_000)
  // The build's lines, each once, in the group and nowhere else.
  const build = texts.filter(t => t.startsWith('build | '))
  expect(build.length).toBeGreaterThanOrEqual(3)
  expect(new Set(build).size).toBe(build.length)
  expect(inWait.filter(l => l.text.startsWith('build | ')).length).toBe(build.length)
  // Lines come while it builds, not all at the end.
  const buildingAt = lines.find(l => l.text.startsWith('BUILDING after'))!.at
  const firstBuild = lines.find(l => l.text.startsWith('build | '))!.at
  expect(firstBuild - buildingAt).toBeLessThan(30_000)
})
