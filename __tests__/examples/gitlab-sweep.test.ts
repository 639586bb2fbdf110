// examples/gitlab-sweep.yml, as GitLab and the CLI would read it: a scheduled job whose one command
// line the CLI accepts as a sweep of the review apps that gitlab-ci.yml deploys, with a dotenv
// report of the file the CLI writes.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseCommandLine } from '../../src/cli/flags.ts'
import { matchName, parseSweepNames } from '../../src/inputs/sweep-names.ts'

interface Job {
  script: string[]
  rules: { if: string }[]
  variables?: Record<string, string>
  artifacts?: { reports?: { dotenv?: string } }
}

const read = (file: string) =>
  readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8')
const job = (parseYaml(read('gitlab-sweep.yml')) as Record<string, Job>)['sweep-review-apps']!

test('a scheduled sweep of the review apps that gitlab-ci.yml deploys', () => {
  expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }])
  const [line, ...more] = job.script
  expect(more).toEqual([])
  // As the shell splits it: the single quotes keep `{pr}` one word.
  const words = line!.split(/\s+/).map(w => w.replace(/^'(.*)'$/, '$1'))
  const argv = words.slice(words.findIndex(w => w.startsWith('control-plane-deploy@')) + 1)
  const parsed = parseCommandLine(argv, {})
  if (parsed.kind !== 'run') throw new Error(JSON.stringify(parsed))
  expect(parsed.command).toBe('sweep')
  expect(parsed.outputFile).toBe(job.artifacts?.reports?.dotenv)
  expect(parsed.inputs['delete-tracing-project']).toBe('true')
  const pattern = parseSweepNames(parsed.inputs['sweep-names']!, () => undefined)!
  // The review app of merge request !12 in gitlab-ci.yml is `my-agent-mr-$CI_MERGE_REQUEST_IID`.
  expect(read('gitlab-ci.yml')).toContain('--name my-agent-mr-$CI_MERGE_REQUEST_IID')
  expect(matchName(pattern, 'my-agent-mr-12')).toEqual({ pr: 12 })
  expect(matchName(pattern, 'my-agent')).toBeUndefined()
})
