// `command: check` against a deployment that is not what a deploy would leave alone, and against
// answers that say so in odd ways: being deleted, a status the service does not document, another
// type, no revision, an active revision whose own answer failed or carries log commands. Each is
// drift (the step fails with `Drift`, `drift=true`), never "in sync"; nothing is written.
import { describe } from '@jest/globals'
import { demoFixture, type Emulator, type FaultSpec } from '../../emulator/server.ts'
import { GROUPS } from '../../scripts/reliability-results.ts'
import { PUSH_MAIN } from '../../scripts/runner-env.ts'
import type { RunResult } from '../e2e/harness.ts'
import {
  errorText,
  existingDeployment,
  FIXTURE_SECRET,
  isWrite,
  lane,
  reliabilityCase,
  withEmulator,
  type Case
} from './support.ts'

const GROUP = GROUPS.check

/** The fixture, its deployment built at the event's commit: as a good deploy of main leaves it. */
function builtAtEvent(emu: Emulator): void {
  const base = demoFixture()
  emu.loadFixture({
    ...base,
    repo_commits: { 'https://github.com/acme/support-bot@main': PUSH_MAIN.sha! }
  })
}

function checkInputs(c: Case, emu: Emulator, over: Record<string, string> = {}) {
  const { apiKey, integrationId } = emu.credentials()
  c.secrets.push(apiKey, FIXTURE_SECRET)
  return {
    'api-key': apiKey,
    'base-url': emu.url,
    'integration-id': integrationId!,
    name: existingDeployment(emu).name,
    command: 'check',
    timeout: '60s',
    ...over
  }
}

/** What `url` answers now, as JSON. */
async function answerOf(emu: Emulator, url: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}${url}`, {
    headers: { 'x-api-key': emu.credentials().apiKey }
  })
  return (await res.json()) as Record<string, unknown>
}

/** The look-up's answer, each deployment in it changed by `change`. */
async function listSays(
  emu: Emulator,
  change: (d: Record<string, unknown>) => Record<string, unknown>
): Promise<FaultSpec> {
  const list = await answerOf(emu, `/v2/deployments?name_contains=${existingDeployment(emu).name}`)
  const resources = (list.resources as Record<string, unknown>[]).map(change)
  return {
    kind: 'bad-schema',
    method: 'GET',
    path: '/v2/deployments',
    body: { ...list, resources }
  }
}

/** The active revision's own answer, changed by `change`. */
async function revisionSays(
  emu: Emulator,
  change: (r: Record<string, unknown>) => Record<string, unknown>
): Promise<FaultSpec> {
  const d = existingDeployment(emu)
  const path = `/v2/deployments/${d.id}/revisions/${d.revisions.at(-1)!.id}`
  return { kind: 'bad-schema', method: 'GET', path, body: change(await answerOf(emu, path)) }
}

/** Drift: the step fails with one `Drift` error naming `words`, drift=true, never "In sync". */
function expectDrift(c: Case, emu: Emulator, r: RunResult, said: string, words: string): void {
  c.check(
    r.code === 1,
    `exit ${r.code}, expected 1 (the action's drift): ${errorText(r).slice(0, 300)}`
  )
  c.check(r.outputs.drift === 'true', `drift output ${r.outputs.drift}, expected true`)
  c.check(r.errors.length === 1, `${r.errors.length} ::error lines, expected 1`)
  c.check(
    /^::error title=Drift::/.test(r.errors[0] ?? '') && (r.errors[0] ?? '').includes(words),
    `the error is not a Drift naming "${words}": ${errorText(r).slice(0, 300)}`
  )
  c.check(r.stdout.includes(said), `the log does not say "${said}"`)
  c.check(!/In sync/.test(r.stdout + r.summary), 'it says "In sync"')
  c.check(r.summary.includes('⚠️ Drift'), 'the summary does not say Drift')
  c.check(!emu.requests().some(isWrite), 'it wrote to the control plane')
  c.note(`${emu.requests().length} requests`)
}

