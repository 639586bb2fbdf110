// What a run claims, end to end through the bundle on Node 24: removed secrets are said, outputs
// are written as they are, short values are not masked, the repository of a deployment is kept,
// and only what the run saw happen is reported. The run's rules that the bundle adds nothing to
// are in-process, in __tests__/commands/deploy/command.trust.test.ts.
import { expect } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture } from '../../emulator/server.ts'
import {
  HOSTILE,
  hostileWorkspace,
  INJECTED,
  steeredLog,
  steeredMarkdown,
  type HostileWorkspace
} from '../builders/hostile-workspace.ts'
import {
  e2e,
  e2eWithGitHub,
  pullRequest,
  runAction as run,
  uniqueName,
  warnings,
  type E2E
} from './harness.ts'

// The update of the removed secrets is also a run from another workflow's repository: the
// deployment's repository is kept, with a warning.
e2e(
  'secrets the list leaves out: are named in the plan, the warning and the summary when an update removes them; the deployment’s repository is kept: another workflow’s repository is a warning, never “the branch moved on”',
  async ({ emu, inputs, named, seed }) => {
    const name = uniqueName('secrets')
    seed(name, { ALPHA: 'alpha-1111', BETA: 'beta-2222' })
    const dry = await run({
      inputs: inputs({ name, secrets: 'GAMMA=gamma-3333', 'dry-run': 'true' })
    })
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('secrets.ALPHA: *** -> (removed)')
    expect(dry.stdout).toContain('removes secrets ALPHA, BETA')
    expect(dry.summary).toContain('secrets.BETA: *** -> (removed)')
    emu.clearRequests()
    const r = await run({
      inputs: inputs({ name, secrets: 'GAMMA=gamma-3333' }),
      env: { GITHUB_REPOSITORY: 'acme/support-bot', GITHUB_SHA: 'f'.repeat(40) }
    })
    expect(r.code).toBe(0)
    const w = warnings(r.stdout).join('\n')
    expect(w).toMatch(/Secrets removed::This update removes secrets ALPHA, BETA/)
    expect(r.summary).toContain('secrets.ALPHA: *** -> (removed)')
    expect(named(name)[0]!.secrets.map(s => s.name)).toEqual(['GAMMA'])
    expect(w).toMatch(
      /builds https:\/\/github.com\/acme\/agent-server, not acme\/support-bot, the repository this run started from/
    )
    expect(w).not.toMatch(/moved on/)
  }
)

// Listing the same secrets, an explicit other repository, a late 404, an undocumented status, a
// name and an id of two deployments, a short timeout: the run's rules, in-process
// (__tests__/commands/deploy/command.trust.test.ts).

e2e(
  'outputs and masks: outputs are written as they are, even when a secret value equals one; values under 4 characters are not registered as masks, and one warning names them',
  async ({ inputs, named }) => {
    const name = uniqueName('outputs')
    const r = await run({
      inputs: inputs({
        name,
        secrets:
          'FLAG=true\nSTAGE=DEPLOYED\nLOG_LEVEL=info\nDEBUG=1\nREGION=eu\nTIER=dev\nTOKEN=s3cr3t-value'
      })
    })
    expect(r.code).toBe(0)
    const [d] = named(name)
    expect(r.outputs).toMatchObject({
      created: 'true',
      'revision-status': 'DEPLOYED',
      'deployment-id': d!.id,
      'revision-id': d!.latest_revision_id
    })
    const masks = r.stdout.split('\n').filter(l => l.startsWith('::add-mask::'))
    expect(masks).toContain('::add-mask::s3cr3t-value')
    for (const short of ['1', 'eu', 'dev']) expect(masks).not.toContain(`::add-mask::${short}`)
    const w = warnings(r.stdout).filter(l => /too short to be masked/.test(l))
    expect(w).toHaveLength(1)
    expect(w[0]).toMatch(/Secrets DEBUG, REGION, TIER/)
  }
)

e2e(
  'what a run claims: a cancel while the create is in flight says its outcome is unknown',
  async ({ emu, inputs }) => {
    const name = uniqueName('cancel-create')
    // A create that never answers by itself: the cancel lands while it is in flight, however slow
    // the machine (a 3 s delay raced the signal's delivery).
    emu.addFaults({ kind: 'delay', method: 'POST', path: '/v2/deployments', ms: 600_000 })
    const r = await run({
      inputs: inputs({ name }),
      cancel: { signal: 'SIGINT', when: 'Create the deployment' }
    })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(
      /create of deployment "[^"]+" was in flight: whether it was applied is unknown/
    )
    expect(r.outputs.created).toBe('')
  }
)

/** An upload of the hostile workspace with its checks on: graphs, and the smoke case. */
function hostileUpload(t: E2E, ws: HostileWorkspace, name: string): Record<string, string> {
  const { 'integration-id': _none, ...inputs } = t.inputs({
    name,
    source: 'internal_source',
    'graph-config-path': ws.configPath,
    'health-check': 'true',
    'health-check-window': '2s',
    'smoke-test': ws.smokePath
  })
  return inputs
}

