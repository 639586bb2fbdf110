// `command: check` end to end, through the built bundle against the emulator: in sync (exit 0)
// and a planned change (drift, the step fails), secrets shown by name only. It never writes. The
// other kinds of drift (a setting changed by hand, `fail-on-drift: false`, a redeploy from the web
// app that failed or is still building, another commit than the ref names, no deployment, another
// type, one being deleted, an active revision not DEPLOYED): in-process, commands/check/command.test.ts.
import { expect } from '@jest/globals'
import { e2e, leaks, runAction as run, type E2E } from './harness.ts'

const SECRET = 'sk-live-check-0123456789-current'
const OTHER = 'sk-live-check-0123456789-wanted'

const checkInputs = (t: E2E, over: Record<string, string> = {}) =>
  t.inputs({ command: 'check', name: 'agent', ...over })
const writes = (t: E2E) => t.emu.requests().filter(r => r.method !== 'GET')
const idOf = (t: E2E) => t.named('agent')[0]!.id

e2e('check: in sync: drift false, exit 0, three requests at most, nothing written', async t => {
  t.seed('agent', { OPENAI_API_KEY: SECRET })
  t.emu.clearRequests()
  const r = await run({ inputs: checkInputs(t, { secrets: `OPENAI_API_KEY=${SECRET}` }) })
  expect(r.code).toBe(0)
  expect(r.outputs.drift).toBe('false')
  expect(r.outputs['deployment-id']).toBe(idOf(t))
  expect(r.stdout).toContain('In sync: "agent" is what these inputs describe.')
  expect(r.summary).toContain('### ✅ In sync: `agent`')
  expect(t.emu.requests().length).toBeLessThanOrEqual(4)
  expect(writes(t)).toEqual([])
})

e2e('check: a planned change is drift; secrets by name only; the step fails', async t => {
  t.seed('agent', { OPENAI_API_KEY: SECRET })
  const r = await run({
    inputs: checkInputs(t, { secrets: `OPENAI_API_KEY=${OTHER}`, ref: 'release' })
  })
  expect(r.code).toBe(1)
  expect(r.outputs.drift).toBe('true')
  expect(r.errors.join('\n')).toMatch(
    /::error title=Drift::"agent" differs from these inputs: a deploy would change 2 settings/
  )
  expect(r.stdout).toContain('source_revision_config.repo_ref: main -> release')
  expect(r.stdout).toContain('secrets.OPENAI_API_KEY: *** -> ***')
  expect(r.summary).toContain('secrets.OPENAI_API_KEY: *** -> ***')
  expect(leaks(r, [SECRET, OTHER])).toEqual([])
  expect(writes(t)).toEqual([])
})
