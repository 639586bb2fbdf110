// GitHub's API is reached through the proxy the door read, by the rule of every other request,
// and through none the environment names below the door.
import { afterEach, expect, test } from '@jest/globals'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadOctokit } from '../../src/github/api.ts'

/** A proxy that records each CONNECT's target and refuses it. */
async function recordingProxy(): Promise<{ server: Server; url: string; targets: string[] }> {
  const targets: string[] = []
  const server = createServer()
  server.on('connect', (req, socket) => {
    targets.push(req.url ?? '')
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, targets }
}

let proxy: Awaited<ReturnType<typeof recordingProxy>> | undefined
const saved = { ...process.env }
afterEach(() => {
  process.env = { ...saved }
  proxy?.server.close()
})

test('with the proxy variables handed in, a request to GitHub tunnels through that proxy', async () => {
  proxy = await recordingProxy()
  const octokit = await loadOctokit('t0ken', {
    apiUrl: 'https://api.github.example',
    proxy: { httpsProxy: proxy.url }
  })
  await expect(octokit.request('GET /rate_limit')).rejects.toBeTruthy()
  expect(proxy.targets).toEqual(['api.github.example:443'])
})

test('without them, a proxy named only in the environment is not used', async () => {
  proxy = await recordingProxy()
  process.env.https_proxy = proxy.url
  process.env.HTTPS_PROXY = proxy.url
  const octokit = await loadOctokit('t0ken', { apiUrl: 'https://api.github.example' })
  await expect(octokit.request('GET /rate_limit')).rejects.toBeTruthy()
  expect(proxy.targets).toEqual([])
})
