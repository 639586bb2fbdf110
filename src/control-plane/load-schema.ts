// The zod model (schema.ts), loaded on first use: zod and the schemas take about 33 ms of CPU
// (bench/RESULTS.md, "the price of the lazy model"), which the run's first request does not need.
// In the bundle it is a chunk of its own; tests and the emulator import schema.ts as usual.
import type * as Schema from './schema.ts'

export type Model = typeof Schema

let loading: Promise<Model> | undefined

/** The model, imported once per process. */
export function loadSchema(): Promise<Model> {
  return (loading ??= import('./schema.ts'))
}
