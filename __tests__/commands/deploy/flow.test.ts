import { describe, expect, test } from '@jest/globals'
import { ControlPlaneClient } from '../../../src/control-plane/client.ts'
import { type ClientOptions } from '../../../src/control-plane/client-options.ts'
import { type Deployment, type PatchDeploymentRequest } from '../../../src/control-plane/schema.ts'
import { ApiError } from '../../../src/control-plane/errors.ts'
import { failureText, type Ending } from '../../../src/interface/ending.ts'
import { deploy } from '../../../src/commands/deploy/flow.ts'
import { newJournal } from '../../../src/commands/deploy/facts.ts'
import { type FlowLog } from '../../../src/log.ts'
import { type Journal } from '../../../src/interface/journal.ts'
import { demoFixture } from '../../../emulator/server.ts'
import { type Options } from '../../../src/inputs/options.ts'
import { ACTION_SAY, testOptions, linesLog } from '../../builders.ts'
import { virtualEmulator } from '../../builders/virtual-emulator.ts'
import {
  ProbeTimeoutError,
  type ProbeRequest,
  type ProbeResponse
} from '../../../src/health/probe.ts'
import { type SmokeCase } from '../../../src/inputs/smoke-cases.ts'

// The deploy flow in-process: a real client against the emulator over loopback HTTP, one virtual
// clock for the emulator's lifecycle, the client and the wait. What a user checks is read from
// the emulator's state and request log, and from the flow's journal and log.

const v = virtualEmulator()
const { now, sleep } = v

function clientOptions(): ClientOptions {
  const c = v.emu.credentials()
  return {
    baseUrl: v.emu.url,
    apiKey: c.apiKey,
    tenantId: c.tenantId,
    say: ACTION_SAY,
    clock: { now, sleep }
  }
}

function inputs(raw: Record<string, string> = {}, over: Partial<Options> = {}): Options {
  const c = v.emu.credentials()
  return testOptions(
    { 'api-key': c.apiKey, 'tenant-id': c.tenantId, 'integration-id': c.integrationId!, ...raw },
    { baseUrl: v.emu.url, ...over }
  )
}

interface Run {
  state: Journal
  log: string[]
  warnings: string[]
  /** The ending's failure as the job's error says it; undefined when the deploy did what was asked. */
  error: string | undefined
  ending: Ending | undefined
}

async function run(
  o: Options,
  client = new ControlPlaneClient(clientOptions()),
  signal?: AbortSignal
) {
  const log: string[] = []
  const warnings: string[] = []
  const flowLog: FlowLog = {
    info: line => log.push(line),
    warning: line => warnings.push(line),
    notice: line => log.push(line),
    group: (_name, fn) => fn()
  }
  const state = newJournal(o)
  let ending: Ending | undefined
  try {
    ending = await deploy(o, state, {
      client,
      log: flowLog,
      say: ACTION_SAY,
      clock: { now, sleep },
      signal
    })
  } finally {
    client.close()
  }
  const error = ending.failure ? failureText(ending.failure) : undefined
  return { state, log, warnings, error, ending } satisfies Run
}

const deployments = (name: string) =>
  v.emu
    .state()
    .tenants.flatMap(x => x.deployments)
    .filter(d => d.name === name)
const writes = () => v.emu.requests().filter(r => r.method === 'POST' || r.method === 'PATCH')

/** On the next sleep of the run, once: another writer makes a newer revision of `ref`. */
function supersedeOnce(ref: string) {
  const other = new ControlPlaneClient(clientOptions())
  let done = false
  v.onNextSleep(async () => {
    if (done) return
    done = true
    const [d] = deployments('agent-prod')
    await other.patchDeployment(d!.id, { source_revision_config: { repo_ref: ref } })
  })
  return other
}

