// The PUT of an archive to a loopback stand-in for the signed upload URL: what it carries (and
// never: the key), and each way it can end: stored, refused (a 3xx included, never followed),
// lost (no answer within the timeout, or the connection cut after the body), not sent, cancelled.
import { createHash } from 'node:crypto'
import * as http from 'node:http'
import * as net from 'node:net'
import type { AddressInfo } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from '@jest/globals'
import { makeClock } from '../../src/clock.ts'
import {
  describeUploadUrl,
  putArchive as putOn,
  uploadUrlProblem,
  type PutOptions
} from '../../src/upload/put.ts'
import { tempDir } from '../builders/upload.ts'

/** One PUT on the real clock, unless a test gives its own. */
const putArchive = (o: Omit<PutOptions, 'clock'> & Partial<Pick<PutOptions, 'clock'>>) =>
  putOn({ clock: makeClock(), ...o })

interface Received {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: Buffer
}

const servers: http.Server[] = []
const rawServers: net.Server[] = []
afterEach(async () => {
  for (const s of rawServers.splice(0)) s.close()
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise(r => s.close(r))
  }
})

/** A loopback server; `answer` runs once the whole body is in (or at once, when `early`). */
async function server(
  answer: (res: http.ServerResponse, req: http.IncomingMessage) => void,
  early = false
) {
  const received: Received[] = []
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    if (early) return answer(res, req)
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks)
      })
      answer(res, req)
    })
  })
  servers.push(s)
  await new Promise<void>(r => s.listen(0, '127.0.0.1', r))
  return { origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, received }
}

async function archiveFile(bytes = 300_000) {
  const file = join(await tempDir(), 'source.tar.gz')
  const body = Buffer.alloc(bytes, 7)
  body[0] = 0x1f
  body[1] = 0x8b
  await writeFile(file, body)
  return { file, size: bytes, digest: createHash('sha256').update(body).digest('hex') }
}

