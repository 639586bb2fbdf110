// A fork's pull request build, as Azure Pipelines and Travis CI say it in their variables: for the
// CLI's unit tests of ci.ts and the packed CLI's refusal of an upload.
export const AZURE_FORK = {
  TF_BUILD: 'True',
  BUILD_SOURCEBRANCH: 'refs/pull/7/merge',
  SYSTEM_PULLREQUEST_PULLREQUESTNUMBER: '7',
  SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/main',
  SYSTEM_PULLREQUEST_ISFORK: 'True',
  SYSTEM_PULLREQUEST_SOURCEREPOSITORYURI: 'https://github.com/mallory/agent.git'
}

export const TRAVIS_FORK = {
  TRAVIS: 'true',
  TRAVIS_PULL_REQUEST: '8',
  TRAVIS_BRANCH: 'main',
  TRAVIS_PULL_REQUEST_BRANCH: 'main',
  TRAVIS_REPO_SLUG: 'acme/agent',
  TRAVIS_PULL_REQUEST_SLUG: 'mallory/agent'
}