e2e(
  'issue 33, defect 1: a graph id, a smoke case, a folder name carrying workflow commands, escapes and HTML steer neither the log nor the summary',
  async t => {
    const ws = hostileWorkspace()
    const r = await run({
      inputs: hostileUpload(t, ws, uniqueName('hostile-ws')),
      env: { GITHUB_WORKSPACE: ws.dir }
    })
    expect({ code: r.code, errors: r.errors }).toEqual({ code: 0, errors: [] })
    expect(r.outputs).toMatchObject({ health: 'healthy', smoke: 'passed' })
    expect(steeredLog(r.stdout)).toEqual([])
    expect(steeredLog(r.stderr)).toEqual([])
    expect(steeredMarkdown(r.summary)).toEqual([])
    // Shown, as text: the graph's check, the case's line.
    expect(r.stdout).toContain(`: :error title=${INJECTED}::${INJECTED}`)
    expect(r.stdout).toMatch(/POST \/assistants\/search, graph "agent/)
    expect(r.stdout).toMatch(/Smoke case "case agent/)
    expect(r.summary).toContain('&lt;img src=x onerror=alert(1)&gt;&#91;link&#93;')
    // The runner masked nothing it was not asked to: the status reads as it is.
    expect(r.stdout).not.toMatch(/^::add-mask::DEPLOYED/m)
    expect(r.outputs['revision-status']).toBe('DEPLOYED')
  }
)

e2e(
  'issue 33, defect 1: a dependency and a folder name carrying workflow commands, escapes and HTML are refused in plain text',
  async t => {
    const ws = hostileWorkspace({ missingDependency: true })
    const r = await run({
      inputs: hostileUpload(t, ws, uniqueName('hostile-dep')),
      env: { GITHUB_WORKSPACE: ws.dir }
    })
    expect(r.code).toBe(1)
    expect(t.writes()).toEqual([])
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(/the dependency '.\/dep agent %0A: :error title=cpd-injected::/)
    expect(r.errors[0]).toContain(`of 'agent # #[error]${INJECTED} <img`)
    expect(steeredLog(r.stdout)).toEqual([])
    expect(steeredMarkdown(r.summary)).toEqual([])
  }
)

e2eWithGitHub(
  'issue 33: the agent server’s escapes and HTML and a hostile case name show as text in the summary’s smoke table and in the PR comment',
  async (t, gh) => {
    const ws = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
    writeFileSync(join(ws, 'langgraph.json'), JSON.stringify({ graphs: { agent: './a.py:g' } }))
    const cases = [
      { name: `case ${HOSTILE}`, graph: 'agent', input: 'ping', expect: { contains: 'pong' } }
    ]
    writeFileSync(join(ws, 'smoke.json'), JSON.stringify(cases))
    t.emu.agents.scriptApp('*', { runs: { outputs: [`answer ${HOSTILE}`] } })
    const name = uniqueName('hostile-md')
    const r = await run({
      inputs: t.inputs({
        name,
        'health-check': 'true',
        'health-check-window': '2s',
        'smoke-test': 'smoke.json',
        'pr-comment': 'true',
        'github-token': 'ghs_fake_token_for_the_comment'
      }),
      event: pullRequest(33),
      env: { GITHUB_WORKSPACE: ws, GITHUB_API_URL: gh.url }
    })
    expect(r.code).toBe(1)
    expect(r.outputs.smoke).toBe('failed')
    expect(steeredLog(r.stdout)).toEqual([])
    expect(steeredMarkdown(r.summary)).toEqual([])
    // The case's row: its name and the server's output, as text.
    expect(r.summary).toMatch(
      /\| case agent .*&lt;\/details&gt;&lt;img src=x onerror=alert\(1\)&gt;&#91;link&#93;/
    )
    const comments = gh.comments(33)
    expect(comments).toHaveLength(1)
    expect(steeredMarkdown(comments[0]!.body)).toEqual([])
    expect(comments[0]!.body).toContain('smoke case "case agent')
  }
)

e2e(
  'issue 33: the url output holds no shell syntax (percent-encoded), so even a run: line that pastes it in runs nothing',
  async t => {
    const dir = mkdtempSync(join(tmpdir(), 'cpd-url-'))
    const mark = join(dir, 'ran')
    const fixture = demoFixture()
    const dep = fixture.deployments![0]!
    const custom = `https://x.example/$(id>${mark})/\`id>${mark}\`?k=\${CONTROL_PLANE_API_KEY}&q='a'"b"{c};!*~\\`
    dep.source_config = { ...dep.source_config, custom_url: custom }
    t.emu.loadFixture(fixture)
    const r = await run({ inputs: t.inputs({ 'deployment-id': dep.id!, ref: 'main' }) })
    expect(r.code).toBe(0)
    const m = encodeURIComponent(mark).replaceAll('%2F', '/')
    expect(r.outputs.url).toBe(
      `https://x.example/%24%28id%3E${m}%29/%60id%3E${m}%60?k=%24%7BCONTROL_PLANE_API_KEY%7D&q=%27a%27%22b%22%7Bc%7D%3B%21%2A%7E%5C`
    )
    // As a workflow's `run: echo "${{ steps.deploy.outputs.url }}"` would paste it.
    const echoed = execFileSync('bash', ['-c', `printf '%s' "${r.outputs.url}"`], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, CONTROL_PLANE_API_KEY: t.key }
    })
    expect(echoed).toBe(r.outputs.url)
    expect(existsSync(mark)).toBe(false)
    expect(r.summary).toContain(`| URL | ${r.outputs.url} |`)
  }
)
