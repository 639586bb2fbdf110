// Shared builders: Options through the real input parser (so a fixture can never be a shape the
// parser would not produce), and a Deployment as the service answers it.
import { COMMAND_RULES } from '../src/run.ts'
import { createServer } from 'node:net'
import type { Deployment } from '../src/control-plane/schema.ts'
import { failureText, stopped, type Stop } from '../src/interface/ending.ts'
import type { EventDefaults } from '../src/runner/event.ts'
import { loadDocumentParser, checkInputs, type RawInputs } from '../src/inputs/index.ts'
import { actionSay, type Say } from '../src/interface/naming.ts'
import type { Options } from '../src/inputs/options.ts'
import type { FlowLog } from '../src/log.ts'

// The parser of the YAML/JSON inputs is loaded on demand (run() loads it when one is set);
// testOptions reads such inputs directly.
await loadDocumentParser()

/** How the action's door names an input (`create`, `create: false`): what src/ is handed below a door. */
export const ACTION_SAY: Say = actionSay()

export const INTEGRATION = '33333333-3333-4333-8333-333333333333'
export const DEPLOYMENT_ID = '44444444-4444-4444-8444-444444444444'
export const REVISION_ID = '66666666-6666-4666-8666-666666666666'
export const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
export const EVENT: EventDefaults = {
  ref: 'main',
  expectedSha: SHA,
  repository: 'acme/agent-server'
}

/** The Options of these inputs (a codehost deployment `agent-prod` by default), then `over`. */
export function testOptions(
  raw: Partial<RawInputs> = {},
  over: Partial<Options> = {},
  event: EventDefaults = EVENT
): Options {
  const result = checkInputs(
    { 'api-key': 'lsv2_pt_test_key', name: 'agent-prod', 'integration-id': INTEGRATION, ...raw },
    event,
    ACTION_SAY,
    COMMAND_RULES
  )
  if (!result.ok) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`)
  return { ...result.options, ...over }
}

export function testDeployment(over: Partial<Deployment> = {}): Deployment {
  return {
    name: 'agent-prod',
    source: 'codehost',
    source_config: {
      integration_id: INTEGRATION,
      repo_url: 'https://github.com/acme/agent-server',
      custom_url: null
    },
    source_revision_config: { repo_ref: 'main', graph_config_path: 'langgraph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-old-value' }],
    id: DEPLOYMENT_ID,
    tenant_id: '55555555-5555-4555-8555-555555555555',
    created_at: '2026-11-01T00:00:00Z',
    updated_at: '2026-11-01T00:00:00Z',
    status: 'READY',
    latest_revision_id: REVISION_ID,
    active_revision_id: REVISION_ID,
    ...over
  }
}

/**
 * A step's result, or the failure it returned (src/commands/deploy/ending.ts) thrown with the run's error
 * text (the message, then the hint), for tests that expect a refusal with `toThrow`.
 */
export function refusedOr<T>(x: T | Stop): T {
  if (stopped(x)) throw new Error(failureText(x.failure))
  return x
}

/** A log port that keeps every line, as the job log would show it. */
export function recordingLog() {
  const lines: Array<{ level: 'info' | 'warning'; line: string; title?: string }> = []
  return {
    lines,
    warnings: () => lines.filter(l => l.level === 'warning'),
    log: {
      info: (line: string) => lines.push({ level: 'info', line }),
      warning: (line: string, title?: string) =>
        lines.push({ level: 'warning', line, ...(title ? { title } : {}) })
    }
  }
}

/** A YAML document whose aliases expand to 9^7 nodes if expanded. */
export const ALIAS_BOMB = [
  'labels: &a {k0: v, k1: v, k2: v, k3: v, k4: v, k5: v, k6: v, k7: v, k8: v}',
  'annotations: &b {a0: *a, a1: *a, a2: *a, a3: *a, a4: *a, a5: *a, a6: *a, a7: *a, a8: *a}',
  'x1: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'x2: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'x3: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
  'x4: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]',
  'x5: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]',
  'x6: [*g, *g, *g, *g, *g, *g, *g, *g, *g]'
].join('\n')

/** A port on this machine where nothing listens: a connection there is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

/** A flow's log that keeps its lines in order, warnings as `warning: <line>`; groups run at once. */
export function linesLog(): { lines: string[]; log: FlowLog } {
  const lines: string[] = []
  const log: FlowLog = {
    info: l => lines.push(l),
    warning: l => lines.push(`warning: ${l}`),
    notice: l => lines.push(l),
    group: (_n, fn) => fn()
  }
  return { lines, log }
}
