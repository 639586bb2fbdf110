// Where the health gate sends the API key, end to end through the packed CLI (run by
// `npm run test:package`); the action's bundle is held to the same rule in trust.test.ts.
// A hostile custom_url names https://agent.evil.example, a TLS server on loopback reached through
// a loopback CONNECT proxy, which must never see the key.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.ts'
import { NODE24, installedPackage } from '../package/package.ts'
import { e2eContext, uniqueName, withEmulator, type E2E } from './harness.ts'
import { seedWithUrl as seed, startTlsAgents, type TlsAgents } from './tls-agent.ts'

const EVIL = 'agent.evil.example'
const GOOD = 'agent.good.example'

let cliJs: string
let agents: TlsAgents

beforeAll(async () => {
  cliJs = join(installedPackage().dir, 'bin/cli.js')
  agents = await startTlsAgents([EVIL, GOOD, '*.remote.example'])
})

afterAll(async () => {
  await agents.close()
})

const network = () => agents.env
const seedWithUrl = (t: E2E, name: string, url: string) => seed(t.emu, name, url)
const probesOf = (host: string, name: string) => agents.probesOf(name).filter(s => s.host === host)

/** The packed CLI, in a clean environment but `env`. */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>(resolve => {
    const child = spawn(NODE24, [cliJs, ...args], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

function cliEnv(emu: Emulator): Record<string, string> {
  const c = emu.credentials()
  return {
    CONTROL_PLANE_API_KEY: c.apiKey,
    CONTROL_PLANE_BASE_URL: emu.url,
    CONTROL_PLANE_INTEGRATION_ID: c.integrationId ?? '',
    CONTROL_PLANE_TENANT_ID: c.tenantId,
    CONTROL_PLANE_REPOSITORY: 'acme/agent-server',
    CONTROL_PLANE_REF: 'main',
    CONTROL_PLANE_POLL_INTERVAL: '2s',
    ...network()
  }
}

test.concurrent(
  'the CLI: a hostile custom_url never gets the key; its 401 names --health-check-hosts and CONTROL_PLANE_HEALTH_CHECK_HOSTS',
  () =>
    withEmulator({ speed: 4 }, async emu => {
      const t = e2eContext(emu)
      const [evil, good] = [uniqueName('clievil'), uniqueName('cligood')]
      seedWithUrl(t, evil, `https://${EVIL}/${evil}`)
      const args = ['--health-check', 'true', '--health-check-window', '0', '--timeout', '60s']
      const [bad, fine] = await Promise.all([
        cli(['deploy', '--name', evil, ...args], {
          ...cliEnv(emu),
          CONTROL_PLANE_HEALTH_CHECK_HOSTS: 'evil-example.com,example.com.evil.net'
        }),
        cli(['deploy', '--name', good, ...args, '--health-check-hosts', GOOD], {
          ...cliEnv(emu),
          CONTROL_PLANE_CUSTOM_URL: `https://${GOOD}/${good}`
        })
      ])
      const evilProbes = probesOf(EVIL, evil)
      expect(evilProbes.length).toBeGreaterThanOrEqual(1)
      expect(evilProbes.filter(p => p.key !== undefined)).toEqual([])
      expect(bad.stdout + bad.stderr).not.toContain(t.key)
      expect(bad.code).toBe(1)
      expect(bad.stderr).toMatch(
        /answered 401 .* to a probe sent without the API key: .*not in `CONTROL_PLANE_HEALTH_CHECK_HOSTS`/
      )
      expect({ code: fine.code, err: fine.stderr.match(/error.*/gi) }).toEqual({
        code: 0,
        err: null
      })
      expect(probesOf(GOOD, good).every(p => p.key === t.key)).toBe(true)
      expect(probesOf(GOOD, good).length).toBeGreaterThanOrEqual(1)
      expect(fine.stdout + fine.stderr).not.toContain(t.key)
    }),
  300_000
)

test.concurrent(
  'the CLI: with a remote --base-url a loopback custom_url gets no key; a *.vercel.app pattern is one error naming --health-check-hosts',
  () =>
    withEmulator({ speed: 4 }, async emu => {
      const t = e2eContext(emu)
      const cp = `${uniqueName('clicp')}.remote.example`
      agents.relay(cp, emu.url)
      const args = ['--health-check', 'true', '--health-check-window', '0', '--timeout', '60s']
      const [loop, broad] = await Promise.all([
        cli(['deploy', '--name', uniqueName('cliloop'), ...args], {
          ...cliEnv(emu),
          CONTROL_PLANE_BASE_URL: `https://${cp}`
        }),
        cli(
          [
            'deploy',
            '--name',
            uniqueName('clipsl'),
            ...args,
            '--health-check-hosts',
            '*.vercel.app'
          ],
          cliEnv(emu)
        )
      ])
      const probes = emu.agents.probes()
      expect(probes.length).toBeGreaterThanOrEqual(1)
      expect(probes.filter(p => p.key !== 'missing')).toEqual([])
      expect(loop.code).toBe(1)
      expect(loop.stderr).toMatch(
        /127\.0\.0\.1:\d+ is not vouched for \(.*not loopback with `CONTROL_PLANE_BASE_URL` on loopback too\)/
      )
      expect(loop.stdout + loop.stderr).not.toContain(t.key)
      expect(broad.code).toBe(2)
      expect(broad.stderr).toMatch(
        /`--health-check-hosts`: "\*\.vercel\.app" would match hosts of many owners \(vercel\.app is a public suffix/
      )
    }),
  300_000
)
