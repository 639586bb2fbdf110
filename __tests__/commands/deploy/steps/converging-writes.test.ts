import { makeClock } from '../../../../src/clock.ts'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { ControlPlaneClient } from '../../../../src/control-plane/client.ts'
import { ApiError } from '../../../../src/control-plane/errors.ts'
import {
  type CreateDeploymentRequest,
  type Deployment
} from '../../../../src/control-plane/schema.ts'
import * as writes from '../../../../src/commands/deploy/steps/converging-writes.ts'
import { createOrAdopt } from '../../../../src/commands/deploy/steps/converging-writes.ts'
import { startEmulator, type Emulator } from '../../../../emulator/server.ts'
import { ACTION_SAY, refusedOr, DEPLOYMENT_ID, testDeployment } from '../../../builders.ts'
import { cliSay } from '../../../../src/cli/naming.ts'
import { failureText, stopped } from '../../../../src/interface/ending.ts'
import { type Say } from '../../../../src/interface/naming.ts'

// Writes that converge, against the emulator over HTTP with its faults: the client the action uses,
// and what the emulator recorded as the judge.
describe('converging-writes', () => {
  const { patchReconciled } = writes
  /** The create's result, or the failure it returned thrown. */
  const createOrAdopt = async (...args: Parameters<typeof writes.createOrAdopt>) =>
    refusedOr(await writes.createOrAdopt(...args))

  let emu: Emulator
  let client: ControlPlaneClient
  const notes = {
    lines: [] as string[],
    info(l: string) {
      this.lines.push(l)
    },
    warning(l: string) {
      this.lines.push(`warning: ${l}`)
    }
  }

  beforeEach(async () => {
    emu = await startEmulator({ port: 0, speed: 20 })
    const c = emu.credentials()
    client = new ControlPlaneClient({
      baseUrl: emu.url,
      apiKey: c.apiKey,
      tenantId: c.tenantId,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
      say: ACTION_SAY,
      clock: makeClock()
    })
    notes.lines = []
  })
  afterEach(async () => {
    client.close()
    await emu.close()
  })

  /** The per-request timeout of the watching client: the length of the watch after a timeout. */
  const WATCH_MS = 300
  /**
   * How long a held create waits before the emulator applies it: past the file's life (the emulator
   * applies a held write even after the client gave up), so "never lands" holds however slow the
   * run; 5 s raced the rest of the test on a loaded machine.
   */
  const HELD_MS = 600_000

  /**
   * A client on a virtual clock: pauses advance it at once (recorded in `pauses`, after `onPause`),
   * so the watch after a timed-out write takes no real time.
   */
  function virtualClient(onPause: () => Promise<void> = async () => {}) {
    let t = Date.now()
    const pauses: number[] = []
    const c = emu.credentials()
    const clock = () => t
    const watcher = Object.assign(
      new ControlPlaneClient({
        baseUrl: emu.url,
        apiKey: c.apiKey,
        tenantId: c.tenantId,
        requestTimeoutMs: WATCH_MS,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        random: () => 0.5,
        say: ACTION_SAY,
        clock: {
          now: clock,
          sleep: async (ms: number) => {
            pauses.push(ms)
            t += ms
            await onPause()
          }
        }
      }),
      { clock }
    )
    return { client: watcher, pauses }
  }

  function body(name: string): CreateDeploymentRequest {
    const integration = emu.credentials().integrationId!
    return {
      name,
      source: 'codehost',
      source_config: {
        integration_id: integration,
        repo_url: 'https://github.com/acme/agent-server'
      },
      source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
      secrets: []
    }
  }

  const named = (name: string) =>
    emu
      .state()
      .tenants.flatMap(t => t.deployments)
      .filter(d => d.name === name)
  const posts = () => emu.requests().filter(r => r.method === 'POST')
  const patches = () => emu.requests().filter(r => r.method === 'PATCH')

  describe('createOrAdopt', () => {
    test('a create whose answer was lost is found by name, not sent again', async () => {
      emu.setFaults({ kind: 'lost-response', method: 'POST', path: '/v2/deployments', times: 1 })
      const r = await createOrAdopt(client, body('lost-one'), notes, Date.now, ACTION_SAY)
      expect(r.kind).toBe('created')
      expect(named('lost-one')).toHaveLength(1)
      expect(r.deployment.id).toBe(named('lost-one')[0]!.id)
      expect(posts()).toHaveLength(1)
    })

    test('a create refused before it was applied (reset) is sent again once the name is free', async () => {
      emu.setFaults({ kind: 'reset', method: 'POST', path: '/v2/deployments', times: 2 })
      const r = await createOrAdopt(client, body('reset-one'), notes, Date.now, ACTION_SAY)
      expect(r.kind).toBe('created')
      expect(named('reset-one')).toHaveLength(1)
      // Two resets, each followed by a look-up that found nothing, then the create that landed.
      expect(posts().map(p => p.status)).toEqual([null, null, 201])
    })

    /** The next POST is held past the client's timeout: its outcome unknown, it may still land. */
    const holdTheCreate = () =>
      emu.setFaults({
        kind: 'delay',
        method: 'POST',
        path: '/v2/deployments',
        ms: HELD_MS,
        times: 1
      })

    test('a create that timed out is watched on the injected clock, and adopted when it lands late', async () => {
      holdTheCreate()
      const { client: watcher, pauses } = virtualClient(async () => {
        // It lands while the run watches the name: made here by another client, as if late.
        if (pauses.length === 1) await client.createDeployment(body('late-one'))
      })
      try {
        const r = await createOrAdopt(watcher, body('late-one'), notes, watcher.clock, ACTION_SAY)
        expect(r.kind).toBe('created')
        expect(named('late-one')).toHaveLength(1)
        expect(r.deployment.id).toBe(named('late-one')[0]!.id)
        // One pause of the whole window (the request's timeout on the virtual clock), no resend.
        expect(pauses).toEqual([WATCH_MS])
      } finally {
        watcher.close()
      }
    })

    test('a create that timed out and never lands is sent again after one watch of the timeout', async () => {
      holdTheCreate()
      const { client: watcher, pauses } = virtualClient()
      try {
        const r = await createOrAdopt(watcher, body('never-one'), notes, watcher.clock, ACTION_SAY)
        expect(r.kind).toBe('created')
        expect(named('never-one')).toHaveLength(1)
        // The watch (the whole timeout), then the backoff before the second send.
        expect(pauses[0]).toBe(WATCH_MS)
        expect(pauses).toHaveLength(2)
        expect(
          notes.lines.some(l => l.includes('does not exist: the create was not applied'))
        ).toBe(true)
      } finally {
        watcher.close()
      }
    })

    test('a name taken by another run is adopted, to be updated', async () => {
      const winner = await client.createDeployment(body('raced'))
      const r = await createOrAdopt(client, body('raced'), notes, Date.now, ACTION_SAY)
      expect(r).toMatchObject({ kind: 'taken', deployment: { id: winner.id } })
      expect(named('raced')).toHaveLength(1)
    })

    test('a rejected create is an error, never retried', async () => {
      const bad = { ...body('BadName'), name: 'BadName' }
      await expect(createOrAdopt(client, bad, notes, Date.now, ACTION_SAY)).rejects.toBeInstanceOf(
        ApiError
      )
      expect(posts()).toHaveLength(1)
    })
  })

  /** patchReconciled of a ref change to `main`, as the deploy sends it. */
  const patchMain = (d: Deployment) =>
    patchReconciled(
      client,
      d,
      { source_revision_config: { repo_ref: 'main' } },
      true,
      notes,
      Date.now
    )

  describe('patchReconciled', () => {
    test('a patch whose answer was lost adopts the revision it made: exactly one new revision', async () => {
      const d = await client.createDeployment(body('patched'))
      emu.setFaults({ kind: 'lost-response', method: 'PATCH', path: '/v2/deployments/*', times: 1 })
      const out = await patchMain(d)
      const [state] = named('patched')
      expect(state!.revisions).toHaveLength(2)
      expect(out.latest_revision_id).toBe(state!.latest_revision_id)
      expect(out.latest_revision_id).not.toBe(d.latest_revision_id)
      expect(patches()).toHaveLength(1)
    })

    test('a patch that failed before it was applied is sent again: still exactly one new revision', async () => {
      const d = await client.createDeployment(body('retried'))
      emu.setFaults({ kind: 'reset', method: 'PATCH', path: '/v2/deployments/*', times: 1 })
      const out = await patchMain(d)
      expect(named('retried')[0]!.revisions).toHaveLength(2)
      expect(out.latest_revision_id).toBe(named('retried')[0]!.latest_revision_id)
      expect(patches().map(p => p.status)).toEqual([null, 200])
    })
  })
})

