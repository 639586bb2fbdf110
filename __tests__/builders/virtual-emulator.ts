// An emulator for each test of a file, on one virtual clock: the emulator's lifecycle reads it and
// the run's sleeps move it on at once, so an in-process run of minutes takes milliseconds and no
// assertion depends on the machine's speed.
//
//   const v = virtualEmulator()
//   const { now, sleep } = v            // the run's clock
//   v.emu.credentials(); v.t += 5000    // the test's emulator; the time, moved on by hand
//   v.onNextSleep(async () => ...)      // runs once, inside the run's next sleep
import { afterEach, beforeEach } from '@jest/globals'
import { startEmulator, type Emulator } from '../../emulator/server.ts'

/** Where every test's clock starts. */
const START = Date.parse('2026-11-01T00:00:00Z')

export interface VirtualEmulator {
  /** The test's emulator: started before each test, closed after it. */
  readonly emu: Emulator
  /** The virtual time, epoch ms. */
  t: number
  now: () => number
  /** Moves the clock on by `ms`, then runs the hook that `onNextSleep` set, once. */
  sleep: (ms: number) => Promise<void>
  onNextSleep(hook: () => Promise<void>): void
}

export function virtualEmulator(): VirtualEmulator {
  let emu: Emulator | undefined
  let next: (() => Promise<void>) | undefined
  const v: VirtualEmulator = {
    get emu() {
      if (!emu) throw new Error('the emulator runs only inside a test')
      return emu
    },
    t: START,
    now: () => v.t,
    sleep: async ms => {
      v.t += ms
      const hook = next
      next = undefined
      await hook?.()
    },
    onNextSleep: hook => {
      next = hook
    }
  }
  beforeEach(async () => {
    v.t = START
    next = undefined
    emu = await startEmulator({ port: 0, now: v.now })
  })
  afterEach(async () => {
    await emu?.close()
    emu = undefined
  })
  return v
}
