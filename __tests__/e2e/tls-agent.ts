// Agent servers under names that are not this machine's, for tests of where the key goes: one TLS
// server on loopback with a certificate made at test time for every name given (and IP literals),
// trusted through NODE_EXTRA_CA_CERTS, reached through a loopback CONNECT proxy (HTTPS_PROXY) that
// leads every tunnel to it, so no name needs a resolver. It records each request's host, path and
// key; a deployment whose server is `open` answers 200 to anyone (as a hostile one would), the
// others 401 without a key. A name given to `relay` is a remote control plane instead: its requests
// go on to an emulator on loopback (addressed as the emulator, which answers loopback names only).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttps } from 'node:https'
import { connect, createServer, isIP, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { pushedFixture } from './harness.ts'

export interface Seen {
  host: string
  path: string
  key: string | undefined
}

export interface TlsAgents {
  /** The environment of a run that reaches them: the proxy and the trusted certificate. */
  env: Record<string, string>
  seen: Seen[]
  /** Requests whose path starts with `/<name>/` (or is `/<name>`). */
  probesOf(name: string): Seen[]
  /** The server of deployment `name` answers 200 whether or not the key came. */
  open(name: string): void
  /** Requests to https://`host` go on to `origin` (an emulator's http URL): a remote base-url. */
  relay(host: string, origin: string): void
  close(): Promise<void>
}

export async function startTlsAgents(names: string[]): Promise<TlsAgents> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-tls-agents-'))
  const san = names.map(n => (isIP(n) ? `IP:${n}` : `DNS:${n}`)).join(',')
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'],
      ...['-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${san}`]
    ],
    { stdio: 'ignore' }
  )
  const seen: Seen[] = []
  const opened = new Set<string>()
  const relays = new Map<string, string>()
  const sockets = new Set<Socket>()
  const tls = createHttps(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '')
      const to = relays.get(host)
      if (to !== undefined) return relay(req, res, to)
      const key = req.headers['x-api-key'] as string | undefined
      seen.push({ host, path: req.url ?? '', key })
      const pass = key !== undefined || opened.has((req.url ?? '').split('/')[1] ?? '')
      res.writeHead(pass ? 200 : 401, { 'content-type': 'application/json' })
      res.end(pass ? '{"ok":true}' : '{"detail":"Missing API key"}')
    }
  )
  await new Promise<void>(r => tls.listen(0, '127.0.0.1', r))
  const tlsPort = (tls.address() as { port: number }).port
  const proxy = createServer(client => {
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
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`
  return {
    env: { HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') },
    seen,
    probesOf: name => seen.filter(s => s.path === `/${name}` || s.path.startsWith(`/${name}/`)),
    open: name => void opened.add(name),
    relay: (host, origin) => void relays.set(host, origin),
    close: async () => {
      for (const s of sockets) s.destroy()
      tls.closeAllConnections()
      await new Promise(r => tls.close(r))
      await new Promise(r => proxy.close(r))
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** One request passed on to `origin`, addressed to it, and its answer passed back. */
function relay(req: IncomingMessage, res: ServerResponse, origin: string): void {
  const target = new URL(req.url ?? '/', origin)
  const out = httpRequest(
    target,
    { method: req.method, headers: { ...req.headers, host: target.host } },
    answer => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    }
  )
  out.on('error', () => res.destroy())
  req.pipe(out)
}

/** A deployment `name` that exists before the run, with the server's custom_url set to `url`. */
export function seedWithUrl(emu: Emulator, name: string, url: string): void {
  const c = emu.credentials()
  const base = pushedFixture()
  emu.loadFixture({
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
