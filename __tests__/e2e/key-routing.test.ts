// Where the health gate sends the API key, end to end through the action's built bundle (the packed
// CLI's in packed-key-routing.test.ts). A deployment's custom_url is the server's text: here it names
// https://agent.evil.example, a TLS server on loopback with a certificate made for the test and
// trusted through NODE_EXTRA_CA_CERTS, reached through a loopback CONNECT proxy (HTTPS_PROXY),
// so the name needs no resolver. That server must never see the key; a host the user vouched for
// (the custom-url input, health-check-hosts) gets it. A health-check-hosts refused as an input is
// in-process: __tests__/commands/deploy/command.keys.test.ts.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  e2eContext,
  leaks,
  mainAtPushCommit,
  runAction,
  uniqueName,
  withEmulator,
  type E2E
} from './harness.ts'
import { seedWithUrl as seed, startTlsAgents, type TlsAgents } from './tls-agent.ts'

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
const probesOf = (host: string, name: string) => agents.probesOf(name).filter(s => s.host === host)
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
      runAction({ inputs: t.inputs({ name, ...GATE, 'api-dialect': 'langsmith' }), env: network() })
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