describe('the PUT', () => {
  it('streams the file with its type, length and length range, and no key or other credential', async () => {
    const target = await server(res => res.writeHead(200).end())
    const a = await archiveFile()
    const result = await putArchive({
      url: `${target.origin}/bucket/obj.tar.gz?X-Goog-Signature=abc`,
      ...a
    })
    expect(result).toEqual({ outcome: 'stored', status: 200 })
    const [got] = target.received
    expect(got!.method).toBe('PUT')
    expect(got!.url).toBe('/bucket/obj.tar.gz?X-Goog-Signature=abc')
    expect(got!.headers['content-type']).toBe('application/gzip')
    expect(got!.headers['content-length']).toBe(String(a.size))
    expect(got!.headers['x-goog-content-length-range']).toBe('0,209715200')
    expect(got!.headers['transfer-encoding']).toBeUndefined()
    for (const name of ['x-api-key', 'authorization', 'cookie', 'x-tenant-id'])
      expect(got!.headers[name]).toBeUndefined()
    expect(createHash('sha256').update(got!.body).digest('hex')).toBe(a.digest)
  })

  it('a refusal is told with its status and the start of its body', async () => {
    const target = await server(res =>
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>SignatureDoesNotMatch</Code></Error>')
    )
    const result = await putArchive({ url: `${target.origin}/o`, ...(await archiveFile()) })
    expect(result).toEqual({
      outcome: 'refused',
      status: 403,
      detail: expect.stringContaining('SignatureDoesNotMatch')
    })
  })

  it('a refusal answered before the body is in (413 at once) is still a refusal', async () => {
    // As storage services do: the answer first, the rest of the body read and dropped (a raw
    // socket, which Node's server would close instead, racing the answer with the write).
    const raw = net.createServer(socket => {
      socket.once('data', () =>
        socket.write('HTTP/1.1 413 Payload Too Large\r\ncontent-length: 9\r\n\r\ntoo large')
      )
      socket.resume()
    })
    rawServers.push(raw)
    await new Promise<void>(r => raw.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/o`
    const result = await putArchive({ url, ...(await archiveFile(8_000_000)) })
    expect(result).toEqual({ outcome: 'refused', status: 413, detail: 'too large' })
  })

  it('a redirect is not followed: the other host gets nothing', async () => {
    const elsewhere = await server(res => res.writeHead(200).end())
    const target = await server(res =>
      res.writeHead(307, { location: `${elsewhere.origin}/steal?sig=1` }).end()
    )
    const result = await putArchive({ url: `${target.origin}/o`, ...(await archiveFile()) })
    expect(result).toEqual({
      outcome: 'refused',
      status: 307,
      detail: `a redirect to ${elsewhere.origin}/steal, not followed`
    })
    expect(elsewhere.received).toEqual([])
  })

  it("no answer within the timeout, on the run's clock: lost when that clock says so", async () => {
    const target = await server(() => undefined)
    // The run's clock: its one pause is the PUT's timeout, which ends when the test says.
    const asked: number[] = []
    let fire = () => {}
    const clock = {
      sleep: (ms: number) => {
        asked.push(ms)
        return new Promise<void>(resolve => (fire = resolve))
      }
    }
    const pending = putArchive({
      url: `${target.origin}/o`,
      ...(await archiveFile()),
      timeoutMs: 20_000,
      clock
    })
    while (target.received.length === 0) await new Promise(r => setTimeout(r, 10))
    expect(asked).toEqual([20_000])
    fire()
    expect(await pending).toEqual({ outcome: 'lost', reason: 'no answer within 20 s' })
    expect(target.received).toHaveLength(1)
  })

  it('the connection cut after the body is in: lost, not refused', async () => {
    const target = await server((res, req) => req.socket.destroy())
    const result = await putArchive({ url: `${target.origin}/o`, ...(await archiveFile()) })
    expect(result).toMatchObject({ outcome: 'lost' })
    expect(target.received).toHaveLength(1)
  })

  it('a host that refuses the connection: not sent', async () => {
    const target = await server(() => undefined)
    const port = new URL(target.origin).port
    for (const s of servers.splice(0)) await new Promise(r => s.close(r))
    const result = await putArchive({ url: `http://127.0.0.1:${port}/o`, ...(await archiveFile()) })
    expect(result).toEqual({ outcome: 'not-sent', reason: 'ECONNREFUSED' })
  })

  it('the abort signal stops it', async () => {
    const target = await server(() => undefined)
    const controller = new AbortController()
    const pending = putArchive({
      url: `${target.origin}/o`,
      ...(await archiveFile()),
      signal: controller.signal
    })
    while (target.received.length === 0) await new Promise(r => setTimeout(r, 10))
    controller.abort()
    expect(await pending).toEqual({ outcome: 'cancelled' })
  })

  it('refuses plain http to another host, URLs with credentials, and other schemes', async () => {
    expect(uploadUrlProblem('https://storage.googleapis.com/b/o?sig=1')).toBeUndefined()
    expect(uploadUrlProblem('http://[::1]:9/o')).toBeUndefined()
    expect(uploadUrlProblem('http://storage.example.com/o')).toMatch(/must be https/)
    expect(uploadUrlProblem('https://u:p@storage.example.com/o')).toMatch(/credentials/)
    expect(uploadUrlProblem('ftp://storage.example.com/o')).toMatch(/must be https/)
    for (const url of ['file:///etc/passwd', 'data:application/gzip;base64,H4sI', 'javascript:1'])
      expect(uploadUrlProblem(url)).toMatch(/must be https/)
    const a = await archiveFile(10)
    // A value, not a throw: nothing is sent, and the caller does not ask again.
    expect(await putArchive({ url: 'http://storage.example.com/o', ...a })).toEqual({
      outcome: 'unusable',
      reason: expect.stringMatching(/must be https/)
    })
  })

  it('logs the URL without its signature', () => {
    expect(
      describeUploadUrl('https://storage.googleapis.com/b/o.tar.gz?X-Goog-Signature=secret')
    ).toBe('https://storage.googleapis.com/b/o.tar.gz')
  })
})