describe('deploy()', () => {
  test('creates a missing deployment and waits for its revision to be DEPLOYED', async () => {
    const r = await run(inputs())
    expect(r.error).toBeUndefined()
    const [d] = deployments('agent-prod')
    expect(r.state).toMatchObject({
      outcome: 'deployed',
      created: true,
      deploymentId: d!.id,
      revisionId: d!.latest_revision_id,
      revisionStatus: 'DEPLOYED'
    })
    expect(writes().map(w => w.method)).toEqual(['POST'])
  })

  test('updates an existing deployment with a new revision of the ref', async () => {
    const first = await run(inputs())
    const r = await run(inputs({ ref: 'release' }))
    expect(r.error).toBeUndefined()
    expect(r.state).toMatchObject({ outcome: 'deployed', created: false })
    expect(r.state.revisionId).not.toBe(first.state.revisionId)
    expect(deployments('agent-prod')[0]!.latest_revision_id).toBe(r.state.revisionId)
    expect(writes().map(w => w.method)).toEqual(['POST', 'PATCH'])
  })

  test('a failed build ends the run with the status and what to do', async () => {
    const r = await run(inputs({ ref: 'fail-build' }))
    expect(r.state).toMatchObject({ outcome: 'failed', revisionStatus: 'BUILD_FAILED' })
    expect(r.ending?.failure?.title).toBe('Revision BUILD_FAILED')
    expect(String(r.error)).toMatch(/ended BUILD_FAILED/)
  })

  test('a superseded revision: the newer one is followed; DEPLOYED is done, with a warning naming it', async () => {
    await run(inputs())
    const other = supersedeOnce('newer')
    const r = await run(inputs({ ref: 'release' }))
    other.close()
    expect(r.error).toBeUndefined()
    expect(r.state.outcome).toBe('skipped')
    expect(r.state.revisionStatus).toBe('SKIPPED')
    const newer = deployments('agent-prod')[0]!.latest_revision_id
    expect(r.state.newerRevisionId).toBe(newer)
    expect(r.warnings.join('\n')).toContain(`the newer revision ${newer} superseded it`)
    expect(r.warnings.join('\n')).toContain(`the newer revision ${newer} is DEPLOYED`)
  })

  test('a superseded revision whose successor fails is not done: the error names both', async () => {
    await run(inputs())
    const other = supersedeOnce('fail-build')
    const r = await run(inputs({ ref: 'release' }))
    other.close()
    const newer = deployments('agent-prod')[0]!.latest_revision_id
    expect(r.ending?.failure?.title).toBe('Superseded, not deployed')
    expect(String(r.error)).toContain(
      `of this run was SKIPPED for the newer revision ${newer}, which ended BUILD_FAILED`
    )
    expect(r.state.revisionStatus).toBe('SKIPPED')
  })

  test('a timeout says what the revision was doing and that it goes on', async () => {
    const r = await run(inputs({ timeout: '2s' }))
    expect(r.state.outcome).toBe('timeout')
    expect(String(r.error)).toMatch(/Still \w+ after 2s; revision .* goes on/)
  })

  test('a create that loses the race on the name updates the winner: one deployment', async () => {
    class Racing extends ControlPlaneClient {
      override async createDeployment(body: Parameters<ControlPlaneClient['createDeployment']>[0]) {
        const winner = new ControlPlaneClient(clientOptions())
        await winner.createDeployment(body)
        winner.close()
        return super.createDeployment(body)
      }
    }
    const r = await run(inputs(), new Racing(clientOptions()))
    expect(r.error).toBeUndefined()
    expect(r.state).toMatchObject({ outcome: 'deployed', created: false })
    expect(deployments('agent-prod')).toHaveLength(1)
    expect(r.log.join('\n')).toMatch(/created by another run at the same time/)
  })

  test('a cancel during the wait ends it at once, naming the revision that goes on', async () => {
    const controller = new AbortController()
    v.onNextSleep(async () => controller.abort())
    const r = await run(
      inputs(),
      new ControlPlaneClient({ ...clientOptions(), signal: controller.signal }),
      controller.signal
    )
    expect(r.state.outcome).toBe('cancelled')
    expect(String(r.error)).toMatch(/Cancelled while \w+; revision .* goes on/)
  })

  test('name and deployment-id naming two deployments is an error before any write', async () => {
    await run(inputs())
    const [d] = deployments('agent-prod')
    v.emu.clearRequests()
    const r = await run(inputs({ 'deployment-id': d!.id, name: 'agent-staging' }))
    expect(String(r.error)).toMatch(/is named "agent-prod", not "agent-staging"/)
    expect(writes()).toEqual([])
  })

  test('an explicit repository other than the deployment’s is refused before any write', async () => {
    await run(inputs())
    v.emu.clearRequests()
    const r = await run(inputs({ repository: 'acme/support-bot' }))
    expect(String(r.error)).toMatch(
      /builds https:\/\/github.com\/acme\/agent-server, but `repository` is acme\/support-bot/
    )
    expect(writes()).toEqual([])
  })

  test('the workflow’s repository differing is a warning, and no commit is compared', async () => {
    await run(inputs())
    const r = await run(inputs({}, { repository: 'acme/support-bot', repositoryExplicit: false }))
    expect(r.state.outcome).toBe('deployed')
    expect(r.state.expectedSha).toBeUndefined()
    expect(r.warnings.join('\n')).toMatch(
      /builds https:\/\/github.com\/acme\/agent-server, not acme\/support-bot, the repository this run started from/
    )
    expect(r.warnings.join('\n')).not.toMatch(/moved on/)
  })

  test('secrets left out of the list are removed with a warning naming them', async () => {
    await run(inputs({ secrets: 'ALPHA=alpha-value-1\nBETA=beta-value-2' }))
    const r = await run(inputs({ secrets: 'GAMMA=gamma-value-3' }))
    expect(r.state.outcome).toBe('deployed')
    expect(r.warnings.join('\n')).toMatch(
      /removes secrets ALPHA, BETA from deployment "agent-prod"/
    )
    expect(deployments('agent-prod')[0]!.secrets.map(s => s.name)).toEqual(['GAMMA'])
  })

  test('an update answered with the old revision finds the revision it made', async () => {
    await run(inputs())
    const before = deployments('agent-prod')[0]!.latest_revision_id
    class Stale extends ControlPlaneClient {
      override async patchDeployment(
        id: string,
        body: PatchDeploymentRequest
      ): Promise<Deployment> {
        return { ...(await super.patchDeployment(id, body)), latest_revision_id: before }
      }
    }
    const r = await run(inputs({ ref: 'release' }), new Stale(clientOptions()))
    expect(r.state.outcome).toBe('deployed')
    expect(r.state.revisionId).not.toBe(before)
    expect(r.state.revisionId).toBe(deployments('agent-prod')[0]!.latest_revision_id)
  })

  test('an update that made no revision is reported as such, never as the old one', async () => {
    await run(inputs())
    const before = deployments('agent-prod')[0]!.latest_revision_id
    class Idle extends ControlPlaneClient {
      override async patchDeployment(id: string): Promise<Deployment> {
        return this.getDeployment(id)
      }
    }
    const r = await run(inputs({ ref: 'release' }), new Idle(clientOptions()))
    expect(r.error).toBeUndefined()
    expect(r.state.outcome).toBe('revision-missing')
    expect(r.state.revisionId).toBeUndefined()
    expect(r.warnings.join('\n')).toMatch(
      new RegExp(
        `made no new revision for this update of "agent-prod": its latest revision is still ${before}`
      )
    )
  })

  test('a change without revision-level fields makes no revision and waits for none', async () => {
    const tenant = demoFixture().tenants[1]!
    const listener = v.emu.state().tenants[1]!.listeners[0]!
    const selfHosted = (raw: Record<string, string>) =>
      testOptions(
        {
          'api-key': tenant.api_keys[0]!,
          'tenant-id': tenant.id,
          name: 'self-hosted-agent',
          source: 'external_docker',
          'listener-id': listener,
          'k8s-namespace': 'agents',
          'integration-id': '',
          ...raw
        },
        { baseUrl: v.emu.url, integrationId: undefined }
      )
    const client = () =>
      new ControlPlaneClient({
        ...clientOptions(),
        apiKey: tenant.api_keys[0]!,
        tenantId: tenant.id
      })
    const first = await run(selfHosted({ 'image-uri': 'registry.example.com/agent:1' }), client())
    expect(first.state.outcome).toBe('deployed')
    const r = await run(
      selfHosted({
        'custom-url': 'https://agent.example.com',
        'listener-id': '',
        'k8s-namespace': '',
        create: 'false'
      }),
      client()
    )
    expect(r.error).toBeUndefined()
    expect(r.state.outcome).toBe('no-revision')
    expect(r.state.revisionId).toBeUndefined()
    expect(deployments('self-hosted-agent')[0]!.latest_revision_id).toBe(first.state.revisionId)
  })
})

