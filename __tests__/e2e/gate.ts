// A pass-through server in front of the emulator, for races decided by events instead of time:
// a request that matches a gate is held until the test opens it (after acting as another run,
// say), and an answer can be replaced by one the test writes (a lying control plane). Point
// `base-url` at `url`.
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Exchange {
  method: string
  path: string
  /** The query string, without its `?` ('' for none); a match may read it. */
  query?: string
}

/**
 * The read of a failed revision's log, newest first (after-failure's): not the wait's reads of
 * the build log while it builds, which go oldest first.
 */
export const failureLogRead = (x: Exchange): boolean =>
  /\/logs$/.test(x.path) && /\border=desc\b/.test(x.query ?? '')

export interface Gate {
  /** Resolves when the first matching request arrives (it is held from then on). */
  reached: Promise<void>
  /** Lets the held request (and every later match) through. */
  open(): void
}

export interface GateProxy {
  url: string
  /** Holds the first request that matches until `open()`; later matches pass. */
  gate(match: (x: Exchange) => boolean): Gate
  /**
   * Replaces the answer to matching requests: `answer` gets the emulator's status and JSON body
   * and returns the body to send instead (or undefined to pass it unchanged).
   */
  rewrite(match: (x: Exchange) => boolean, answer: (status: number, body: unknown) => unknown): void
  /** Sends matching requests on as `to` instead (without their body): a write never made. */
  divert(match: (x: Exchange) => boolean, to: Exchange): void
  close(): Promise<void>
}

export async function startGateProxy(target: string): Promise<GateProxy> {
  const upstream = new URL(target)
  const base = upstream.pathname.replace(/\/+$/, '')
  const gates: { match: (x: Exchange) => boolean; held: Promise<void>; hit: () => void }[] = []
  const diversions: { match: (x: Exchange) => boolean; to: Exchange }[] = []
  const rewrites: {
    match: (x: Exchange) => boolean
    answer: (s: number, b: unknown) => unknown
  }[] = []

  const forward = (method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method,
            path: base + path,
            agent: false,
            headers: { ...headers, host: upstream.host }
          },
          res => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 502,
                headers: res.headers,
                body: Buffer.concat(chunks)
              })
            )
          }
        )
        req.on('error', reject)
        req.end(body)
      }
    )

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const method = req.method ?? 'GET'
      const full = req.url ?? '/'
      const [path, query = ''] = full.split('?') as [string, string?]
      const x = { method, path, query }
      const gate = gates.find(g => g.match(x))
      if (gate) {
        gates.splice(gates.indexOf(gate), 1)
        gate.hit()
        await gate.held
      }
      try {
        const to = diversions.find(d => d.match(x))?.to
        const answer = to
          ? await forward(
              to.method,
              to.path,
              { ...req.headers, 'content-length': '0' },
              Buffer.alloc(0)
            )
          : await forward(method, full, req.headers, Buffer.concat(chunks))
        const rewrite = rewrites.find(r => r.match(x))
        let body = answer.body
        if (rewrite) {
          const json = JSON.parse(body.toString('utf8') || 'null') as unknown
          const replaced = rewrite.answer(answer.status, json)
          if (replaced !== undefined) body = Buffer.from(JSON.stringify(replaced))
        }
        const headers = { ...answer.headers, 'content-length': String(body.length) }
        delete headers['transfer-encoding']
        res.writeHead(answer.status, headers)
        res.end(body)
      } catch {
        res.destroy()
      }
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    gate: match => {
      let hit!: () => void
      let open!: () => void
      const reached = new Promise<void>(r => (hit = r))
      const held = new Promise<void>(r => (open = r))
      gates.push({ match, held, hit })
      return { reached, open }
    },
    divert: (match, to) => {
      diversions.push({ match, to })
    },
    rewrite: (match, answer) => {
      rewrites.push({ match, answer })
    },
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Runs `body` with a gate proxy in front of the emulator, closed after it. */
export async function withGateProxy<T>(
  emu: { url: string },
  body: (p: GateProxy) => Promise<T>
): Promise<T> {
  const proxy = await startGateProxy(emu.url)
  try {
    return await body(proxy)
  } finally {
    await proxy.close()
  }
}
