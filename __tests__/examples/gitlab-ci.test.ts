import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseCommandLine } from '../../src/cli/flags.ts'
import { INPUTS } from '../../src/inputs/table.ts'
import { argvOf, cliLines, RELEASE_TARBALL } from './example-cli.ts'
import { dotenvName } from '../../src/cli/outputs.ts'
import { matchName, parseSweepNames } from '../../src/inputs/sweep-names.ts'

// examples/gitlab-ci.yml, as GitLab and the CLI would read it: every command line is one the CLI
// accepts, with names the action accepts; the review app's stop job deletes what its job deploys;
// the dotenv report is the file the CLI writes.

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

// examples/gitlab-promote.yml, as GitLab and the CLI would read it: a staging job that deploys by
// upload and reports its source digest and revision in a dotenv file, and a manual promote job
// after it whose command line the CLI accepts as a promotion of that revision, pinned to that
// digest. packed-gitlab-ci-local.test.ts runs it under gitlab-ci-local.
describe('gitlab-promote', () => {
  interface Job {
    script: string[]
    rules: { if: string; when?: string }[]
    needs?: string[]
    artifacts?: { reports?: { dotenv?: string } }
  }

  const pipeline = parseYaml(
    readFileSync(new URL('../../examples/gitlab-promote.yml', import.meta.url), 'utf8')
  ) as Record<string, Job> & { variables: Record<string, string> }

  /** The one CLI command of a job, as the CLI parses it (`$SOURCE_DIGEST` as GitLab expands it). */
  function commandOf(job: Job, env: Record<string, string> = {}) {
    const lines = cliLines(job.script)
    expect(lines).toHaveLength(1)
    const argv = argvOf(lines[0]!).map(w =>
      w.replace(/^"\$([A-Z_]+)"$/, (_, name: string) => env[name] ?? '')
    )
    const parsed = parseCommandLine(argv, {})
    if (parsed.kind !== 'run') throw new Error(JSON.stringify(parsed))
    return parsed
  }

  test('staging deploys by upload and hands its source digest on; a manual job promotes it', () => {
    expect(pipeline.variables).toMatchObject({
      CONTROL_PLANE_SOURCE: 'internal_source',
      DEPLOY_CLI: RELEASE_TARBALL
    })
    const staging = commandOf(pipeline.staging!)
    expect(staging.inputs).toMatchObject({
      name: 'my-agent-staging',
      'deployment-type': 'serverless',
      'smoke-test': 'smoke.yaml'
    })
    expect(staging.outputFile).toBe(pipeline.staging!.artifacts?.reports?.dotenv)
    // The staging job's dotenv report names the digest as the promote job reads it.
    expect(dotenvName('source-digest')).toBe('SOURCE_DIGEST')

    const job = pipeline.promote!
    expect(job.needs).toEqual(['staging'])
    expect(job.rules[0]!.when).toBe('manual')
    const digest = `sha256:${'a'.repeat(64)}`
    const revision = '0b9d6a8e-3c1f-4f5e-9a2b-7d4c6e8f1a3b'
    const promote = commandOf(job, { SOURCE_DIGEST: digest, REVISION_ID: revision })
    // The staging job's revision, exactly: a staging deployed again since is refused.
    expect(dotenvName('revision-id')).toBe('REVISION_ID')
    expect(promote.inputs).toMatchObject({
      name: 'my-agent',
      'promote-from': 'my-agent-staging',
      'promote-revision-id': revision,
      'expected-source-digest': digest,
      'on-failure': 'rollback',
      // Production is created dedicated, and staging's smoke cases verify staging before the write.
      'deployment-type': 'dedicated',
      'smoke-test': staging.inputs['smoke-test']
    })
  })
})

// examples/gitlab-sweep.yml, as GitLab and the CLI would read it: a scheduled job that builds the
// CLI from a clone (nothing is installed from npm: no version is published), then one command line
// the CLI accepts as a sweep of the review apps that gitlab-ci.yml deploys, with a dotenv report
// of the file the CLI writes.
describe('gitlab-sweep', () => {
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
})
