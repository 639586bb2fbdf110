// `command: sweep` held to what it owns, with hostile answers: a list answer that misnames
// production as a preview, and `swept` in the CLI's `--output-file`, read back by every reader.
// Through the bundle (the action) against the emulator, and through the packed CLI; judged from the
// emulator's state and request log. (A bare `sweep-max-age: 7` is refused in inputs/index.test.ts,
// cli/main.test.ts and e2e/sweep.test.ts; `my-agent*` never taking `my-agent` in
// commands/sweep/choose.test.ts; a pull or merge request answered for another number or project in
// commands/sweep/pull-requests.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe } from '@jest/globals'
import type { Emulator } from '../../emulator/server.ts'
import { daysAgo, previewsFixture, type PreviewSpec } from '../../scripts/previews.ts'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { answer, readBack, READERS } from '../package/hostile-server.ts'
import { packedPackage } from '../package/package.ts'
import { outputsOf, runBin, scheduledGitlabJob, type CliRun } from '../package/run-bin.ts'
import { errorText, lane, reliabilityCase, withEmulator, type Case } from './support.ts'

const GROUP = GROUPS.sweep
const TOKEN = 'ghs_reliabilitySweepToken0123456789'
const GITLAB_TOKEN = 'glpat-reliabilitySweep-0123456789'

/** The demo fixture's deployment, beside each case's. */
const FIXTURE_DEPLOYMENT = 'support-bot-prod'
const load = (emu: Emulator, specs: PreviewSpec[]) => {
  emu.loadFixture(previewsFixture(specs))
  emu.clearRequests()
}
const deployments = (emu: Emulator) => emu.state().tenants.flatMap(t => t.deployments)
const idOf = (emu: Emulator, name: string) => deployments(emu).find(d => d.name === name)!.id
/** The names not being deleted, but the fixture's own deployment (which stays in every case). */
const left = (emu: Emulator): string[] =>
  deployments(emu)
    .filter(d => d.status !== 'AWAITING_DELETE' && d.name !== FIXTURE_DEPLOYMENT)
    .map(d => d.name)
    .sort()
const deletes = (emu: Emulator) => emu.requests().filter(r => r.method === 'DELETE')
const fixtureStays = (c: Case, emu: Emulator) =>
  c.check(
    deployments(emu).some(d => d.name === FIXTURE_DEPLOYMENT && d.status !== 'AWAITING_DELETE'),
    `${FIXTURE_DEPLOYMENT} was deleted`
  )

/** A sweep's inputs against `emu`; its key joins the case's secret scan. */
function sweepInputs(c: Case, emu: Emulator, over: Record<string, string>) {
  const { apiKey } = emu.credentials()
  c.secrets.push(apiKey, TOKEN)
  return { 'api-key': apiKey, 'base-url': emu.url, command: 'sweep', ...over }
}

/** `swept` as the run wrote it, or the text when it is no JSON list. */
function sweptOf(outputs: Record<string, string>): string[] | string {
  try {
    const v = JSON.parse(outputs.swept ?? '') as unknown
    return Array.isArray(v) ? (v as string[]) : String(outputs.swept)
  } catch {
    return String(outputs.swept)
  }
}

/** Checks that exactly `names` were deleted, by the emulator's state, its log and `swept`. */
function sweptExactly(c: Case, emu: Emulator, swept: string[] | string, names: string[]) {
  c.check(
    JSON.stringify(swept) === JSON.stringify(names),
    `swept ${JSON.stringify(swept)}, expected ${JSON.stringify(names)}`
  )
  const ids = new Set(names.map(n => `/v2/deployments/${idOf(emu, n)}`))
  const others = deletes(emu).filter(d => !ids.has(d.path))
  c.check(
    others.length === 0,
    `deletes of other deployments: ${others.map(d => d.path).join(', ')}`
  )
  c.check(deletes(emu).length === names.length, `${deletes(emu).length} DELETE requests`)
  fixtureStays(c, emu)
}

// ---------------------------------------------------------------------------------------------
// The packed CLI, in a GitLab job, against a fake GitLab

let cliJs: string | undefined
const cliPath = () => (cliJs ??= join(packedPackage().dir, 'bin/cli.js'))

