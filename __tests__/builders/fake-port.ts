// The action's door as a test sees it: a port that records every call a run makes (as
// `kind: text`), the values it masks and the summaries it writes, and the inputs of a run against
// a test's emulator.
import type { Emulator } from '../../emulator/server.ts'
import type { EventDefaults } from '../../src/runner/event.ts'
import { githubContext } from '../../src/runner/context.ts'
import type { RunPort } from '../../src/port.ts'
import { ACTION_SAY, EVENT } from '../builders.ts'

/** Every call a run made on the port, in order, as `kind: text`. */
export interface FakePort extends RunPort {
  calls: string[]
  masked: string[]
  summaries: string[]
}

export function fakePort(
  inputs: Record<string, string>,
  opts: { event?: EventDefaults; github?: boolean } = {}
): FakePort {
  const calls: string[] = []
  const port: FakePort = {
    calls,
    masked: [],
    summaries: [],
    input: name => inputs[name] ?? '',
    say: ACTION_SAY,
    event: opts.event ?? EVENT,
    mask: value => port.masked.push(value),
    info: line => calls.push(`info: ${line}`),
    warning: (line, title) => calls.push(`warning: ${title ?? ''}: ${line}`),
    notice: (line, title) => calls.push(`notice: ${title ?? ''}: ${line}`),
    error: (line, title) => calls.push(`error: ${title ?? ''}: ${line}`),
    group: async (name, fn) => {
      calls.push(`group: ${name}`)
      return fn()
    },
    summary: async markdown => {
      port.summaries.push(markdown)
    },
    signal: new AbortController().signal
  }
  if (opts.github) port.github = githubContext({}, {})
  return port
}

/** The inputs of a codehost deploy of `agent-run` against `emu`, with `over` on top. */
export function emulatorInputs(
  emu: Emulator,
  over: Record<string, string> = {}
): Record<string, string> {
  const c = emu.credentials()
  return {
    'api-key': c.apiKey,
    'tenant-id': c.tenantId,
    'base-url': emu.url,
    'integration-id': c.integrationId!,
    name: 'agent-run',
    'poll-interval': '1s',
    ...over
  }
}
