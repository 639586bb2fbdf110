import { createHash } from 'node:crypto'
import * as http from 'node:http'
import * as net from 'node:net'
import { type AddressInfo } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from '@jest/globals'
import { makeClock } from '../../src/clock.ts'
import {
  describeUploadUrl,
  putArchive as putOn,
  uploadUrlProblem,
  putArchive,
  type PutOptions
} from '../../src/upload/put.ts'
import { tempDir, copyFixture } from '../builders/upload.ts'
import { ControlPlaneClient } from '../../src/control-plane/client.ts'
import { type CallOptions } from '../../src/control-plane/client-options.ts'
import { AbortedError } from '../../src/control-plane/errors.ts'
import { type FlowDeps } from '../../src/commands/deploy/deps.ts'
import { stopped, type Stop } from '../../src/interface/ending.ts'
import { prepareUpload, type SourceUpload } from '../../src/commands/deploy/steps/upload.ts'
import { ACTION_SAY, testOptions } from '../builders.ts'
import { type Emulator } from '../../emulator/server.ts'
import { buildArchive } from '../../src/upload/archive.ts'
import { call, CLOUD_KEY, start, type Json } from '../builders/emulator.ts'

// The PUT of an archive to a loopback stand-in for the signed upload URL: what it carries (and
// never: the key), and each way it can end: stored, refused (a 3xx included, never followed),
// lost (no answer within the timeout, or the connection cut after the body), not sent, cancelled.
describe('put', () => {
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
      const result = await putArchive({
        url: `http://127.0.0.1:${port}/o`,
        ...(await archiveFile())
      })
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
})

// The run's deadline bounds the upload, every try included: with `timeout: 20s`, a PUT that never
// answers ends when the run's clock reaches 20 s, as the run's timeout ending, with nothing
// patched; so does an upload URL the control plane does not answer in time. The clock here is
// the test's: its pauses end when the test moves it on, so nothing depends on the machine's speed.
describe('deadline', () => {
  const START = Date.parse('2026-11-01T00:00:00Z')

  /** A clock whose pauses wait for the test: `next()` ends the earliest, moving the time to it. */
  function manualClock() {
    const pending: Array<{ at: number; ms: number; end: () => void }> = []
    const clock = {
      t: START,
      now: () => clock.t,
      sleep: (ms: number) =>
        new Promise<void>(resolve => pending.push({ at: clock.t + ms, ms, end: resolve })),
      /** The pauses asked for so far, in ms, and which are still running. */
      asked: [] as number[],
      pending,
      next() {
        pending.sort((a, b) => a.at - b.at)
        const first = pending.shift()
        if (!first) throw new Error('no pause is running')
        clock.t = Math.max(clock.t, first.at)
        first.end()
      }
    }
    const sleep = clock.sleep
    clock.sleep = (ms: number) => {
      clock.asked.push(ms)
      return sleep(ms)
    }
    return clock
  }

  /** An upload host that takes every connection and never answers. */
  const hosts: net.Server[] = []
  afterEach(() => {
    for (const h of hosts.splice(0)) h.close()
  })
  async function hungHost() {
    const sockets: net.Socket[] = []
    const host = net.createServer(s => {
      sockets.push(s)
      s.resume()
    })
    hosts.push(host)
    await new Promise<void>(r => host.listen(0, '127.0.0.1', r))
    host.on('close', () => sockets.forEach(s => s.destroy()))
    const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
    return { origin, connections: () => sockets.length }
  }

  /** Waits (on events, not a time) until `ok()` holds. */
  async function until(ok: () => boolean) {
    while (!ok()) await new Promise(r => setImmediate(r))
  }

  /** The upload step of `timeout: 20s` in the `ignores` fixture, on `clock`, with `client`. */
  async function uploadStep(client: ControlPlaneClient, clock: ReturnType<typeof manualClock>) {
    const o = testOptions(
      { 'integration-id': undefined, source: 'internal_source', timeout: '20s' },
      { baseUrl: 'http://127.0.0.1:1' }
    )
    const deps: FlowDeps = {
      client,
      clock,
      say: ACTION_SAY,
      workspace: await copyFixture('ignores'),
      log: { info: () => {}, warning: () => {}, notice: () => {}, group: (_n, fn) => fn() }
    }
    const upload = (await prepareUpload(o, deps)) as SourceUpload
    return { upload, stored: upload.store(client, 'd-1', {}) }
  }

  /**
   * A client whose deadline is the run's, 30 s past `timeout` for the look-ups around the wait: each
   * upload URL asked for (its call options in `asked`) is what `answer` gives.
   */
  function deadlineClient(
    answer: (call: CallOptions, n: number) => Promise<unknown>,
    pause: () => Promise<boolean>
  ) {
    const asked: CallOptions[] = []
    const client = {
      deadline: START + 50_000,
      requestUploadUrl: async (_id: string, call: CallOptions = {}) => {
        asked.push(call)
        return answer(call, asked.length)
      },
      pause
    } as unknown as ControlPlaneClient
    return { client, asked }
  }

  it('timeout: 20s and a PUT that never answers: the upload ends at 20 s on the run clock, a timeout', async () => {
    const host = await hungHost()
    const clock = manualClock()
    const { client, asked } = deadlineClient(
      async (_call, n) => ({ upload_url: `${host.origin}/o?sig=${n}`, object_path: `o${n}` }),
      async () => {
        await clock.sleep(1_000)
        return true
      }
    )
    const { upload, stored } = await uploadStep(client, clock)
    // The PUT is in and its one pause, the timeout, is what is left of the 20 s.
    await until(() => host.connections() === 1 && clock.pending.length === 1)
    expect(clock.asked).toEqual([20_000])
    expect(asked).toEqual([{ deadline: START + 20_000 }])
    clock.next()
    // Then the pause before another try, after which no time is left for one.
    await until(() => clock.pending.length === 1)
    clock.next()
    const ended = (await stored) as Stop
    await upload.archive.cleanup()
    expect(stopped(ended)).toBe(true)
    expect(ended.outcome).toBe('timeout')
    expect(ended.failure.message).toContain('its answer was lost (no answer within 20 s)')
    expect(ended.failure.message).toContain('The run reached its deadline (from `timeout`)')
    expect(ended.failure.message).toContain('Nothing was patched')
    expect(clock.t - START).toBeLessThanOrEqual(21_000)
    expect(asked).toHaveLength(1)
  })

  it('an upload URL not answered by the deadline ends the upload as the timeout too, nothing sent', async () => {
    const clock = manualClock()
    // What the transport does when the call's deadline passes while it waits.
    const { client, asked } = deadlineClient(
      async call => {
        clock.t = call.deadline ?? clock.t + 50_000
        throw new AbortedError(
          {
            method: 'POST',
            path: '/v2/deployments/d-1/upload-url',
            operation: 'request upload url'
          },
          'request upload url: no complete answer within 20 s (the deadline of the run)'
        )
      },
      async () => true
    )
    const { upload, stored } = await uploadStep(client, clock)
    const ended = (await stored) as Stop
    await upload.archive.cleanup()
    expect(asked).toEqual([{ deadline: START + 20_000 }])
    expect(ended.outcome).toBe('timeout')
    expect(ended.failure.message).toContain(
      'The source archive could not be uploaded. The run reached its deadline (from `timeout`).'
    )
  })
})

