// A GitHub workflow's job run as a user runs it on their machine: the action's step of the job
// through GitHub's local-action (`npx @github/local-action run . <bundle> <env file>`), its inputs
// as the workflow writes them, with the `${{ }}` expressions the runner would evaluate given here
// (secrets, variables, needs), written to the env file as INPUT_<NAME> lines with the runner's
// GITHUB_* variables. The bundle carries its own @actions/core, so outputs are read back from the
// GITHUB_OUTPUT file the env file names, as on a runner.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { parseOutputs } from '../../scripts/runner-env.ts'
import { bundlePath, NODE24, ROOT } from '../e2e/harness.ts'

interface Step {
  id?: string
  uses?: string
  with?: Record<string, string | boolean | number>
}
export interface Job {
  needs?: string | string[]
  outputs?: Record<string, string>
  steps: Step[]
}

/** The jobs of examples/<file>. */
export function workflowJobs(file: string): Record<string, Job> {
  const text = readFileSync(join(ROOT, 'examples', file), 'utf8')
  return (parseYaml(text) as { jobs: Record<string, Job> }).jobs
}

/** `text` with each `${{ expr }}` replaced by `context[expr]`; an unknown one is an error. */
export function evaluate(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const value = context[expr]
    if (value === undefined) throw new Error(`no value for \${{ ${expr} }} in "${text}"`)
    return value
  })
}

const isAction = (s: Step) => s.uses?.startsWith('control-plane-deploy/control-plane-deploy@')

/** The action's step of `job`: its id and its inputs as the runner passes them. */
export function actionStep(job: Job, context: Record<string, string>) {
  const steps = job.steps.filter(isAction)
  if (steps.length !== 1) throw new Error(`the job has ${steps.length} steps of the action`)
  const step = steps[0]!
  const inputs = Object.fromEntries(
    Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(String(v), context)])
  )
  return { id: step.id, inputs }
}

/** The job's outputs from its steps' outputs (`steps.<id>.outputs.<name>`). */
export function jobOutputs(
  job: Job,
  stepId: string | undefined,
  outputs: Record<string, string>
): Record<string, string> {
  const context = Object.fromEntries(
    Object.entries(outputs).map(([k, v]) => [`steps.${stepId}.outputs.${k}`, v])
  )
  return Object.fromEntries(
    Object.entries(job.outputs ?? {}).map(([k, v]) => [k, evaluate(v, context)])
  )
}

export interface LocalRun {
  code: number | null
  stdout: string
  outputs: Record<string, string>
  /** The `::error` lines. */
  errors: string[]
}

/** One value of the env file: single-quoted, so that dotenv reads it as written. */
function envLine(name: string, value: string): string {
  if (/['\n]/.test(value)) throw new Error(`${name}: a value with a quote or a newline`)
  return `${name}='${value}'`
}

/**
 * `npx @github/local-action run <repo> <bundle> <env file>` from the repository (local-action
 * looks up @actions/* there), on Node 24, with `inputs` and the runner variables `env` in the env
 * file and nothing else from this process's environment.
 */
export async function localAction(
  inputs: Record<string, string>,
  env: Record<string, string>
): Promise<LocalRun> {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-local-action-'))
  try {
    const output = join(dir, 'output')
    writeFileSync(output, '')
    writeFileSync(join(dir, 'summary'), '')
    const lines = [
      ...Object.entries(inputs).map(([k, v]) => envLine(`INPUT_${k.toUpperCase()}`, v)),
      ...Object.entries({
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        RUNNER_TEMP: dir,
        ...env
      }).map(([k, v]) => envLine(k, v))
    ]
    writeFileSync(join(dir, '.env'), lines.join('\n') + '\n')
    const bin = join(ROOT, 'node_modules/@github/local-action/bin/local-action.js')
    const child = spawn(NODE24, [bin, 'run', ROOT, await bundlePath(), join(dir, '.env')], {
      cwd: ROOT,
      // local-action runs `npm exec tsx`: npm and tsx on the same Node 24.
      env: { PATH: `${dirname(NODE24)}:${process.env.PATH ?? ''}`, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()))
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    const code = await new Promise<number | null>(res => child.on('close', res))
    clearTimeout(killer)
    return {
      code,
      stdout,
      outputs: parseOutputs(readFileSync(output, 'utf8')),
      errors: stdout.split('\n').filter(l => l.startsWith('::error'))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
