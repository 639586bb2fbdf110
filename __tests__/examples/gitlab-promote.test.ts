// examples/gitlab-promote.yml, as GitLab and the CLI would read it: a staging job that deploys by
// upload and reports its source digest and revision in a dotenv file, and a manual promote job
// after it whose command line the CLI accepts as a promotion of that revision, pinned to that
// digest. packed-gitlab-ci-local.test.ts runs it under gitlab-ci-local.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseCommandLine } from '../../src/cli/flags.ts'
import { dotenvName } from '../../src/cli/outputs.ts'
import { argvOf, cliLines, RELEASE_TARBALL } from './example-cli.ts'

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
