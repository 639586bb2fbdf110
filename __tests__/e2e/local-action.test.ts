// The bundle as GitHub's local runner (`npx @github/local-action run . dist/index.js .env`) uses
// it: imported, it runs nothing and exports `run()`; the importer's one call is the one run.
// Started by node, as the runner starts it, it runs once by itself.
import { expect } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runnerEnv } from '../../scripts/runner-env.ts'
import { bundlePath, e2e, NODE24, parseOutputs, uniqueName } from './harness.ts'

/**
 * Node 24 running `script` as an ES module in the runner's environment; its stdout and outputs.
 * `script` may wait for a line on stdin: `gate` is called when stdout first contains its `when`,
 * and the line is sent once it returns (to look at the emulator between two steps of the script).
 */
async function node(
  script: string,
  inputs: Record<string, string>,
  gate: { when: string; run: (stdout: string) => void }
) {
  const dir = mkdtempSync(join(tmpdir(), 'cpd-local-action-'))
  try {
    const env = runnerEnv(dir, inputs)
    const child = spawn(NODE24, ['--input-type=module', '-e', script], {
      env,
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    let opened = false
    const seen = (d: Buffer) => {
      stdout += d.toString()
      if (opened || !stdout.includes(gate.when)) return
      opened = true
      gate.run(stdout)
      child.stdin.end('go\n')
    }
    child.stdout.on('data', seen)
    child.stderr.on('data', seen)
    const code = await new Promise<number | null>(res => child.on('close', res))
    return { code, stdout, outputs: parseOutputs(readFileSync(env.GITHUB_OUTPUT!, 'utf8')) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

e2e('imported, the bundle runs nothing and exports run(); one call is one run', async t => {
  const url = pathToFileURL(await bundlePath()).href
  const inputs = t.inputs({ name: uniqueName('local') })
  // One process: imported, then (once the test has looked) its run() called.
  let imported = ''
  let writesWhenImported: unknown[] = ['not looked at']
  const called = await node(
    `const m = await import(${JSON.stringify(url)}); console.log('run is a ' + typeof m.run)
     await new Promise(res => process.stdin.once('data', res)); await m.run()`,
    inputs,
    {
      when: 'run is a ',
      run: stdout => {
        imported = stdout
        writesWhenImported = t.writes()
      }
    }
  )
  expect(imported).toBe('run is a function\n')
  expect(writesWhenImported).toEqual([])

  expect(called.code).toBe(0)
  expect(called.outputs['revision-status']).toBe('DEPLOYED')
  // One run: one create, one "Done" line (a run started by the import would make a second).
  expect(t.writes().filter(w => w.method === 'POST')).toHaveLength(1)
  expect(called.stdout.match(/^Done: /gm)).toHaveLength(1)
})
