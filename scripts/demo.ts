// `npm run demo`: the main job on the local emulator. Starts the control plane emulator with its
// demo fixture, then runs the committed bundle exactly as the runner would (clean environment,
// INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, a push event): first run creates
// the deployment, second run takes the update path.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startEmulator } from '../src/emulator/server.ts'

const root = resolve(import.meta.dirname, '..')
const bundle = join(root, 'dist/index.js')
const sha = '9f1c2e7a4b8d3f6e0a5c1b9d7e2f4a6c8b0d3e5f'

const emulator = await startEmulator({ port: 0 })
const { apiKey, tenantId, integrationId } = emulator.credentials()
console.log(`Emulator: ${emulator.url} (tenant ${tenantId}, integration ${integrationId})\n`)

let failed = false
try {
  for (const [title, name] of [
    ['Run 1: push to main, the deployment does not exist yet', 'agent-server-demo'],
    ['Run 2: the next push, the same deployment is updated', 'agent-server-demo']
  ] as const) {
    console.log(`━━━ ${title} ━━━`)
    const code = await runBundle({
      'api-key': apiKey,
      'base-url': emulator.url,
      'tenant-id': tenantId,
      'integration-id': integrationId ?? '',
      name,
      secrets: 'OPENAI_API_KEY=sk-demo-0000000000000000',
      'poll-interval': '5s'
    })
    if (code !== 0) failed = true
    console.log()
  }
  const requests = emulator.requests()
  console.log(`The emulator received ${requests.length} requests in all:`)
  for (const r of requests) console.log(`  ${r.status ?? '---'} ${r.method} ${r.path}`)
} finally {
  await emulator.close()
}
process.exitCode = failed ? 1 : 0

async function runBundle(inputs: Record<string, string>): Promise<number | null> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-demo-'))
  const files = {
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_EVENT_PATH: join(dir, 'event.json')
  }
  writeFileSync(files.GITHUB_OUTPUT, '')
  writeFileSync(files.GITHUB_STEP_SUMMARY, '')
  writeFileSync(
    files.GITHUB_EVENT_PATH,
    JSON.stringify({
      ref: 'refs/heads/main',
      after: sha,
      repository: { full_name: 'acme/agent-server' }
    })
  )
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_REF_NAME: 'main',
    GITHUB_SHA: sha,
    GITHUB_REPOSITORY: 'acme/agent-server',
    RUNNER_TEMP: dir,
    ...files
  }
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v

  const child = spawn(process.execPath, [bundle], { env, stdio: ['ignore', 'inherit', 'inherit'] })
  const code = await new Promise<number | null>(res => child.on('close', res))
  console.log(`\nexit code ${code}\n\nOutputs (GITHUB_OUTPUT):`)
  const out = readFileSync(files.GITHUB_OUTPUT, 'utf8')
  for (const m of out.matchAll(/^([^<\n]+)<<(\S+)\n([\s\S]*?)\n\2$/gm))
    console.log(`  ${m[1]}=${m[3]}`)
  console.log('\nJob summary (GITHUB_STEP_SUMMARY):\n')
  console.log(readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'))
  rmSync(dir, { recursive: true, force: true })
  return code
}
