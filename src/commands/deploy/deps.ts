// What the deploy flow is given: the client, the log, the run's clock.
import type { Clock } from '../../clock.ts'
import type { ControlPlaneClient } from '../../control-plane/client.ts'
import type { ProbeTransport } from '../../health/probe.ts'
import type { Say } from '../../interface/naming.ts'
import type { SmokeCase } from '../../inputs/smoke-cases.ts'
import type { FlowLog } from '../../log.ts'
import type { Cadence } from './steps/wait.ts'
import type { EvaluationSet } from './read-evaluation.ts'

export interface FlowDeps {
  client: ControlPlaneClient
  log: FlowLog
  signal?: AbortSignal
  cadence?: Cadence
  /** The run's clock (run() makes it; tests pass a virtual one). */
  clock: Clock
  /** For tests: how a health probe is sent (default: HTTP). */
  probe?: ProbeTransport
  /** How the user sets an input where the run came from (`--x` / `CONTROL_PLANE_X` in the CLI). */
  say: Say
  /** The directory an upload deploy archives (the door's workspace); the process's by default. */
  workspace?: string
  /** Files this run writes (the CLI's `--output-file`): an upload never archives them. */
  ownFiles?: readonly string[]
  /** The smoke-test file's cases, read before any request (run.ts). */
  smokeCases?: readonly SmokeCase[]
  /** The `evaluate` file's evaluation, read before any request (read-evaluation.ts). */
  evaluation?: EvaluationSet
}
