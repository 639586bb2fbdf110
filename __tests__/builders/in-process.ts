// The set-up the in-process command tests share: run() on a fake port against an emulator. Bodies
// started at once and reported one by one, a deployment seeded as a first good deploy leaves it,
// a port in the runner's context of a push, and what a user reads of a run.
import { beforeAll, expect, test } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  demoFixture,
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type Fixture
} from '../../emulator/server.ts'
import { startFakeGitHub, type FakeGitHub } from '../../scripts/fake-github.ts'
import { runnerEnv, type GitHubEvent } from '../../scripts/runner-env.ts'
import type { RunResult } from '../../src/port.ts'
import { githubContext } from '../../src/runner/context.ts'
import { eventDefaults } from '../../src/runner/event.ts'
import { fakePort, type FakePort } from './fake-port.ts'

export const AGENT_REPO = 'https://github.com/acme/agent-server'

export type Seeded = NonNullable<Fixture['deployments']>[number]

/**
 * Stage durations of an emulator whose revisions are DEPLOYED as soon as they exist: a run whose
 * claim is bounded by its timeout spends the timeout on a few requests, not on the stages.
 */
export const DEPLOYS_AT_ONCE = {
  CREATING: 0,
  QUEUED: 0,
  AWAITING_BUILD: 0,
  BUILDING: 0,
  AWAITING_DEPLOY: 0,
  DEPLOYING: 0
} as const

/** A pull request's event, from the base repository. */
export const pullRequest = (n: number): GitHubEvent => ({
  name: 'pull_request',
  headRef: 'feature',
  sha: 'a'.repeat(40),
  payload: {
    number: n,
    pull_request: {
      number: n,
      head: { ref: 'feature', sha: 'a'.repeat(40), repo: { full_name: 'acme/agent-server' } },
      base: { ref: 'main', repo: { full_name: 'acme/agent-server' } }
    }
  }
})

/**
 * A deployment of `name` that, loaded, is READY with one DEPLOYED revision of `main` from
 * acme/agent-server (what a first good deploy leaves); `over` sets more of it.
 */
export function seededDeployment(
  emu: Emulator,
  name: string,
  secrets: Record<string, string> = {},
  over: Partial<Seeded> = {}
): Seeded {
  const c = emu.credentials()
  return {
    tenant_id: c.tenantId,
    name,
    source: 'codehost',
    source_config: { integration_id: c.integrationId, repo_url: AGENT_REPO },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: Object.entries(secrets).map(([n, value]) => ({ name: n, value })),
    ...over
  }
}

/**
 * The demo fixture loaded again with `deployments` beside its own and `commits` on top of its
 * code host's; the id of the last of `deployments`.
 */
export function loadSeeded(
  emu: Emulator,
  deployments: Seeded[],
  commits: Record<string, string> = {}
): string {
  const base = demoFixture()
  emu.loadFixture({
    ...base,
    repo_commits: { ...base.repo_commits, ...commits },
    deployments: [...(base.deployments ?? []), ...deployments]
  })
  return heldIn(emu, deployments.at(-1)!.name).id
}

/** The deployment of that name as `emu` holds it now. */
export const heldIn = (emu: Emulator, name: string) =>
  emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .find(d => d.name === name)!

/** The names of the deployments `emu` holds, less those being deleted. */
export const liveNames = (emu: Emulator) =>
  emu
    .state()
    .tenants.flatMap(t => t.deployments)
    .filter(d => d.status !== 'AWAITING_DELETE')
    .map(d => d.name)

/**
 * The tests' bodies, all started at once in one beforeAll and each reported by its own test: side
 * by side, never with jest between two tests, where it refuses the dynamic imports a run makes
 * (concurrent tests would put it there). Returns the function that declares one.
 */
export function allAtOnce(): (title: string, body: () => Promise<void>) => void {
  const bodies = new Map<string, () => Promise<void>>()
  const outcomes = new Map<string, Promise<unknown>>()
  beforeAll(async () => {
    for (const [title, body] of bodies)
      outcomes.set(
        title,
        body().then(
          () => undefined,
          (e: unknown) => e ?? new Error('failed')
        )
      )
    await Promise.all(outcomes.values())
  }, 170_000)
  return (title, body) => {
    // A second body under one title would replace the first, and its test would report the second.
    if (bodies.has(title)) throw new Error(`two tests titled "${title}"`)
    bodies.set(title, body)
    test(title, async () => {
      const failure = await outcomes.get(title)
      if (failure !== undefined) throw failure
    })
  }
}

/**
 * A test with its own emulator (speed 4 unless `options` say otherwise), closed after. One after
 * the other: jest refuses the run's dynamic imports in a concurrent test it does not count as
 * running.
 */
export function emulatorTest(
  title: string,
  body: (emu: Emulator) => Promise<void>,
  options: EmulatorOptions = {}
): void {
  test(
    title,
    async () => {
      const emu = await startEmulator({ port: 0, speed: 4, ...options })
      try {
        await body(emu)
      } finally {
        await emu.close()
      }
    },
    60_000
  )
}

/** `body` with a fake GitHub of its own, closed after. */
export async function withGitHub<R>(body: (github: FakeGitHub) => Promise<R>): Promise<R> {
  const github = await startFakeGitHub()
  try {
    return await body(github)
  } finally {
    await github.close()
  }
}

/** What a user reads of a run on `port`: its exit, outputs, log, annotations and summary. */
export function readRun(port: FakePort, r: RunResult) {
  const of = (kind: string) => port.calls.filter(c => c.startsWith(`${kind}: `))
  return {
    code: r.exitCode,
    outputs: r.outputs,
    log: port.calls.join('\n'),
    errors: of('error'),
    warnings: of('warning'),
    summary: port.summaries.join('\n')
  }
}

/** Declares tests as `allAtOnce` does, each body with its own emulator (speed 4), closed after. */
export function withEmulators(): (title: string, body: (emu: Emulator) => Promise<void>) => void {
  const atOnce = allAtOnce()
  return (title, body) =>
    atOnce(title, async () => {
      const emu = await startEmulator({ port: 0, speed: 4 })
      try {
        await body(emu)
      } finally {
        await emu.close()
      }
    })
}

/**
 * `body` on a port of `inputs` in the runner's context of `event` (a push to main by default) and
 * a temporary folder (the event's workspace when `workspace`), removed after.
 */
export async function inRunner<R>(
  prefix: string,
  inputs: Record<string, string>,
  body: (port: FakePort) => Promise<R>,
  runner: { event?: GitHubEvent; github?: FakeGitHub; workspace?: boolean } = {}
): Promise<R> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  try {
    const env = runnerEnv(dir, {}, runner.event)
    if (runner.github) env.GITHUB_API_URL = runner.github.url
    const context = githubContext(env)
    const event = eventDefaults(context)
    const port = fakePort(inputs, {
      event: runner.workspace ? { ...event, workspace: dir } : event
    })
    port.github = context
    return await body(port)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The run rolled back by one redeploy of `good`, said it in its error and in its outputs. */
export function expectRolledBackTo(
  r: { errors: string[]; outputs: Record<string, string> },
  emu: Emulator,
  good: string
): void {
  const redeploys = emu.requests().filter(q => q.path.endsWith('/redeploy'))
  expect(r.errors[0]).toMatch(/Rolled back: revision \S+ \(a redeploy of /)
  expect(redeploys).toHaveLength(1)
  expect(redeploys[0]!.path).toContain(good)
  expect(r.outputs['rollback-status']).toBe('DEPLOYED')
}
