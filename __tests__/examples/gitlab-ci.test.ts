// examples/gitlab-ci.yml, as GitLab and the CLI would read it: every command line is one the CLI
// accepts, with names the action accepts; the review app's stop job deletes what its job deploys;
// the dotenv report is the file the CLI writes.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseCommandLine } from '../../src/cli/flags.ts'
import { INPUTS } from '../../src/inputs/table.ts'
import { argvOf, cliLines, RELEASE_TARBALL } from './example-cli.ts'

interface Job {
  script?: string[]
  rules?: { if?: string; when?: string }[]
  variables?: Record<string, string>
  environment?: { name: string; on_stop?: string; action?: string }
  artifacts?: { reports?: { dotenv?: string } }
}

const text = readFileSync(new URL('../../examples/gitlab-ci.yml', import.meta.url), 'utf8')
const pipeline = parseYaml(text) as Record<string, Job> & { variables: Record<string, string> }
/** The variables of a merge request pipeline, for the command lines. */
const CI = { CI_MERGE_REQUEST_IID: '12', CI_DEFAULT_BRANCH: 'main' }

/** Each CLI line of a job, with its variables filled in, as argv. */
function commandLines(job: Job): string[][] {
  return cliLines(job.script ?? []).map(line =>
    argvOf(line.replace(/\$(\w+)/g, (_, name: string) => CI[name as keyof typeof CI] ?? `$${name}`))
  )
}

test('the CLI comes from the GitHub release of this version, its packed package attached', () => {
  expect(pipeline.variables.DEPLOY_CLI).toBe(RELEASE_TARBALL)
  const jobs = Object.values(pipeline).filter(j => Array.isArray((j as Job).script)) as Job[]
  expect(jobs.flatMap(j => cliLines(j.script!))).toHaveLength(3)
  // No line runs the CLI any other way (an npm spec that may not be published yet).
  expect(jobs.flatMap(j => j.script!).filter(l => l.includes('control-plane-deploy'))).toEqual([])
})

function run(job: Job) {
  const [argv, ...more] = commandLines(job)
  expect(more).toEqual([])
  const line = parseCommandLine(argv!, pipeline.variables)
  if (line.kind !== 'run')
    throw new Error(`the CLI refuses ${argv!.join(' ')}: ${JSON.stringify(line)}`)
  const problems: string[] = []
  INPUTS.name.check(line.inputs.name!, (m: string) => void problems.push(m))
  expect(problems).toEqual([])
  return line
}

test('the default branch deploys with a dotenv report of the outputs', () => {
  const deploy = run(pipeline.deploy!)
  expect(deploy.command).toBe('deploy')
  expect(deploy.inputs.source).toBe('internal_source')
  expect(deploy.inputs.repository).toBe('')
  expect(deploy.outputFile).toBe(pipeline.deploy!.artifacts?.reports?.dotenv)
  expect(pipeline.deploy!.rules?.[0]?.if).toBe('$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH')
})

test('a review app per merge request, deleted by its stop job', () => {
  const review = pipeline.review!
  const up = run(review)
  expect(up.inputs.name).toBe('my-agent-mr-12')
  expect(up.outputFile).toBe(review.artifacts?.reports?.dotenv)
  const stop = pipeline[review.environment!.on_stop!]!
  expect(stop.environment).toEqual({ name: review.environment!.name, action: 'stop' })
  const down = run(stop)
  expect([down.command, down.inputs.name]).toEqual(['delete', up.inputs.name])
  // With its tracing project, so that a merge request reopened later can deploy the name again.
  expect(down.inputs['delete-tracing-project']).toBe('true')
  expect(stop.variables?.GIT_STRATEGY).toBe('none')
  expect(stop.rules?.[0]).toEqual({ if: review.rules?.[0]?.if, when: 'manual' })
})
