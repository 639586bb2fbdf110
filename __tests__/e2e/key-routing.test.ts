// Where the health gate sends the API key, end to end through the built bundles (the action's and
// the packed CLI's). A deployment's custom_url is the server's text: here it names
// https://agent.evil.example, a TLS server on loopback with a certificate made for the test and
// trusted through NODE_EXTRA_CA_CERTS, reached through a loopback CONNECT proxy (HTTPS_PROXY),
// so the name needs no resolver. That server must never see the key; a host the user vouched for
// (the custom-url input, health-check-hosts) gets it.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttps, type Server as HttpsServer } from 'node:https'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoFixture, type Emulator } from '../../emulator/server.ts'
import { NODE24, packedPackage } from '../cli/package.ts'
import { e2eContext, leaks, runAction, uniqueName, withEmulator, type E2E } from './harness.ts'

const EVIL = 'agent.evil.example'
const GOOD = 'agent.good.example'

interface Seen {
  host: string
  path: string
  key: string | undefined
}

let dir: string
let cliJs: string
let tls: HttpsServer
let proxy: Server
let proxyUrl: string
const seen: Seen[] = []
const sockets = new Set<Socket>()
/** Deployments whose server answers 200 to anyone (as a hostile one would); others 401 without a key. */
const open = new Set<string>()

beforeAll(async () => {
  // Built (or found in the cache) before any test starts: the build blocks this worker.
  cliJs = join(packedPackage().dir, 'dist/cli.js')
  dir = mkdtempSync(join(tmpdir(), 'cpd-key-routing-'))
  execFileSync('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'],
    ...['-subj', `/CN=${EVIL}`, '-addext', `subjectAltName=DNS:${EVIL},DNS:${GOOD}`]
  ])
  tls = createHttps(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '')
      const key = req.headers['x-api-key'] as string | undefined
      seen.push({ host, path: req.url ?? '', key })
      const pass = key !== undefined || open.has((req.url ?? '').split('/')[1] ?? '')
      res.writeHead(pass ? 200 : 401, { 'content-type': 'application/json' })
      res.end(pass ? '{"ok":true}' : '{"detail":"Missing API key"}')
    }
  )
  await new Promise<void>(r => tls.listen(0, '127.0.0.1', r))
  const tlsPort = (tls.address() as { port: number }).port
  // Every tunnel leads to the TLS server, whatever host it names.
  proxy = createServer(client => {
    sockets.add(client)
    client.on('error', () => undefined)
    client.once('data', head => {
      if (!head.toString('latin1').startsWith('CONNECT ')) return void client.destroy()
      const upstream = connect(tlsPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        client.pipe(upstream).pipe(client)
      })
      sockets.add(upstream)
      upstream.on('error', () => client.destroy())
    })
  })
  await new Promise<void>(r => proxy.listen(0, '127.0.0.1', r))
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`
}, 300_000)

afterAll(async () => {
  for (const s of sockets) s.destroy()
  tls.closeAllConnections()
  await new Promise(r => tls.close(r))
  await new Promise(r => proxy.close(r))
  rmSync(dir, { recursive: true, force: true })
})

/** The network of the runner: the proxy, and the test's certificate trusted. */
const network = () => ({
  HTTPS_PROXY: proxyUrl,
  NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem')
})

/** A deployment that exists with the server's custom_url set to `url`. */
function seedWithUrl(t: E2E, name: string, url: string): void {
  const c = t.emu.credentials()
  const base = demoFixture()
  t.emu.loadFixture({
    ...base,
    deployments: [
      ...(base.deployments ?? []),
      {
        tenant_id: c.tenantId,
        name,
        source: 'codehost',
        source_config: {
          integration_id: c.integrationId,
          repo_url: 'https://github.com/acme/agent-server',
          custom_url: url
        },
        source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
        secrets: []
      }
    ]
  })
}

const probesOf = (host: string, name: string) =>
  seen.filter(s => s.host === host && s.path.startsWith(`/${name}/`))

const GATE = { 'health-check': 'true', 'health-check-window': '0', timeout: '60s' }

const e2e = (title: string, body: (t: E2E) => Promise<void>, ms = 60_000) =>
  test.concurrent(title, () => withEmulator({ speed: 4 }, emu => body(e2eContext(emu))), ms)

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
        `^::error title=Health check host not vouched for::The agent server at ${EVIL}:8443 answered 401 .* to a probe sent without the api-key: .*not in \`health-check-hosts\``
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

/** The packed CLI, in a clean environment but `env`. */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>(resolve => {
    const child = spawn(NODE24, [cliJs, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

function cliEnv(emu: Emulator): Record<string, string> {
  const c = emu.credentials()
  return {
    CONTROL_PLANE_API_KEY: c.apiKey,
    CONTROL_PLANE_BASE_URL: emu.url,
    CONTROL_PLANE_INTEGRATION_ID: c.integrationId ?? '',
    CONTROL_PLANE_TENANT_ID: c.tenantId,
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
    CONTROL_PLANE_REF: 'main',
    CONTROL_PLANE_POLL_INTERVAL: '2s',
    ...network()
  }
}

test.concurrent(
  'the CLI: a hostile custom_url never gets the key; its 401 names --health-check-hosts and CONTROL_PLANE_HEALTH_CHECK_HOSTS',
  () =>
    withEmulator({ speed: 4 }, async emu => {
      const t = e2eContext(emu)
      const [evil, good] = [uniqueName('clievil'), uniqueName('cligood')]
      seedWithUrl(t, evil, `https://${EVIL}/${evil}`)
      const args = ['--health-check', 'true', '--health-check-window', '0', '--timeout', '60s']
      const [bad, fine] = await Promise.all([
        cli(['deploy', '--name', evil, ...args], {
          ...cliEnv(emu),
          CONTROL_PLANE_HEALTH_CHECK_HOSTS: 'evil-example.com,example.com.evil.net'
        }),
        cli(['deploy', '--name', good, ...args, '--health-check-hosts', GOOD], {
          ...cliEnv(emu),
          CONTROL_PLANE_CUSTOM_URL: `https://${GOOD}/${good}`
        })
      ])
      const evilProbes = probesOf(EVIL, evil)
      expect(evilProbes.length).toBeGreaterThanOrEqual(1)
      expect(evilProbes.filter(p => p.key !== undefined)).toEqual([])
      expect(bad.stdout + bad.stderr).not.toContain(t.key)
      expect(bad.code).toBe(1)
      expect(bad.stderr).toMatch(
        /answered 401 .* to a probe sent without the api-key: .*not in `--health-check-hosts` \(or CONTROL_PLANE_HEALTH_CHECK_HOSTS\)/
      )
      expect({ code: fine.code, err: fine.stderr.match(/error.*/gi) }).toEqual({
        code: 0,
        err: null
      })
      expect(probesOf(GOOD, good).every(p => p.key === t.key)).toBe(true)
      expect(probesOf(GOOD, good).length).toBeGreaterThanOrEqual(1)
      expect(fine.stdout + fine.stderr).not.toContain(t.key)
    }),
  300_000
)
