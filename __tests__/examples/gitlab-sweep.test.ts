// examples/gitlab-sweep.yml, as GitLab and the CLI would read it: a scheduled job that builds the
// CLI from a clone (nothing is installed from npm: no version is published), then one command line
// the CLI accepts as a sweep of the review apps that gitlab-ci.yml deploys, with a dotenv report
// of the file the CLI writes.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseCommandLine } from '../../src/cli/flags.ts'
import { matchName, parseSweepNames } from '../../src/inputs/sweep-names.ts'

interface Job {
  image: string
  script: string[]
  rules: { if: string }[]
  variables?: Record<string, string>
  artifacts?: { reports?: { dotenv?: string } }
}

const read = (file: string) =>
  readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8')
const job = (parseYaml(read('gitlab-sweep.yml')) as Record<string, Job>)['sweep-review-apps']!
const CLI = 'node /tmp/cpd/bin/cli.js '

test('the CLI is built from a clone of its repository, never installed from npm', () => {
  const [clone, build, sweep, ...more] = job.script
  expect(more).toEqual([])
  expect(clone).toMatch(
    /^git init --quiet \/tmp\/cpd && git -C \/tmp\/cpd fetch --quiet --depth 1 "\$DEPLOY_CLI_REPO" "\$DEPLOY_CLI_REF"\s+&& git -C \/tmp\/cpd checkout --quiet FETCH_HEAD$/
  )
  expect(job.variables?.DEPLOY_CLI_REPO).toBe(
    'https://github.com/control-plane-deploy/control-plane-deploy.git'
  )
  // As docs/cli.md says for a clone: `npm run build:bin && node bin/cli.js ...`, after `npm ci`.
  expect(build).toBe(
    'npm ci --prefix /tmp/cpd --no-audit --no-fund && npm run --prefix /tmp/cpd build:bin'
  )
  expect(read('../docs/cli.md')).toContain('`npm run build:bin && node bin/cli.js deploy ...`')
  expect(sweep!.startsWith(CLI)).toBe(true)
  expect(job.image).toMatch(/^node:24( |$)/)
  for (const line of job.script)
    expect(line).not.toMatch(/npx|npm (install|i) |control-plane-deploy@/)
})

test('a scheduled sweep of the review apps that gitlab-ci.yml deploys', () => {
  expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }])
  const line = job.script.find(l => l.startsWith(CLI))!
  // As the shell splits it: the single quotes keep `{pr}` one word.
  const argv = line
    .slice(CLI.length)
    .split(/\s+/)
    .map(w => w.replace(/^'(.*)'$/, '$1'))
  const parsed = parseCommandLine(argv, {})
  if (parsed.kind !== 'run') throw new Error(JSON.stringify(parsed))
  expect(parsed.command).toBe('sweep')
  expect(parsed.outputFile).toBe(job.artifacts?.reports?.dotenv)
  expect(parsed.inputs['delete-tracing-project']).toBe('true')
  expect(parsed.inputs['sweep-max-age']).toBe('14d')
  const pattern = parseSweepNames(parsed.inputs['sweep-names']!, () => undefined)!
  // The review app of merge request !12 in gitlab-ci.yml is `my-agent-mr-$CI_MERGE_REQUEST_IID`.
  expect(read('gitlab-ci.yml')).toContain('--name my-agent-mr-$CI_MERGE_REQUEST_IID')
  expect(matchName(pattern, 'my-agent-mr-12')).toEqual({ pr: 12 })
  expect(matchName(pattern, 'my-agent')).toBeUndefined()
})
