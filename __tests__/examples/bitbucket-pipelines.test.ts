// examples/bitbucket-pipelines.yml, as Bitbucket and the CLI would read it: the deploy command
// line is one the CLI accepts, deploys by upload, and keeps its outputs as an artifact.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseCommandLine } from '../../src/cli/flags.ts'
import { argvOf, cliLines, RELEASE_TARBALL } from './example-cli.ts'

interface Step {
  step: { name: string; deployment?: string; script: string[]; artifacts?: string[] }
}
const text = readFileSync(
  new URL('../../examples/bitbucket-pipelines.yml', import.meta.url),
  'utf8'
)
const pipeline = parseYaml(text) as { pipelines: { branches: Record<string, Step[]> } }

test('main deploys by upload, with a dotenv file of the outputs as an artifact', () => {
  const [deploy] = pipeline.pipelines.branches.main!
  // The CLI comes from the GitHub release of this version, its packed package attached.
  expect(deploy!.step.script).toContain(`export DEPLOY_CLI=${RELEASE_TARBALL}`)
  const lines = cliLines(deploy!.step.script)
  expect(lines).toHaveLength(1)
  const argv = argvOf(lines[0]!)
  const line = parseCommandLine(argv, {})
  if (line.kind !== 'run') throw new Error(`the CLI refuses ${argv.join(' ')}`)
  expect(line.command).toBe('deploy')
  expect(line.inputs.source).toBe('internal_source')
  expect(line.inputs['integration-id']).toBe('')
  expect(deploy!.step.artifacts).toContain(line.outputFile)
  expect(deploy!.step.deployment).toBe('production')
})
