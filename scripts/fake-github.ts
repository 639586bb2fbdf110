// A local fake of the GitHub REST endpoints this action uses (deployments, their statuses, and a
// pull request's issue comments), on node:http and a free port: point GITHUB_API_URL at `url`.
// It records every request (method, path, query, headers, JSON body) and answers like
// api.github.com; `failWith` makes it answer an error instead, `answerWith` any body. With
// `prefix` it serves under a path, as GitHub Enterprise Server does (`/api/v3`).
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeRequest {
  method: string
  /** The path without the prefix and the query. */
  path: string
  /** The path as requested, prefix included. */
  fullPath: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

export interface FakeComment {
  id: number
  body: string
  user: { login: string; type: string }
}

export interface FakeGitHub {
  url: string
  requests: FakeRequest[]
  /** Statuses posted, in order, per deployment id. */
  statuses(deploymentId: number): string[]
  /** The comments on a pull request, oldest first. */
  comments(issue: number): FakeComment[]
  /** Adds comments by someone else (to fill pages), or by `login` when given. */
  seedComments(issue: number, bodies: string[], login?: string): void
  /**
   * Holds each comment create until `n` creates are pending, then answers them all: overlapping
   * runs that each listed the comments before any of them created one, without timing.
   */
  holdCreates(n: number): void
  /**
   * A pull request's state for `GET /repos/{owner}/{repo}/pulls/{number}` (unknown numbers are
   * 404); `onRead` runs before each answer (to change the world between a read and what follows).
   */
  setPull(number: number, state: 'open' | 'closed' | 'merged', onRead?: () => void): void
  /** Answer this status (with GitHub's error body) to requests whose path matches. */
  failWith(status: number, message: string, path?: RegExp): void
  /** Answer this status and raw body to requests whose path (and method) match. */
  answerWith(status: number, body: string, path?: RegExp, method?: string): void
  reset(): void
  close(): Promise<void>
}

export async function startFakeGitHub(opts: { prefix?: string } = {}): Promise<FakeGitHub> {
  const prefix = (opts.prefix ?? '').replace(/\/+$/, '')
  const requests: FakeRequest[] = []
  const comments = new Map<number, FakeComment[]>()
  let failure: { status: number; message: string; path: RegExp } | undefined
  let canned: { status: number; body: string; path: RegExp; method?: string } | undefined
  let nextId = 1000
  let port = 0
  let hold: { n: number; pending: (() => void)[] } | undefined
  const pulls = new Map<number, { state: 'open' | 'closed' | 'merged'; onRead?: () => void }>()

  /** Where GitHub would show a comment: its pull request's page (the number of the list it is in). */
  const commentJson = (c: FakeComment) => {
    const issue = [...comments].find(([, list]) => list.includes(c))?.[0] ?? 0
    return {
      ...c,
      html_url: `https://github.example/acme/agent-server/pull/${issue}#issuecomment-${c.id}`
    }
  }

  const server = createServer((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', async () => {
      let body: Record<string, unknown>
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
      } catch {
        body = { unparsed: text }
      }
      const url = new URL(req.url ?? '/', 'http://fake')
      const fullPath = url.pathname
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
        res.end(JSON.stringify(payload))
      }
      const notFound = () =>
        send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' })
      if (!fullPath.startsWith(`${prefix}/`)) return notFound()
      const path = fullPath.slice(prefix.length)
      const method = req.method ?? ''
      requests.push({ method, path, fullPath, query: url.searchParams, headers: req.headers, body })

      if (failure && failure.path.test(path)) {
        send(failure.status, {
          message: failure.message,
          documentation_url: 'https://docs.github.com/rest',
          status: String(failure.status)
        })
        return
      }
      if (canned && canned.path.test(path) && (!canned.method || canned.method === method)) {
        res.writeHead(canned.status, { 'content-type': 'application/json; charset=utf-8' })
        res.end(canned.body)
        return
      }
      if (method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/deployments$/.test(path)) {
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
      if (method === 'POST' && status) {
        send(201, { id: nextId++, state: body.state, deployment_url: path })
        return
      }
      const issue = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path)
      if (issue) {
        const list = comments.get(Number(issue[1])) ?? []
        comments.set(Number(issue[1]), list)
        if (method === 'GET') {
          const perPage = Number(url.searchParams.get('per_page') ?? 30)
          const page = Number(url.searchParams.get('page') ?? 1)
          const slice = list.slice((page - 1) * perPage, page * perPage)
          const last = Math.max(1, Math.ceil(list.length / perPage))
          const link = (p: number, rel: string) =>
            `<http://127.0.0.1:${port}${fullPath}?per_page=${perPage}&page=${p}>; rel="${rel}"`
          const links = page < last ? [link(page + 1, 'next'), link(last, 'last')] : []
          res.writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            ...(links.length ? { link: links.join(', ') } : {})
          })
          res.end(JSON.stringify(slice.map(commentJson)))
          return
        }
        if (method === 'POST') {
          if (hold) {
            const h = hold
            await new Promise<void>(resolve => {
              h.pending.push(resolve)
              if (h.pending.length >= h.n) for (const go of h.pending.splice(0)) go()
            })
          }
          const comment = {
            id: nextId++,
            body: String(body.body),
            user: { login: 'github-actions[bot]', type: 'Bot' }
          }
          list.push(comment)
          send(201, commentJson(comment))
          return
        }
      }
      const pull = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/.exec(path)
      if (pull && method === 'GET') {
        const p = pulls.get(Number(pull[2]))
        if (!p) return notFound()
        p.onRead?.()
        const state = p.state === 'merged' ? 'closed' : p.state
        // As GitHub names it: its number, and the repository it belongs to.
        send(200, {
          number: Number(pull[2]),
          state,
          merged: p.state === 'merged',
          base: { repo: { full_name: pull[1] } }
        })
        return
      }
      const one = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path)
      if (one && method === 'DELETE') {
        for (const list of comments.values()) {
          const i = list.findIndex(c => c.id === Number(one[1]))
          if (i >= 0) {
            list.splice(i, 1)
            res.writeHead(204)
            res.end()
            return
          }
        }
        return notFound()
      }
      if (one && method === 'PATCH') {
        const comment = [...comments.values()].flat().find(c => c.id === Number(one[1]))
        if (!comment) return notFound()
        comment.body = String(body.body)
        send(200, commentJson(comment))
        return
      }
      notFound()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    statuses: id =>
      requests
        .filter(r => r.path.endsWith(`/deployments/${id}/statuses`))
        .map(r => String(r.body.state)),
    comments: issue => comments.get(issue) ?? [],
    seedComments: (issue, bodies, login = 'a-reviewer') => {
      const list = comments.get(issue) ?? []
      comments.set(issue, list)
      const type = login.endsWith('[bot]') ? 'Bot' : 'User'
      for (const body of bodies) list.push({ id: nextId++, body, user: { login, type } })
    },
    setPull: (number, state, onRead) => {
      pulls.set(number, { state, ...(onRead ? { onRead } : {}) })
    },
    holdCreates: n => {
      hold = { n, pending: [] }
    },
    failWith: (status, message, path = /./) => {
      failure = { status, message, path }
    },
    answerWith: (status, body, path = /./, method) => {
      canned = { status, body, path, ...(method ? { method } : {}) }
    },
    reset: () => {
      requests.length = 0
      comments.clear()
      pulls.clear()
      failure = undefined
      canned = undefined
      hold = undefined
    },
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
