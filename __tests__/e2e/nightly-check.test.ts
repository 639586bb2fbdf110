// examples/nightly-check.yml against the production job it checks (examples/promote.yml), through
// the bundle against the emulator, as a user runs them: the check takes the production job's
// inputs, reads green once production runs what was promoted, names both commits when staging
// has moved on unpromoted, and reads green again after the next promotion.
import { expect } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { demoFixture } from '../../emulator/server.ts'
import { ECHO, promotionWorkspace } from '../builders/promotion.ts'
import { e2e, runAction as run, type E2E } from './harness.ts'

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
