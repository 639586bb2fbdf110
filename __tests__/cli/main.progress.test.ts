// The CLI's door on a long build, in-process against the emulator on one virtual clock: the wait's
// progress and the build's lines are plain lines on stderr (no runner's group markers), and stdout
// holds the outputs alone.
import { expect, test } from '@jest/globals'
import { tmpdir } from 'node:os'
import { cli, type CliIo } from '../../src/cli/main.ts'
import { run } from '../../src/run.ts'
import { virtualEmulator } from '../builders/virtual-emulator.ts'

const v = virtualEmulator()

test('a 90 s build from the CLI: progress and build lines, plain, on stderr', async () => {
  v.emu.configure({ stageDurationsMs: { BUILDING: 90_000 } })
  const c = v.emu.credentials()
  let stdout = ''
  let stderr = ''
  const io: CliIo = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t), isTTY: false },
    now: v.now,
    cwd: tmpdir(),
    onSignal: () => () => {},
    exit: () => {}
  }
  const code = await cli(
    ['deploy', '--name', 'cli-progress', '--repository', 'acme/agent-server', '--ref', 'main'],
    {
      CONTROL_PLANE_API_KEY: c.apiKey,
      CONTROL_PLANE_TENANT_ID: c.tenantId,
      CONTROL_PLANE_BASE_URL: v.emu.url,
      CONTROL_PLANE_INTEGRATION_ID: c.integrationId!
    },
    io,
    port => run(port, { now: v.now, sleep: v.sleep })
  )
  expect(code).toBe(0)
  const lines = stderr.split('\n')
  expect(lines).toContain(lines.find(l => /^▸ Wait for revision /.test(l)))
  expect(
    lines.filter(l => /^Still BUILDING after [0-9hms]+$/.test(l)).length
  ).toBeGreaterThanOrEqual(2)
  expect(lines.filter(l => l.startsWith('build | ')).length).toBeGreaterThanOrEqual(3)
  expect(stderr).not.toContain('::group::')
  expect(stdout).toMatch(/^deployment-id=\S+\n/)
  expect(stdout).not.toMatch(/build \||Still /)
})
