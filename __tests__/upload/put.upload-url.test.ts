// The pieces together against the emulator, in both dialects: the client's `POST .../upload-url`,
// the archive of a fixture PUT to the URL it answers, and a PATCH naming the object, which the
// service accepts only once the PUT has stored it. And an upload URL that is not http(s) is
// refused by the upload, once, before anything is sent to it.
import { makeClock } from '../../src/clock.ts'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from '@jest/globals'
import { ControlPlaneClient } from '../../src/control-plane/client.ts'
import type { Emulator } from '../../emulator/server.ts'
import { buildArchive } from '../../src/upload/archive.ts'
import { putArchive } from '../../src/upload/put.ts'
import { call, CLOUD_KEY, start, type Json } from '../builders/emulator.ts'
import { copyFixture, tempDir } from '../builders/upload.ts'
import { ACTION_SAY } from '../builders.ts'

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
