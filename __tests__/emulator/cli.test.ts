// `npm run emulator` (emulator/cli.ts): prints the four lines, serves, stops on SIGINT/SIGTERM
// and when npm, having started it, is stopped.
// The option parsing is checked in-process; a process is spawned only for what only a process
// shows (what it prints, serves and exits with).
import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OPTIONS, parseCli, usage } from '../../emulator/cli-options.ts'
import { VERSION } from '../../src/version.ts'
import { serving } from '../builders/emulator.ts'

const localNode = 'node_modules/.bin/node'
const node = existsSync(localNode) ? localNode : process.execPath
// Node's cache of compiled code: each emulator started would strip and compile its TypeScript again.
const env = { ...process.env, NODE_COMPILE_CACHE: 'node_modules/.cache/cpd-node-compile' }

/** The emulator in the foreground; `lines` are its first four lines of stdout. */
function serve(args: string[]) {
  const child = spawn(node, ['emulator/cli.ts', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  return serving(child)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function runToEnd(args: string[]) {
  const child = spawn(node, ['emulator/cli.ts', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const [code] = await once(child, 'exit')
  return { code, stdout, stderr }
}

describe('options', () => {
  it('--help and -h ask for the usage, which names every option', () => {
    expect(parseCli(['--help'])).toEqual({ kind: 'help' })
    expect(parseCli(['-h'])).toEqual({ kind: 'help' })
    const text = usage()
    expect(text).toMatch(
      /^Usage: control-plane-emulator \[options\]\n +npm run emulator -- \[options\]/
    )
    for (const option of OPTIONS) expect(text).toContain(`--${option.name}`)
    expect(text).toContain('--base-path P')
    // The package ships no docs/: the manual is named by its address in the repository.
    expect(text).toContain(
      'https://github.com/control-plane-deploy/control-plane-deploy/blob/main/docs/emulator.md'
    )
    expect(text).not.toMatch(/\(see docs\//)
  })

  it('defaults: port 4010 on loopback, the interface dialect, both log paths; options override them', () => {
    expect(parseCli([])).toMatchObject({
      kind: 'run',
      port: 4010,
      host: '127.0.0.1',
      dialect: 'interface',
      logsApi: 'both',
      fixture: undefined
    })
    expect(parseCli(['--dialect', 'langsmith', '--base-path', '/api-host'])).toMatchObject({
      kind: 'run',
      dialect: 'langsmith',
      basePath: '/api-host'
    })
    expect(
      parseCli(['--speed', '1e6', '--allow-host', 'emu.test,10.0.0.2', '--pid-file', 'e.pid'])
    ).toMatchObject({
      kind: 'run',
      speed: 1e6,
      allowedHosts: ['emu.test', '10.0.0.2'],
      pidFile: 'e.pid'
    })
  })

  it.each([
    [['--colour'], "Unknown option '--colour'"],
    [['--port', 'x'], 'invalid --port x'],
    [['--port', '70000'], 'invalid --port 70000'],
    [['--speed', '0'], 'invalid --speed 0'],
    [['--speed', 'Infinity'], 'invalid --speed Infinity: give a finite number greater than 0'],
    [['--speed', 'NaN'], 'invalid --speed NaN'],
    [['--speed=-2'], 'invalid --speed -2'],
    [['--speed', '1e9'], 'invalid --speed 1e9'],
    [['--base-path', '/a/../b'], 'invalid --base-path /a/../b: it has a dot segment (..)'],
    [['--base-path', '/a/./b'], 'invalid --base-path /a/./b: it has a dot segment (.)'],
    [['--base-path', '/a//b'], 'invalid --base-path /a//b: it has an empty segment (//)'],
    [['--base-path', '/a b'], 'invalid --base-path /a b: use letters, digits'],
    [['--base-path', '/api?x=1'], 'invalid --base-path /api?x=1: use letters, digits'],
    [
      ['--allow-host', 'evil.example/x'],
      "invalid --allow-host: invalid allowed host 'evil.example/x'"
    ],
    [['--dialect', 'production'], 'invalid --dialect production: use interface or langsmith'],
    [['--logs-api', 'v3'], 'invalid --logs-api v3']
  ])('%j is refused: %s', (argv, message) => {
    const args = parseCli(argv)
    expect(args.kind).toBe('error')
    expect(args.kind === 'error' && args.message).toContain(message)
  })
})

describe('the process', () => {
  it('prints url, api-key, tenant-id and integration-id and serves them; --pid-file holds its pid while it serves, and a SIGINT to that pid stops it (exit 0, the file gone)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-pid-'))
    const pidFile = join(dir, 'emulator.pid')
    const { child, lines } = serve(['--pid-file', pidFile])
    try {
      const printed = await lines
      expect([...printed.keys()]).toEqual(['url', 'api-key', 'tenant-id', 'integration-id'])
      expect(printed.get('url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(printed.get('tenant-id')).toMatch(/^[0-9a-f-]{36}$/)
      const res = await fetch(
        `${printed.get('url')}/v1/integrations/forge/codehost/${printed.get('integration-id')}/repos`,
        {
          headers: {
            'X-Api-Key': printed.get('api-key')!,
            'X-Tenant-Id': printed.get('tenant-id')!
          }
        }
      )
      expect(res.status).toBe(200)
      const repos = (await res.json()) as Array<{ url: string; default_branch: string }>
      expect(repos).toContainEqual(
        expect.objectContaining({
          url: 'https://github.com/acme/agent-server',
          default_branch: 'main'
        })
      )
      // A DNS-rebinding page reaches it under its own name: refused, credentials included.
      const rebound = await new Promise<number>((resolve, reject) => {
        const url = new URL(printed.get('url')!)
        request(
          {
            host: url.hostname,
            port: url.port,
            path: '/_emulator/credentials',
            headers: { host: 'rebind.example' }
          },
          res => resolve(res.resume().statusCode!)
        )
          .on('error', reject)
          .end()
      })
      expect(rebound).toBe(421)
      expect(readFileSync(pidFile, 'utf8')).toBe(`${child.pid}\n`)
      const exited = once(child, 'exit')
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGINT')
      expect((await exited)[0]).toBe(0)
      expect(existsSync(pidFile)).toBe(false)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('--fixture, --base-path and --dialect langsmith: serves the production names there; exits 0 on SIGTERM', async () => {
    const { child, lines, stop } = serve([
      '--fixture',
      'fixtures/demo.json',
      '--dialect',
      'langsmith',
      '--base-path',
      '/api-host'
    ])
    try {
      const printed = await lines
      expect(printed.get('url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api-host$/)
      const repos = (kind: string) =>
        fetch(
          `${printed.get('url')}/v1/integrations/forge/${kind}/${printed.get('integration-id')}/repos`,
          { headers: { 'X-Api-Key': printed.get('api-key')! } }
        )
      expect((await repos('github')).status).toBe(200)
      expect((await repos('codehost')).status).toBe(404)
      expect(await stop('SIGTERM')).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })

  it('`npm run emulator &` then `kill $!`: npm stops, and the emulator with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-npm-'))
    const pidFile = join(dir, 'emulator.pid')
    const npm = spawn(
      'npm',
      ['run', '--silent', 'emulator', '--', '--port', '0', '--pid-file', pidFile],
      {
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    let emulatorPid: number | undefined
    try {
      await new Promise<void>((resolve, reject) => {
        npm.stdout.on('data', () => existsSync(pidFile) && resolve())
        npm.once('exit', code => reject(new Error(`npm exited early (${code})`)))
      })
      emulatorPid = Number(readFileSync(pidFile, 'utf8'))
      expect(emulatorPid).not.toBe(npm.pid)
      npm.kill('SIGTERM')
      await once(npm, 'exit')
      // The emulator notices that npm is gone and stops (no time bound: the machine may be slow).
      while (isAlive(emulatorPid)) await new Promise(r => setTimeout(r, 100))
      expect(existsSync(pidFile)).toBe(false)
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL')
      if (emulatorPid !== undefined && isAlive(emulatorPid)) process.kill(emulatorPid, 'SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('--help prints the usage and exits 0 without serving', async () => {
    const { code, stdout } = await runToEnd(['--help'])
    expect(code).toBe(0)
    expect(stdout).toBe(usage())
  })

  it('--version prints the version of the package it comes with and exits 0 without serving', async () => {
    expect(parseCli(['--version'])).toEqual({ kind: 'version' })
    const { code, stdout, stderr } = await runToEnd(['--version'])
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
  })

  it('a bad option exits 2, says what is wrong and points to --help', async () => {
    const { code, stdout, stderr } = await runToEnd(['--colour'])
    expect(code).toBe(2)
    expect(stderr).toContain("Unknown option '--colour'")
    expect(stderr).toContain('--help')
    expect(stdout).toBe('')
  })
})
