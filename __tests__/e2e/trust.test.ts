import { expect, afterAll, beforeAll, test, describe } from '@jest/globals'
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
  e2eContext,
  leaks,
  mainAtPushCommit,
  runAction,
  withEmulator,
  type E2E
} from './harness.ts'
import { seedWithUrl as seed, startTlsAgents, type TlsAgents } from './tls-agent.ts'
import { withGateProxy as withProxy } from './gate.ts'

// What a run claims, end to end through the bundle on Node 24: removed secrets are said, outputs
// are written as they are, short values are not masked, the repository of a deployment is kept,
// and only what the run saw happen is reported. The run's rules that the bundle adds nothing to
// are in-process, in __tests__/commands/deploy/command.health.test.ts.

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
// (__tests__/commands/deploy/command.health.test.ts).

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

// Where the health gate sends the API key, end to end through the action's built bundle (the packed
// CLI's in packed-key-routing.test.ts). A deployment's custom_url is the server's text: here it names
// https://agent.evil.example, a TLS server on loopback with a certificate made for the test and
// trusted through NODE_EXTRA_CA_CERTS, reached through a loopback CONNECT proxy (HTTPS_PROXY),
// so the name needs no resolver. That server must never see the key; a host the user vouched for
// (the custom-url input, health-check-hosts) gets it. A health-check-hosts refused as an input is
// in-process: __tests__/commands/deploy/command.health.test.ts.
describe('key-routing', () => {
  const EVIL = 'agent.evil.example'
  const GOOD = 'agent.good.example'
  /** Remote control planes: `<name>.remote.example`, relayed to a test's emulator. */
  const REMOTE = '*.remote.example'
  /** Where the service hosts agent servers: `<name>-<hash>.us.langgraph.app`. */
  const SERVICE = '*.us.langgraph.app'

  let agents: TlsAgents

  beforeAll(async () => {
    agents = await startTlsAgents([EVIL, GOOD, REMOTE, SERVICE])
  })

  afterAll(async () => {
    await agents.close()
  })

  const network = () => agents.env
  const seedWithUrl = (t: E2E, name: string, url: string) => seed(t.emu, name, url)
  const probesOf = (host: string, name: string) =>
    agents.probesOf(name).filter(s => s.host === host)
  const open = { add: (name: string) => agents.open(name) }

  const GATE = { 'health-check': 'true', 'health-check-window': '0', timeout: '60s' }

  const e2e = (
    title: string,
    body: (t: E2E) => Promise<void>,
    ms = 60_000,
    dialect: 'interface' | 'langsmith' = 'interface'
  ) =>
    test.concurrent(
      title,
      () => withEmulator({ speed: 4, dialect }, emu => body(e2eContext(mainAtPushCommit(emu)))),
      ms
    )

  e2e(
    'the action, langsmith dialect: the key goes to the host the control plane reported for this deployment, never to another deployment’s *.langgraph.app',
    async t => {
      const [own, other] = [uniqueName('ls-own'), uniqueName('ls-other')]
      const host = `${own}-5f1d8e7c2b9a.us.langgraph.app`
      const deploy = (name: string) =>
        runAction({
          inputs: t.inputs({ name, ...GATE, 'api-dialect': 'langsmith' }),
          env: network()
        })
      seedWithUrl(t, own, `https://${host}/${own}`)
      const ownRun = await deploy(own)
      // Another deployment whose custom_url names the first one's server: that host is not its own.
      seedWithUrl(t, other, `https://${host}/${other}`)
      const otherRun = await deploy(other)
      expect(ownRun.errors).toEqual([])
      expect(ownRun.outputs.health).toBe('healthy')
      expect(probesOf(host, own).length).toBeGreaterThanOrEqual(1)
      expect(probesOf(host, own).every(p => p.key === t.key)).toBe(true)
      expect(probesOf(host, other).length).toBeGreaterThanOrEqual(1)
      expect(probesOf(host, other).filter(p => p.key !== undefined)).toEqual([])
      expect(otherRun.code).toBe(1)
      expect(otherRun.errors[0]).toMatch(
        /title=Health check host not vouched for::.*not the agent server host the control plane reported for this deployment/
      )
      for (const r of [ownRun, otherRun]) expect(leaks(r, [t.key])).toEqual([])
    },
    60_000,
    'langsmith'
  )

  e2e(
    'the action: a hostile custom_url on another https host gets probes without the key, even when it answers 2xx',
    async t => {
      const name = uniqueName('evil')
      open.add(name)
      seedWithUrl(t, name, `https://${EVIL}/${name}/`)
      const r = await runAction({
        inputs: t.inputs({ name, ...GATE, 'health-check-hosts': `*.good.example, ${GOOD}` }),
        env: network()
      })
      const probes = probesOf(EVIL, name)
      expect(probes.length).toBeGreaterThanOrEqual(1)
      expect(probes.filter(p => p.key !== undefined)).toEqual([])
      expect(r.stdout).toContain(`${EVIL} is not vouched for`)
      expect(r.code).toBe(0)
      expect(leaks(r, [t.key])).toEqual([])
    }
  )

  e2e(
    'the action: a 401 from a host not vouched for ends the check naming health-check-hosts; the key never goes there',
    async t => {
      const name = uniqueName('evil401')
      seedWithUrl(t, name, `https://${EVIL}:8443/${name}`)
      // `evil.example` vouches for that very name only; no pattern matches a look-alike.
      const hosts = 'evil.example, *.agent.evil.example, evil-example.com, agent.evil.example.net'
      const r = await runAction({
        inputs: t.inputs({ name, ...GATE, 'health-check-hosts': hosts }),
        env: network()
      })
      const probes = probesOf(EVIL, name)
      expect(probes).toHaveLength(1)
      expect(probes[0]!.key).toBeUndefined()
      expect(r.code).toBe(1)
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatch(
        new RegExp(
          `^::error title=Health check host not vouched for::The agent server at ${EVIL}:8443 answered 401 .* to a probe sent without the API key: .*not in \`health-check-hosts\``
        )
      )
      expect(r.outputs.health).toBe('')
      expect(r.outputs['revision-status']).toBe('DEPLOYED')
      expect(leaks(r, [t.key])).toEqual([])
    }
  )

  e2e(
    'the action: the host of the custom-url input, and a health-check-hosts pattern, get the key',
    async t => {
      const [a, b] = [uniqueName('good'), uniqueName('good')]
      seedWithUrl(t, b, `https://${GOOD}/${b}`)
      const [byInput, byPattern] = await Promise.all([
        runAction({
          inputs: t.inputs({ name: a, ...GATE, 'custom-url': `https://${GOOD}/${a}` }),
          env: network()
        }),
        runAction({
          inputs: t.inputs({ name: b, ...GATE, 'health-check-hosts': '*.good.example' }),
          env: network()
        })
      ])
      for (const [r, n] of [
        [byInput, a],
        [byPattern, b]
      ] as const) {
        expect(r.errors).toEqual([])
        expect(r.outputs.health).toBe('healthy')
        const probes = probesOf(GOOD, n)
        expect(probes.length).toBeGreaterThanOrEqual(1)
        expect(probes.every(p => p.key === t.key)).toBe(true)
        expect(leaks(r, [t.key])).toEqual([])
      }
    }
  )

  e2e(
    'the action: the checks of the new revision (/info, graphs, smoke cases) go through the proxy by the same rule: no key to a host not vouched for',
    async t => {
      const name = uniqueName('evilpost')
      open.add(name)
      seedWithUrl(t, name, `https://${EVIL}/${name}`)
      const ws = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
      writeFileSync(join(ws, 'langgraph.json'), '{"graphs": {"agent": "./a.py:graph"}}')
      writeFileSync(join(ws, 'smoke.yaml'), '- {name: one, graph: agent, input: {q: 1}}\n')
      const r = await runAction({
        inputs: t.inputs({ name, ...GATE, 'smoke-test': 'smoke.yaml' }),
        env: { ...network(), GITHUB_WORKSPACE: ws }
      })
      const paths = probesOf(EVIL, name).map(p => p.path.slice(name.length + 1))
      expect(paths).toEqual(expect.arrayContaining(['/ok', '/info', '/assistants/search']))
      expect(probesOf(EVIL, name).filter(p => p.key !== undefined)).toEqual([])
      expect(leaks(r, [t.key])).toEqual([])
    }
  )

  e2e(
    'the action, with a remote base-url: a custom_url on a loopback port gets its probes without the key, and an upload URL on loopback gets no PUT',
    async t => {
      // The control plane is remote; what it answers names the runner's own ports (the emulator's).
      const cp = `${uniqueName('cp')}.remote.example`
      agents.relay(cp, t.emu.url)
      const remote = { 'base-url': `https://${cp}` }
      const ws = mkdtempSync(join(tmpdir(), 'cpd-ws-'))
      writeFileSync(join(ws, 'langgraph.json'), '{"graphs": {"agent": "./agent.py:graph"}}')
      writeFileSync(join(ws, 'agent.py'), 'graph = None\n')
      const { 'integration-id': _none, ...uploadInputs } = t.inputs({
        name: uniqueName('loopput'),
        source: 'internal_source',
        ...remote
      })
      const [gate, upload] = await Promise.all([
        runAction({
          inputs: t.inputs({ name: uniqueName('loopkey'), ...GATE, ...remote }),
          env: network()
        }),
        runAction({ inputs: uploadInputs, env: { ...network(), GITHUB_WORKSPACE: ws } })
      ])
      const probes = t.emu.agents.probes()
      expect(probes.length).toBeGreaterThanOrEqual(1)
      expect(probes.filter(p => p.key !== 'missing')).toEqual([])
      expect(gate.code).toBe(1)
      expect(gate.errors).toHaveLength(1)
      expect(gate.errors[0]).toMatch(
        /title=Health check host not vouched for::.*127\.0\.0\.1:\d+ is not vouched for \(.*not loopback with `base-url` on loopback too\)/
      )
      expect(upload.code).toBe(1)
      expect(upload.errors).toHaveLength(1)
      expect(upload.errors[0]).toMatch(
        /title=Upload URL refused::The source archive was not sent: the upload URL names this machine \(127\.0\.0\.1:\d+\), but the control plane is not on this machine/
      )
      expect(t.emu.state().uploads.filter(u => u.bytes !== null)).toEqual([])
      expect(leaks(gate, [t.key])).toEqual([])
      expect(leaks(upload, [t.key])).toEqual([])
    }
  )
})

