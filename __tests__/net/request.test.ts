// The one request, against a local server: a redirect is an answer and never followed, the body is
// read up to its cap, the time budget runs on the clock given, the caller's signal stops it.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { request, RequestFailure } from '../../src/net/request.ts'

let server: Server
let base: string
/** The paths the server was asked for. */
const asked: string[] = []
/** Told each time a request reaches the server. */
let arrived: () => void = () => undefined

const routes: Record<string, (res: ServerResponse) => void> = {
  '/moved': res => res.writeHead(302, { location: '/target' }).end(),
  '/target': res => res.end('the target'),
  '/ten': res => res.end('0123456789'),
  '/silent': () => undefined
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    asked.push(req.url ?? '')
    arrived()
    routes[req.url ?? '']?.(res)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
})

const get = (path: string, more: Partial<Parameters<typeof request>[0]> = {}) =>
  request({
    url: new URL(path, base),
    method: 'GET',
    headers: {},
    timeoutMs: 5000,
    maxBody: 1024,
    ...more
  })

test('a redirect is an answer with its Location, never followed', async () => {
  asked.length = 0
  const answer = await get('/moved')
  expect(answer).toMatchObject({ status: 302, redirect: '/target', cut: false })
  expect(asked).toEqual(['/moved'])
})

test('the body is read up to its cap: more is cut, exactly the cap is whole', async () => {
  expect(await get('/ten', { maxBody: 4 })).toMatchObject({ body: '0123', cut: true })
  expect(await get('/ten', { maxBody: 10 })).toMatchObject({ body: '0123456789', cut: false })
})

test('the time budget runs on the clock given: its end is a timeout, the budget named', async () => {
  // The clock's time passes once the request has reached the server, and not before.
  const reached = new Promise<void>(resolve => (arrived = resolve))
  const clock = { sleep: () => reached }
  const failure = await get('/silent', { clock, timeoutMs: 250 }).catch((e: unknown) => e)
  expect(failure).toBeInstanceOf(RequestFailure)
  expect(failure).toMatchObject({ kind: 'timeout', budgetMs: 250, answer: undefined })
})

test("the caller's signal stops the request: cancelled", async () => {
  const stop = new AbortController()
  arrived = () => stop.abort()
  const failure = await get('/silent', { signal: stop.signal }).catch((e: unknown) => e)
  expect(failure).toMatchObject({ kind: 'cancelled' })
})
