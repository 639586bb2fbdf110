// `command: check --promote-from` against `deploy --promote-from --dry-run`, through the bundle
// against the emulator: the check says in sync exactly when the dry run would change nothing, and
// both say what they saw; refusals are refusals in both. Every difference a promotion can make is a
// row of builders/promote-agreement.ts, each held in-process (commands/check/against-source.agreement.test.ts);
// here, one of each verdict through the bundle, and an upload promoted (by its digest, refused on
// another), then checked. The sources here serve their revision: the promotion's evidence (which
// the check does not examine) passes.
import { expect } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  checkVerdict,
  dryRunVerdict,
  expectAgreement,
  promote,
  ROWS,
  type Agreement,
  type Seen
} from '../builders/promote-agreement.ts'
import { e2e, runAction, type E2E, type RunResult } from './harness.ts'

/** The row's context on this test's emulator, its time at the emulator's speed. */
const agreement = (t: E2E): Agreement => ({
  ...t,
  pause: ms => new Promise(res => setTimeout(res, ms)),
  fastForward: async done => {
    t.emu.setSpeed(10_000)
    while (!done()) await new Promise(res => setTimeout(res, 20))
    // 20 ms at this speed: minutes past the previous revision's drain.
    await new Promise(res => setTimeout(res, 20))
    t.emu.setSpeed(4)
  }
})

const seen = (r: RunResult): Seen => ({ ...r, log: r.stdout })
const run = async (inputs: Record<string, string>, env?: Record<string, string>) =>
  seen(await runAction({ inputs, env }))

const THROUGH_THE_BUNDLE = [
  'production runs the commit staging runs',
  'staging was rebuilt at another commit since',
  'staging is not there'
]

for (const row of ROWS.filter(r => THROUGH_THE_BUNDLE.includes(r.title)))
  e2e(`check --promote-from and a dry-run promotion agree: ${row.title}`, t =>
    expectAgreement(agreement(t), row, inputs => run(inputs))
  )

/** A workspace with a graph config. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
  writeFileSync(join(dir, 'langgraph.json'), JSON.stringify({ graphs: { agent: './a.py:g' } }))
  writeFileSync(join(dir, 'a.py'), 'g = None\n')
  return dir
}

// One upload promoted, then checked: the target exists as an upload the promotion made.
e2e(
  'promote an upload: the same archive by digest, another digest refused before any write; check --promote-from and a dry-run promotion agree: an upload never reads as in sync',
  async t => {
    const env = { GITHUB_WORKSPACE: workspace() }
    const upload = (name: string, over: Record<string, string> = {}) =>
      run({ ...t.inputs({ name, source: 'internal_source', ...over }), 'integration-id': '' }, env)
    const staging = await upload('staging')
    expect(staging.errors).toEqual([])
    expect(staging.code).toBe(0)
    const digest = staging.outputs['source-digest']!
    const other = `sha256:${'0'.repeat(64)}`
    let before = t.writes().length
    // A plain upload deploy holds to its expected digest too.
    const mismatch = await upload('production', { 'expected-source-digest': other })
    expect(mismatch.code).toBe(1)
    expect(mismatch.errors).toHaveLength(1)
    expect(mismatch.errors[0]).toContain(`${digest} (2 files), not ${other}`)
    expect(t.writes()).toHaveLength(before)
    const needs = await run(promote(agreement(t)), env)
    expect(needs.code).toBe(1)
    expect(needs.errors[0]).toContain('expected-source-digest')
    expect(t.writes()).toHaveLength(before)
    const inputs = promote(agreement(t), { 'expected-source-digest': digest })
    const r = await run(inputs, env)
    expect(r.errors).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs['source-digest']).toBe(digest)
    expect(r.outputs['promoted-from-revision-id']).toBe(staging.outputs['revision-id'])
    expect(r.log).toContain(`(${digest}) to production: revision ${r.outputs['revision-id']}`)

    before = t.writes().length
    // The check archives the workspace as the deploy does: another digest is refused by both.
    const wrong = promote(agreement(t), { 'expected-source-digest': other })
    const [checkWrong, dryWrong] = [
      await run({ ...wrong, command: 'check' }, env),
      await run({ ...wrong, 'dry-run': 'true' }, env)
    ]
    expect(checkVerdict(checkWrong)).toBe('refused')
    expect(checkWrong.errors[0]).toContain(`The source archive is ${digest}`)
    expect(checkWrong.errors[0]).toBe(dryWrong.errors[0])
    const checked = await run({ ...inputs, command: 'check' }, env)
    const dry = await run({ ...inputs, 'dry-run': 'true' }, env)
    expect(checkVerdict(checked)).toBe('drift')
    expect(dryRunVerdict(dry)).toBe('drift')
    expect(checked.log).toContain('"production" runs an upload, which cannot be compared')
    expect(t.writes()).toHaveLength(before)
  }
)
