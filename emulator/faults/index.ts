// Injectable faults: every kind's spec and behaviour (one module per family), the set of active
// faults, and which fault a request hits.
import { z } from 'zod'
import { badSchema, detail, echoInput422Kind, nonJson, redirect, status } from './answers.ts'
import type { Exchange } from './exchange.ts'
import type { FaultKind } from './kind.ts'
import { matches } from './match.ts'
import { endlessList, oldRevision, otherRevision } from './model.ts'
import { delay, hugeBody, lostResponse, reset, trickle } from './transport.ts'

export type { Exchange } from './exchange.ts'

const KINDS = [
  status,
  reset,
  lostResponse,
  delay,
  nonJson,
  badSchema,
  redirect,
  hugeBody,
  trickle,
  detail,
  echoInput422Kind,
  oldRevision,
  otherRevision,
  endlessList
] as const

type Specs<K> = { [I in keyof K]: K[I] extends FaultKind<infer S> ? S : never }

export const FaultSpec = z.discriminatedUnion(
  'kind',
  KINDS.map(k => k.spec) as unknown as Specs<typeof KINDS>
)
export type FaultSpec = z.input<typeof FaultSpec>
export type Fault = z.output<typeof FaultSpec> & { id: number; seen: number; applied: number }

export const FaultSpecs = z.union([FaultSpec, z.array(FaultSpec)])

const BEHAVIOURS = new Map<string, (fault: Fault, ex: Exchange) => void | Promise<void>>(
  KINDS.map(k => [k.spec.shape.kind.value, k.apply as unknown as (f: Fault, ex: Exchange) => void])
)

/** Does what the fault says instead of (or on top of) the normal answer. */
export function applyFault(fault: Fault, ex: Exchange): void | Promise<void> {
  return BEHAVIOURS.get(fault.kind)!(fault, ex)
}

export class FaultSet {
  private faults: Fault[] = []
  private nextId = 1

  /** Validates (throws a ZodError on a bad spec) and appends; returns the added faults. */
  add(specs: FaultSpec | FaultSpec[]): Fault[] {
    const parsed = FaultSpecs.parse(specs)
    const list = Array.isArray(parsed) ? parsed : [parsed]
    const added = list.map(f => ({ ...f, id: this.nextId++, seen: 0, applied: 0 }))
    this.faults.push(...added)
    return added.map(f => ({ ...f }))
  }

  /** Replaces all faults (nothing changes if a spec is invalid). */
  replace(specs: FaultSpec | FaultSpec[]): Fault[] {
    FaultSpecs.parse(specs)
    this.faults = []
    return this.add(specs)
  }

  clear(): void {
    this.faults = []
  }

  list(): Fault[] {
    return this.faults.map(f => ({ ...f }))
  }

  /** The first fault for this request, counted as applied (and removed once used up). */
  take(method: string, path: string): Fault | null {
    for (const f of this.faults) {
      if (!matches(f, method, path)) continue
      f.seen++
      if (f.seen <= f.skip) continue
      f.applied++
      if (f.times !== undefined && f.applied >= f.times) {
        this.faults = this.faults.filter(x => x !== f)
      }
      return f
    }
    return null
  }
}