// The pieces together against the emulator, in both dialects: the client's `POST .../upload-url`,
// the archive of a fixture PUT to the URL it answers, and a PATCH naming the object, which the
// service accepts only once the PUT has stored it. And an upload URL that is not http(s) is
// refused by the upload, once, before anything is sent to it.
describe('upload-url', () => {
  let emu: Emulator | undefined
  const clients: ControlPlaneClient[] = []
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close()
    await emu?.close()
    emu = undefined
  })

  function client(baseUrl: string, dialect: 'interface' | 'langsmith' = 'interface') {
    const c = new ControlPlaneClient({
      baseUrl,
      apiKey: CLOUD_KEY,
      dialect,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      say: ACTION_SAY,
      clock: makeClock()
    })
    clients.push(c)
    return c
  }

  describe.each(['interface', 'langsmith'] as const)('upload-url (%s)', dialect => {
    it('answers a URL the archive is PUT to; the PATCH naming its object is then accepted', async () => {
      emu = await start({ dialect })
      const created = await call(emu, 'POST', '/v2/deployments', {
        body: {
          name: 'up',
          source: 'internal_source',
          source_config: {},
          source_revision_config: {},
          secrets: []
        }
      })
      const id = (created.body as Json).id as string
      const c = client(emu.url, dialect)
      const slot = await c.requestUploadUrl(id)
      expect(slot.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_uploads\//)
      const archive = await buildArchive({
        workspace: await copyFixture('monorepo'),
        graphConfigPath: 'apps/agent/langgraph.json',
        tempDir: await tempDir(),
        inputName: 'graph-config-path'
      })
      expect(
        await putArchive({
          url: slot.upload_url,
          file: archive.file,
          size: archive.size,
          clock: makeClock()
        })
      ).toEqual({
        outcome: 'stored',
        status: 200
      })
      const patched = await c.patchDeployment(id, {
        revision_source: 'internal_source',
        source_revision_config: {
          source_tarball_path: slot.object_path,
          graph_config_path: archive.configPath
        }
      })
      expect(patched.latest_revision_id).not.toBe((created.body as Json).latest_revision_id)
      await archive.cleanup()
    })
  })

  it('an upload_url of another scheme is asked for once and refused by the upload, never sent to', async () => {
    let asked = 0
    const s = http.createServer((_req, res) => {
      asked++
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ upload_url: 'file:///etc/passwd', object_path: 'uploads/x.tar.gz' }))
    })
    await new Promise<void>(r => s.listen(0, '127.0.0.1', r))
    try {
      const c = client(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)
      const slot = await c.requestUploadUrl('d')
      // Not a malformed answer that a read asks for again: the upload's rule refuses it, once.
      expect(asked).toBe(1)
      const a = { file: '/nonexistent', size: 1, clock: makeClock() }
      expect(await putArchive({ url: slot.upload_url, ...a })).toEqual({
        outcome: 'unusable',
        reason: 'the upload URL must be https (plain http only to this machine), not file://'
      })
    } finally {
      s.closeAllConnections()
      s.close()
    }
  })
})
