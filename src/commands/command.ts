// A command (the `command` input): the inputs it takes, how they must fit together, and its run,
// which returns how it ended. The registry in src/run.ts is the one place that chooses among them.
import type { Clock } from '../clock.ts'
import type { ControlPlaneClient } from '../control-plane/client.ts'
import type { Redactor } from '../control-plane/redact.ts'
import type { Rule } from '../inputs/rules.ts'
import type { Options } from '../inputs/options.ts'
import type { Ending } from '../interface/ending.ts'
import type { ACTION_OUTPUTS } from '../interface/action-yml.ts'
import type { InputName } from '../interface/names.ts'
import type { FlowLog } from '../log.ts'
import type { RunPort } from '../port.ts'

type OutputName = keyof typeof ACTION_OUTPUTS

/** Inputs every command takes: where and how to reach the control plane (and GitHub). */
export const EVERY_COMMAND = [
  'api-key',
  'tenant-id',
  'base-url',
  'dry-run',
  'github-token',
  'api-dialect',
  'command'
] as const satisfies readonly InputName[]

/** What a command on one deployment takes (a deploy, a check, a delete): which, and how long. */
export const ONE_DEPLOYMENT = [
  'name',
  'deployment-id',
  'wait',
  'timeout',
  'poll-interval',
  'pr-comment'
] as const satisfies readonly InputName[]

/** What a command's run is given: the door's port, and what run() made for it. */
export interface CommandContext {
  port: RunPort
  client: ControlPlaneClient
  /** The port's log, every line redacted. */
  log: FlowLog
  redactor: Redactor
  clock: Clock
  /** When the run began, on its clock. */
  started: number
}

/** What a command's steps are given of its context (FlowDeps, deploy/deps.ts). */
export function stepDeps({ port, client, log, clock }: CommandContext) {
  const { signal, say, event } = port
  return { client, log, signal, say, clock, workspace: event.workspace, ownFiles: event.ownFiles }
}

/** What a command leaves for run() to write: its outputs, its job summary, its last log line. */
export interface Report {
  /** By output name; undefined ones are written empty. */
  outputs: Record<string, string | undefined>
  /** Markdown; none when the command ended before it had anything to say (an invalid file). */
  summary?: string | undefined
  /** The log's last line of a command that did what was asked. */
  done?: string | undefined
}

/** A command's ending: how it ended (outcomes.ts) and what it reports. */
export type CommandEnding = Ending & Report

export interface Command {
  /** The inputs it takes besides those every command takes (EVERY_COMMAND, above). */
  inputs: readonly InputName[]
  /** How its inputs must fit together, checked before any request (inputs/rules.ts). */
  rules: readonly Rule[]
  /** The error's title when its run throws what nobody expected. */
  failedTitle: string
  /** The outputs it sets, in order (the CLI writes those alone; the action declares all). */
  outputs: readonly OutputName[]
  run(o: Options, context: CommandContext): Promise<CommandEnding>
}