// What the action does on its own, end to end through the bundle, against a control plane that
// answers wrongly: workflow commands in server text are neutralised in the runner's log, a url
// that is not a plain http(s) URL is left out of the outputs, and the pull-request comment leaves
// another user's comment alone and posts nothing on a dry run. The run's own rules (another
// deployment's answer, the rollback among other runs, a deployment being deleted, the wrong
// dialect) run in-process, in __tests__/commands/deploy/command.failure.test.ts.
describe('autonomy', () => {
  const TOKEN = 'ghs_e2eAutonomyToken0123456789'
  // ---------------------------------------------------------------------------------------------
  // Workflow commands in server text, the url output and the pull-request comment.

  e2e('##[ in build-log lines and error details is neutralised', async ({ emu, inputs }) => {
    emu.script({
      outcome: 'BUILD_FAILED',
      logLines: ['##[add-mask]visible-word', '##[stop-commands]tok', 'then ##[error]raised']
    })
    const r = await run({ inputs: inputs({ name: uniqueName('legacy') }) })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toContain('##[')
    expect(r.stdout).toContain('# #[add-mask]visible-word')
    expect(r.stdout).toContain('then # #[error]raised')
    expect(r.errors).toHaveLength(1)
  })

  e2e('##[ in an error detail is neutralised', async ({ emu, inputs }) => {
    emu.addFaults({
      kind: 'detail',
      status: 400,
      method: 'POST',
      path: '/v2/deployments',
      detail: '##[error]forged ##[set-output name=url]x ::error::also'
    })
    const r = await run({ inputs: inputs({ name: uniqueName('legacy-detail') }) })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toContain('##[')
    expect(r.stdout).toContain('# #[error]forged')
    expect(r.errors).toHaveLength(1)
  })

  // Four overlapping runs leave one comment: a race, in reliability/autonomy.test.ts.
  // One run on a pull request, through a control plane whose custom_url is the lie.
  e2eWithGitHub(
    'the url output: a custom_url that is not a plain http(s) URL is left out, with one warning; pr-comment: a marked comment by another user is left alone, and said once',
    async (t, gh) => {
      const name = uniqueName('pr-other')
      const { commentMarker } = await import('../../src/github/comment-body.ts')
      gh.seedComments(22, [`${commentMarker(name)}\nwritten by a person`], 'a-person')
      await withProxy(t.emu, async proxy => {
        // A service without the newer top-level `url`, whose custom_url is the lie.
        const lie = (body: unknown) => {
          const d = body as { source_config?: Record<string, unknown>; url?: unknown }
          if (d && typeof d === 'object' && d.source_config) {
            d.source_config.custom_url = 'https://ok.example/ ##[add-mask]x'
            delete d.url
          }
          return d
        }
        proxy.rewrite(
          x => x.path.startsWith('/v2/deployments') && !x.path.includes('/revisions'),
          (_s, b) => {
            const list = b as { resources?: unknown[] }
            if (Array.isArray(list?.resources)) list.resources.forEach(lie)
            else lie(b)
            return b
          }
        )
        const r = await run({
          inputs: t.inputs({
            name,
            'base-url': proxy.url,
            'pr-comment': 'true',
            'github-token': TOKEN
          }),
          event: pullRequest(22),
          env: { GITHUB_API_URL: gh.url }
        })
        expect(r.code).toBe(0)
        expect(r.outputs.url ?? '').toBe('')
        expect(warnings(r.stdout).filter(w => w.includes('custom_url'))).toHaveLength(1)
        const [theirs, ours] = gh.comments(22)
        expect(theirs!.body).toContain('written by a person')
        expect(ours!.user.login).toBe('github-actions[bot]')
        expect(r.stdout.split('\n').filter(l => l.includes('a-person'))).toHaveLength(1)
      })
    }
  )

  e2eWithGitHub(
    'pr-comment: a dry run posts nothing and prints the comment it would post',
    async (t, gh) => {
      const name = uniqueName('pr-dry')
      t.seed(name)
      const r = await run({
        inputs: t.inputs({ name, 'pr-comment': 'true', 'github-token': TOKEN, 'dry-run': 'true' }),
        event: pullRequest(23),
        env: { GITHUB_API_URL: gh.url }
      })
      expect(r.code).toBe(0)
      expect(gh.requests.filter(q => q.path.includes('/comments'))).toEqual([])
      expect(gh.comments(23)).toHaveLength(0)
      expect(r.stdout).toContain('Dry run: no comment is posted on pull request #23; it would say:')
      expect(r.stdout).toContain(name)
    }
  )
})
