// Which variable the CI's default ref was read from, so that a refused ref names it
// (`BUILDKITE_BRANCH`), as ci.ts reads them: tag, pull request branch, branch, per CI.
const REF_VARIABLES = [
  'GITHUB_HEAD_REF',
  'GITHUB_REF_NAME',
  'GITHUB_REF',
  'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME',
  'CI_COMMIT_TAG',
  'CI_COMMIT_BRANCH',
  'CI_COMMIT_REF_NAME',
  'BITBUCKET_TAG',
  'BITBUCKET_BRANCH',
  'CIRCLE_TAG',
  'CIRCLE_BRANCH',
  'BUILDKITE_TAG',
  'BUILDKITE_BRANCH',
  'TAG_NAME',
  'CHANGE_BRANCH',
  'BRANCH_NAME',
  'GIT_BRANCH',
  'SYSTEM_PULLREQUEST_SOURCEBRANCH',
  'BUILD_SOURCEBRANCH',
  'TRAVIS_TAG',
  'TRAVIS_PULL_REQUEST_BRANCH',
  'TRAVIS_BRANCH'
]

/** The variable whose value is `ref` (as ci.ts reads it); the git checkout when none is set. */
export function refOrigin(env: NodeJS.ProcessEnv, ref: string | undefined): string | undefined {
  if (ref === undefined) return undefined
  const set = REF_VARIABLES.filter(k => (env[k] ?? '').trim() !== '')
  const reads = (v: string) =>
    [v, `refs/tags/${v}`, v.replace(/^(?:refs\/heads\/|origin\/)/, '')].includes(ref)
  return set.find(k => reads(env[k]!.trim())) ?? (set.length === 0 ? 'the git checkout' : undefined)
}
