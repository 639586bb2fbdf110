// `npm run emulator` (src/emulator/cli.ts): prints the four lines, serves, stops on SIGINT.
import { expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { once } from 'node:events'
import { OPTIONS } from '../../src/emulator/cli-options.ts'

const localNode = 'node_modules/.bin/node'
const node = existsSync(localNode) ? localNode : process.execPath

function runCli(args: string[]) {
  const child = spawn(node, ['src/emulator/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const lines = new Promise<string[]>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const all = out.split('\n').filter(Boolean)
      if (all.length >= 4) resolve(all)
    })
    child.once('exit', code => reject(new Error(`exited early (${code}): ${out}`)))
  })
  return { child, lines }
}

it('prints url, api-key, tenant-id and integration-id, serves them, and exits 0 on SIGINT', async () => {
  const { child, lines } = runCli(['--port', '0'])
  try {
    const printed = await lines
    expect(printed.map(l => l.split(': ')[0])).toEqual([
      'url',
      'api-key',
      'tenant-id',
      'integration-id'
    ])
    const get = (name: string) =>
      printed.find(l => l.startsWith(`${name}: `))!.slice(name.length + 2)
    expect(get('url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(get('tenant-id')).toMatch(/^[0-9a-f-]{36}$/)
    const res = await fetch(
      `${get('url')}/v1/integrations/forge/codehost/${get('integration-id')}/repos`,
      {
        headers: { 'X-Api-Key': get('api-key'), 'X-Tenant-Id': get('tenant-id') }
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
    const exited = once(child, 'exit')
    child.kill('SIGINT')
    const [code] = await exited
    expect(code).toBe(0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
})

it('loads --fixture and rejects a bad --port', async () => {
  const { child, lines } = runCli([
    '--port',
    '0',
    '--fixture',
    'fixtures/demo.json',
    '--base-path',
    '/api-host'
  ])
  try {
    const printed = await lines
    expect(printed[0]).toMatch(/^url: http:\/\/127\.0\.0\.1:\d+\/api-host$/)
  } finally {
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    expect((await exited)[0]).toBe(0)
  }
  const bad = spawn(node, ['src/emulator/cli.ts', '--port', 'x'])
  const [code] = await once(bad, 'exit')
  expect(code).toBe(2)
})

async function runToEnd(args: string[]) {
  const child = spawn(node, ['src/emulator/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const [code] = await once(child, 'exit')
  return { code, stdout, stderr }
}

it('--help (and -h) prints usage naming every option, and exits 0 without serving', async () => {
  for (const flag of ['--help', '-h']) {
    const { code, stdout } = await runToEnd([flag])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: npm run emulator -- \[options\]/)
    for (const option of OPTIONS) expect(stdout).toContain(`--${option.name}`)
    expect(stdout).toContain('--base-path P')
    expect(stdout).not.toContain('url: ')
  }
})

it('an unknown option exits 2 and points to --help', async () => {
  const { code, stderr } = await runToEnd(['--colour'])
  expect(code).toBe(2)
  expect(stderr).toContain("Unknown option '--colour'")
  expect(stderr).toContain('--help')
})

it('--dialect langsmith serves the production names; a bad --dialect exits 2', async () => {
  const { child, lines } = runCli([
    '--port',
    '0',
    '--dialect',
    'langsmith',
    '--base-path',
    '/api-host'
  ])
  try {
    const printed = await lines
    const get = (name: string) =>
      printed.find(l => l.startsWith(`${name}: `))!.slice(name.length + 2)
    const headers = { 'X-Api-Key': get('api-key') }
    const repos = (kind: string) =>
      fetch(`${get('url')}/v1/integrations/forge/${kind}/${get('integration-id')}/repos`, {
        headers
      })
    expect((await repos('github')).status).toBe(200)
    expect((await repos('codehost')).status).toBe(404)
  } finally {
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    expect((await exited)[0]).toBe(0)
  }
  const bad = await runToEnd(['--dialect', 'production'])
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('invalid --dialect production')
})
