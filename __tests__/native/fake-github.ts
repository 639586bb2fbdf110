// A local fake of the two GitHub REST endpoints that GitHub deployments use, on node:http and a
// free port: point GITHUB_API_URL at `url`. It records every request (method, path, headers,
// JSON body) and answers like api.github.com; `failWith` makes it answer an error instead.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

export interface FakeGitHub {
  url: string
  requests: FakeRequest[]
  /** Statuses posted, in order, per deployment id. */
  statuses(deploymentId: number): string[]
  /** Answer this status (with GitHub's error body) to requests whose path matches. */
  failWith(status: number, message: string, path?: RegExp): void
  reset(): void
  close(): Promise<void>
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const requests: FakeRequest[] = []
  let failure: { status: number; message: string; path: RegExp } | undefined
  let nextId = 1000

  const server = createServer((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => {
      let body: Record<string, unknown>
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
      } catch {
        body = { unparsed: text }
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/'
      requests.push({ method: req.method ?? '', path, headers: req.headers, body })
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
        res.end(JSON.stringify(payload))
      }
      if (failure && failure.path.test(path)) {
        send(failure.status, {
          message: failure.message,
          documentation_url: 'https://docs.github.com/rest',
          status: String(failure.status)
        })
        return
      }
      if (req.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/deployments$/.test(path)) {
        const id = nextId++
        send(201, {
          id,
          sha: body.ref,
          ref: body.ref,
          environment: body.environment,
          task: body.task
        })
        return
      }
      const status = /^\/repos\/[^/]+\/[^/]+\/deployments\/(\d+)\/statuses$/.exec(path)
      if (req.method === 'POST' && status) {
        send(201, { id: nextId++, state: body.state, deployment_url: path })
        return
      }
      send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' })
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    statuses: id =>
      requests
        .filter(r => r.path.endsWith(`/deployments/${id}/statuses`))
        .map(r => String(r.body.state)),
    failWith: (status, message, path = /./) => {
      failure = { status, message, path }
    },
    reset: () => {
      requests.length = 0
      failure = undefined
    },
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
