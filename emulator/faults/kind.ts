// A fault kind: its spec (what a test writes) next to its behaviour (what the emulator does).
import type { z } from 'zod'
import type { Exchange } from './exchange.ts'

export interface FaultKind<S extends z.ZodObject = z.ZodObject> {
  spec: S
  apply(fault: z.output<S>, ex: Exchange): void | Promise<void>
}

export function faultKind<S extends z.ZodObject>(
  spec: S,
  apply: (fault: z.output<S>, ex: Exchange) => void | Promise<void>
): FaultKind<S> {
  return { spec, apply }
}
