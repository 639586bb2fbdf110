// The emulator's entry point: `startEmulator` starts one in-process emulator (its own state, port
// and settings) and returns the control API. Its rooms are layers (scripts/layers.ts,
// EMULATOR_LAYERS): routes/ (what a request goes through), runtime.ts (all a running emulator
// holds) and types.ts (the public shapes), operations/ (what the operations do), agents/, builds/
// and faults/, state/ (the records, their lifecycle, the settings), http/ (the plumbing).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { isIP, type AddressInfo } from 'node:net'
// Imported, not read from disk, so that the bundled bin (bin/emulator.js) carries it inline.
import demo from '../fixtures/demo.json' with { type: 'json' }
import { allowedHostnames } from './routes/host-check.ts'
import { normalizeBasePath } from './http/io.ts'
import { outOfBand } from './operations/out-of-band.ts'
import { requestListener } from './routes/pipeline.ts'
import { Runtime } from './runtime.ts'
import type { Fixture } from './state/store.ts'
import type { Emulator, EmulatorControl, EmulatorOptions } from './types.ts'

export type { Fixture } from './state/store.ts'
export type { FaultSpec, Fault } from './faults/index.ts'
export type { RateLimit } from './http/rate-limit.ts'
export type { ConfigInput, EmulatorConfig } from './state/config.ts'
export type { FailureRule, StageDurationsMs } from './state/lifecycle.ts'
export type { RequestLogEntry } from './http/request-log.ts'
export type { LogEntry, RevisionLogs } from './builds/logs.ts'
export type { ScriptedOutcome, ScriptSpec } from './state/outcome-scripts.ts'
export type { OutOfBandSpec } from './operations/out-of-band.ts'
export type { AgentHealth, AgentHealthSpec, AgentProbe, AgentServers } from './agents/servers.ts'
export type { AgentAppSpec } from './agents/app.ts'
export type { LangsmithRecords } from './langsmith/records.ts'
export type { EvaluatorRule, LangsmithFault, LangsmithSeed } from './langsmith/model.ts'
export type {
  Credentials,
  DeploymentView,
  Emulator,
  EmulatorControl,
  EmulatorOptions,
  EmulatorState,
  RevisionView
} from './types.ts'

export function readFixtureFile(path: string | URL): Fixture {
  return JSON.parse(readFileSync(path, 'utf8')) as Fixture
}

/** fixtures/demo.json, a fresh copy on every call (callers may change it). */
export function demoFixture(): Fixture {
  return structuredClone(demo) as Fixture
}

/** The control API as plain functions (safe to pass around or destructure). */
function controlOf(rt: Runtime): EmulatorControl {
  return {
    credentials: () => rt.credentials(),
    requests: () => rt.log.list(),
    clearRequests: () => rt.log.clear(),
    state: () => rt.state(),
    setFaults: specs => rt.faults.replace(specs),
    addFaults: specs => rt.faults.add(specs),
    faults: () => rt.faults.list(),
    clearFaults: () => rt.faults.clear(),
    configure: input => rt.configure(input),
    config: () => structuredClone(rt.config),
    setSpeed: factor => void rt.configure({ speed: factor }),
    loadFixture: f => rt.loadFixture(f),
    reset: () => rt.reset(),
    script: spec => rt.script(spec),
    scripts: () => rt.scripts(),
    clearScripts: () => rt.clearScripts(),
    revisionLogs: id => rt.revisionLogs(id),
    outOfBand: (id, spec) => outOfBand(rt.ctx, id, spec)
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1'
  const basePath = normalizeBasePath(options.basePath)
  // The address it listens on is a name its clients use, unless it is every interface's.
  const own = isIP(host) && !['0.0.0.0', '::'].includes(host) ? [host] : []
  const allowedHosts = allowedHostnames([...own, ...(options.allowedHosts ?? [])])
  const rt = new Runtime(options, demoFixture)
  const control = controlOf(rt)
  const server = createServer(
    requestListener(rt, control, {
      basePath,
      maxBodyBytes: options.maxBodyBytes ?? 10 * 1024 * 1024,
      allowedHosts
    })
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const hostInUrl = host.includes(':') ? `[${host}]` : host
  // The agent servers' address, as a probe on this machine reaches it.
  const local = { '0.0.0.0': '127.0.0.1', '[::]': '[::1]' }[hostInUrl] ?? hostInUrl
  rt.agents.origin = `http://${local}:${port}`
  return {
    ...control,
    agents: rt.agents,
    langsmith: rt.langsmith,
    url: `http://${hostInUrl}:${port}${basePath}`,
    port,
    close: async () => {
      rt.close()
      await new Promise<void>(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  }
}
