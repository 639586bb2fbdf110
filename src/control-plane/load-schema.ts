// The zod model (schema.ts), loaded on first use rather than at start: zod and the schemas take
// about 33 ms of CPU before the first request (bench/RESULTS.md, "the price of the lazy model":
// on the goal's 1.5x edge imported at start, about 1.2x loaded here), and the first request of a run
// (the list that finds the deployment by name, or the read of it by id) needs neither. In the
// bundle the model is a chunk of its own, loaded when the first answer is read; tests and the
// emulator import schema.ts as usual.
import type * as Schema from './schema.ts'

export type Model = typeof Schema

let loading: Promise<Model> | undefined

/** The model, imported once per process. */
export function loadSchema(): Promise<Model> {
  return (loading ??= import('./schema.ts'))
}
