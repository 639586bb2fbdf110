// One step of a demo: the committed bundle run as the runner would run it (see runner-env.ts), its
// log streamed to this terminal, then its exit code, outputs and job summary printed.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseOutputs, runnerEnv, runnerFiles, type GitHubEvent } from './runner-env.ts'

const root = resolve(import.meta.dirname, '..')
const bundle = join(root, 'dist/index.js')
/** The CLI from its sources, as Node 24 runs them (its bundle is built only when packing). */
const cliEntry = join(root, 'src/cli/index.ts')

export interface StepResult {
  code: number | null
  outputs: Record<string, string>
  summary: string
}

/** Runs the bundle with these inputs on this event; `env` adds variables (e.g. GITHUB_API_URL). */
export async function runStep(
  inputs: Record<string, string>,
  event: GitHubEvent,
  env: Record<string, string> = {}
): Promise<StepResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-demo-'))
  try {
    const stepEnv = { ...runnerEnv(dir, inputs, event), ...env }
    const child = spawn(process.execPath, [bundle], {
      env: stepEnv,
      stdio: ['ignore', 'inherit', 'inherit']
    })
    const code = await new Promise<number | null>(res => child.on('close', res))
    const files = runnerFiles(dir)
    return {
      code,
      outputs: parseOutputs(readFileSync(files.output, 'utf8')),
      summary: readFileSync(files.summary, 'utf8')
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printStep(r: StepResult): void {
  console.log(`\nexit code ${r.code}\n\nOutputs (GITHUB_OUTPUT):`)
  for (const [k, v] of Object.entries(r.outputs)) console.log(`  ${k}=${v}`)
  console.log('\nJob summary (GITHUB_STEP_SUMMARY):\n')
  console.log(r.summary)
}

/**
 * Runs the CLI with `args` and only `env` (and PATH) in its environment: its log (stderr) and
 * outputs (stdout) go to this terminal as they come. Returns the exit code.
 */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  cwd?: string
): Promise<number | null> {
  console.log(`$ control-plane-deploy ${args.join(' ')}\n`)
  const child = spawn(process.execPath, [cliEntry, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    ...(cwd ? { cwd } : {}),
    stdio: ['ignore', 'inherit', 'inherit']
  })
  const code = await new Promise<number | null>(res => child.on('close', res))
  console.log(`\nexit code ${code}`)
  return code
}