interface StateCase {
  title: string
  /** Makes the state (or the answers); what the log must say, and the error's words. */
  arrange(emu: Emulator): Promise<{ said: string; words: string; over?: Record<string, string> }>
}

const CASES: StateCase[] = [
  {
    title: 'being deleted (AWAITING_DELETE)',
    arrange: async emu => {
      emu.configure({ stageDurationsMs: { DELETE: 24 * 3600_000 } })
      const res = await fetch(`${emu.url}/v2/deployments/${existingDeployment(emu).id}`, {
        method: 'DELETE',
        headers: { 'x-api-key': emu.credentials().apiKey }
      })
      await res.arrayBuffer()
      emu.clearRequests()
      return {
        said: 'is being deleted (AWAITING_DELETE): a deploy would wait until it is gone',
        words: 'it is being deleted'
      }
    }
  },
  {
    title: 'a status the service does not document',
    arrange: async emu => {
      emu.setFaults(await listSays(emu, d => ({ ...d, status: 'PAUSED`$(id)`' })))
      return {
        said: 'is UNKNOWN (undocumented "PAUSED???id??"), not READY',
        words: 'it is not READY'
      }
    }
  },
  {
    title: 'another type than deployment-type',
    arrange: async () => ({
      said: 'is dedicated, but `deployment-type: serverless` asks for serverless',
      words: 'it is of another type',
      over: { 'deployment-type': 'serverless' }
    })
  },
  {
    title: 'no revision at all',
    arrange: async emu => {
      emu.setFaults(
        await listSays(emu, d => ({ ...d, latest_revision_id: null, active_revision_id: null }))
      )
      return { said: 'has no revision: nothing runs there', words: 'it has no revision' }
    }
  },
  {
    title: 'the active revision’s own answer says BUILD_FAILED',
    arrange: async emu => {
      emu.setFaults(await revisionSays(emu, r => ({ ...r, status: 'BUILD_FAILED' })))
      return { said: 'is BUILD_FAILED, not DEPLOYED', words: 'its active revision is not DEPLOYED' }
    }
  },
  {
    title: 'the active revision’s status carries a log command',
    arrange: async emu => {
      emu.setFaults(await revisionSays(emu, r => ({ ...r, status: 'DEPLOYED\n::error::forged' })))
      return { said: 'is UNKNOWN (undocumented', words: 'its active revision is not DEPLOYED' }
    }
  }
]

describe(GROUP, () => {
  const four = lane(4)

  reliabilityCase(
    GROUP,
    'a deployment as a good deploy left it: in sync, exit 0 (the baseline of the cases below)',
    c =>
      withEmulator({}, async emu => {
        builtAtEvent(emu)
        const r = await c.run({ inputs: checkInputs(c, emu) })
        c.check(r.code === 0, `exit ${r.code}, expected 0: ${errorText(r).slice(0, 300)}`)
        c.check(r.outputs.drift === 'false', `drift output ${r.outputs.drift}, expected false`)
        c.check(/In sync/.test(r.stdout), 'it does not say "In sync"')
        c.note(`${emu.requests().length} requests`)
      }),
    { lane: four }
  )

  for (const k of CASES)
    reliabilityCase(
      GROUP,
      `${k.title}: drift, never in sync, nothing written`,
      c =>
        withEmulator({}, async emu => {
          builtAtEvent(emu)
          const { said, words, over } = await k.arrange(emu)
          const r = await c.run({ inputs: checkInputs(c, emu, over) })
          c.check(
            emu.requests().some(q => q.fault !== null) || !emu.faults().length,
            'the fault was never applied: the case proves nothing'
          )
          c.check(!r.stdout.includes('\n::error::forged'), 'a forged log command reached the log')
          expectDrift(c, emu, r, said, words)
        }),
      { lane: four }
    )
})
