// Where the health gate may send the API key, as far as a run's inputs decide it, in-process:
// run() through a fake port against a real emulator. Where the key does go (hosts vouched for or
// not, through the runner's proxy and CA certificates) is in __tests__/e2e/key-routing.test.ts.
import { expect, test } from '@jest/globals'
import { startEmulator } from '../../../emulator/server.ts'
import { run } from '../../../src/run.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'

test('health-check-hosts naming a shared hosting domain is one input error, nothing sent', async () => {
  const emu = await startEmulator({ port: 0 })
  try {
    const port = fakePort(
      emulatorInputs(emu, {
        name: 'psl',
        'health-check': 'true',
        'health-check-window': '0',
        timeout: '60s',
        'health-check-hosts': 'agent.example.com, *.github.io'
      })
    )
    const result = await run(port)
    // Invalid inputs: the run's code 2, which the action's door turns into the runner's 1.
    expect(result.exitCode).toBe(2)
    const errors = port.calls.filter(c => c.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /^error: Invalid inputs: .*`health-check-hosts`: "\*\.github\.io" would match hosts of many owners \(github\.io is a public suffix, on the Public Suffix List\)/s
    )
    expect(emu.requests()).toEqual([])
  } finally {
    await emu.close()
  }
}, 60_000)
