import { expect, describe } from '@jest/globals'
import { e2e, leaks, runAction as run, runAction, type E2E, type RunResult } from './harness.ts'
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs'
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
import { parse as parseYaml } from 'yaml'
import { demoFixture } from '../../emulator/server.ts'
import { ECHO, promotionWorkspace } from '../builders/promotion.ts'

// `command: check` end to end, through the built bundle against the emulator: in sync (exit 0)
// and a planned change (drift, the step fails), secrets shown by name only. It never writes. The
// other kinds of drift (a setting changed by hand, `fail-on-drift: false`, a redeploy from the web
// app that failed or is still building, another commit than the ref names, no deployment, another
// type, one being deleted, an active revision not DEPLOYED): in-process, commands/check/command.test.ts.

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

// `command: check --promote-from` against `deploy --promote-from --dry-run`, through the bundle
// against the emulator: the check says in sync exactly when the dry run would change nothing, and
// both say what they saw; refusals are refusals in both. Every difference a promotion can make is a
// row of builders/promote-agreement.ts, each held in-process (commands/check/against-source.agreement.test.ts);
// here, one of each verdict through the bundle, and an upload promoted (by its digest, refused on
// another), then checked. The sources here serve their revision: the promotion's evidence (which
// the check does not examine) passes.
describe('promote', () => {
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

  // In sync through the bundle; drift and a refusal through it are the upload case's below. Every
  // row runs in process: commands/check/against-source.agreement.test.ts.
  const THROUGH_THE_BUNDLE = ['production runs the commit staging runs']

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
        run(
          { ...t.inputs({ name, source: 'internal_source', ...over }), 'integration-id': '' },
          env
        )
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
})

// examples/nightly-check.yml against the production job it checks (examples/promote.yml), through
// the bundle against the emulator, as a user runs them: the check takes the production job's
// inputs, reads green once production runs what was promoted, names both commits when staging
// has moved on unpromoted, and reads green again after the next promotion.
describe('nightly-check', () => {
  interface Step {
    uses?: string
    with?: Record<string, string | boolean>
  }
  interface Workflow {
    jobs: Record<string, { steps: Step[] }>
  }

  const workflow = (file: string) =>
    parseYaml(readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8')) as Workflow

  /** The action's steps of a workflow that match `which`. */
  const actionSteps = (w: Workflow, which: (s: Step) => boolean) =>
    Object.values(w.jobs)
      .flatMap(j => j.steps)
      .filter(s => s.uses?.startsWith('control-plane-deploy/control-plane-deploy@') && which(s))

  /** A step's inputs as the runner passes them, `${{ ... }}` ones (secrets, outputs) left out. */
  const literal = (s: Step) =>
    Object.fromEntries(
      Object.entries(s.with ?? {})
        .filter(([, v]) => !String(v).includes('${{'))
        .map(([k, v]) => [k, String(v)])
    )

  const [nightly] = actionSteps(workflow('nightly-check.yml'), () => true)
  const [production] = actionSteps(
    workflow('promote.yml'),
    s => s.with?.['promote-from'] !== undefined && s.with.command === undefined
  )

  const REPO = 'https://github.com/acme/agent-server'
  const BUILT = 'a1'.repeat(20)
  const MOVED = 'b2'.repeat(20)

  function seed(t: E2E, names: string[]): void {
    const base = demoFixture()
    t.emu.loadFixture({
      ...base,
      repo_commits: { [`${REPO}@main`]: BUILT },
      deployments: names.map(name => ({
        tenant_id: t.emu.credentials().tenantId,
        name,
        source: 'codehost' as const,
        source_config: { integration_id: t.integration, repo_url: REPO },
        source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' }
      }))
    })
  }

  test('the nightly check takes the production job’s target and its promote-from', () => {
    expect(nightly?.with?.command).toBe('check')
    expect(production).toBeDefined()
    for (const input of ['name', 'promote-from', 'tenant-id', 'build-on-push'])
      expect(nightly!.with![input]).toBe(production!.with![input])
  })

  e2e('nightly check of a promoted production: green when it runs what was promoted', async t => {
    const target = String(production!.with!.name)
    const source = String(production!.with!['promote-from'])
    seed(t, [source, target])
    const check = () => run({ inputs: { ...literal(nightly!), ...t.inputs() } })
    // The production job as written, its health gate's window shortened (30 s by default), in a
    // checkout with its smoke cases.
    const ws = promotionWorkspace(ECHO, 'smoke.yaml')
    const promote = () =>
      run({
        inputs: { ...literal(production!), ...t.inputs(), 'health-check-window': '1s' },
        env: { GITHUB_WORKSPACE: ws }
      })

    expect((await promote()).code).toBe(0)
    const green = await check()
    expect(green.errors).toEqual([])
    expect(green.code).toBe(0)
    expect(green.outputs.drift).toBe('false')
    expect(green.stdout).toContain(`runs commit ${BUILT} of "${source}"`)

    // Staging is rebuilt at a newer commit, not promoted yet.
    await new Promise(res => setTimeout(res, 20))
    t.emu.configure({ repoCommits: { [`${REPO}@main`]: MOVED } })
    const rebuilt = t.emu.outOfBand(t.named(source)[0]!.id, { redeploy: {} }).revision_id!
    t.emu.setSpeed(10_000)
    while (t.named(source)[0]!.revisions.at(-1)!.status !== 'DEPLOYED')
      await new Promise(res => setTimeout(res, 20))
    // 20 ms more at this speed: minutes past the previous revision's drain, so that the promotion
    // below finds the rebuilt revision served, however slow the machine.
    await new Promise(res => setTimeout(res, 20))
    t.emu.setSpeed(4)
    const behind = await check()
    expect(behind.code).toBe(1)
    expect(behind.outputs.drift).toBe('true')
    expect(behind.stdout).toContain(
      `but "${source}" (\`promote-from\`) revision ${rebuilt} runs commit ${MOVED}.`
    )

    expect((await promote()).code).toBe(0)
    const again = await check()
    expect(again.code).toBe(0)
    expect(again.stdout).toContain(`runs commit ${MOVED} of "${source}" revision ${rebuilt}`)
  })
})
