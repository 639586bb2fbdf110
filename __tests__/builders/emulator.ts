// Shared helpers of the emulator tests: a controllable clock, a small fixture and fetch wrappers.
import { afterEach, beforeEach } from '@jest/globals'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import {
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type Fixture
} from '../../emulator/server.ts'

export const CLOUD = '11111111-1111-4111-8111-111111111111'
export const SELF = '22222222-2222-4222-8222-222222222222'
export const OTHER = '33333333-3333-4333-8333-333333333333'
export const INTEGRATION = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'
export const OTHER_INTEGRATION = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'
export const LISTENER = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc'
export const OTHER_LISTENER = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd'
export const CLOUD_KEY = 'key-cloud'
export const SELF_KEY = 'key-self'
export const OTHER_KEY = 'key-other'
export const ORG_KEY = 'key-org'
export const REPO = 'https://github.com/acme/agent-server'
export const MOVED_SHA = '1111111111111111111111111111111111111111'

export const testFixture: Fixture = {
  tenants: [
    { id: CLOUD, api_keys: [CLOUD_KEY, ORG_KEY], listeners_allowed: false, self_hosted: false },
    { id: SELF, api_keys: [SELF_KEY, ORG_KEY], listeners_allowed: true, self_hosted: true },
    { id: OTHER, api_keys: [OTHER_KEY], listeners_allowed: true, self_hosted: false }
  ],
  integrations: [
    {
      id: INTEGRATION,
      tenant_id: CLOUD,
      repositories: [
        { id: 1, name: 'agent-server', owner: 'acme', url: REPO, default_branch: 'main' },
        {
          id: 2,
          name: 'other',
          owner: 'acme',
          url: 'https://github.com/acme/other',
          default_branch: 'dev'
        }
      ]
    },
    { id: OTHER_INTEGRATION, tenant_id: OTHER, repositories: [] }
  ],
  listeners: [
    { id: LISTENER, tenant_id: SELF },
    { id: OTHER_LISTENER, tenant_id: OTHER }
  ],
  repo_commits: { [`${REPO}@main`]: MOVED_SHA }
}

/** A deployment whose agent server answers, alone in the test fixture: `live`, of tenant CLOUD. */
export const LIVE = '44444444-4444-4444-8444-444444444444'
export const liveFixture: Fixture = {
  ...testFixture,
  deployments: [
    {
      id: LIVE,
      tenant_id: CLOUD,
      name: 'live',
      source: 'codehost',
      source_config: { integration_id: INTEGRATION, repo_url: REPO },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      image_version: '0.4.12'
    }
  ]
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse('2026-03-01T12:00:00Z')) {
  let t = start
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms
    }
  }
}
export type ManualClock = ReturnType<typeof manualClock>

export async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, fixture: testFixture, ...options })
}

/** 100 ms per stage, 600 ms in all; the database is ready after 600 ms. */
export const STAGES_100_MS = {
  CREATING: 100,
  QUEUED: 100,
  AWAITING_BUILD: 100,
  BUILDING: 100,
  AWAITING_DEPLOY: 100,
  DEPLOYING: 100,
  DATABASE: 600
}

export interface PerTest {
  /** The running test's emulator. */
  emu: Emulator
  /** The clock it runs on, when started with `manualClock`. */
  clock: ManualClock
  /** Starts the running test's emulator with these options besides the file's. */
  setup(options?: EmulatorOptions): Promise<Emulator>
}

/** Reads and writes through to what `of()` is at the time: the running test's emulator or clock. */
export function current<T extends object>(of: () => T | undefined): T {
  const target = () => {
    const t = of()
    if (t === undefined) throw new Error('no emulator is running in this test')
    return t
  }
  return new Proxy({} as T, {
    get(_, key) {
      const t = target()
      const value = Reflect.get(t, key)
      return typeof value === 'function' ? value.bind(t) : value
    },
    set: (_, key, value) => Reflect.set(target(), key, value)
  })
}

/**
 * One emulator per test, closed after it: started before each test, or by the test's `setup`
 * when `eager` is false. With `manualClock` it runs on a clock of its own that the test moves.
 */
export function emulatorPerTest(
  options: EmulatorOptions = {},
  { eager = true, manualClock: manual = false } = {}
): PerTest {
  let emu: Emulator | undefined
  let clock: ManualClock | undefined
  const setup = async (more: EmulatorOptions = {}) => {
    clock = manual ? manualClock() : undefined
    emu = await start({ ...(clock ? { now: clock.now } : {}), ...options, ...more })
    return emu
  }
  if (eager) beforeEach(async () => void (await setup()))
  afterEach(async () => {
    await emu?.close()
    emu = undefined
  })
  return { emu: current(() => emu), clock: current(() => clock), setup }
}

/** A request to the emulator's admin routes (`/_emulator/...`): no key, JSON both ways. */
export async function adminCall(emulator: Emulator, method: string, path: string, body?: unknown) {
  const res = await fetch(`${emulator.url}/_emulator${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: res.status, body: (await res.json()) as Json }
}

export interface Call {
  status: number
  headers: Headers
  body: unknown
  text: string
}

export async function call(
  emulator: Emulator | string,
  method: string,
  path: string,
  options: {
    key?: string | null
    tenant?: string
    body?: unknown
    raw?: string
    headers?: Record<string, string>
  } = {}
): Promise<Call> {
  const base = typeof emulator === 'string' ? emulator : emulator.url
  const headers: Record<string, string> = { ...options.headers }
  const key = options.key === undefined ? CLOUD_KEY : options.key
  if (key !== null) headers['X-Api-Key'] = key
  if (options.tenant) headers['X-Tenant-Id'] = options.tenant
  let payload: string | undefined = options.raw
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body)
    headers['Content-Type'] = 'application/json'
  }
  const res = await fetch(`${base}${path}`, { method, headers, body: payload, redirect: 'manual' })
  const text = await res.text()
  let body: unknown
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, body, text }
}

/** A new revision of deployment `id` from `ref`: a PATCH of its source_revision_config. */
export const patchRef = (emulator: Emulator, id: string, ref: string) =>
  call(emulator, 'PATCH', `/v2/deployments/${id}`, {
    body: { source_revision_config: { repo_ref: ref } }
  })

export function codehostBody(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: REPO, build_on_push: false },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-secret-value' }],
    ...overrides
  }
}

export function dockerBody(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    source: 'external_docker',
    source_config: { listener_id: LISTENER, listener_config: { k8s_namespace: 'agents' } },
    source_revision_config: { image_uri: 'registry.example.com/agent:1.0.0' },
    secrets: [],
    ...overrides
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

/**
 * An emulator process as a test holds it: the four lines it prints first (`name: value`) as a map,
 * rejected if it exits before them, and a stop that resolves with its exit code.
 */
export function serving(child: ChildProcess) {
  let out = ''
  let err = ''
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const lines = new Promise<Map<string, string>>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const all = out.split('\n').filter(Boolean)
      if (all.length < 4) return
      resolve(new Map(all.map(l => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)])))
    })
    child.once('exit', code => reject(new Error(`exited early (${code}): ${out}${err}`)))
  })
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const exited = once(child, 'exit')
    child.kill(signal)
    return (await exited)[0] as number | null
  }
  return { child, lines, stop }
}
