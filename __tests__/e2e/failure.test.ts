// A failed revision end to end: its build log in the job as the runner shows it (secrets redacted,
// workflow commands in it inert), its telling line in the error and the summary. The rest of a
// failure's rules (other logs, `failure-logs`, `on-failure: rollback`) are the flow's:
// __tests__/commands/deploy/command.failure.test.ts.
import { expect } from '@jest/globals'
import { e2e, leaks, runAction as run, uniqueName } from './harness.ts'

const PLANTED = 'planted-secret-value-42'

e2e(
  'the log of a failed revision: a build failure shows its last lines, redacted, and names the telling line',
  async ({ emu, inputs }) => {
    const name = uniqueName('build-log')
    emu.script({
      outcome: 'BUILD_FAILED',
      logLines: [
        'Installing dependencies',
        `Using token ${PLANTED}`,
        '::error::injected',
        'ModuleNotFoundError: No module named agentlib'
      ]
    })
    const r = await run({ inputs: inputs({ name, secrets: `TOKEN=${PLANTED}` }) })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/::group::Build log of revision [0-9a-f-]+ \(last \d+ lines\)/)
    expect(r.stdout).toContain('Using token ***')
    expect(r.stdout).not.toMatch(/^::error::injected/m)
    expect(leaks(r, [PLANTED])).toEqual([])
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /ended BUILD_FAILED after \S+: ModuleNotFoundError: No module named agentlib/
    )
    expect(r.summary).toContain('<details><summary>')
    expect(r.summary).toContain('ModuleNotFoundError')
  }
)