async function runCli(
  c: Case,
  args: string[],
  env: Record<string, string>,
  cwd: string
): Promise<CliRun> {
  const started = Date.now()
  const run = await runBin(cliPath(), args, { cwd, env, killAfterMs: 90_000 })
  c.runs++
  c.longestMs = Math.max(c.longestMs, Date.now() - started)
  for (const s of c.secrets)
    c.check(!(run.stdout + run.stderr).includes(s), `a secret leaked in the CLI's output`)
  return run
}

/** A scheduled GitLab pipeline of project 42 on main, with the emulator's key and the token. */
function gitlabJob(c: Case, emu: Emulator): Record<string, string> {
  c.secrets.push(emu.credentials().apiKey, GITLAB_TOKEN)
  return scheduledGitlabJob(emu)
}

async function inDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-rel-sweep-'))
  try {
    return await body(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe(GROUP, () => {
  const two = lane(2)

  reliabilityCase(
    GROUP,
    'a list answer that names production as a preview: the re-read shows its own name, it is held back; swept names only what was deleted',
    c =>
      withEmulator({}, async emu => {
        load(emu, [
          { name: 'my-agent' },
          { name: 'my-agent-pr-5', updatedAt: daysAgo(3) },
          { name: 'other-agent' }
        ])
        // The list answers production's entry, unchanged but for its name, as `my-agent-pr-3`.
        const list = (await answer(emu, '/v2/deployments?limit=100')) as {
          resources: { id: string; name: string }[]
          offset: number
        }
        const production = idOf(emu, 'my-agent')
        const resources = list.resources
          .map(d => (d.id === production ? { ...d, name: 'my-agent-pr-3' } : d))
          .filter(d => d.name.includes('my-agent-pr-'))
        emu.setFaults({
          kind: 'bad-schema',
          method: 'GET',
          path: '/v2/deployments',
          body: { resources, offset: resources.length }
        })
        // `sweep-max-count: 0`: every matching deployment goes, as the listing names them.
        const r = await c.run({
          inputs: sweepInputs(c, emu, {
            'sweep-names': 'my-agent-pr-{pr}',
            'sweep-max-count': '0',
            'sweep-closed': 'false'
          })
        })
        c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
        c.check(
          r.stdout.includes(
            'Held back "my-agent-pr-3": it changed since the listing (read again, it is named "my-agent")'
          ),
          'the log does not hold back the misnamed deployment, naming what the re-read showed'
        )
        sweptExactly(c, emu, sweptOf(r.outputs), ['my-agent-pr-5'])
        c.check(left(emu).join() === 'my-agent,other-agent', `left: ${left(emu).join(', ')}`)
      }),
    { lane: two }
  )

  reliabilityCase(
    GROUP,
    'swept in --output-file: the names deleted, read back alike by sh, bash, python-dotenv, GitLab and dotenv',
    c =>
      withEmulator({}, emu =>
        inDir(async dir => {
          load(emu, [
            { name: 'pv-a', updatedAt: daysAgo(20) },
            { name: 'pv-b', updatedAt: daysAgo(10) },
            { name: 'pv-c' }
          ])
          const file = join(dir, 'sweep.env')
          const run = await runCli(
            c,
            ['sweep', '--sweep-names=pv-*', '--sweep-max-age=7d', '--output-file', file],
            gitlabJob(c, emu),
            dir
          )
          c.check(run.code === 0, `exit ${run.code}: ${run.stderr.slice(-300)}`)
          sweptExactly(c, emu, sweptOf(outputsOf(run.stdout)), ['pv-a', 'pv-b'])
          c.check(!run.stderr.includes('Not in --output-file'), 'swept was left out of the file')
          const read = readBack(file, ['SWEPT'], dir)
          for (const reader of READERS)
            c.check(
              JSON.stringify(read[reader]) === JSON.stringify(['pv-a,pv-b']),
              `${reader} read SWEPT as ${JSON.stringify(read[reader])}, expected "pv-a,pv-b"`
            )
          c.check(left(emu).join() === 'pv-c', `left: ${left(emu).join(', ')}`)
        })
      ),
    { lane: two }
  )
})
