// Shared by the control-plane client tests: scripted loopback servers (node:http on port 0), a
// valid Deployment body, and a client factory whose instances are closed after each test.
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from '@jest/globals'
import { makeClock, type Clock } from '../../src/clock.ts'
import type { ClientOptions } from '../../src/control-plane/client-options.ts'
import { ACTION_SAY } from '../builders.ts'
import { TestClient } from './test-client.ts'

export interface Recorded {
  method: string
  /** Path and query as received. */
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** Answers one request; `n` counts requests from 1. The body has been read already. */
export type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: string,
  n: number
) => void

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string
  requests: Recorded[]
  close(): Promise<void>
}

const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

/** A loopback server on a free port, closed (connections included) after the test. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handler(req, res, body, requests.length)
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    server.closeAllConnections()
    await new Promise<void>(resolve => server.close(() => resolve()))
  }
  cleanups.push(close)
  return { origin: `http://127.0.0.1:${port}`, requests, close }
}

/** Answers the n-th request with the n-th handler; the last one answers every later request. */
export function script(...steps: Handler[]): Handler {
  return (req, res, body, n) => steps[Math.min(n, steps.length) - 1]!(req, res, body, n)
}

export function reply(
  status: number,
  body?: unknown,
  headers: Record<string, string> = {}
): Handler {
  return (_req, res) => {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
    res.writeHead(status, {
      ...(typeof body === 'string' ? {} : { 'Content-Type': 'application/json' }),
      ...headers
    })
    res.end(text)
  }
}

/** Closes the connection without an answer: the client sees a reset / socket hang up. */
export const hangUp: Handler = req => {
  req.socket.destroy()
}

/** Never answers (until the server is closed). */
export const silent: Handler = () => {}

export const DEPLOYMENT_ID = '0a8f4f39-0c53-4a8e-9a3b-0d2f0c9a1e01'
export const TENANT_ID = '5b6c7d8e-1f20-4a31-8b42-9c53d64e7f80'
export const REVISION_ID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f'
export const INTEGRATION_ID = '7e1d2c3b-4a59-4687-9a5b-c4d3e2f1a0b9'
export const LISTENER_ID = '3f2e1d0c-9b8a-4766-8554-433221100ffe'

/** A codehost revision's source as the production service returns it. */
const SOURCE_REVISION_CONFIG = {
  repo_ref: 'main',
  graph_config_path: 'langgraph.json',
  image_uri: null,
  source_tarball_path: null,
  repo_commit_sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
}

/** A Deployment as the production service returns it, every required field present. */
export function deploymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'my-agent',
    source: 'codehost',
    source_config: {
      integration_id: INTEGRATION_ID,
      repo_url: 'https://github.com/acme/my-agent',
      build_on_push: false,
      custom_url: null,
      resource_spec: null,
      listener_id: null,
      listener_config: null,
      install_command: null,
      build_command: null
    },
    source_revision_config: { ...SOURCE_REVISION_CONFIG },
    secrets: [{ name: 'OPENAI_API_KEY', value: null }],
    id: DEPLOYMENT_ID,
    tenant_id: TENANT_ID,
    created_at: '2025-01-02T03:04:05.678Z',
    updated_at: '2025-01-02T03:04:05.678Z',
    status: 'READY',
    latest_revision_id: REVISION_ID,
    active_revision_id: null,
    ...overrides
  }
}

export function revisionBody(status = 'BUILDING', overrides: Record<string, unknown> = {}) {
  return {
    id: REVISION_ID,
    created_at: '2025-01-02T03:04:05.678Z',
    updated_at: '2025-01-02T03:05:05.678Z',
    status,
    source: 'codehost',
    source_revision_config: { ...SOURCE_REVISION_CONFIG },
    ...overrides
  }
}

export const API_KEY = 'lsv2_sk_0123456789abcdef0123456789abcdef_a1b2c3d4e5'

/** What a test may set of a client: its options, and any part of its clock (real time else). */
export type ClientOverrides = Partial<Omit<ClientOptions, 'clock'>> & Partial<Clock>

/** A client for `baseUrl` with fast test defaults; closed after the test. */
export function makeClient(baseUrl: string, overrides: ClientOverrides = {}): TestClient {
  const { retry, now, sleep, ...rest } = overrides
  const client = new TestClient({
    baseUrl,
    apiKey: API_KEY,
    requestTimeoutMs: 2000,
    say: ACTION_SAY,
    ...rest,
    clock: makeClock({ ...(now ? { now } : {}), ...(sleep ? { sleep } : {}) }),
    retry: { baseDelayMs: 1, maxDelayMs: 5, ...retry }
  })
  cleanups.push(() => client.close())
  return client
}

/** The rejection of `promise`, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (err) {
    return err as Error
  }
  throw new Error('expected the call to fail, but it succeeded')
}

/** A body for createDeployment: a codehost deployment with one secret. */
export function createBody(secretValue = 'sk-test-secret-value-1') {
  return {
    name: 'my-agent',
    source: 'codehost' as const,
    source_config: {
      integration_id: INTEGRATION_ID,
      repo_url: 'https://github.com/acme/my-agent',
      build_on_push: false
    },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: secretValue }]
  }
}
