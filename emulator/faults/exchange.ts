// What a fault behaviour may do with the request it hit: answer normally, answer something else,
// write the response itself, or drop the connection.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from '../state/context.ts'
import type { Reply } from '../http/io.ts'
import type { Body } from '../http/io.ts'

export interface Exchange {
  req: IncomingMessage
  res: ServerResponse
  method: string
  /** Relative to the base path, as the client sent it (the dialect's wire path). */
  path: string
  /** URL-decoded path segments, in interface vocabulary. */
  segments: string[]
  query: Record<string, string>
  /** The request body in interface vocabulary. */
  body: Body
  ctx: Context
  /** The answer the emulator would give without the fault (writes applied). */
  normal(): Reply
  /** The answer to the same path asked with another method and no body (nothing applied). */
  routeAs(method: string): Reply
  /** Writes a whole reply given in interface vocabulary (and records its status). */
  send(reply: Reply): void
  /** A reply as the dialect's wire says it, for behaviours that write the response themselves. */
  toWire(reply: Reply): Reply
  /** Records the status of a response the behaviour writes itself. */
  recordStatus(status: number): void
  /** A timer that the emulator clears when it closes. */
  later(ms: number, fn: () => void): void
  /** True once the emulator is closing: stop writing. */
  closed(): boolean
}

export const sleep = (ex: Exchange, ms: number) =>
  new Promise<void>(resolve => ex.later(ms, resolve))