describe('on-failure: rollback', () => {
  const redeploys = () => v.emu.requests().filter(r => r.path.endsWith('/redeploy'))

  test('a failed revision is followed by the previous one, redeployed and DEPLOYED', async () => {
    const good = await run(inputs())
    const r = await run(inputs({ ref: 'fail-build', 'on-failure': 'rollback' }))
    expect(r.state.outcome).toBe('failed')
    expect(r.state.rollback).toMatchObject({
      kind: 'done',
      restoredId: good.state.revisionId,
      status: 'DEPLOYED'
    })
    const [d] = deployments('agent-prod')
    expect(d!.active_revision_id).toBe(
      r.state.rollback?.kind === 'done' && r.state.rollback.revisionId
    )
    expect(redeploys()).toHaveLength(1)
    expect(String(r.error)).toMatch(/ended BUILD_FAILED .*Rolled back: revision/)
  })

  test('another run’s revision active meanwhile is not rolled back over', async () => {
    await run(inputs())
    const other = '99999999-9999-4999-8999-999999999999'
    let failed = false
    class Moved extends ControlPlaneClient {
      override async getRevision(...args: Parameters<ControlPlaneClient['getRevision']>) {
        const rev = await super.getRevision(...args)
        if (rev.status === 'BUILD_FAILED') failed = true
        return rev
      }
      override async getDeployment(...args: Parameters<ControlPlaneClient['getDeployment']>) {
        const d = await super.getDeployment(...args)
        return failed ? { ...d, active_revision_id: other } : d
      }
    }
    const r = await run(
      inputs({ ref: 'fail-build', 'on-failure': 'rollback' }),
      new Moved(clientOptions())
    )
    expect(r.state.rollback).toMatchObject({ kind: 'not-done' })
    expect(String(r.error)).toMatch(
      new RegExp(`Not rolled back: revision ${other} became active after this run started`)
    )
    expect(redeploys()).toEqual([])
  })

  test('a first deploy has nothing to roll back to', async () => {
    const r = await run(inputs({ ref: 'fail-build', 'on-failure': 'rollback' }))
    expect(String(r.error)).toMatch(/Not rolled back: nothing to roll back to/)
    expect(redeploys()).toEqual([])
  })

  test('SKIPPED, a timeout, a cancel and a refused write are never rolled back', async () => {
    await run(inputs())
    const other = supersedeOnce('newer')
    const skipped = await run(inputs({ ref: 'release', 'on-failure': 'rollback' }))
    other.close()
    expect(skipped.state.outcome).toBe('skipped')
    const timedOut = await run(inputs({ ref: 'release', timeout: '2s', 'on-failure': 'rollback' }))
    expect(timedOut.state.outcome).toBe('timeout')
    const controller = new AbortController()
    v.onNextSleep(async () => controller.abort())
    const cancelled = await run(
      inputs({ ref: 'fail-build', 'on-failure': 'rollback' }),
      new ControlPlaneClient({ ...clientOptions(), signal: controller.signal }),
      controller.signal
    )
    expect(cancelled.state.outcome).toBe('cancelled')
    const refused = await run(inputs({ repository: 'acme/support-bot', 'on-failure': 'rollback' }))
    expect(String(refused.error)).toMatch(/Repository mismatch|but `repository` is/)
    for (const r of [skipped, timedOut, cancelled, refused])
      expect(r.state.rollback).toBeUndefined()
    expect(redeploys()).toEqual([])
  })

  test('a rollback whose redeploy built another commit (the branch moved on) warns, naming both', async () => {
    const repo = 'https://github.com/acme/agent-server'
    const [first, moved] = ['c1'.repeat(20), 'd2'.repeat(20)]
    v.emu.configure({ repoCommits: { [`${repo}@main`]: first } })
    await sleep(1000)
    const good = await run(inputs({ ref: 'main' }))
    expect(good.state.repoCommitSha).toBe(first)
    v.emu.configure({ repoCommits: { [`${repo}@main`]: moved } })
    await sleep(1000)
    const r = await run(inputs({ ref: 'fail-build', 'on-failure': 'rollback' }))
    expect(r.state.rollback).toMatchObject({
      kind: 'done',
      rebuilt: { built: moved, restored: first }
    })
    expect(r.warnings.join('\n')).toContain(
      `built commit ${moved}, not ${first} that revision ran: its ref main moved on`
    )
    expect(String(r.error)).toContain(`It built commit ${moved}, not ${first}`)
  })

  test('a redeploy that fails for good leaves the failed revision the verdict, and says so', async () => {
    await run(inputs())
    class Refusing extends ControlPlaneClient {
      override async redeployRevision(): Promise<Deployment> {
        throw new ApiError(
          {
            operation: 'redeploy revision',
            method: 'POST',
            path: '/v2/x/redeploy',
            say: ACTION_SAY
          },
          400,
          'cannot redeploy'
        )
      }
    }
    const r = await run(
      inputs({ ref: 'fail-build', 'on-failure': 'rollback' }),
      new Refusing(clientOptions())
    )
    expect(r.state).toMatchObject({ outcome: 'failed', rollback: { kind: 'failed' } })
    expect(String(r.error)).toMatch(
      /ended BUILD_FAILED.*The rollback failed: the redeploy of revision \S+ was not made \(redeploy revision failed: HTTP 400/
    )
  })
})

// The health gate's and the re-create's rough edges, in-process against the emulator with one
// virtual clock: the timeout bounds the gate (window and probes), a slow body is said as such,
// credentials in custom_url are named (never shown), a deployment deleted during the gate is said
// as deleted, and a name held by a tracing project is named as that, with no url of the deleted
// deployment left.
describe('gate-edges', () => {
  const v = virtualEmulator()
  const { now, sleep } = v

  const client = () => {
    const c = v.emu.credentials()
    return new ControlPlaneClient({
      baseUrl: v.emu.url,
      apiKey: c.apiKey,
      tenantId: c.tenantId,
      say: ACTION_SAY,
      clock: { now, sleep }
    })
  }

  function inputs(raw: Record<string, string> = {}): Options {
    const c = v.emu.credentials()
    return testOptions(
      { 'api-key': c.apiKey, 'tenant-id': c.tenantId, 'integration-id': c.integrationId!, ...raw },
      { baseUrl: v.emu.url }
    )
  }

  /** A probe that takes `ms` of virtual time and answers `answer` (or what it returns). */
  const probeOf =
    (answer: ProbeResponse | ((req: ProbeRequest) => Promise<ProbeResponse>), ms = 50) =>
    async (req: ProbeRequest): Promise<ProbeResponse> => {
      v.t += Math.min(ms, req.timeoutMs)
      return typeof answer === 'function' ? answer(req) : answer
    }

  async function run(
    o: Options,
    probe?: (req: ProbeRequest) => Promise<ProbeResponse>,
    smokeCases?: readonly SmokeCase[]
  ) {
    const { lines, log } = linesLog()
    const state = newJournal(o)
    const c = client()
    const started = v.t
    let ending: Ending
    try {
      ending = await deploy(o, state, {
        client: c,
        log,
        say: ACTION_SAY,
        clock: { now, sleep },
        ...(probe ? { probe } : {}),
        ...(smokeCases ? { smokeCases } : {})
      })
    } finally {
      c.close()
    }
    const error = ending.failure
    return { state, lines, error, error_: error ? failureText(error) : '', tookMs: v.t - started }
  }

  test('the timeout bounds the gate: a window it cuts short is a timeout, not healthy, not rolled back', async () => {
    const r = await run(
      inputs({ 'health-check': 'true', 'health-check-window': '30m', timeout: '5m' }),
      probeOf({ status: 200, body: '{"ok":true}' })
    )
    expect(r.error).toBeDefined()
    expect(r.error?.title).toBe('Health check timed out')
    expect(r.error_).toMatch(/answered 2xx, but the timeout came .* into the 30m window of 2xx/)
    expect(r.state.outcome).toBe('timeout')
    expect(r.state.health).toBeUndefined()
    // The whole run, wait and gate, within the timeout (and a poll of slack).
    expect(r.tookMs).toBeLessThanOrEqual(5 * 60_000 + 15_000)
  })

  test('a probe inside the window cut short by the deadline is the timeout, not an unhealthy server', async () => {
    let n = 0
    const r = await run(
      inputs({ 'health-check': 'true', 'health-check-window': '30m', timeout: '5m' }),
      probeOf(async req => {
        // 2xx, but the probe that the deadline cuts short gets no answer in its time.
        if (req.timeoutMs >= 10_000) return { status: 200, body: '{"ok":true}' }
        n++
        v.t += req.timeoutMs - 50
        throw new ProbeTimeoutError(req.timeoutMs)
      })
    )
    expect(n).toBe(1)
    expect(r.error?.title).toBe('Health check timed out')
    expect(r.state.outcome).toBe('timeout')
    expect(r.tookMs).toBeLessThanOrEqual(5 * 60_000 + 15_000)
  })

  test("the checks after the window end at the run's deadline, not one window after it", async () => {
    // The window takes 4 of the 5 minutes; the smoke case would wait 10 minutes for its answer.
    const slowCase = { name: 'echo', graph: 'agent', input: {}, expect: {}, timeoutMs: 600_000 }
    const r = await run(
      inputs({ 'health-check': 'true', 'health-check-window': '4m', timeout: '5m' }),
      probeOf(async req => {
        if (!req.url.pathname.endsWith('/runs/wait')) return { status: 200, body: '{"ok":true}' }
        // No answer until the run gives up on it: the case's timer (virtual time) ends it.
        return new Promise((_, reject) =>
          req.signal?.addEventListener('abort', () => reject(new Error('aborted')))
        )
      }),
      [slowCase]
    )
    expect(r.error?.title).toBe('Health check timed out')
    expect(r.error_).toMatch(/Timed out during the checks of revision/)
    expect(r.state.outcome).toBe('timeout')
    expect(r.tookMs).toBeLessThanOrEqual(5 * 60_000 + 15_000)
  })

  test('a probe that never answers is cut at the deadline, not 10 s after it', async () => {
    let last: ProbeRequest | undefined
    const r = await run(
      inputs({ 'health-check': 'true', timeout: '2m' }),
      probeOf(async req => {
        last = req
        throw Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })
      }, 10_000)
    )
    expect(r.state.health).toBe('unhealthy')
    expect(last!.timeoutMs).toBeLessThan(10_000)
    expect(r.tookMs).toBeLessThanOrEqual(2 * 60_000 + 15_000)
  })

  test('a 2xx whose body trickles past the probe time is said as a slow body, and is no 2xx', async () => {
    // Dedicated: always on, so a slow answer is no wake-up (a create is Serverless by default).
    const r = await run(
      inputs({ 'health-check': 'true', timeout: '1m', 'deployment-type': 'dedicated' }),
      probeOf({ status: 200, body: '{"ok":', slowBody: true })
    )
    expect(r.state.health).toBe('unhealthy')
    expect(r.error_).toMatch(
      /200, but its body was still arriving when the probe's time ran out \(slow body\): "\{"ok":"/
    )
    expect(r.error_).not.toMatch(/no answer/)
  })

  test("credentials in the deployment's custom_url are named, never sent or shown", async () => {
    const o = inputs({ 'health-check': 'true' })
    const first = await run({ ...o, healthCheck: false })
    const id = first.state.deploymentId!
    const c = client()
    await c.patchDeployment(id, {
      source_config: { custom_url: 'https://admin:hunter2-secret@agent.example.com' }
    } as never)
    c.close()
    const sent: ProbeRequest[] = []
    const r = await run(
      o,
      probeOf(async req => {
        sent.push(req)
        return { status: 200, body: '' }
      })
    )
    expect(sent).toEqual([])
    expect(r.error?.title).toBe('Health check refused')
    expect(r.error_).toMatch(
      /custom_url for agent\.example\.com carries credentials \(user:password@\), which are never sent or shown/
    )
    expect(r.error_).not.toMatch(/no source_config.custom_url/)
    expect(JSON.stringify(r)).not.toContain('hunter2')
    expect(r.state.url).toBeUndefined()
  })

  test.each([
    ['before the first 2xx (every probe 404)', 0],
    ['inside the window, with on-failure: rollback', 1]
  ])(
    'a deployment deleted during the gate %s is said as deleted, not as a wrong id',
    async (_, ok) => {
      let deleted = false
      let n = 0
      const r = await run(
        inputs({ 'health-check': 'true', 'on-failure': 'rollback', timeout: '2m' }),
        probeOf(async () => {
          if (n++ < ok) return { status: 200, body: '{"ok":true}' }
          if (!deleted) {
            deleted = true
            const c = client()
            const d = v.emu
              .state()
              .tenants.flatMap(x => x.deployments)
              .find(x => x.name === 'agent-prod')
            await c.deleteDeployment(d!.id)
            c.close()
          }
          return { status: 404, body: '{"detail":"Not Found"}' }
        })
      )
      expect(r.error?.title).toBe('Deployment deleted')
      expect(r.error_).toMatch(/was deleted during the health check of revision \S+/)
      expect(r.error_).not.toMatch(/get deployment failed|check the id/)
      expect(r.state.health).toBeUndefined()
      expect(r.state.url).toBeUndefined()
    }
  )

  test('a re-create after a deletion meets the tracing project: named as that, no url of the deleted deployment', async () => {
    const o = inputs({ 'custom-url': 'https://agent.example.com' })
    const first = await run(o)
    const id = first.state.deploymentId!
    const c = client()
    await c.deleteDeployment(id)
    c.close()
    const r = await run(o)
    expect(r.error?.title).toBe('Name held by a tracing project')
    expect(r.error_).toMatch(/A tracing project named "agent-prod" remains/)
    expect(r.error_).toMatch(/delete-tracing-project: true/)
    expect(r.error_).not.toMatch(/a deployment with this name already exists/)
    expect(r.state.url).toBeUndefined()
    expect(r.state.deploymentId).toBeUndefined()
  })

  test('Serverless: a wake-up is waited on for 3 min at most; 503s past it are unhealthy, long before the timeout', async () => {
    const r = await run(
      inputs({
        'deployment-type': 'serverless',
        'health-check': 'true',
        'health-check-window': '10s',
        timeout: '30m'
      }),
      probeOf({ status: 503, body: 'upstream is starting' })
    )
    expect(r.state.outcome).toBe('unhealthy')
    expect(r.error?.title).toBe('Agent server unhealthy')
    expect(r.error_).toMatch(
      /still answered 503 \(probe \d+\) after 3m(0\ds)? of wake-up, past the 3m a wake-up may take: it is unhealthy, not waking up/
    )
    expect(r.error_).not.toMatch(/did not wake up/)
    expect(r.lines).toContain('Serverless deployment waking up, waited 0s of at most 3m.')
    expect(
      r.lines.filter(l => l.startsWith('Serverless deployment waking up')).length
    ).toBeGreaterThan(5)
    // The bound, not the 30 min timeout, ended the gate (the wait for DEPLOYED is minutes at most).
    expect(r.tookMs).toBeLessThan(15 * 60_000)
  })
})
