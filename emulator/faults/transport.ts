// Fault kinds of the connection and the pace: a reset, a lost response, a delay, a huge or a
// trickling body.
import type { OutgoingHttpHeaders } from 'node:http'
import { z } from 'zod'
import { serialize } from '../http/io.ts'
import { sleep } from './exchange.ts'
import { faultKind } from './kind.ts'
import { matchFields } from './match.ts'

/** Connection destroyed before the request is handled. */
export const reset = faultKind(
  z.object({ ...matchFields(), kind: z.literal('reset') }),
  (_f, ex) => void ex.req.socket.destroy()
)

/** The request is handled (writes applied), then the socket is destroyed without a response. */
export const lostResponse = faultKind(
  z.object({ ...matchFields(), kind: z.literal('lost-response') }),
  (_f, ex) => {
    ex.normal()
    ex.req.socket.destroy()
  }
)

/**
 * The longest wait a fault may ask for: 10 minutes, far past any client's timeout. Node's timers
 * hold at most 2^31 - 1 ms and fire at once beyond, so a longer wait could only answer early.
 */
export const MAX_FAULT_DELAY_MS = 600_000

const waitMs = z.number().int().nonnegative().max(MAX_FAULT_DELAY_MS)

/** Wait `ms`, then handle normally. */
export const delay = faultKind(
  z.object({ ...matchFields(), kind: z.literal('delay'), ms: waitMs }),
  async (f, ex) => {
    await sleep(ex, f.ms)
    if (!ex.closed()) ex.send(ex.normal())
  }
)

/** 200 streaming `bytes` bytes (streamed with back-pressure, never buffered). */
export const hugeBody = faultKind(
  z.object({
    ...matchFields(),
    kind: z.literal('huge-body'),
    bytes: z
      .number()
      .int()
      .positive()
      .default(300 * 1024 * 1024),
    /** Send a `Content-Length` header (default: chunked, no length). */
    contentLength: z.boolean().default(false)
  }),
  (f, ex) => {
    const { res } = ex
    const headers: OutgoingHttpHeaders = { 'content-type': 'application/json' }
    if (f.contentLength) headers['content-length'] = f.bytes
    ex.recordStatus(200)
    res.writeHead(200, headers)
    const head = Buffer.from('{"resources":[{"name":"')
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let sent = 0
    const pump = () => {
      while (sent < f.bytes && !res.destroyed && !ex.closed()) {
        const source = sent === 0 ? head : chunk
        const piece = source.subarray(0, Math.min(source.length, f.bytes - sent))
        sent += piece.length
        if (!res.write(piece)) return void res.once('drain', pump)
      }
      if (!res.destroyed) res.end()
    }
    pump()
  }
)

/** The normal answer, sent `chunkBytes` at a time with `intervalMs` pauses. */
export const trickle = faultKind(
  z.object({
    ...matchFields(),
    kind: z.literal('trickle'),
    chunkBytes: z.number().int().positive().default(4),
    intervalMs: waitMs.default(50)
  }),
  (f, ex) => {
    const { res } = ex
    const reply = ex.toWire(ex.normal())
    const { headers, payload } = serialize(reply)
    ex.recordStatus(reply.status)
    res.writeHead(reply.status, headers)
    const data = payload ?? Buffer.alloc(0)
    let i = 0
    const step = () => {
      if (res.destroyed || ex.closed()) return
      if (i >= data.length) return void res.end()
      res.write(data.subarray(i, i + f.chunkBytes))
      i += f.chunkBytes
      ex.later(f.intervalMs, step)
    }
    step()
  }
)
