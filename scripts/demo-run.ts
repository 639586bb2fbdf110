// One step of a demo: the committed bundle run as the runner would run it (see runner.ts), its
// log streamed to this terminal, then its exit code, outputs and job summary printed.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseOutputs, runnerEnv, runnerFiles, type GitHubEvent } from './runner-env.ts'

const bundle = join(resolve(import.meta.dirname, '..'), 'dist/index.js')

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
