// `check --promote-from` and a dry-run promotion agree, over every difference a promotion can
// make (builders/promote-agreement.ts): in-process, the action's door on a fake port, against the
// emulator on one virtual clock. A few of the rows again through the bundle: e2e/check.test.ts.
import { test } from '@jest/globals'
import { run } from '../../../src/run.ts'
import {
  expectAgreement,
  ROWS,
  type Agreement,
  type Seen
} from '../../builders/promote-agreement.ts'
import { emulatorInputs, fakePort } from '../../builders/fake-port.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'

const v = virtualEmulator()

function agreement(): Agreement {
  const emu = v.emu
  const c = emu.credentials()
  return {
    emu,
    integration: c.integrationId!,
    key: c.apiKey,
    inputs: (over = {}) => emulatorInputs(emu, over),
    named: name =>
      emu
        .state()
        .tenants.flatMap(t => t.deployments)
        .filter(d => d.name === name),
    pause: async ms => {
      v.t += ms
    },
    fastForward: async done => {
      while (!done()) v.t += 1000
      v.t += 60_000
    }
  }
}

/** One run through the action's door: its log as the runner's stdout would hold it. */
async function runOnPort(inputs: Record<string, string>): Promise<Seen> {
  const port = fakePort(inputs)
  const result = await run(port, { now: v.now, sleep: v.sleep })
  const errors = port.calls.filter(c => c.startsWith('error: '))
  return {
    code: result.exitCode,
    outputs: result.outputs,
    log: port.calls.map(c => c.replace(/^info: /, '')).join('\n') + '\n',
    errors
  }
}

for (const row of ROWS)
  test(`check --promote-from and a dry-run promotion agree: ${row.title}`, () =>
    expectAgreement(agreement(), row, runOnPort))
