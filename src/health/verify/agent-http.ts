// An AgentCall over HTTP(S) to one agent server: the path appended to its URL (never resolved
// against it), the headers given by the caller (the key only where the caller allows it), no
// redirect followed, the answer read up to a cap. A fresh connection per request.
import * as http from 'node:http'
import * as https from 'node:https'
import type { AgentCall } from './agent-call.ts'

/** More than a run's output excerpt ever shows; the rest of a long answer is not read. */
export const MAX_AGENT_BODY = 256 * 1024

export function agentHttp(baseUrl: string, headers: Record<string, string>): AgentCall {
  const base = baseUrl.replace(/\/+$/, '')
  return req =>
    new Promise((resolve, reject) => {
      const url = new URL(base + req.path)
      const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body))
      const lib = url.protocol === 'https:' ? https : http
      const request = lib.request(url, {
        method: req.method,
        agent: false,
        signal: req.signal,
        headers: {
          ...headers,
          accept: 'application/json',
          connection: 'close',
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': payload.length }
            : {})
        }
      })
      request.on('error', reject)
      request.on('response', res => {
        const chunks: Buffer[] = []
        let size = 0
        const done = () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_AGENT_BODY) return
          chunks.push(chunk.subarray(0, MAX_AGENT_BODY - size))
          size += chunk.length
          if (size >= MAX_AGENT_BODY) {
            done()
            res.destroy()
          }
        })
        res.on('end', done)
        res.on('error', reject)
      })
      request.end(payload)
    })
}
