// `npm run demo`: the main job on the local emulator. Starts the control plane emulator with its
// demo fixture, then runs the committed bundle exactly as the runner would (clean environment,
// INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, a push event): first run creates
// the deployment, second run takes the update path.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startEmulator } from '../src/emulator/server.ts'
import { PUSH_MAIN, parseOutputs, runnerEnv, runnerFiles } from './runner.ts'

const root = resolve(import.meta.dirname, '..')
const bundle = join(root, 'dist/index.js')

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
  const env = runnerEnv(dir, inputs, {
    ...PUSH_MAIN,
    payload: {
      ref: PUSH_MAIN.ref,
      after: PUSH_MAIN.sha,
      repository: { full_name: 'acme/agent-server' }
    }
  })
  const files = runnerFiles(dir)
  const child = spawn(process.execPath, [bundle], { env, stdio: ['ignore', 'inherit', 'inherit'] })
  const code = await new Promise<number | null>(res => child.on('close', res))
  console.log(`\nexit code ${code}\n\nOutputs (GITHUB_OUTPUT):`)
  for (const [k, v] of Object.entries(parseOutputs(readFileSync(files.output, 'utf8'))))
    console.log(`  ${k}=${v}`)
  console.log('\nJob summary (GITHUB_STEP_SUMMARY):\n')
  console.log(readFileSync(files.summary, 'utf8'))
  rmSync(dir, { recursive: true, force: true })
  return code
}
