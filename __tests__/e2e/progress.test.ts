// A long build through the bundle, as the runner runs it: the build lasts until the run has said
// "Still BUILDING after ..." (its own clock, 30 s), then ends; nothing here races the machine.
import { expect } from '@jest/globals'
import { BUILDS_FOR_A_DAY, e2e, runAction as run, uniqueName } from './harness.ts'

e2e(
  'a long build: inside the wait group, a progress line with status and time, and the build log as it comes',
  async ({ emu, inputs }) => {
    const r = await run({
      inputs: inputs({ name: uniqueName('progress') }),
      onStdout: {
        when: /^Still BUILDING after \d+s$/m,
        run: () => void emu.configure({ stageDurationsMs: { BUILDING: 1000 } })
      },
      timeoutMs: 120_000
    })
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    const open = lines.findIndex(l => l.startsWith('::group::Wait for revision'))
    const close = lines.indexOf('::endgroup::', open)
    expect(open).toBeGreaterThanOrEqual(0)
    const wait = lines.slice(open, close)
    const progress = wait.findIndex(l => /^Still BUILDING after \d+s$/.test(l))
    expect(progress).toBeGreaterThan(0)
    // The build's first line came while it was building, before the progress line.
    const cloning = wait.findIndex(l => l.startsWith('build | Cloning '))
    expect(cloning).toBeGreaterThan(0)
    expect(cloning).toBeLessThan(progress)
    // Build lines only inside the group.
    const outside = [...lines.slice(0, open), ...lines.slice(close)]
    expect(outside.filter(l => l.startsWith('build | '))).toEqual([])
  },
  { stageDurationsMs: BUILDS_FOR_A_DAY }
)