// A create whose name turns out taken by several deployments at once (other runs raced it): the
// error names the input to choose one as the run's door does, the CLI's flag included.
describe('names', () => {
  const OTHER_ID = '99999999-9999-4999-8999-999999999999'

  /** A control plane that answers the create "already exists" and lists two deployments of the name. */
  const racedClient = {
    createDeployment: async () => {
      throw new ApiError(
        {
          operation: 'create deployment',
          method: 'POST',
          path: '/v2/deployments',
          say: ACTION_SAY
        },
        400,
        'Deployment with name agent-prod already exists'
      )
    },
    async *iterateDeployments() {
      yield testDeployment()
      yield testDeployment({ id: OTHER_ID })
    }
  } as unknown as ControlPlaneClient

  const notes = { info: () => {}, warning: () => {} }
  const body = { name: 'agent-prod' } as CreateDeploymentRequest

  /** The message the create ends with; 'created' when it did not refuse. */
  async function refusal(say: Say): Promise<string> {
    const r = await createOrAdopt(racedClient, body, notes, Date.now, say)
    return stopped(r) ? failureText(r.failure) : 'created'
  }

  describe('createOrAdopt, when the name is taken by several deployments', () => {
    test('the hint names deployment-id as the door does: the action and the CLI', async () => {
      const action = await refusal(ACTION_SAY)
      expect(action).toBe(
        `Several deployments are named "agent-prod" (${DEPLOYMENT_ID}, ${OTHER_ID}).\nSet \`deployment-id\` to choose one.`
      )
      const cli = await refusal(cliSay({}))
      expect(cli).toContain('Set `--deployment-id` to choose one.')
      const fromEnv = await refusal(cliSay({ 'deployment-id': 'env' }))
      expect(fromEnv).toContain('Set `CONTROL_PLANE_DEPLOYMENT_ID` to choose one.')
    })
  })
})
